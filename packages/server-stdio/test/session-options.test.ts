// create_session's secret options over a real stdio pipe: none of them reaches the server's log (--verbose), and tools/list shows a length limit for every string and list of the options (what the options do: packages/tools/test/session-options.test.ts).
import { BASIC_AUTH, startFixtureServer, startForwardProxy, type FixtureServer, type ForwardProxy, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, startCli } from './helpers.js';

const SECRETS = { proxyPassword: 'proxy-pw-4d1e', httpPassword: 'http-pw-8c2b', cookieValue: 'cookie-val-61f0', header: 'header-token-0a9e' };

let fixture: FixtureServer;
let proxy: ForwardProxy;
let server: StdioConnection;

beforeAll(async () => {
  fixture = await startFixtureServer();
  proxy = await startForwardProxy({ hosts: { 'only-via-proxy.test': fixture.url }, credentials: { username: 'proxy-user', password: SECRETS.proxyPassword } });
  // --verbose: every debug line goes to stderr too, so the secret checks below see all the server logs.
  server = await startCli(['--verbose', '--max-sessions', '5', '--caps', 'network']);
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await fixture?.close();
});

const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);

describe('secret session options and the log', () => {
  it('writes no proxy or HTTP password, header value or cookie value of the options to the log, through creating, using and listing', async () => {
    const [phone, desk] = await Promise.all([
      tool('create_session', {
        device: 'Pixel 7',
        proxy: { server: proxy.url, username: 'proxy-user', password: SECRETS.proxyPassword },
        httpCredentials: { username: BASIC_AUTH.username, password: BASIC_AUTH.password },
        extraHTTPHeaders: { 'X-Api-Token': SECRETS.header, 'X-Team': 'mobile' },
      }),
      tool('create_session', {
        viewport: { width: 1000, height: 640 },
        storageState: { cookies: [{ name: 'pref', value: SECRETS.cookieValue, domain: '127.0.0.1', path: '/' }], origins: [] },
      }),
    ]);
    const ids = [expectSuccess(phone).sessionId as string, expectSuccess(desk).sessionId as string];
    expectSuccess(await tool('navigate', { sessionId: ids[0], url: 'http://only-via-proxy.test/echo-headers.json' }));
    expectSuccess(await tool('navigate', { sessionId: ids[1], url: fixture.urlFor('/pages/home') }));
    expectError(
      await tool('navigate', { sessionId: ids[1], url: 'http://only-via-proxy.test/echo-headers.json', timeout: 15_000 }),
      'NAVIGATION_FAILED',
      ids[1],
    );
    expectSuccess(await tool('list_sessions'));
    expect(server.stderrText()).toContain('create_session ok');
    for (const secret of Object.values(SECRETS)) expect(server.stderrText()).not.toContain(secret);
    expect(server.stderrText()).not.toContain(BASIC_AUTH.password);
    await Promise.all(ids.map((sessionId) => tool('close_session', { sessionId })));
  });

  it('writes no header value given to a session or to emulate to the log, nor of a request shown', async () => {
    const given = { 'X-JWT': 'eyJhbGciOiJIUzI1NiJ9.jwt-value-7c31', 'X-Signature': 'signature-value-5e08', 'X-Team': 'team-value-91ab' };
    const { sessionId } = expectSuccess(await tool('create_session', { extraHTTPHeaders: given }));
    expectSuccess(await tool('emulate', { sessionId, extraHTTPHeaders: { 'X-Request-Sig': 'emulated-value-33d2' } }));
    expectSuccess(await tool('emulate', { sessionId, extraHTTPHeaders: given }));
    expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    const requests = expectSuccess(await tool('network_requests', { sessionId })).requests as { id: string; url: string }[];
    const page = requests.find((request) => request.url.endsWith('/pages/home'));
    expect(page).toBeDefined();
    expectSuccess(await tool('network_request', { sessionId, id: page?.id }));
    expectSuccess(await tool('list_sessions'));
    for (const secret of [...Object.values(given), 'emulated-value-33d2']) expect(server.stderrText()).not.toContain(secret);
    expectSuccess(await tool('close_session', { sessionId }));
  });
});

describe('tools/list', () => {
  it('lists a length limit for every string and list of the session options, in create_session and in emulate', async () => {
    const { tools } = await server.client.listTools();
    /** Paths in a JSON schema of a string without maxLength (and not an enum) or a list without maxItems. */
    const unbounded = (schema: unknown, at: string): string[] => {
      if (typeof schema !== 'object' || schema === null) return [];
      const node = schema as Record<string, unknown>;
      const own =
        (node.type === 'string' && node.maxLength === undefined && node.enum === undefined) || (node.type === 'array' && node.maxItems === undefined)
          ? [at]
          : [];
      return [...own, ...Object.entries(node).flatMap(([key, value]) => unbounded(value, `${at}/${key}`))];
    };
    const properties = (name: string) => (tools.find((entry) => entry.name === name)?.inputSchema.properties ?? {}) as Record<string, unknown>;
    expect(Object.keys(properties('create_session'))).toContain('extraHTTPHeaders');
    expect(unbounded(properties('create_session'), 'create_session')).toEqual([]);
    // emulate takes some of the same options (its sessionId is the tools layer's, not an option).
    const { sessionId: _sessionId, ...emulateOptions } = properties('emulate');
    expect(Object.keys(emulateOptions)).toContain('extraHTTPHeaders');
    expect(unbounded(emulateOptions, 'emulate')).toEqual([]);
  });
});
