// Client identities and quotas (docs/limits.md) over real HTTP: client identities from --auth-tokens-file own their sessions, per-client quotas, connection slots in all and per client.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectError, expectSuccess, run } from './helpers.js';
import { INITIALIZE, JSON_POST, connectSse, connectStreamable, openRawStream, rawRequest, startHttpCli, type HttpCli, type RawStream } from './http-helpers.js';

const ALICE = 'alice-token-3f9a1c';
const BOB = 'bob-token-77d2e0';
const MAX_CONNECTIONS = 3;

let dir: string;
let tokensFile: string;
let server: HttpCli;
let fixture: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-identities-'));
  tokensFile = path.join(dir, 'tokens');
  writeFileSync(tokensFile, `# who may use this server\nalice ${ALICE}\n\n  bob   ${BOB}  \n`);
  fixture = await startFixtureServer();
  server = await startHttpCli(['--auth-tokens-file', tokensFile, '--max-sessions', '10', '--max-sessions-per-client', '2']);
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function as(token: string, transport: 'streamable' | 'sse' = 'streamable'): Promise<Client> {
  const { client } = transport === 'streamable' ? await connectStreamable(server.base, bearer(token)) : await connectSse(`${server.base}/sse`, bearer(token));
  clients.push(client);
  return client;
}

async function listed(client: Client): Promise<string[]> {
  return (expectSuccess(await call(client, 'list_sessions')).sessions as { sessionId: string }[]).map((session) => session.sessionId);
}

describe('client identities (--auth-tokens-file)', () => {
  it('says nothing of a missing --auth-token: every request needs one of the tokens', async () => {
    // Each identity has a browser of its own (--browser-per-client is on with identities), started with its first
    // session, after the start-up lines: once one says it is up, every start-up line has arrived.
    const alice = await as(ALICE);
    const { sessionId } = expectSuccess(await call(alice, 'create_session'));
    await waitFor(() => /browser ready/.test(server.stderr()), { timeout: 60_000 });
    expectSuccess(await call(alice, 'close_session', { sessionId }));
    expect(server.stderr()).toMatch(/listening on/);
    expect(server.stderr()).not.toMatch(/no --auth-token|any local process/);
  });

  it('keeps a session to the identity that created it: another identity gets SESSION_NOT_FOUND exactly as for an unknown id', async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB, 'sse');
    const sessionId = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));

    const unknownId = '8c0f3c1e-5b7a-4d2e-9f10-2a3b4c5d6e7f';
    const never = expectError(await call(bob, 'navigate', { sessionId: unknownId, url: fixture.urlFor('/pages/home') }), 'SESSION_NOT_FOUND', unknownId);
    for (const [name, args] of [
      ['navigate', { sessionId, url: fixture.urlFor('/pages/home') }],
      ['snapshot', { sessionId }],
      ['close_session', { sessionId }],
    ] as const) {
      const json = expectError(await call(bob, name, args), 'SESSION_NOT_FOUND', sessionId);
      expect({ ...json, sessionId: undefined }, name).toEqual({ ...never, sessionId: undefined });
    }
    expect(await listed(bob)).toEqual([]);
    // Bob's attempts changed nothing: the session is still alice's, on the page she left it.
    expect(expectSuccess(await call(alice, 'snapshot', { sessionId })).title).toBe('Form');
    expectSuccess(await call(alice, 'close_session', { sessionId }));
  });

  it("lists all of an identity's sessions across its connections, so a client that reconnects finds them", async () => {
    const first = await as(ALICE, 'sse');
    const sessionId = expectSuccess(await call(first, 'create_session')).sessionId as string;
    await first.close();
    const again = await as(ALICE);
    expect(await listed(again)).toEqual([sessionId]);
    expectSuccess(await call(again, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    expect(await listed(await as(BOB))).toEqual([]);
    expectSuccess(await call(again, 'close_session', { sessionId }));
  });

  it('answers MAX_SESSIONS_REACHED with scope client past --max-sessions-per-client, while another identity still creates', async () => {
    const alice = await as(ALICE);
    const aliceAgain = await as(ALICE, 'sse');
    const bob = await as(BOB);
    const mine = [expectSuccess(await call(alice, 'create_session')).sessionId, expectSuccess(await call(aliceAgain, 'create_session')).sessionId] as string[];
    // The limit is per identity, whichever connection asks.
    const refused = expectError(await call(alice, 'create_session'), 'MAX_SESSIONS_REACHED');
    expect(refused.details).toMatchObject({ scope: 'client', maxSessionsPerClient: 2 });
    expect(refused.message).toMatch(/close_session/);
    const bobs = expectSuccess(await call(bob, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'close_session', { sessionId: mine[0] }));
    const replacement = expectSuccess(await call(aliceAgain, 'create_session')).sessionId as string;
    for (const sessionId of [mine[1], replacement]) expectSuccess(await call(alice, 'close_session', { sessionId }));
    expectSuccess(await call(bob, 'close_session', { sessionId: bobs }));
  });

  it("refuses a token not in the file, and another identity's MCP connection id", async () => {
    const wrong = await rawRequest(server.base, { headers: { ...JSON_POST, ...bearer('not-a-listed-token') }, body: INITIALIZE });
    expect(wrong.status).toBe(401);
    const opened = await rawRequest(server.base, { headers: { ...JSON_POST, ...bearer(ALICE) }, body: INITIALIZE });
    const id = opened.headers['mcp-session-id'] as string;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const stolen = await rawRequest(server.base, { headers: { ...JSON_POST, ...bearer(BOB), 'Mcp-Session-Id': id }, body: ping });
    expect(stolen.status).toBe(404);
    await rawRequest(server.base, { method: 'DELETE', headers: { ...bearer(ALICE), 'Mcp-Session-Id': id } });
  });

  it('never writes a token to its log', () => {
    expect(server.stderr()).not.toContain(ALICE);
    expect(server.stderr()).not.toContain(BOB);
  });
});

