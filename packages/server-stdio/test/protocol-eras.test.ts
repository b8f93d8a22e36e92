// Both protocol eras on one endpoint (docs/http.md, docs/compat.md): 2026-07-28 requests with no protocol session beside
// 2025 connections, over /mcp, legacy SSE and stdio, with the SDK's v1 and v2 clients and by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2, SSEClientTransport as SseV2, StreamableHTTPClientTransport as StreamableV2, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { connectStdio, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, isUuidV4, expectSuccess } from './helpers.js';
import { JSON_POST, connectSse, connectStreamable, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';
import { MODERN, modernCall, modernRequest } from './modern-helpers.js';

/** A page that shows, in its title, the cookie and localStorage its session holds. */
const WHOAMI = `<!doctype html><title>?</title><script>document.title = 'cookie=' + document.cookie + ';ls=' + localStorage.getItem('k');</script>`;

let fixture: FixtureServer;
let server: HttpCli;
beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { whoami: WHOAMI } });
  server = await startHttpCli(['--max-sessions', '20']);
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
});

/** The ref on the snapshot line that matches. */
function refOf(snapshot: string, line: RegExp): string {
  const ref = /\[ref=([^\]]+)\]/.exec(snapshot.split('\n').find((text) => line.test(text)) ?? '')?.[1];
  if (!ref) throw new Error(`no line matching ${line} with a ref in:\n${snapshot}`);
  return ref;
}

