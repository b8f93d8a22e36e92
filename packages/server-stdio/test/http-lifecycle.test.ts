// HTTP mode over time: shutdown on signals, stdin left alone, keep-alive on quiet streams, idle and dropped connections.
import { silentLogger } from '@sessionwright/session-core/parts';
import { browserProcesses, holdsFor, isAlive, waitFor } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, startHttpServer, type HttpServerHandle, type SessionwrightServer } from '../src/index.js';
import { call, expectSuccess } from './helpers.js';
import { INITIALIZE, JSON_POST, connectSse, connectStreamable, openRawStream, rawRequest, startHttpCli } from './http-helpers.js';

describe.each(['SIGTERM', 'SIGINT'] as const)('%s', (signal) => {
  it('closes every connection, session and the browser, and exits 0 with no browser process left', async () => {
    const server = await startHttpCli([], { stdin: 'pipe' });
    try {
      const streamable = await connectStreamable(server.base);
      const sse = await connectSse(`${server.base}/sse`);
      expectSuccess(await call(streamable.client, 'create_session'));
      expectSuccess(await call(sse.client, 'create_session'));
      const browser = await browserProcesses(server.pid);
      expect(browser.length).toBeGreaterThan(0);

      // HTTP mode serves no stdio: stdin ending is not a reason to stop.
      server.process.stdin!.end();
      await holdsFor(() => server.process.exitCode === null && server.process.signalCode === null, 1_000, { what: 'the server running' });
      expect(expectSuccess(await call(streamable.client, 'list_sessions')).sessions).toHaveLength(1);

      const started = Date.now();
      server.process.kill(signal);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.stderr()).toContain(`${signal}: closing sessions and the browser`);
      await waitFor(() => browser.every((process) => !isAlive(process.pid)), { timeout: 5_000 });
      await Promise.all([streamable.client.close().catch(() => {}), sse.client.close().catch(() => {})]);
    } finally {
      await server.stop();
    }
  });
});

describe('an HTTP server with short keep-alive and idle intervals', () => {
  let runtime: SessionwrightServer;
  let http: HttpServerHandle;

  beforeAll(async () => {
    runtime = createServer({ headless: true, closeSessionsOnDisconnect: true }, silentLogger);
    // Loading Playwright for the launch blocks the event loop for a moment; let that pass before timing keep-alives.
    await runtime.host.browser();
    http = await startHttpServer(runtime, {
      port: 0,
      host: '127.0.0.1',
      allowedHosts: [],
      allowedOrigins: [],
      authToken: undefined,
      keepAliveMs: 200,
      connectionIdleMs: 500,
    });
  });
  afterAll(async () => {
    await http?.close();
    await runtime?.close();
  });

  it('sends a keep-alive comment on a quiet legacy SSE stream, at / as at /sse', async () => {
    for (const path of ['/sse', '/']) {
      const stream = await openRawStream(http.url, path);
      await stream.endpoint;
      await waitFor(() => (stream.text().match(/^: keepalive$/gm)?.length ?? 0) >= 2);
      stream.close();
      expect(stream.text().match(/^: keepalive$/gm)?.length ?? 0, path).toBeGreaterThanOrEqual(2);
    }
  });

  it('sends a keep-alive comment on a quiet Streamable HTTP GET stream', async () => {
    const init = await rawRequest(http.url, { headers: JSON_POST, body: INITIALIZE });
    const id = init.headers['mcp-session-id'] as string;
    const stream = await openRawStream(http.url, '/mcp', { 'Mcp-Session-Id': id });
    expect(stream.status).toBe(200);
    await waitFor(() => (stream.text().match(/^: keepalive$/gm)?.length ?? 0) >= 2);
    stream.close();
    expect(stream.text().match(/^: keepalive$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it('closes a Streamable HTTP connection left idle, so its id answers 404, but not while its GET stream is open', async () => {
    // The connections other tests opened close first, so that the count below is this test's own.
    await waitFor(() => runtime.connections === 0);
    const idle = (await rawRequest(http.url, { headers: JSON_POST, body: INITIALIZE })).headers['mcp-session-id'] as string;
    const watched = (await rawRequest(http.url, { headers: JSON_POST, body: INITIALIZE })).headers['mcp-session-id'] as string;
    const stream = await openRawStream(http.url, '/mcp', { 'Mcp-Session-Id': watched });
    // The idle connection closes after connectionIdleMs (500); the watched one stays open for longer than that.
    await waitFor(() => runtime.connections === 1);
    await holdsFor(() => runtime.connections === 1, 700, { what: 'the watched connection open' });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect((await rawRequest(http.url, { headers: { ...JSON_POST, 'Mcp-Session-Id': idle }, body: ping })).status).toBe(404);
    expect((await rawRequest(http.url, { headers: { ...JSON_POST, 'Mcp-Session-Id': watched }, body: ping })).status).toBe(200);
    stream.close();
  });

  it('--close-sessions-on-disconnect closes the sessions of a connection that ends (SSE dropped, Streamable HTTP deleted)', async () => {
    const sse = await connectSse(`${http.url}/sse`);
    const streamable = await connectStreamable(http.url);
    const other = await connectStreamable(http.url);
    expectSuccess(await call(sse.client, 'create_session'));
    expectSuccess(await call(streamable.client, 'create_session'));
    const kept = expectSuccess(await call(other.client, 'create_session')).sessionId;
    expect(runtime.manager.size).toBe(3);

    await sse.client.close();
    await waitFor(() => runtime.manager.size === 2, { timeout: 5_000 });
    await streamable.transport.terminateSession();
    await streamable.client.close();
    await waitFor(() => runtime.manager.size === 1, { timeout: 5_000 });
    expect(expectSuccess(await call(other.client, 'list_sessions')).sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([kept]);
    await other.client.close();
  });
});
