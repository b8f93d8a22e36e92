// HTTP mode is safe by default: Host and Origin checks, the bearer token, body limits, and refusing to run exposed.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/options.js';
import { CLI_PATH, call, expectSuccess, run } from './helpers.js';
import { INITIALIZE, JSON_POST, connectSse, connectStreamable, openRawStream, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';

// Leading zeros on purpose: the token must reach the server exactly as typed, not as the number 123.
const TOKEN = '00123';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

describe('a server started with --auth-token', () => {
  let server: HttpCli;
  let fixture: FixtureServer;
  let good: Client;
  let sessionId: string;

  beforeAll(async () => {
    fixture = await startFixtureServer();
    server = await startHttpCli(['--auth-token', TOKEN]);
    good = (await connectStreamable(server.base, AUTH)).client;
    sessionId = expectSuccess(await call(good, 'create_session')).sessionId;
  });
  afterAll(async () => {
    await good?.close();
    await server?.stop();
    await fixture?.close();
  });

  /** The well-behaved client keeps working whatever the others send. */
  async function goodClientStillWorks(path: string) {
    expect(expectSuccess(await call(good, 'navigate', { sessionId, url: fixture.urlFor(path) })).status).toBe(200);
  }

  it('refuses a request without a token, or with a wrong one, with 401 and WWW-Authenticate', async () => {
    const missing = await rawRequest(server.base, { headers: JSON_POST, body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(missing.json.error.message).toMatch(/Authorization: Bearer/);
    for (const authorization of ['Bearer 123', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const wrong = await rawRequest(server.base, { headers: { ...JSON_POST, Authorization: authorization }, body: INITIALIZE });
      expect(wrong.status, authorization).toBe(401);
    }
    // Every endpoint, not only /mcp.
    for (const path of ['/sse', '/', '/messages?sessionId=x']) {
      expect((await rawRequest(server.base, { method: path.startsWith('/messages') ? 'POST' : 'GET', path, readFor: 500 })).status, path).toBe(401);
    }
    await goodClientStillWorks('/pages/home');
  });

  it('serves Streamable HTTP and SSE clients (at /sse and /) that send the token', async () => {
    const ok = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body: INITIALIZE });
    expect(ok.status).toBe(200);
    for (const url of [`${server.base}/sse`, `${server.base}/`]) {
      const { client } = await connectSse(url, AUTH);
      expect(expectSuccess(await call(client, 'list_sessions')).sessions).toEqual([]);
      await client.close();
    }
    await expect(connectSse(`${server.base}/sse`)).rejects.toThrow();
    await goodClientStillWorks('/pages/form');
  });

  it('refuses a Host that is not localhost with 403, before the token is looked at', async () => {
    for (const host of ['evil.example.com', 'evil.example.com:80', '10.0.0.1', 'localhost.evil.com']) {
      const refused = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Host: host }, body: INITIALIZE });
      expect(refused.status, host).toBe(403);
      expect(refused.json.error.message).toMatch(/Host/);
    }
    // No Host at all: Node's HTTP server refuses such an HTTP/1.1 request itself.
    expect((await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Host: '' }, body: INITIALIZE })).status).toBe(400);
    for (const host of ['localhost', `localhost:${new URL(server.base).port}`, '127.0.0.1:1', '[::1]:8931']) {
      const accepted = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Host: host }, body: INITIALIZE });
      expect(accepted.status, host).toBe(200);
    }
    await goodClientStillWorks('/pages/buttons');
  });

  it('refuses a present Origin that is not allowed with 403, and allows local origins with CORS headers', async () => {
    for (const origin of ['http://evil.example.com', 'https://localhost.evil.com', 'null', 'file://']) {
      const refused = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Origin: origin }, body: INITIALIZE });
      expect(refused.status, origin).toBe(403);
      expect(refused.json.error.message).toMatch(/Origin/);
    }
    for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:6274']) {
      const allowed = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Origin: origin }, body: INITIALIZE });
      expect(allowed.status, origin).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe(origin);
      expect(allowed.headers['access-control-expose-headers']).toMatch(/Mcp-Session-Id/);
    }
    // A browser's preflight carries no token and is answered anyway.
    const preflight = await rawRequest(server.base, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/);
    await goodClientStillWorks('/pages/home');
  });

  it('answers a body over 32 MiB with 413 and garbage with a JSON-RPC parse error, on both transports', async () => {
    const big = Buffer.alloc(33 * 1024 * 1024, 'a');
    const tooLarge = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body: big });
    expect(tooLarge.status).toBe(413);
    for (const body of ['garbage', '{"jsonrpc": "2.0", "id": 1, "method": ', '']) {
      const garbage = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body });
      expect(garbage.status, body).toBe(400);
      expect(garbage.json.error.code, body).toBe(-32700);
    }
    // Legacy SSE: the same limits on the endpoint a stream announces.
    const stream = await openRawStream(server.base, '/sse', AUTH);
    try {
      const endpoint = await stream.endpoint;
      expect(endpoint).toMatch(/^\/messages\?sessionId=/);
      const headers = { 'Content-Type': 'application/json', ...AUTH };
      expect((await rawRequest(server.base, { path: endpoint, headers, body: big })).status).toBe(413);
      const garbage = await rawRequest(server.base, { path: endpoint, headers, body: 'garbage' });
      expect(garbage.status).toBe(400);
      expect(garbage.json.error.code).toBe(-32700);
      const ping = await rawRequest(server.base, { path: endpoint, headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) });
      expect(ping.status).toBe(202);
    } finally {
      stream.close();
    }
    const unknown = await rawRequest(server.base, {
      path: '/messages?sessionId=no-such-stream',
      headers: { 'Content-Type': 'application/json', ...AUTH },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    await goodClientStillWorks('/pages/form');
  });

  it('keeps serving the good client while bad requests arrive at the same time', async () => {
    const bad = Array.from({ length: 20 }, (_, index) =>
      rawRequest(server.base, {
        headers: { ...JSON_POST, ...(index % 2 ? { Authorization: 'Bearer nope' } : { Host: 'evil.example.com' }) },
        body: index % 3 ? 'garbage' : INITIALIZE,
      }),
    );
    await Promise.all([goodClientStillWorks('/pages/home'), goodClientStillWorks('/pages/form'), ...bad]);
    expect((await Promise.all(bad)).every((response) => response.status === 401 || response.status === 403)).toBe(true);
    await goodClientStillWorks('/pages/buttons');
  });
});

