// --profile playwright: @playwright/mcp's tool names and shapes as listed over stdio, an answer as a client reads it off the pipe, and the implicit session of each connection, stdio or HTTP (what the tools do: packages/tools/test/playwright-profile.test.ts).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { silentLogger } from '@sessionwright/session-core/parts';
import { playwrightProfile } from '@sessionwright/tools';
import { startFixtureServer, waitFor, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, startHttpServer, type HttpServerHandle, type SessionwrightServer } from '../src/index.js';
import { call, expectSuccess, startCli } from './helpers.js';
import { connectSse, connectStreamable } from './http-helpers.js';

let fixture: FixtureServer;
beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
});

describe('--profile playwright over stdio, as an @playwright/mcp client uses it', () => {
  let server: StdioConnection;
  beforeAll(async () => {
    server = await startCli(['--profile', 'playwright']);
  });
  afterAll(async () => {
    await server?.close();
  });
  it('lists the browser_* tools and the session tools, each fully described', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((entry) => entry.name)).toEqual(playwrightProfile().tools.map((entry) => entry.name));
    for (const name of [
      'browser_navigate',
      'browser_snapshot',
      'browser_click',
      'browser_type',
      'browser_close',
      'create_session',
      'close_session',
      'list_sessions',
    ]) {
      expect(tools.map((entry) => entry.name)).toContain(name);
    }
    expect(tools.map((entry) => entry.name)).not.toContain('navigate');
    for (const entry of tools) {
      expect(entry.title && entry.description && entry.outputSchema && entry.annotations, entry.name).toBeTruthy();
      const properties = entry.inputSchema.properties ?? {};
      if (entry.name.startsWith('browser_')) {
        expect(Object.keys(properties), entry.name).toContain('sessionId');
        expect(entry.inputSchema.required ?? [], entry.name).not.toContain('sessionId');
      }
    }
  });

  it('answers a call without a sessionId over the pipe, content[0].text the JSON a client reads: url, title and the snapshot with refs', async () => {
    expectSuccess(await call(server.client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const result = await server.client.callTool({ name: 'browser_snapshot', arguments: {} });
    const first = (result.content as { type: string; text?: string }[])[0];
    expect(first?.type).toBe('text');
    const data = JSON.parse(first?.text ?? '');
    expect(data).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home' });
    expect(data.snapshot).toMatch(/link "Form" \[ref=e\d+\]/);
  });
});

describe('the implicit session of each connection', () => {
  let runtime: SessionwrightServer;
  let http: HttpServerHandle;
  beforeAll(async () => {
    runtime = createServer({ headless: true, profile: 'playwright', warmSessions: 0 }, silentLogger);
    http = await startHttpServer(runtime, { port: 0, host: '127.0.0.1', allowedHosts: [], allowedOrigins: [], authToken: undefined });
  });
  afterAll(async () => {
    await http?.close();
    await runtime?.close();
  });

  it('is created lazily, once for calls that arrive together, and closed when the connection ends', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await runtime.connect(serverSide);
    const client = new Client({ name: 'implicit-test', version: '0.0.0' });
    await client.connect(clientSide);
    await client.listTools();
    expect(runtime.manager.size).toBe(0);
    const results = await Promise.all([
      call(client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }),
      call(client, 'browser_snapshot'),
      call(client, 'browser_evaluate', { function: '() => 1' }),
    ]);
    for (const result of results) expectSuccess(result);
    expect(runtime.manager.size).toBe(1);
    await client.close();
    await waitFor(() => runtime.manager.size === 0, { timeout: 10_000 });
  });

  it('is its own per HTTP connection (legacy SSE at the bare URL and at /sse, Streamable HTTP), and ends with it', async () => {
    const [bare, sse, streamable] = await Promise.all([connectSse(`${http.url}`), connectSse(`${http.url}/sse`), connectStreamable(http.url)]);
    const visits = [
      { client: bare.client, path: '/pages/home', title: 'Home' },
      { client: sse.client, path: '/pages/form', title: 'Form' },
      { client: streamable.client, path: '/pages/buttons', title: 'Buttons' },
    ];
    await Promise.all(visits.map(({ client, path }) => call(client, 'browser_navigate', { url: fixture.urlFor(path) })));
    for (const { client, title } of visits) {
      expect(expectSuccess(await call(client, 'browser_snapshot')).title).toBe(title);
      expect(expectSuccess(await call(client, 'list_sessions')).sessions).toHaveLength(1);
    }
    expect(runtime.manager.size).toBe(3);
    await bare.client.close();
    await waitFor(() => runtime.manager.size === 2, { timeout: 10_000 });
    expect(expectSuccess(await call(sse.client, 'browser_snapshot')).title).toBe('Form');
    await sse.client.close();
    // A Streamable HTTP connection ends when its client deletes it.
    await streamable.transport.terminateSession();
    await streamable.client.close();
    await waitFor(() => runtime.manager.size === 0, { timeout: 10_000 });
  });
});
