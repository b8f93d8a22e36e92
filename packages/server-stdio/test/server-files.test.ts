// The server's own files are no tool's files (docs/agent-tools.md): the data folder, the tokens, secrets and config files are refused to every file-reading tool, inside --file-root too, exactly as a missing file is.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, startCli } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';

const ALICE = 'alice-token-7c2e9a1f';
const BOB = 'bob-token-3d8b6f0e52';

let dir: string;
let dataDir: string;
let server: HttpCli;
let fixture: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  // One folder is --file-root and holds everything the server keeps: its data folder and its settings files.
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-server-files-'));
  dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  writeFileSync(path.join(dir, 'tokens'), `alice ${ALICE}\nbob ${BOB}\n`);
  writeFileSync(path.join(dir, 'secrets.env'), 'API_KEY=sk-live-0123456789abcdef\n');
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ maxTabs: 5 }));
  writeFileSync(path.join(dir, 'public.txt'), 'anyone may upload this');
  fixture = await startFixtureServer();
  server = await startHttpCli([
    '--auth-tokens-file',
    path.join(dir, 'tokens'),
    '--data-dir',
    dataDir,
    '--secrets',
    path.join(dir, 'secrets.env'),
    '--config',
    path.join(dir, 'config.json'),
    '--file-root',
    dir,
    '--caps',
    'storage,states',
  ]);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await server?.stop();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function as(token: string): Promise<Client> {
  const { client } = await connectStreamable(server.base, { Authorization: `Bearer ${token}` });
  clients.push(client);
  return client;
}

/** Every file under `folder`. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(folder, name))
    .filter((file) => statSync(file).isFile());
}

/** An error's JSON with the name the caller gave left out, to compare the answers for different names. */
function shape(json: { message: string; details?: unknown }, name: string) {
  return { ...json, message: json.message.replace(name, '<name>'), details: { ...(json.details as object), path: undefined } };
}

describe("the server's own files", () => {
  it('are refused to upload_file and load_storage_state inside --file-root, as a missing file is', async () => {
    const alice = await as(ALICE);
    const aliceSession = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'navigate', { sessionId: aliceSession, url: fixture.urlFor('/pages/home') }));
    expectSuccess(await call(alice, 'save_state', { sessionId: aliceSession, name: 'signed-in' }));
    const kept = filesUnder(dataDir);
    // The key file and alice's sealed state are there to be asked for.
    expect(kept.map((file) => path.basename(file))).toContain('state.key');
    expect(kept.length).toBeGreaterThanOrEqual(2);

    const bob = await as(BOB);
    const sessionId = expectSuccess(await call(bob, 'create_session')).sessionId as string;
    expectSuccess(await call(bob, 'navigate', { sessionId, url: fixture.urlFor('/pages/upload') }));
    const upload = (file: string) => call(bob, 'upload_file', { sessionId, selector: '#single', files: [{ path: file }] });
    // An ordinary file of --file-root is read; a missing one sets the answer the server's own files must get.
    expect(expectSuccess(await upload('public.txt')).files).toEqual([{ name: 'public.txt', bytes: 22 }]);
    const missing = expectError(await upload('nothing-here.txt'), 'INVALID_PARAMETERS', sessionId);
    const missingState = expectError(await call(bob, 'load_storage_state', { sessionId, filename: 'nothing-here.txt' }), 'INVALID_PARAMETERS', sessionId);
    const own = [...kept, path.join(dir, 'tokens'), path.join(dir, 'secrets.env'), path.join(dir, 'config.json')];
    const names = [...own, ...own.map((file) => path.relative(dir, file)), 'data/../tokens'];
    for (const name of names) {
      expect(shape(expectError(await upload(name), 'INVALID_PARAMETERS', sessionId), name), name).toEqual(shape(missing, 'nothing-here.txt'));
      const state = expectError(await call(bob, 'load_storage_state', { sessionId, filename: name }), 'INVALID_PARAMETERS', sessionId);
      expect(shape(state, name), name).toEqual(shape(missingState, 'nothing-here.txt'));
    }
    // The page got nothing, and bob's session goes on.
    expect(expectSuccess(await call(bob, 'evaluate', { sessionId, function: "() => document.querySelector('#single').files.length" })).result).toBe(1);
    // alice herself gets no more of them than bob.
    const hers = expectError(
      await call(alice, 'load_storage_state', { sessionId: aliceSession, filename: path.join(dir, 'tokens') }),
      'INVALID_PARAMETERS',
      aliceSession,
    );
    expect(hers.details.reason).toBe(missingState.details.reason);
  });
});

describe('the playwright profile', () => {
  it('refuses the config file inside --file-root to browser_file_upload, as a missing file, and to file: URLs', async () => {
    const config = path.join(dir, 'pw-config.json');
    writeFileSync(config, JSON.stringify({ browser: { launchOptions: { headless: true } } }));
    const { client, close } = await startCli(['--profile', 'playwright', '--config', config, '--data-dir', dataDir, '--file-root', dir, '--allow-file-urls']);
    try {
      // file: URLs open the disk to the browser (--allow-file-urls), but not the server's own files by name.
      const opened = expectError(await call(client, 'browser_navigate', { url: pathToFileURL(config).href }), 'INVALID_PARAMETERS');
      expect(opened.details.reason).toBe('server_file');
      expectError(await call(client, 'browser_navigate', { url: pathToFileURL(path.join(dataDir, 'state.key')).href }), 'INVALID_PARAMETERS');
      expect(expectSuccess(await call(client, 'browser_navigate', { url: pathToFileURL(path.join(dir, 'public.txt')).href })).url).toMatch(/public\.txt$/);
      expectSuccess(await call(client, 'browser_navigate', { url: fixture.urlFor('/pages/upload') }));
      expectSuccess(await call(client, 'browser_click', { element: 'file input', target: '#single' }));
      const missing = expectError(await call(client, 'browser_file_upload', { paths: [path.join(dir, 'nothing-here.txt')] }), 'INVALID_PARAMETERS');
      const refused = expectError(await call(client, 'browser_file_upload', { paths: [config] }), 'INVALID_PARAMETERS');
      expect(shape(refused, config)).toEqual(shape(missing, path.join(dir, 'nothing-here.txt')));
      // The chooser is still open for a file that may be read.
      expectSuccess(await call(client, 'browser_file_upload', { paths: [path.join(dir, 'public.txt')] }));
    } finally {
      await close();
    }
  });
});
