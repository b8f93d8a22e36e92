// The playwright profile answers as @playwright/mcp 0.0.83 does (docs/compat.md): an action names the file holding its snapshot instead of inlining it, --snapshot-mode none writes none, browser_snapshot answers inline, and over HTTP the file is a resource only its identity reads.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSuccess, startCli } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';
import { modernCall, modernRequest } from './modern-helpers.js';

/** A snapshot file's default name: as @playwright/mcp's `page-<time>.yml`, with a random part. */
const SNAPSHOT_NAME = /^page-\d{4}-\d\d-\d\dT[\dTZ-]+-[0-9a-f]{8}\.yml$/;

let dir: string;
let fixture: FixtureServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-pw-answers-'));
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ymlIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.yml')) : []);

describe('over stdio with --output-dir', () => {
  let server: StdioConnection;
  let outputDir: string;
  beforeAll(async () => {
    outputDir = path.join(dir, 'stdio-out');
    writeFileSync(path.join(dir, 'secrets.env'), 'API_KEY=sk-live-5f3a9c0e71\n');
    server = await startCli(['--profile', 'playwright', '--output-dir', outputDir, '--secrets', path.join(dir, 'secrets.env')]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an action answers url and title and names its snapshot file, in the output folder, instead of inlining the snapshot', async () => {
    const navigated = await call(server.client, 'browser_navigate', { url: fixture.urlFor('/pages/home') });
    const data = expectSuccess(navigated);
    expect(data).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home' });
    expect(data.snapshot).toBeUndefined();
    expect(navigated.result.content[0]?.type === 'text' && navigated.result.content[0].text).not.toContain('[ref=');
    const file = data.snapshotFile as string;
    expect(path.dirname(file)).toBe(outputDir);
    expect(path.basename(file)).toMatch(SNAPSHOT_NAME);
    expect(readFileSync(file, 'utf8')).toMatch(/link "Form" \[ref=\w+\]/);
    // A client on this machine reads the file itself: no resource link comes with the result.
    expect(navigated.result.content).toHaveLength(1);

    const clicked = expectSuccess(await call(server.client, 'browser_click', { target: '#to-form' }));
    expect(clicked).toMatchObject({ url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(clicked.snapshot).toBeUndefined();
    expect(clicked.snapshotFile).not.toBe(file);
    expect(readFileSync(clicked.snapshotFile as string, 'utf8')).toContain('textbox "Name"');
    expect(ymlIn(outputDir).sort()).toEqual([path.basename(file), path.basename(clicked.snapshotFile as string)].sort());
  });

  it('hides secrets in the snapshot file as in every result', async () => {
    const page = `data:text/html,<title>Keys</title><p>key sk-live-5f3a9c0e71</p>`;
    const data = expectSuccess(await call(server.client, 'browser_navigate', { url: page }));
    const text = readFileSync(data.snapshotFile as string, 'utf8');
    expect(text).toContain('<secret>API_KEY</secret>');
    expect(text).not.toContain('sk-live-5f3a9c0e71');
    expectSuccess(await call(server.client, 'browser_navigate', { url: fixture.urlFor('/pages/form') }));
  });

  it('browser_snapshot answers the snapshot inline, with url and title in the JSON of content[0], and writes no file', async () => {
    const before = ymlIn(outputDir).length;
    const result = await call(server.client, 'browser_snapshot');
    const text = result.result.content[0]?.type === 'text' ? result.result.content[0].text : '';
    const data = JSON.parse(text);
    expect(data).toMatchObject({ url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(data.snapshot).toMatch(/textbox "Name" \[ref=\w+\]/);
    expect(data.snapshotFile).toBeUndefined();
    expect(ymlIn(outputDir)).toHaveLength(before);
  });
});

describe('--snapshot-mode none', () => {
  let server: StdioConnection;
  let outputDir: string;
  beforeAll(async () => {
    outputDir = path.join(dir, 'none-out');
    server = await startCli(['--profile', 'playwright', '--output-dir', outputDir, '--snapshot-mode', 'none']);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('actions answer url and title, and write and name no snapshot; browser_snapshot still answers one', async () => {
    const navigated = expectSuccess(await call(server.client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(navigated).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home' });
    const clicked = expectSuccess(await call(server.client, 'browser_click', { target: '#to-form' }));
    expect(clicked).toMatchObject({ url: fixture.urlFor('/pages/form'), title: 'Form' });
    for (const data of [navigated, clicked]) {
      expect(data.snapshot).toBeUndefined();
      expect(data.snapshotFile).toBeUndefined();
    }
    expect(ymlIn(outputDir)).toEqual([]);
    expect(expectSuccess(await call(server.client, 'browser_snapshot')).snapshot).toContain('textbox "Name"');
    // The flag is honoured, not named as one without an effect.
    expect(server.stderrText()).not.toContain('--snapshot-mode');
  });
});

describe("snapshot files count against the session's file limits", () => {
  let server: StdioConnection;
  beforeAll(async () => {
    server = await startCli(['--profile', 'playwright', '--output-dir', path.join(dir, 'limit-out'), '--max-downloads', '2']);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an action past them still succeeds, without a file, and says why', async () => {
    const files = [];
    for (const target of ['/pages/home', '/pages/form']) {
      files.push(expectSuccess(await call(server.client, 'browser_navigate', { url: fixture.urlFor(target) })).snapshotFile);
    }
    expect(files.every((file) => typeof file === 'string')).toBe(true);
    const past = expectSuccess(await call(server.client, 'browser_navigate', { url: fixture.urlFor('/pages/buttons') }));
    expect(past).toMatchObject({ url: fixture.urlFor('/pages/buttons'), title: 'Buttons' });
    expect(past.snapshotFile).toBeUndefined();
    expect(past.snapshotNote).toMatch(/No snapshot file was written: .*2 files.*browser_snapshot/);
    expect(ymlIn(path.join(dir, 'limit-out'))).toHaveLength(2);
  });
});

describe('over HTTP with identities', () => {
  const ALICE = 'alice-token-7c2e91ab';
  const BOB = 'bob-token-3f0d6a24e1';
  let server: HttpCli;
  let outputDir: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    outputDir = path.join(dir, 'http-out');
    writeFileSync(path.join(dir, 'tokens'), `alice ${ALICE}\nbob ${BOB}\n`);
    server = await startHttpCli(['--profile', 'playwright', '--auth-tokens-file', path.join(dir, 'tokens'), '--output-dir', outputDir]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await server?.stop();
  });
  const as = async (token: string) => {
    const { client } = await connectStreamable(server.base, { Authorization: `Bearer ${token}` });
    clients.push(client);
    return client;
  };

  it('links the snapshot file as a resource its identity reads, and no other identity can read or detect', async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB);
    const navigated = await call(alice, 'browser_navigate', { url: fixture.urlFor('/pages/home') });
    const data = expectSuccess(navigated);
    const file = data.snapshotFile as string;
    // In alice's own folder of --output-dir.
    expect(path.basename(path.dirname(file))).toMatch(/^identity-[0-9a-f]{32}$/);
    expect(path.dirname(path.dirname(file))).toBe(outputDir);
    expect(path.basename(file)).toMatch(SNAPSHOT_NAME);

    const link = navigated.result.content[1] as { type: string; uri: string; name: string; mimeType: string };
    expect(link).toMatchObject({ type: 'resource_link', name: path.basename(file), mimeType: 'text/yaml' });
    const read = await alice.readResource({ uri: link.uri });
    expect(read.contents[0]).toMatchObject({ uri: link.uri, mimeType: 'text/yaml' });
    expect((read.contents[0] as { text: string }).text).toBe(readFileSync(file, 'utf8'));
    expect((read.contents[0] as { text: string }).text).toMatch(/link "Form" \[ref=\w+\]/);

    // Bob's own session has files of its own; alice's is not found for him, exactly as a name that was never written.
    expectSuccess(await call(bob, 'browser_navigate', { url: fixture.urlFor('/pages/form') }));
    const never = link.uri.replace(/[0-9a-f]{8}\.yml$/, '00000000.yml');
    const refusal = async (uri: string) => {
      const error = await bob.readResource({ uri }).then(
        () => undefined,
        (caught: unknown) => caught as { code?: number; message: string },
      );
      expect(error, uri).toBeDefined();
      return { code: error?.code, message: error?.message.replace(uri, '<uri>') };
    };
    expect(await refusal(link.uri)).toEqual(await refusal(never));
  });
});

describe('over HTTP without --output-dir, for 2026-07-28 requests', () => {
  const CAROL = 'carol-token-94b1d07e';
  const DAVE = 'dave-token-61c8f2a3b5';
  let server: HttpCli;
  beforeAll(async () => {
    writeFileSync(path.join(dir, 'tokens-modern'), `carol ${CAROL}\ndave ${DAVE}\n`);
    server = await startHttpCli(['--profile', 'playwright', '--auth-tokens-file', path.join(dir, 'tokens-modern')]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("writes the file in the session's own folder and serves it to the identity's next request, not to another identity", async () => {
    const navigated = await modernCall(server.base, 'browser_navigate', { url: fixture.urlFor('/pages/home') }, { token: CAROL });
    expect(navigated.json).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home' });
    const file = navigated.json.snapshotFile as string;
    expect(path.basename(file)).toMatch(SNAPSHOT_NAME);
    expect(readFileSync(file, 'utf8')).toMatch(/link "Form" \[ref=\w+\]/);
    const link = navigated.response.result.content[1];
    expect(link).toMatchObject({ type: 'resource_link', name: path.basename(file), mimeType: 'text/yaml' });

    const read = await modernRequest(server.base, 'resources/read', { uri: link.uri }, { token: CAROL });
    expect(read.response.result.contents[0]).toMatchObject({ uri: link.uri, mimeType: 'text/yaml', text: readFileSync(file, 'utf8') });

    expect((await modernCall(server.base, 'browser_navigate', { url: fixture.urlFor('/pages/form') }, { token: DAVE })).json.title).toBe('Form');
    const refused = await modernRequest(server.base, 'resources/read', { uri: link.uri }, { token: DAVE });
    const never = await modernRequest(server.base, 'resources/read', { uri: link.uri.replace(/[0-9a-f]{8}\.yml$/, '00000000.yml') }, { token: DAVE });
    expect(refused.response.result).toBeUndefined();
    expect(refused.response.error.code).toBe(never.response.error.code);
    expect(JSON.stringify(refused.response.error)).not.toContain(path.dirname(file));
  });
});
