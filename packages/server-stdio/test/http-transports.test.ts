// HTTP mode end to end: SDK clients over Streamable HTTP and legacy SSE drive one shared server, in isolation and in parallel.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, waitFor, waitForOutput, type FixtureServer } from '@sessionwright/test-kit';
import { validate } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess } from './helpers.js';
import { INITIALIZE, JSON_POST, connectSse, connectStreamable, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';

/** A page whose title shows what the browser context holds: its cookies and its localStorage. */
const WHOAMI = `<!doctype html><title>?</title><script>document.title = 'cookie=' + document.cookie + ';ls=' + localStorage.getItem('k');</script>`;
/** A page whose text appears 2.5 s after it loads. */
const LATER = `<!doctype html><title>Later</title><script>setTimeout(() => document.body.append('ready now'), 2500);</script>`;

let server: HttpCli;
let fixture: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { whoami: WHOAMI, later: LATER } });
  // Playwright's API log (DEBUG=pw:api) says when a call is waiting for an element, which a test can then cancel.
  server = await startHttpCli(['--max-sessions', '20'], { env: { ...process.env, DEBUG: 'pw:api' } });
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
});

type Connect = (base: string) => Promise<{ client: Client }>;
const TRANSPORTS: [string, Connect][] = [
  ['Streamable HTTP at /mcp', (base) => connectStreamable(base)],
  ['legacy SSE at /sse', (base) => connectSse(`${base}/sse`)],
  ['legacy SSE at the bare URL /', (base) => connectSse(`${base}/`)],
];

async function open(connect: Connect): Promise<Client> {
  const { client } = await connect(server.base);
  clients.push(client);
  return client;
}

async function createSession(client: Client): Promise<string> {
  return expectSuccess(await call(client, 'create_session')).sessionId as string;
}

