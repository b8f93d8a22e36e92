// Files belong to their identity (docs/limits.md): two identities from --auth-tokens-file never name, read, overwrite or detect each other's files; every byte a session writes counts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';

const ALICE = 'alice-token-5e1b9c2d';
const BOB = 'bob-token-0a7f3e8c44';

let dir: string;
let outputDir: string;
let server: HttpCli;
let fixture: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-identity-files-'));
  outputDir = path.join(dir, 'out');
  writeFileSync(path.join(dir, 'tokens'), `alice ${ALICE}\nbob ${BOB}\n`);
  fixture = await startFixtureServer();
  // --file-root holds --output-dir: another identity's folder stays out of reach through it too.
  server = await startHttpCli(['--auth-tokens-file', path.join(dir, 'tokens'), '--output-dir', outputDir, '--file-root', dir, '--caps', 'storage,devtools']);
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
});

async function as(token: string): Promise<Client> {
  const { client } = await connectStreamable(server.base, { Authorization: `Bearer ${token}` });
  clients.push(client);
  return client;
}

/** A session on the fixture's home page with one HttpOnly cookie of `value`. */
async function signedIn(client: Client, value: string): Promise<string> {
  const sessionId = expectSuccess(await call(client, 'create_session')).sessionId as string;
  expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
  expectSuccess(await call(client, 'cookies', { sessionId, action: 'set', cookies: [{ name: 'sid', value, url: fixture.urlFor('/'), httpOnly: true }] }));
  return sessionId;
}

describe('files belong to their identity', () => {
  it("keeps alice's storage state from bob: he can neither load, detect nor overwrite it", async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB);
    const aliceSession = await signedIn(alice, 'alice-secret-sid');
    const bobSession = await signedIn(bob, 'bob-sid');

    const saved = expectSuccess(await call(alice, 'export_storage_state', { sessionId: aliceSession, filename: 'auth.json' })).file as string;
    // In alice's own folder of --output-dir, whose name says nothing of her name or token.
    const aliceFolder = path.dirname(saved);
    expect(path.dirname(aliceFolder)).toBe(outputDir);
    expect(path.basename(aliceFolder)).toMatch(/^identity-[0-9a-f]{32}$/);
    expect(aliceFolder).not.toMatch(/alice|5e1b9c2d/);
    expect(existsSync(path.join(outputDir, 'auth.json'))).toBe(false);

    // bob's "auth.json" is his own (there is none); alice's file by its absolute path, or through "..", is answered
    // exactly as a file that does not exist anywhere.
    const missing = expectError(await call(bob, 'load_storage_state', { sessionId: bobSession, filename: 'nothing-here.json' }), 'INVALID_PARAMETERS');
    const shape = (json: { message: string; details?: unknown }, name: string) => ({
      ...json,
      message: json.message.replace(name, '<name>'),
      details: { ...(json.details as object), path: undefined },
    });
    for (const filename of ['auth.json', saved, `../${path.basename(aliceFolder)}/auth.json`, '../../out/auth.json']) {
      const refused = expectError(await call(bob, 'load_storage_state', { sessionId: bobSession, filename }), 'INVALID_PARAMETERS');
      expect(shape(refused, filename), filename).toEqual(shape(missing, 'nothing-here.json'));
      // Only what bob gave is echoed: nothing of alice's folder that he did not name himself.
      expect(JSON.stringify(refused).replaceAll(filename, '<name>')).not.toContain(aliceFolder);
    }
    const bobCookies = expectSuccess(await call(bob, 'cookies', { sessionId: bobSession, action: 'list' })).cookies as { value: string }[];
    expect(bobCookies.map((cookie) => cookie.value)).toEqual(['bob-sid']);

    // bob's own auth.json lands in his folder; alice's file still holds her sign-in.
    const bobs = expectSuccess(await call(bob, 'export_storage_state', { sessionId: bobSession, filename: 'auth.json' })).file as string;
    expect(path.dirname(bobs)).not.toBe(aliceFolder);
    expect(path.dirname(path.dirname(bobs))).toBe(outputDir);
    expect(readFileSync(saved, 'utf8')).toContain('alice-secret-sid');
    expect(readFileSync(saved, 'utf8')).not.toContain('bob-sid');

    // alice's own file loads for her, in another of her sessions: sessions of one identity share its folder.
    const again = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expect(expectSuccess(await call(alice, 'load_storage_state', { sessionId: again, filename: 'auth.json' })).cookies).toBe(1);
    for (const sessionId of [aliceSession, again]) expectSuccess(await call(alice, 'close_session', { sessionId }));
    expectSuccess(await call(bob, 'close_session', { sessionId: bobSession }));
  });

  it("writes each identity's traces in its own folder, and they go with the session", async () => {
    const alice = await as(ALICE);
    const sessionId = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'start_trace', { sessionId }));
    expectSuccess(await call(alice, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    const trace = expectSuccess(await call(alice, 'stop_trace', { sessionId })).trace as { path: string; bytes: number };
    expect(trace.bytes).toBeGreaterThan(0);
    const sessionFolder = path.dirname(trace.path);
    expect(path.basename(sessionFolder)).toMatch(/^session-[0-9a-f]{16}$/);
    expect(path.basename(path.dirname(sessionFolder))).toMatch(/^identity-[0-9a-f]{32}$/);
    expect(path.dirname(path.dirname(sessionFolder))).toBe(outputDir);
    expectSuccess(await call(alice, 'start_trace', { sessionId }));
    const closed = expectSuccess(await call(alice, 'close_session', { sessionId }));
    expect(closed.traces).toEqual([expect.objectContaining({ removed: true })]);
    expect(existsSync(sessionFolder)).toBe(false);
    // Nothing of a session is left at the top of --output-dir: only the identities' folders and the key that names them.
    expect(readdirSync(outputDir).filter((name) => !/^identity-[0-9a-f]{32}$/.test(name))).toEqual(['.sessionwright-folder-key']);
  });
});