describe('a full server shared by identities', () => {
  it('tells an identity that meets --max-sessions only of its own sessions, never how many the other identities hold', async () => {
    const full = await startHttpCli(['--auth-tokens-file', tokensFile, '--max-sessions', '3']);
    const opened: Client[] = [];
    try {
      const connect = async (token: string) => {
        const { client } = await connectStreamable(full.base, bearer(token));
        opened.push(client);
        return client;
      };
      const [alice, bob] = await Promise.all([connect(ALICE), connect(BOB)]);
      expectSuccess(await call(alice, 'create_session'));
      for (let i = 0; i < 2; i += 1) expectSuccess(await call(bob, 'create_session'));
      const refused = expectError(await call(alice, 'create_session'), 'MAX_SESSIONS_REACHED');
      expect(refused.details).toMatchObject({ scope: 'server', maxSessions: 3, yourSessions: 1 });
      expect(refused.details).not.toHaveProperty('openSessions');
      expect(refused.message).toContain('1 of them yours');
    } finally {
      await Promise.all(opened.map((client) => client.close().catch(() => {})));
      await full.stop();
    }
  });
});

describe('connection slots (--max-connections, --max-connections-per-client)', () => {
  /** A Streamable HTTP connection that holds its slot: initialized, with its GET stream open (as SDK clients keep one). */
  async function live(target: HttpCli, token: string): Promise<{ id: string; stream: RawStream }> {
    const opened = await rawRequest(target.base, { headers: { ...JSON_POST, ...bearer(token) }, body: INITIALIZE });
    expect(opened.status, opened.body).toBe(200);
    const id = opened.headers['mcp-session-id'] as string;
    const stream = await openRawStream(target.base, '/mcp', { ...bearer(token), 'Mcp-Session-Id': id });
    expect(stream.status).toBe(200);
    return { id, stream };
  }
  const initialize = (target: HttpCli, token: string) => rawRequest(target.base, { headers: { ...JSON_POST, ...bearer(token) }, body: INITIALIZE });
  const ping = (target: HttpCli, token: string, id: string) =>
    rawRequest(target.base, {
      headers: { ...JSON_POST, ...bearer(token), 'Mcp-Session-Id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });

  it('answers 503 with a JSON-RPC error once every slot holds a live connection, and takes connections again when one ends', async () => {
    const bounded = await startHttpCli(['--auth-tokens-file', tokensFile, '--max-connections', String(MAX_CONNECTIONS), '--max-connections-per-client', '3']);
    const held: { id: string; stream: RawStream }[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i += 1) held.push(await live(bounded, BOB));
      const refused = await initialize(bounded, ALICE);
      expect(refused.status).toBe(503);
      expect(refused.json.error.message).toMatch(/Too many open MCP connections \(at most 3\)/);
      const legacy = await rawRequest(bounded.base, { method: 'GET', path: '/sse', headers: { Accept: 'text/event-stream', ...bearer(ALICE) } });
      expect(legacy.status).toBe(503);
      await rawRequest(bounded.base, { method: 'DELETE', headers: { ...bearer(BOB), 'Mcp-Session-Id': held.pop()!.id } });
      expect((await initialize(bounded, ALICE)).status).toBe(200);
    } finally {
      for (const { stream } of held) stream.close();
      await bounded.stop();
    }
  });

  it('gives back the slot of a client that closed without DELETE: five connect-call-close runs do not lock out a sixth client', async () => {
    const bounded = await startHttpCli(['--max-connections', '5']);
    try {
      for (let run = 0; run < 5; run += 1) {
        const { client } = await connectStreamable(bounded.base);
        expectSuccess(await call(client, 'list_sessions'));
        // The SDK client closes its stream and sends no DELETE.
        await client.close();
      }
      // The server hears of the last stream closing a moment after close() returns.
      let sixth: Client | undefined;
      await waitFor(
        async () => {
          sixth = await connectStreamable(bounded.base).then(
            ({ client }) => client,
            () => undefined,
          );
          return sixth !== undefined;
        },
        { timeout: 10_000 },
      );
      expectSuccess(await call(sixth!, 'list_sessions'));
      await sixth!.close();
      // Legacy SSE clients too: each one's stream is its connection.
      for (let run = 0; run < 6; run += 1) {
        const { client } = await connectSse(`${bounded.base}/sse`);
        expectSuccess(await call(client, 'list_sessions'));
        await client.close();
      }
    } finally {
      await bounded.stop();
    }
  });

  it('keeps one identity to its share (a quarter of --max-connections by default): 429 past it, while another identity connects', async () => {
    const bounded = await startHttpCli(['--auth-tokens-file', tokensFile, '--max-connections', '8']);
    const held: { id: string; stream: RawStream }[] = [];
    try {
      held.push(await live(bounded, ALICE), await live(bounded, ALICE));
      const third = await initialize(bounded, ALICE);
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('5');
      expect(third.json.error.message).toMatch(/for this client \(at most 2\)/);
      const sse = await rawRequest(bounded.base, { method: 'GET', path: '/sse', headers: { Accept: 'text/event-stream', ...bearer(ALICE) } });
      expect(sse.status).toBe(429);
      // Bob still gets in, up to his own share.
      held.push(await live(bounded, BOB), await live(bounded, BOB));
      expect((await initialize(bounded, BOB)).status).toBe(429);
      // Alice's share comes back as soon as one of her streams closes.
      held.shift()!.stream.close();
      await waitFor(async () => (await initialize(bounded, ALICE)).status === 200, { timeout: 10_000 });
    } finally {
      for (const { stream } of held) stream.close();
      await bounded.stop();
    }
  });

  it('makes room by ending the longest-dormant connection, whose id then answers 404', async () => {
    const bounded = await startHttpCli(['--max-connections', '2', '--max-connections-per-client', '2']);
    try {
      // Initialized, then nothing open: dormant, oldest first.
      const oldest = (await initialize(bounded, ALICE)).headers['mcp-session-id'] as string;
      const newer = (await initialize(bounded, ALICE)).headers['mcp-session-id'] as string;
      expect((await ping(bounded, ALICE, newer)).status).toBe(200);
      expect((await initialize(bounded, ALICE)).status).toBe(200);
      expect((await ping(bounded, ALICE, oldest)).status).toBe(404);
      expect((await ping(bounded, ALICE, newer)).status).toBe(200);
    } finally {
      await bounded.stop();
    }
  });
});

describe('flag checks', () => {
  it('exits 2 for --auth-tokens-file with --auth-token, an unreadable file or a malformed line, never echoing a token', async () => {
    const both = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', tokensFile, '--auth-token', 'single-secret-token']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/cannot be used together/);
    const missing = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', path.join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    const bad = path.join(dir, 'bad');
    writeFileSync(bad, 'carol secret-carol-token extra-field\n');
    const malformed = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', bad]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/line 1/);
    expect(malformed.stderr).not.toContain('secret-carol-token');
    writeFileSync(bad, `carol ${ALICE}\ndave ${ALICE}\n`);
    const twice = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', bad]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).not.toContain(ALICE);
    writeFileSync(bad, `carol ${ALICE}\ncarol ${BOB}\n`);
    const sameName = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', bad]);
    expect(sameName.code).toBe(2);
    expect(sameName.stderr).toMatch(/line 2: this name is already given on line 1/);
    expect(sameName.stderr).not.toMatch(new RegExp(`carol|${ALICE}|${BOB}`));
  });

  it('exits 2 for a token shorter than 16 characters in the file, naming its line but not the token', async () => {
    const short = path.join(dir, 'short');
    writeFileSync(short, `alice ${ALICE}\nbob Zq\n`);
    const result = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', short]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/line 2: the token must be at least 16 characters long/);
    expect(result.stderr).not.toMatch(new RegExp(`Zq|${ALICE}`));
  });

  it('reads the tokens file within 1 MiB: /dev/zero exits 2 at once', async () => {
    const result = await run(process.execPath, [CLI_PATH, '--port', '0', '--auth-tokens-file', '/dev/zero']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\/dev\/zero: cannot read the tokens file \(--auth-tokens-file\) \(larger than 1 MiB/);
  });
});