describe('refusing to start unsafe, and the HTTP flags', () => {
  it('binding a non-loopback address without a token exits 2 with one clear line', async () => {
    const result = await run(process.execPath, [CLI_PATH, '--port', '0', '--host', '0.0.0.0']);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/refusing to listen on 0\.0\.0\.0 without a token.*--auth-token.*--allow-unauthenticated/);
  });

  it.each([
    [['--port', '70000'], /--port 70000: must be a port number/],
    [['--port', 'abc'], /--port abc: must be a port number/],
    [['--auth-token', 'x'], /--auth-token applies only to HTTP mode; add --port/],
    [['--host', '127.0.0.1'], /--host applies only to HTTP mode/],
    [['--port', '0', '--allowed-origins', 'https://app.example.com/path'], /--allowed-origins/],
    [['--port', '0', '--auth-token='], /--auth-token needs a value/],
  ])('%j exits 2', async (flags, message) => {
    const result = await run(process.execPath, [CLI_PATH, ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('parses the HTTP flags, keeps the token verbatim, and reads it from SESSIONWRIGHT_AUTH_TOKEN', () => {
    const parsed = parseArgs(
      ['--port', '8931', '--auth-token', '0x10', '--allowed-hosts', 'a.example, b.example', '--allowed-origins=https://app.example.com'],
      {},
    );
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        http: { port: 8931, host: '127.0.0.1', authToken: '0x10', allowedHosts: ['a.example', 'b.example'], allowedOrigins: ['https://app.example.com'] },
        closeSessionsOnDisconnect: false,
      },
    });
    const fromEnv = parseArgs(['--port', '0', '--host', '0.0.0.0'], { SESSIONWRIGHT_AUTH_TOKEN: 's3cret' });
    expect(fromEnv).toMatchObject({ options: { http: { host: '0.0.0.0', authToken: 's3cret' } } });
    const flag = parseArgs(['--port', '0', '--authToken=007'], { SESSIONWRIGHT_AUTH_TOKEN: 'env' });
    expect(flag).toMatchObject({ options: { http: { authToken: '007' } } });
    expect(parseArgs([], { SESSIONWRIGHT_AUTH_TOKEN: 'env' })).toMatchObject({ options: { http: undefined } });
    expect(parseArgs(['--port', '0', '--host', '[::1]', '--close-sessions-on-disconnect'], {})).toMatchObject({
      options: { http: { host: '::1' }, closeSessionsOnDisconnect: true },
    });
  });
});