describe('every byte a session writes counts', () => {
  let limited: HttpCli;
  beforeAll(async () => {
    limited = await startHttpCli([
      '--auth-tokens-file',
      path.join(dir, 'tokens'),
      '--output-dir',
      path.join(dir, 'limited'),
      '--caps',
      'devtools',
      '--max-download-bytes',
      '1000000',
      '--max-downloads',
      '3',
    ]);
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('stops a trace past --max-download-bytes, keeps it as far as it got and says why; counts it among the files', async () => {
    const { client } = await connectStreamable(limited.base, { Authorization: `Bearer ${ALICE}` });
    clients.push(client);
    const sessionId = expectSuccess(await call(client, 'create_session')).sessionId as string;
    expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    expectSuccess(await call(client, 'start_trace', { sessionId }));
    // Twenty different bodies of about 1 MB, which the trace keeps.
    const fetches = `async () => { for (let i = 0; i < 20; i += 1) await fetch('/download?name=p' + i + '&bytes=' + (1000000 + i)).then((r) => r.arrayBuffer()); return 20; }`;
    expectSuccess(await call(client, 'evaluate', { sessionId, function: fetches }));
    const stopped = expectSuccess(await call(client, 'stop_trace', { sessionId }));
    expect(stopped.trace.stopped).toMatch(/limit of 1000000 bytes/);
    expect(stopped.message).toMatch(/stopped early/);
    expect(existsSync(stopped.trace.path)).toBe(true);
    // Three files are the most (--max-downloads 3), traces among them: the fourth start is refused.
    expectSuccess(await call(client, 'start_trace', { sessionId }));
    expectSuccess(await call(client, 'stop_trace', { sessionId }));
    expectSuccess(await call(client, 'start_trace', { sessionId }));
    expectSuccess(await call(client, 'stop_trace', { sessionId }));
    const refused = expectError(await call(client, 'start_trace', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expect(refused.details.reason).toBe('file_limit');
    expectSuccess(await call(client, 'close_session', { sessionId }));
  });

  it('never lets a saved trace pass --max-download-bytes on disk: stop_trace says it was cut or not written', async () => {
    // 20 MB of bodies that do not compress (20 responses of 1 MB) from a server of this test's own.
    const random = randomBytes(1_000_000);
    const bodies = createServer((request, response) => {
      if (request.url === '/') return void response.end('<title>Big</title>');
      response.end(random.subarray(Number(request.url?.slice(1) ?? 0)));
    });
    await new Promise<void>((resolve) => bodies.listen(0, '127.0.0.1', resolve));
    try {
      const { client } = await connectStreamable(limited.base, { Authorization: `Bearer ${ALICE}` });
      clients.push(client);
      const sessionId = expectSuccess(await call(client, 'create_session')).sessionId as string;
      const origin = `http://127.0.0.1:${(bodies.address() as { port: number }).port}`;
      expectSuccess(await call(client, 'navigate', { sessionId, url: `${origin}/` }));
      expectSuccess(await call(client, 'start_trace', { sessionId }));
      const fetches = 'async () => { for (let i = 1; i <= 20; i += 1) await fetch("/" + i).then((r) => r.arrayBuffer()); return 20; }';
      expectSuccess(await call(client, 'evaluate', { sessionId, function: fetches }));
      const { trace, message } = expectSuccess(await call(client, 'stop_trace', { sessionId }));
      expect(trace.stopped).toMatch(/it was cut|it was not written/);
      if (trace.dropped) {
        expect(existsSync(trace.path)).toBe(false);
        expect(message).toMatch(/No trace was written/);
      } else {
        expect(statSync(trace.path).size).toBe(trace.bytes);
        expect(trace.bytes).toBeLessThanOrEqual(1_000_000);
      }
      expectSuccess(await call(client, 'close_session', { sessionId }));
    } finally {
      await new Promise((resolve) => bodies.close(resolve));
    }
  });

  it('refuses a video larger than 1920×1080 or faster than 30 fps', async () => {
    const { client } = await connectStreamable(limited.base, { Authorization: `Bearer ${BOB}` });
    clients.push(client);
    const sessionId = expectSuccess(await call(client, 'create_session')).sessionId as string;
    for (const args of [{ size: { width: 7680, height: 4320 } }, { fps: 60 }]) {
      const refused = expectError(await call(client, 'video', { sessionId, action: 'start', ...args }), 'INVALID_PARAMETERS', sessionId);
      expect(refused.details.reason).toBe('video_too_large');
    }
    expectSuccess(await call(client, 'close_session', { sessionId }));
  });
});

describe('the playwright profile over HTTP with identities', () => {
  let pw: HttpCli;
  beforeAll(async () => {
    pw = await startHttpCli([
      '--profile',
      'playwright',
      '--caps',
      'storage',
      '--auth-tokens-file',
      path.join(dir, 'tokens'),
      '--output-dir',
      path.join(dir, 'pw'),
    ]);
  });
  afterAll(async () => {
    await pw?.stop();
  });

  it("writes browser_storage_state's default file, with a random part, in the caller's folder, where no other identity finds it", async () => {
    const { client: alice } = await connectStreamable(pw.base, { Authorization: `Bearer ${ALICE}` });
    const { client: bob } = await connectStreamable(pw.base, { Authorization: `Bearer ${BOB}` });
    clients.push(alice, bob);
    expectSuccess(await call(alice, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const file = expectSuccess(await call(alice, 'browser_storage_state', {})).file as string;
    expect(path.basename(file)).toMatch(/^storage-state-.+-[0-9a-f]{8}\.json$/);
    expect(path.basename(path.dirname(file))).toMatch(/^identity-[0-9a-f]{32}$/);
    expect(path.dirname(path.dirname(file))).toBe(path.join(dir, 'pw'));
    expectSuccess(await call(bob, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
    for (const filename of [path.basename(file), file]) expectError(await call(bob, 'browser_set_storage_state', { filename }), 'INVALID_PARAMETERS');
    expectSuccess(await call(alice, 'browser_set_storage_state', { filename: path.basename(file) }));
  });
});
