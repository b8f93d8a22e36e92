// Web pages cannot drive the server (docs/http.md): a real Chromium loads a page from another local port that aims iframes, images, EventSources, a form and fetch() at a tokenless server.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { chromium, type Browser, type Page, type Request } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSuccess, isUuidV4 } from './helpers.js';
import { JSON_POST, connectSse, connectStreamable, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';

/** How many slots the servers have: fewer than the page's streams, so a page that held any would lock the clients out. */
const MAX_CONNECTIONS = 3;

/**
 * The attacker's page, given `?server=<base>`: six iframes on /sse, two on the bare URL and two on /mcp, three images on
 * /sse, two EventSources, a form posted to /mcp, and a script that tries what an MCP client does (initialize, then
 * create_session) by fetch(). `window.attack` answers what the script got.
 */
const ATTACK_PAGE = `<!doctype html>
<html><head><title>Attack</title></head><body>
<iframe name="sink"></iframe>
<script>
const base = new URLSearchParams(location.search).get('server');
const add = (tag, attrs) => document.body.appendChild(Object.assign(document.createElement(tag), attrs));
for (const path of ['/sse', '/sse', '/sse', '/sse', '/sse', '/sse', '/', '/', '/mcp', '/mcp']) add('iframe', { src: base + path });
for (let i = 0; i < 3; i += 1) add('img', { src: base + '/sse?img=' + i });
window.streams = [new EventSource(base + '/sse?es=1'), new EventSource(base + '/sse?es=2')];
const form = add('form', { method: 'POST', action: base + '/mcp', enctype: 'text/plain', target: 'sink' });
form.appendChild(Object.assign(document.createElement('input'), { name: '{"jsonrpc":"2.0","id":1,"method":"initialize","x":"', value: '"}' }));
form.submit();
async function rpc(body, session) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (session) Object.assign(headers, { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' });
  const response = await fetch(base + '/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text);
  return { session: response.headers.get('mcp-session-id'), json: data ? JSON.parse(data[1]) : null };
}
window.attack = (async () => {
  try {
    const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '0' } } });
    await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
    const created = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_session', arguments: {} } }, init.session);
    return { sessionId: JSON.parse(created.json.result.content[0].text).sessionId };
  } catch (error) {
    return { refused: String(error) };
  }
})();
</script>
</body></html>`;

/** Every request the page makes to the server: the iframes, images, EventSources, the form and fetch() (its preflight aside). */
const PAGE_REQUESTS = 10 + 3 + 2 + 1 + 1;

let fixture: FixtureServer;
let browser: Browser;

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { attack: ATTACK_PAGE } });
  const executablePath = resolveExecutable({ browser: 'chromium', headless: true }).executablePath;
  browser = await chromium.launch({ headless: true, ...(executablePath === undefined ? {} : { executablePath }) });
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

/**
 * Opens the attack page against `server` and waits for each of its requests to the server to be answered or to fail;
 * answers what its script got, and the status of each answer the page was let see (the browser hides those it
 * blocks: images by ORB, fetch() and EventSource by CORS).
 */
async function attack(server: HttpCli): Promise<{ page: Page; outcome: { sessionId?: string; refused?: string }; statuses: number[] }> {
  const page = await browser.newPage();
  const statuses: number[] = [];
  const settled = new Set<Request>();
  page.on('response', (response) => {
    if (!response.url().startsWith(server.base)) return;
    statuses.push(response.status());
    settled.add(response.request());
  });
  page.on('requestfailed', (request) => {
    if (request.url().startsWith(server.base)) settled.add(request);
  });
  await page.goto(`${fixture.urlFor('/pages/attack')}?server=${encodeURIComponent(server.base)}`);
  const outcome = await page.evaluate(() => (window as unknown as { attack: Promise<{ sessionId?: string; refused?: string }> }).attack);
  await waitFor(() => settled.size >= PAGE_REQUESTS, { timeout: 15_000 });
  return { page, outcome, statuses };
}

const EventSource_OPEN = 1;
const EventSource_CLOSED = 2;

/** The readyState of the page's two EventSources. */
function eventSourceStates(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { streams: EventSource[] }).streams.map((stream) => stream.readyState));
}

/** Connects `count` SDK clients at once (legacy SSE and Streamable HTTP), calls a tool on each, and closes them. */
async function clientsConnect(server: HttpCli, count: number): Promise<void> {
  const clients: Client[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const { client } = index % 2 ? await connectSse(`${server.base}/sse`) : await connectStreamable(server.base);
      clients.push(client);
      expect(expectSuccess(await call(client, 'list_sessions')).sessions).toEqual([]);
    }
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

describe('a tokenless server on loopback, with no --allowed-origins', () => {
  let server: HttpCli;
  beforeAll(async () => {
    server = await startHttpCli(['--max-connections', String(MAX_CONNECTIONS)]);
  });
  afterAll(() => server?.stop());

  it('answers 403 to everything a page on another localhost port sends, and the page holds no connection slot', async () => {
    const { page, outcome, statuses } = await attack(server);
    try {
      // fetch() is refused at its preflight: the page learns nothing, not even the status.
      expect(outcome.sessionId).toBeUndefined();
      expect(outcome.refused).toMatch(/Failed to fetch/);
      // The iframes and the form show 403; the rest the browser blocked, so the page never saw their answers.
      expect(statuses.length).toBeGreaterThanOrEqual(10 + 1);
      expect(new Set(statuses)).toEqual(new Set([403]));
      expect(await eventSourceStates(page)).toEqual([EventSource_CLOSED, EventSource_CLOSED]);
      // With the page still open, every slot is free for MCP clients.
      await clientsConnect(server, MAX_CONNECTIONS);
    } finally {
      await page.close();
    }
  });
});

describe('a server that lists the page origin in --allowed-origins', () => {
  let server: HttpCli;
  beforeAll(async () => {
    server = await startHttpCli(['--max-connections', String(MAX_CONNECTIONS), '--allowed-origins', fixture.url]);
  });
  afterAll(() => server?.stop());

  it("lets that origin's fetch() drive it, but still refuses its iframes, images and navigations, which carry no Origin", async () => {
    const { page, outcome, statuses } = await attack(server);
    try {
      expect(outcome.refused).toBeUndefined();
      expect(isUuidV4(outcome.sessionId), String(outcome.sessionId)).toBe(true);
      // EventSource sends the Origin too, so its streams are served.
      await waitFor(async () => (await eventSourceStates(page)).every((state) => state === EventSource_OPEN), { timeout: 10_000 });
      expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    } finally {
      await page.close();
    }
  });
});

describe('a server that accepts any Host (--allowed-hosts *)', () => {
  let server: HttpCli;
  beforeAll(async () => {
    server = await startHttpCli(['--allowed-hosts', '*']);
  });
  afterAll(() => server?.stop());

  it('does not take a page of any name for its own: a DNS-rebinding page is refused, the real own origin is served', async () => {
    const port = new URL(server.base).port;
    const rebound = `evil.example.com:${port}`;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    const post = await rawRequest(server.base, { headers: { ...JSON_POST, Host: rebound, Origin: `http://${rebound}` }, body: initialize });
    expect(post.status).toBe(403);
    const stream = await rawRequest(server.base, {
      method: 'GET',
      path: '/sse',
      headers: { Host: rebound, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
      readFor: 500,
    });
    expect(stream.status).toBe(403);
    const own = await rawRequest(server.base, { headers: { ...JSON_POST, Host: `localhost:${port}`, Origin: `http://localhost:${port}` }, body: initialize });
    expect(own.status).toBe(200);
  });
});