describe.each(TRANSPORTS)('%s', (label, connect) => {
  it('creates a session, navigates, types, clicks and closes it, reading every result from content[0].text', async () => {
    const client = await open(connect);
    const sessionId = await createSession(client);
    const navigated = expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    expect(navigated).toMatchObject({ success: true, title: 'Form', status: 200, url: fixture.urlFor('/pages/form') });
    const name = `Ada over ${label}`;
    expect(expectSuccess(await call(client, 'type', { sessionId, selector: '#name', text: name })).value).toBe(name);
    const clicked = expectSuccess(await call(client, 'click', { sessionId, selector: '#submit' }));
    expect(clicked).toMatchObject({ success: true, url: fixture.urlFor('/submit'), title: 'Submitted' });
    expect(fixture.posts.some((post) => post.fields.name === name)).toBe(true);
    expectSuccess(await call(client, 'close_session', { sessionId }));
    expectError(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/') }), 'SESSION_NOT_FOUND', sessionId);
  });

  it('cancelling a slow navigate stops it at once, and the session serves the call queued behind it', async () => {
    const client = await open(connect);
    const sessionId = await createSession(client);
    expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    const hangs = fixture.requests.filter((path) => path === '/hang').length;
    const controller = new AbortController();
    const slow = client.callTool({ name: 'navigate', arguments: { sessionId, url: fixture.urlFor('/hang'), timeout: 60_000 } }, undefined, {
      signal: controller.signal,
      timeout: 120_000,
    });
    await waitFor(() => fixture.requests.filter((path) => path === '/hang').length > hangs, { timeout: 15_000 });
    // Queued behind the hanging navigation on the same session.
    const queued = call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') });
    const cancelledAt = Date.now();
    controller.abort('the user changed their mind');
    // The SDK client rejects the cancelled call by itself; what counts is the server letting go of the session.
    slow.catch(() => {});
    expect(expectSuccess(await queued).title).toBe('Form');
    // Well under the 60 s the navigation would have waited.
    expect(Date.now() - cancelledAt).toBeLessThan(10_000);
    const next = Date.now();
    expect(expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/buttons') })).title).toBe('Buttons');
    expect(Date.now() - next).toBeLessThan(5_000);
  });
});

describe('two clients at once', () => {
  it('keep their sessions isolated, see only their own in list_sessions, and run in parallel', async () => {
    const [alpha, beta] = await Promise.all([open(TRANSPORTS[0]![1]), open(TRANSPORTS[1]![1])]);
    const [a, b] = await Promise.all([createSession(alpha), createSession(beta)]);
    await Promise.all([
      call(alpha, 'navigate', { sessionId: a, url: fixture.urlFor('/pages/storage?set=alpha') }).then(expectSuccess),
      call(beta, 'navigate', { sessionId: b, url: fixture.urlFor('/pages/storage?set=beta') }).then(expectSuccess),
    ]);
    const [seenByAlpha, seenByBeta] = await Promise.all([
      call(alpha, 'navigate', { sessionId: a, url: fixture.urlFor('/pages/whoami') }).then(expectSuccess),
      call(beta, 'navigate', { sessionId: b, url: fixture.urlFor('/pages/whoami') }).then(expectSuccess),
    ]);
    expect(seenByAlpha.title).toBe('cookie=k=alpha;ls=alpha');
    expect(seenByBeta.title).toBe('cookie=k=beta;ls=beta');

    const listed = async (client: Client) => (expectSuccess(await call(client, 'list_sessions')).sessions as { sessionId: string }[]).map((s) => s.sessionId);
    expect(await listed(alpha)).toEqual([a]);
    expect(await listed(beta)).toEqual([b]);

    // Three 4-second page loads in three sessions on two connections: about 4 s together, 12 s one after the other.
    const c = await createSession(alpha);
    const started = Date.now();
    await Promise.all([
      call(alpha, 'navigate', { sessionId: a, url: fixture.urlFor('/wait?ms=4000') }).then(expectSuccess),
      call(beta, 'navigate', { sessionId: b, url: fixture.urlFor('/wait?ms=4000') }).then(expectSuccess),
      call(alpha, 'navigate', { sessionId: c, url: fixture.urlFor('/wait?ms=4000') }).then(expectSuccess),
    ]);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});

describe('connections come and go; sessions stay', () => {
  it('a client whose SSE connection dropped reconnects over Streamable HTTP and goes on with its sessionId', async () => {
    const { client: first, transport } = await connectSse(`${server.base}/sse`);
    clients.push(first);
    const sessionId = await createSession(first);
    expectSuccess(await call(first, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    // The stream's own endpoint for posting messages, which answers 404 once the server has seen the stream close.
    const endpoint = (transport as unknown as { _endpoint: URL })._endpoint;
    await first.close();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await waitFor(
      async () => (await rawRequest(server.base, { path: `${endpoint.pathname}${endpoint.search}`, headers: JSON_POST, body: ping })).status === 404,
    );

    const second = await open(TRANSPORTS[0]![1]);
    const typed = expectSuccess(await call(second, 'type', { sessionId, selector: '#name', text: 'still here' }));
    expect(typed).toMatchObject({ value: 'still here', title: 'Form' });
    // list_sessions is per connection: the new one did not create it.
    expect(expectSuccess(await call(second, 'list_sessions')).sessions).toEqual([]);
    expectSuccess(await call(second, 'close_session', { sessionId }));
  });

  it('an MCP session ended with DELETE answers 404, so the client initializes again', async () => {
    const { client, transport } = await connectStreamable(server.base);
    clients.push(client);
    const id = transport.sessionId!;
    await transport.terminateSession();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const ended = await rawRequest(server.base, { headers: { ...JSON_POST, 'Mcp-Session-Id': id }, body: ping });
    expect(ended.status).toBe(404);
    expect(ended.json.error.code).toBe(-32001);
    const unknown = await rawRequest(server.base, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': 'no-such-session' } });
    expect(unknown.status).toBe(404);
    // A new initialize works at once.
    const fresh = await rawRequest(server.base, { headers: JSON_POST, body: INITIALIZE });
    expect(fresh.status).toBe(200);
    expect(validate(String(fresh.headers['mcp-session-id']))).toBe(true);
  });
});

describe('progress and logging', () => {
  it('navigate sends progress (started, committed, loaded) to a client that gave a progressToken', async () => {
    const client = await open(TRANSPORTS[0]![1]);
    const sessionId = await createSession(client);
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'navigate', arguments: { sessionId, url: fixture.urlFor('/pages/slow-image') } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result.isError).toBeFalsy();
    expect(progress.map((update) => update.progress)).toEqual([0, 1, 2]);
    expect(progress.every((update) => update.total === 2 && typeof update.message === 'string')).toBe(true);
  });

  it('wait_for sends progress once a second while it waits: the time waited, out of its timeout', async () => {
    const client = await open(TRANSPORTS[2]![1]);
    const sessionId = await createSession(client);
    expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/later') }));
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'wait_for', arguments: { sessionId, text: 'ready now', timeout: 20_000 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((update, index) => update.total === 20_000 && (index === 0 || update.progress > progress[index - 1]!.progress))).toBe(true);
  });

  it('honours logging/setLevel: per-call debug lines reach a client only once it asks for debug', async () => {
    const client = await open(TRANSPORTS[1]![1]);
    const messages: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));
    expectSuccess(await call(client, 'list_sessions'));
    await client.setLoggingLevel('debug');
    expectSuccess(await call(client, 'create_session'));
    await waitFor(() => messages.some((message) => String(message.data).startsWith('create_session ok')), { timeout: 5_000 });
    // Before setLevel the default was info: the first call's debug line was not sent.
    expect(messages.some((message) => String(message.data).startsWith('list_sessions'))).toBe(false);
    expect(messages.every((message) => message.logger === 'sessionwright')).toBe(true);
    await client.setLoggingLevel('warning');
    const count = messages.length;
    expectSuccess(await call(client, 'list_sessions'));
    expect(messages.length).toBe(count);
  });
});

describe('cancelling a call that waits for something other than a page load', () => {
  it('replaces the page of a cancelled call that does not let go, so the next call runs at once', async () => {
    const client = await open(TRANSPORTS[0]![1]);
    const sessionId = await createSession(client);
    expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/storage?set=kept') }));
    const controller = new AbortController();
    const logged = server.stderr().length;
    // Playwright cannot abort an element wait: without the page being replaced this click would hold the session for 60 s.
    const clicking = client.callTool({ name: 'click', arguments: { sessionId, selector: '#never-there', timeout: 60_000 } }, undefined, {
      signal: controller.signal,
    });
    await waitForOutput(server.stderr, /waiting for locator\('#never-there'\)/, { from: logged });
    const cancelledAt = Date.now();
    controller.abort();
    await expect(clicking).rejects.toThrow();
    // The fresh page is in the same context: the cookie and localStorage the old page set are still there.
    const next = expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/whoami') }));
    expect(next.title).toBe('cookie=k=kept;ls=kept');
    expect(Date.now() - cancelledAt).toBeLessThan(15_000);
  });

  it('stops a cancelled wait_for within moments and frees the session', async () => {
    const client = await open(TRANSPORTS[0]![1]);
    const sessionId = await createSession(client);
    expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    const controller = new AbortController();
    // wait_for reports progress the moment its wait on the page begins.
    let waitBegan!: () => void;
    const began = new Promise<void>((resolve) => (waitBegan = resolve));
    const waiting = client.callTool({ name: 'wait_for', arguments: { sessionId, text: 'never on this page', timeout: 60_000 } }, undefined, {
      signal: controller.signal,
      onprogress: () => waitBegan(),
    });
    await began;
    const cancelledAt = Date.now();
    controller.abort();
    waiting.catch(() => {});
    expect(expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') })).title).toBe('Form');
    expect(Date.now() - cancelledAt).toBeLessThan(8_000);
  });
});
