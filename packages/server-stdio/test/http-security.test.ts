// HTTP mode is safe by default: Host checks, web pages refused, the bearer token, body limits, and refusing to run exposed.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/settings/options.js';
import { CLI_PATH, call, expectSuccess, run } from './helpers.js';
import { INITIALIZE, JSON_POST, connectSse, connectStreamable, openRawStream, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';

// Leading zeros on purpose: the token must reach the server exactly as typed, not as a number.
const TOKEN = '0012345678901234';
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
    // No Host at all: Node's HTTP server refuses such an HTTP/1.1 request itself (sent without a body, which the refusal would cut off).
    expect((await rawRequest(server.base, { method: 'GET', headers: { ...AUTH, Host: '' } })).status).toBe(400);
    for (const host of ['localhost', `localhost:${new URL(server.base).port}`, '127.0.0.1:1', '[::1]:8931']) {
      const accepted = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Host: host }, body: INITIALIZE });
      expect(accepted.status, host).toBe(200);
    }
    await goodClientStillWorks('/pages/buttons');
  });

  it('refuses what a browser sends for a web page, from any origin but its own, localhost ports included', async () => {
    const own = `http://127.0.0.1:${new URL(server.base).port}`;
    const refused: Array<Record<string, string>> = [
      ...['http://evil.example.com', 'https://localhost.evil.com', 'null', 'file://', 'http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:6274'].map(
        (origin) => ({ Origin: origin }),
      ),
      // Another localhost port is the same site: a dev server's page, or a page an agent opened.
      { Origin: 'http://127.0.0.1:3000', 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
      // Iframes, images and navigations carry no Origin, only Sec-Fetch-*.
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' },
      { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' },
      { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-User': '?1' },
      { 'Sec-Fetch-Mode': 'navigate' },
      { 'Sec-Fetch-Dest': 'iframe' },
    ];
    for (const headers of refused) {
      const post = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, ...headers }, body: INITIALIZE });
      expect(post.status, JSON.stringify(headers)).toBe(403);
      expect(post.headers['access-control-allow-origin']).toBeUndefined();
      const stream = await rawRequest(server.base, { method: 'GET', path: '/sse', headers: { ...AUTH, ...headers }, readFor: 500 });
      expect(stream.status, JSON.stringify(headers)).toBe(403);
    }
    expect(
      (await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, Origin: 'http://localhost:3000' }, body: INITIALIZE })).json.error.message,
    ).toMatch(/--allowed-origins http:\/\/localhost:3000/);
    // The server's own origin (its own responses are its only pages), and Node's fetch, which sends Sec-Fetch-Mode: cors alone.
    const served: Array<Record<string, string>> = [
      { Origin: own },
      { Origin: own, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' },
      { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
      { 'Sec-Fetch-Mode': 'cors' },
      {},
    ];
    for (const headers of served) {
      const allowed = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, ...headers }, body: INITIALIZE });
      expect(allowed.status, JSON.stringify(headers)).toBe(200);
    }
    // A preflight from a page that may not connect is refused too.
    const preflight = await rawRequest(server.base, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    await goodClientStillWorks('/pages/home');
  });

  it('answers a body over 32 MiB with 413 and garbage with a JSON-RPC parse error, on both transports', async () => {
    const big = Buffer.alloc(33 * 1024 * 1024, 'a');
    const tooLarge = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body: big });
    expect(tooLarge.status).toBe(413);
    for (const body of ['garbage', '{"jsonrpc": "2.0", "id": 1, "method": ', '', '{"id": 1, "token": "tok-0451f9"} trailing']) {
      const garbage = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body });
      expect(garbage.status, body).toBe(400);
      expect(garbage.json.error.code, body).toBe(-32700);
      // The answer says what is wrong, not what was sent.
      expect(garbage.json.error.message, body).not.toMatch(/garbage|jsonrpc|tok-0451f9|trailing/);
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

  it('answers a body nested too deep or made of too many values with 413 before parsing it, and takes a large flat one', async () => {
    const size = 32 * 1024 * 1024 - 1;
    const deep = Buffer.alloc(size, '[');
    const busy = Buffer.from(`[${'{},'.repeat(size / 3 - 1)}{}]`);
    // Bodies that cost JSON.parse tens of seconds (docs/performance.md); meanwhile the good client's calls go on.
    const [deepAnswer, busyAnswer] = await Promise.all([
      rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body: deep }),
      rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body: busy }),
      goodClientStillWorks('/pages/home'),
    ]);
    expect(deepAnswer.status).toBe(413);
    expect(deepAnswer.json.error.message).toMatch(/at most 64 deep/);
    expect(busyAnswer.status).toBe(413);
    expect(busyAnswer.json.error.message).toMatch(/at most 300000 strings, brackets/);
    // Within the bounds: 64 levels, and a 27 MB string (upload_file's 20 MB, base64) in an ordinary message.
    const nested = `${'['.repeat(60)}${']'.repeat(60)}`;
    const ping = (params: string) => `{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": ${params}}`;
    const session = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH }, body: INITIALIZE });
    const id = session.headers['mcp-session-id'] as string;
    for (const params of [`{"_meta": {"deep": ${nested}}}`, `{"_meta": {"file": "${'QUJD'.repeat(7_000_000)}"}}`]) {
      const answer = await rawRequest(server.base, {
        headers: { ...JSON_POST, ...AUTH, 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
        body: ping(params),
      });
      expect(answer.status, params.slice(0, 40)).toBe(200);
      expect(answer.body).toContain('"id":7');
    }
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

describe('secret header values on the HTTP side', () => {
  let server: HttpCli;
  beforeAll(async () => {
    server = await startHttpCli(['--auth-token', TOKEN, '--verbose']);
  });
  afterAll(() => server?.stop());

  it('are never echoed in an answer, an error or a log line, whatever the request', async () => {
    const secrets = {
      'X-JWT': 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.jwt-4c1f',
      'X-Signature': 'sig-8d2b91f0e7',
      Cookie: 'sid=cookie-5e3a7c',
      'X-Api-Key': 'key-b7e6d5',
    };
    const session = await rawRequest(server.base, { headers: { ...JSON_POST, ...AUTH, ...secrets }, body: INITIALIZE });
    const id = session.headers['mcp-session-id'] as string;
    const call = (id: number, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const requests: Array<Parameters<typeof rawRequest>[1]> = [
      { headers: { ...JSON_POST, ...AUTH, ...secrets, 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' }, body: call(2, 'create_session', {}) },
      {
        headers: { ...JSON_POST, ...AUTH, ...secrets, 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
        body: call(3, 'navigate', { sessionId: 'nope', url: 'x' }),
      },
      { headers: { ...JSON_POST, ...AUTH, ...secrets, 'Mcp-Session-Id': 'no-such-connection' }, body: INITIALIZE },
      { headers: { ...JSON_POST, ...secrets, Authorization: `Bearer ${secrets['X-Signature']}` }, body: INITIALIZE },
      { headers: { ...JSON_POST, ...AUTH, ...secrets, Host: 'evil.example.com' }, body: INITIALIZE },
      { headers: { ...JSON_POST, ...AUTH, ...secrets, Origin: 'https://evil.example.com' }, body: INITIALIZE },
      { headers: { ...JSON_POST, ...AUTH, ...secrets }, body: 'garbage' },
      { headers: { ...JSON_POST, ...AUTH, ...secrets }, body: '['.repeat(100) },
      { method: 'PUT', headers: { ...AUTH, ...secrets }, body: '{}' },
      { method: 'GET', path: '/nowhere', headers: { ...AUTH, ...secrets } },
      { path: '/messages?sessionId=nope', headers: { ...JSON_POST, ...AUTH, ...secrets }, body: '{}' },
    ];
    const answers = await Promise.all(requests.map((request) => rawRequest(server.base, request)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 401, 403, 403, 400, 413, 405, 404, 404]);
    const seen = [session, ...answers].map((answer) => JSON.stringify(answer.headers) + answer.body).join('\n') + server.stderr();
    expect(server.stderr()).toMatch(/create_session ok/);
    for (const value of [...Object.values(secrets), 'cookie-5e3a7c']) expect(seen).not.toContain(value);
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
    [['--auth-token', 'a-long-enough-token'], /--auth-token applies only to HTTP mode; add --port/],
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
      ['--port', '8931', '--auth-token', '0x10000000000000000', '--allowed-hosts', 'a.example, b.example', '--allowed-origins=https://app.example.com'],
      {},
    );
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        http: {
          port: 8931,
          host: '127.0.0.1',
          authToken: '0x10000000000000000',
          allowedHosts: ['a.example', 'b.example'],
          allowedOrigins: ['https://app.example.com'],
        },
        closeSessionsOnDisconnect: false,
      },
    });
    const fromEnv = parseArgs(['--port', '0', '--host', '0.0.0.0'], { SESSIONWRIGHT_AUTH_TOKEN: 's3cret-s3cret-s3cret' });
    expect(fromEnv).toMatchObject({ options: { http: { host: '0.0.0.0', authToken: 's3cret-s3cret-s3cret' } } });
    const flag = parseArgs(['--port', '0', '--authToken=0070070070070070'], { SESSIONWRIGHT_AUTH_TOKEN: 'env-env-env-env-env' });
    expect(flag).toMatchObject({ options: { http: { authToken: '0070070070070070' } } });
    expect(parseArgs([], { SESSIONWRIGHT_AUTH_TOKEN: 'env-env-env-env-env' })).toMatchObject({ options: { http: undefined } });
    expect(parseArgs(['--port', '0', '--host', '[::1]', '--close-sessions-on-disconnect'], {})).toMatchObject({
      options: { http: { host: '::1' }, closeSessionsOnDisconnect: true },
    });
  });
});