describe('a 2026-07-28 client with no protocol session: every call an independent HTTP request', () => {
  it('discovers the server with server/discover, and gets no Mcp-Session-Id', async () => {
    const discovered = await modernRequest(server.base, 'server/discover');
    expect(discovered.status).toBe(200);
    expect(discovered.headers.get('mcp-session-id')).toBeNull();
    expect(discovered.response.result.supportedVersions).toContain(MODERN);
    expect(discovered.response.result.capabilities.tools).toBeDefined();
    expect(discovered.response.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('sessionwright');
  });

  it('creates a session in one request and drives it from later ones: navigate, type, snapshot, click by ref', async () => {
    const created = await modernCall(server.base, 'create_session');
    expect(created.status).toBe(200);
    expect(created.headers.get('mcp-session-id')).toBeNull();
    const { sessionId } = created.json;
    expect(isUuidV4(sessionId), sessionId).toBe(true);
    const navigated = await modernCall(server.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') });
    expect(navigated.json).toMatchObject({ success: true, title: 'Form', status: 200 });
    expect((await modernCall(server.base, 'type', { sessionId, selector: '#name', text: 'Ada' })).json.value).toBe('Ada');
    const snapshot = (await modernCall(server.base, 'snapshot', { sessionId })).json.snapshot as string;
    const clicked = await modernCall(server.base, 'click', { sessionId, ref: refOf(snapshot, /button "Send"/) });
    expect(clicked.response.result.isError).toBeFalsy();
    expect(clicked.json.url).toBe(fixture.urlFor('/submit'));
    const closed = await modernCall(server.base, 'close_session', { sessionId });
    expect(closed.json).toMatchObject({ success: true, sessionId });
    const gone = await modernCall(server.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') });
    expect(gone.response.result.isError).toBe(true);
    expect(gone.json).toMatchObject({ errorCode: 'SESSION_NOT_FOUND', sessionId });
  });

  it('drives parallel sessions in parallel requests, each isolated from the other', async () => {
    const [a, b] = (await Promise.all([modernCall(server.base, 'create_session'), modernCall(server.base, 'create_session')])).map(
      (answer) => answer.json.sessionId as string,
    );
    await Promise.all([
      modernCall(server.base, 'navigate', { sessionId: a, url: fixture.urlFor('/pages/storage?set=alpha') }),
      modernCall(server.base, 'navigate', { sessionId: b, url: fixture.urlFor('/pages/storage?set=beta') }),
    ]);
    const [seenByA, seenByB] = await Promise.all([
      modernCall(server.base, 'navigate', { sessionId: a, url: fixture.urlFor('/pages/whoami') }),
      modernCall(server.base, 'navigate', { sessionId: b, url: fixture.urlFor('/pages/whoami') }),
    ]);
    expect(seenByA.json.title).toBe('cookie=k=alpha;ls=alpha');
    expect(seenByB.json.title).toBe('cookie=k=beta;ls=beta');
    // Three 3-second page loads in three sessions at once: together, not one after the other (9 s).
    const c = (await modernCall(server.base, 'create_session')).json.sessionId as string;
    const started = Date.now();
    const loads = await Promise.all([a, b, c].map((sessionId) => modernCall(server.base, 'navigate', { sessionId, url: fixture.urlFor('/wait?ms=3000') })));
    for (const load of loads) expect(load.json.success).toBe(true);
    expect(Date.now() - started).toBeLessThan(7_500);
    await Promise.all([a, b, c].map((sessionId) => modernCall(server.base, 'close_session', { sessionId })));
  });

  it('answers the removed initialize (and an unknown method) with 404 and -32601, echoing the request id', async () => {
    for (const method of ['initialize', 'logging/setLevel', 'no/such-method']) {
      const answer = await modernRequest(server.base, method);
      expect(answer.status, method).toBe(404);
      expect(answer.response?.error?.code, method).toBe(-32601);
    }
  });

  it('lists tools with ttlMs and cacheScope and sessionId mirrored as Mcp-Param-Session-Id; 2025 clients get the list as before', async () => {
    const { result } = (await modernRequest(server.base, 'tools/list')).response;
    expect(result.ttlMs).toBe(3_600_000);
    expect(result.cacheScope).toBe('public');
    const navigate = result.tools.find((tool: { name: string }) => tool.name === 'navigate');
    expect(navigate.inputSchema.properties.sessionId['x-mcp-header']).toBe('Session-Id');
    const create = result.tools.find((tool: { name: string }) => tool.name === 'create_session');
    expect(JSON.stringify(create.inputSchema)).not.toContain('x-mcp-header');

    const { client } = await connectStreamable(server.base);
    try {
      const old = await client.listTools();
      expect(JSON.stringify(old)).not.toContain('x-mcp-header');
      expect(old).not.toHaveProperty('ttlMs');
    } finally {
      await client.close();
    }
  });

  it('refuses a call whose Mcp-Param-Session-Id is missing or disagrees with the body (400, -32020), never quoting the id', async () => {
    const sessionId = (await modernCall(server.base, 'create_session')).json.sessionId as string;
    for (const header of [undefined, 'another-id', '=?base64?not!base64?=']) {
      const answer = await modernCall(server.base, 'navigate', { sessionId, url: 'about:blank' }, { headers: { 'Mcp-Param-Session-Id': header } });
      expect(answer.status, String(header)).toBe(400);
      expect(answer.response.error.code).toBe(-32020);
      expect(JSON.stringify(answer.response)).not.toContain(sessionId);
    }
    // The header may carry the id in Base64, as clients encode values that are not plain ASCII.
    const encoded = `=?base64?${Buffer.from(sessionId).toString('base64')}?=`;
    const answer = await modernCall(server.base, 'navigate', { sessionId, url: 'about:blank' }, { headers: { 'Mcp-Param-Session-Id': encoded } });
    expect(answer.json).toMatchObject({ success: true, url: 'about:blank' });
    await modernCall(server.base, 'close_session', { sessionId });
  });

  it('sends progress to a call that gave a progressToken, and log messages only at the logLevel a request names', async () => {
    const sessionId = (await modernCall(server.base, 'create_session')).json.sessionId as string;
    const url = fixture.urlFor('/pages/home');
    const quiet = await modernCall(server.base, 'navigate', { sessionId, url });
    expect(quiet.messages.filter((message) => message.method !== undefined)).toEqual([]);
    const chatty = await modernCall(server.base, 'navigate', { sessionId, url }, { meta: { progressToken: 'p1', logLevel: 'debug' } });
    const progress = chatty.messages.filter((message) => message.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((message) => message.params.progressToken === 'p1')).toBe(true);
    const logs = chatty.messages.filter((message) => message.method === 'notifications/message');
    expect(logs.some((message) => message.params.level === 'debug' && /^navigate ok in \d+ ms$/.test(message.params.data))).toBe(true);
    expect(chatty.json.success).toBe(true);
    await modernCall(server.base, 'close_session', { sessionId });
  });

  it('cancels a call when its client closes the request, and the session serves the next call at once', async () => {
    const sessionId = (await modernCall(server.base, 'create_session')).json.sessionId as string;
    const hangs = fixture.requests.filter((request) => request === '/hang').length;
    const controller = new AbortController();
    const slow = modernCall(server.base, 'navigate', { sessionId, url: fixture.urlFor('/hang'), timeout: 60_000 }, { signal: controller.signal });
    slow.catch(() => {});
    while (fixture.requests.filter((request) => request === '/hang').length === hangs) await new Promise((resolve) => setTimeout(resolve, 50));
    const queued = modernCall(server.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') });
    const cancelledAt = Date.now();
    controller.abort();
    expect((await queued).json.title).toBe('Form');
    // Well under the 60 s the navigation would have waited.
    expect(Date.now() - cancelledAt).toBeLessThan(10_000);
    await modernCall(server.base, 'close_session', { sessionId });
  });

  it('keeps a session made by a 2026 request usable from a 2025 connection, and the other way round', async () => {
    const fromModern = (await modernCall(server.base, 'create_session')).json.sessionId as string;
    const { client } = await connectStreamable(server.base);
    try {
      expect(expectSuccess(await call(client, 'navigate', { sessionId: fromModern, url: fixture.urlFor('/pages/form') })).title).toBe('Form');
      const fromOld = expectSuccess(await call(client, 'create_session')).sessionId as string;
      expect((await modernCall(server.base, 'navigate', { sessionId: fromOld, url: fixture.urlFor('/pages/home') })).json.title).toBe('Home');
      await modernCall(server.base, 'close_session', { sessionId: fromOld });
      await call(client, 'close_session', { sessionId: fromModern });
    } finally {
      await client.close();
    }
  });
});

describe('real clients of both eras, over every transport', () => {
  /** create_session, navigate, type, click and close_session through `client`, reading every result from content[0].text. */
  async function drive(client: ClientV1 | ClientV2): Promise<void> {
    const text = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      const first = (result.content as { type: string; text?: string }[])[0];
      expect(result.isError, first?.text).toBeFalsy();
      return JSON.parse(first?.text ?? 'null');
    };
    const { sessionId } = await text('create_session');
    expect(isUuidV4(sessionId), sessionId).toBe(true);
    expect(await text('navigate', { sessionId, url: fixture.urlFor('/pages/form') })).toMatchObject({ title: 'Form' });
    expect((await text('type', { sessionId, selector: '#name', text: 'Grace' })).value).toBe('Grace');
    expect((await text('click', { sessionId, selector: '#submit' })).url).toBe(fixture.urlFor('/submit'));
    expect(await text('close_session', { sessionId })).toMatchObject({ success: true });
  }

  async function v2(transport: Transport, negotiate: boolean): Promise<ClientV2> {
    const client = new ClientV2({ name: 'eras-test-v2', version: '0.0.0' }, negotiate ? { versionNegotiation: { mode: 'auto' } } : {});
    await client.connect(transport);
    // Lists first, as clients do: the 2026 client learns which argument to mirror into Mcp-Param-Session-Id.
    await client.listTools();
    return client;
  }

  it('the v2 SDK client negotiates 2026-07-28 over /mcp and drives a session', async () => {
    const client = await v2(new StreamableV2(new URL(`${server.base}/mcp`)), true);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await drive(client);
    } finally {
      await client.close();
    }
  });

  it('the v2 SDK client negotiates 2026-07-28 over stdio and drives a session', async () => {
    const client = await v2(new StdioV2({ command: process.execPath, args: [CLI_PATH, '--headless'], stderr: 'ignore' }), true);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await drive(client);
    } finally {
      await client.close();
    }
  });

  for (const [name, transport] of [
    ['/mcp', () => new StreamableV2(new URL(`${server.base}/mcp`))],
    ['legacy SSE', () => new SseV2(new URL(`${server.base}/sse`))],
    ['stdio', () => new StdioV2({ command: process.execPath, args: [CLI_PATH, '--headless'], stderr: 'ignore' })],
  ] as const) {
    it(`the v2 SDK client in the 2025 era (initialize) over ${name}`, async () => {
      const client = await v2(transport(), false);
      try {
        expect(client.getProtocolEra()).toBe('legacy');
        await drive(client);
      } finally {
        await client.close();
      }
    });
  }

  it('the v1 SDK client over /mcp, legacy SSE at /sse and at the bare URL, and stdio', async () => {
    for (const open of [
      async () => (await connectStreamable(server.base)).client,
      async () => (await connectSse(`${server.base}/sse`)).client,
      async () => (await connectSse(`${server.base}/`)).client,
    ]) {
      const client = await open();
      try {
        await drive(client);
      } finally {
        await client.close();
      }
    }
    const stdio = await connectStdio({ command: process.execPath, args: [CLI_PATH, '--headless'] });
    try {
      await drive(stdio.client);
    } finally {
      await stdio.close();
    }
  });
});

describe('identities and the playwright profile in the 2026 era', () => {
  const ALICE = 'alice-token-2026-a1';
  const BOB = 'bob-token-2026-b2';
  let dir: string;
  let tokens: HttpCli;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-eras-'));
    writeFileSync(path.join(dir, 'tokens'), `alice ${ALICE}\nbob ${BOB}\n`);
    tokens = await startHttpCli(['--auth-tokens-file', path.join(dir, 'tokens'), '--profile', 'playwright', '--max-sessions-per-client', '2']);
  });
  afterAll(async () => {
    await tokens?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a session to the identity that created it, across eras, and counts it in that identity’s quota', async () => {
    const sessionId = (await modernCall(tokens.base, 'create_session', {}, { token: ALICE })).json.sessionId as string;
    const bob = await modernCall(tokens.base, 'browser_navigate', { sessionId, url: fixture.urlFor('/pages/home') }, { token: BOB });
    expect(bob.json).toMatchObject({ errorCode: 'SESSION_NOT_FOUND', sessionId });
    // Alice's 2025 connection finds it in list_sessions and drives it.
    const { client } = await connectStreamable(tokens.base, { Authorization: `Bearer ${ALICE}` });
    try {
      const listed = expectSuccess(await call(client, 'list_sessions')).sessions as { sessionId: string }[];
      expect(listed.map((session) => session.sessionId)).toContain(sessionId);
      expect(expectSuccess(await call(client, 'browser_navigate', { sessionId, url: fixture.urlFor('/pages/form') })).title).toBe('Form');
      // Her quota is two: the one above and one more, whichever era asks.
      expect(isUuidV4(expectSuccess(await call(client, 'create_session')).sessionId)).toBe(true);
      const third = await modernCall(tokens.base, 'create_session', {}, { token: ALICE });
      expect(third.json).toMatchObject({ errorCode: 'MAX_SESSIONS_REACHED', details: { scope: 'client' } });
      for (const session of expectSuccess(await call(client, 'list_sessions')).sessions as { sessionId: string }[]) {
        await call(client, 'close_session', { sessionId: session.sessionId });
      }
    } finally {
      await client.close();
    }
  });

  it("gives each identity one implicit page that its 2026 requests share (the identity's, not a connection's)", async () => {
    const home = fixture.urlFor('/pages/home');
    expect((await modernCall(tokens.base, 'browser_navigate', { url: home }, { token: ALICE })).json).toMatchObject({ url: home, title: 'Home' });
    // A later, independent request finds the same page; the other identity has a page of its own.
    expect((await modernCall(tokens.base, 'browser_snapshot', {}, { token: ALICE })).json).toMatchObject({ url: home, title: 'Home' });
    expect((await modernCall(tokens.base, 'browser_snapshot', {}, { token: BOB })).json.url).toBe('about:blank');
    const closed = await modernCall(tokens.base, 'browser_close', {}, { token: ALICE });
    expect(closed.response.result.isError).toBeFalsy();
    expect((await modernCall(tokens.base, 'browser_snapshot', {}, { token: ALICE })).json.url).toBe('about:blank');
  });

  it('refuses a 2026 request without a token or with a wrong one (401), as every request', async () => {
    const none = await rawRequest(tokens.base, {
      headers: { ...JSON_POST, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }),
    });
    expect(none.status).toBe(401);
    expect((await modernRequest(tokens.base, 'server/discover', {}, { token: 'wrong' })).status).toBe(401);
  });
});
