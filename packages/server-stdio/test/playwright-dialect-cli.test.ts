// --profile playwright started as @playwright/mcp's users start it, over a real stdio pipe: their command lines, PLAYWRIGHT_MCP_* variables and config files shape every session (viewport, user agent, device, storage state, permissions, proxy, init script, request origins, timeouts, caps).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { playwrightProfile } from '@sessionwright/tools';
import { callJson, startFixtureServer, startForwardProxy, type FixtureServer, type ForwardProxy, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, startCli } from './helpers.js';
import { connectSse, startHttpCli } from './http-helpers.js';

const PROXY_PASSWORD = 'pr0xy-pa55-7e1d';

let fixture: FixtureServer;
let proxy: ForwardProxy;
let scratch: string;
const servers: StdioConnection[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer();
  proxy = await startForwardProxy({ hosts: { 'only-via-proxy.test': fixture.url }, credentials: { username: 'proxy-user', password: PROXY_PASSWORD } });
  scratch = mkdtempSync(path.join(tmpdir(), 'sw-dialect-cli-'));
  fixture.addPage('console', '<!doctype html><title>Console</title><script>console.log("info-line"); console.error("error-line");</script><p>logged</p>');
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await proxy?.close();
  await fixture?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** This process's environment without SESSIONWRIGHT_* or PLAYWRIGHT_MCP_* variables, plus the given ones. */
function cleanEnv(vars: Record<string, string> = {}): Record<string, string> {
  const base = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !/^(SESSIONWRIGHT|PLAYWRIGHT_MCP)_/.test(entry[0]),
  );
  return { ...Object.fromEntries(base), ...vars };
}

/** The built CLI with `--profile playwright` added to a command line written for @playwright/mcp. */
async function asPlaywrightMcp(flags: string[], vars: Record<string, string> = {}): Promise<StdioConnection> {
  const server = await startCli(['--profile', 'playwright', ...flags], { env: cleanEnv(vars) });
  servers.push(server);
  return server;
}

const evaluate = async (server: StdioConnection, fn: string, sessionId?: string) =>
  expectSuccess(await call(server.client, 'browser_evaluate', { function: fn, ...(sessionId === undefined ? {} : { sessionId }) })).result;

const navigate = async (server: StdioConnection, url: string, sessionId?: string) =>
  expectSuccess(await call(server.client, 'browser_navigate', { url, ...(sessionId === undefined ? {} : { sessionId }) }));

/** The server's stderr lines that name a flag as accepted without an effect. */
const unmeantLines = (server: StdioConnection) =>
  server
    .stderrText()
    .split('\n')
    .filter((line) => line.includes('accepted'));

describe('command lines written for @playwright/mcp', () => {
  it("a benchmark harness's line starts, works and says nothing about its flags", async () => {
    const server = await asPlaywrightMcp(['--headless', '--isolated', '--no-sandbox', '--browser', 'chromium', '--viewport-size', '1280,720']);
    expect(expectSuccess(await call(server.client, 'browser_navigate', { url: fixture.urlFor('/pages/home') })).title).toBe('Home');
    expect(await evaluate(server, '() => [innerWidth, innerHeight]')).toEqual([1280, 720]);
    expect(expectSuccess(await call(server.client, 'browser_snapshot')).snapshot).toContain('Fixture home');
    expect(unmeantLines(server)).toEqual([]);
  });

  it('a Claude Desktop line: storage state, user agent, viewport, permissions and an init script shape every session; --caps with every name brings every tool', async () => {
    const state = path.join(scratch, 'signed-in.json');
    writeFileSync(state, JSON.stringify({ cookies: [{ name: 'sid', value: 'signed-in-4b2', domain: '127.0.0.1', path: '/' }], origins: [] }));
    const init = path.join(scratch, 'marker.js');
    writeFileSync(init, "window.__initMarker = 'init-ran';");
    const server = await asPlaywrightMcp([
      '--isolated',
      `--storage-state=${state}`,
      '--user-agent=desk-agent/3',
      '--viewport-size=1024x768',
      '--grant-permissions',
      'geolocation',
      'clipboard-read',
      '--init-script',
      init,
      '--caps',
      'vision,pdf,devtools,network,storage,testing,config',
    ]);
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      playwrightProfile(['vision', 'pdf', 'devtools', 'network', 'storage', 'testing', 'config']).tools.map((tool) => tool.name),
    );

    await navigate(server, fixture.urlFor('/echo-cookie'));
    expect(await evaluate(server, "() => document.getElementById('cookies').textContent")).toBe('sid=signed-in-4b2');
    expect(await evaluate(server, '() => [innerWidth, innerHeight, navigator.userAgent, window.__initMarker]')).toEqual([
      1024,
      768,
      'desk-agent/3',
      'init-ran',
    ]);
    const permission = 'async (name) => (await navigator.permissions.query({ name })).state';
    expect(await evaluate(server, `() => (${permission})('geolocation')`)).toBe('granted');
    expect(await evaluate(server, `() => (${permission})('clipboard-read')`)).toBe('granted');

    // A session of its own starts with the same defaults, under its own options.
    const { sessionId } = expectSuccess(await call(server.client, 'create_session', { viewport: { width: 500, height: 400 } }));
    await navigate(server, fixture.urlFor('/echo-cookie'), sessionId);
    expect(
      await evaluate(server, "() => [innerWidth, navigator.userAgent, window.__initMarker, document.getElementById('cookies').textContent]", sessionId),
    ).toEqual([500, 'desk-agent/3', 'init-ran', 'sid=signed-in-4b2']);
    expect(unmeantLines(server)).toEqual([]);
  });

  it('--device on the command line over PLAYWRIGHT_MCP_MOBILE and PLAYWRIGHT_MCP_USER_AGENT; PLAYWRIGHT_MCP_TIMEOUT_ACTION bounds element actions', async () => {
    const server = await asPlaywrightMcp(['--device', 'iPhone 15'], {
      PLAYWRIGHT_MCP_MOBILE: '1',
      PLAYWRIGHT_MCP_USER_AGENT: 'env-agent/1',
      PLAYWRIGHT_MCP_TIMEOUT_ACTION: '400',
    });
    await navigate(server, fixture.urlFor('/pages/home'));
    // A phone's screen (its layout viewport is 980 wide on a page that sets none).
    const [width, agent, touch] = (await evaluate(server, '() => [screen.width, navigator.userAgent, navigator.maxTouchPoints]')) as [number, string, number];
    expect(width).toBe(393);
    expect(agent).toContain('iPhone');
    expect(touch).toBeGreaterThan(0);
    const missing = expectError(await callJson(server.client, 'browser_click', { target: '#no-such-element' }), 'ELEMENT_NOT_FOUND');
    expect(missing.details.timeout).toBe(400);
  });

  it("a config file in @playwright/mcp's shape, under its variables: context options, blocked origins, a navigation timeout", async () => {
    const config = path.join(scratch, 'playwright-mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        browser: {
          browserName: 'chromium',
          launchOptions: { headless: true },
          contextOptions: { viewport: { width: 900, height: 700 }, userAgent: 'file-agent/1', locale: 'de-DE' },
        },
        network: { blockedOrigins: [`http://localhost:${fixture.port}`] },
        timeouts: { navigation: 1500 },
      }),
    );
    const server = await asPlaywrightMcp(['--config', config], { PLAYWRIGHT_MCP_VIEWPORT_SIZE: '640x480' });
    await navigate(server, fixture.urlFor('/pages/home'));
    expect(await evaluate(server, '() => [innerWidth, innerHeight, navigator.userAgent, navigator.language]')).toEqual([640, 480, 'file-agent/1', 'de-DE']);
    const blocked = expectError(await callJson(server.client, 'browser_navigate', { url: `http://localhost:${fixture.port}/pages/home` }), 'NAVIGATION_FAILED');
    expect(blocked.details.reason).toBe('ERR_BLOCKED_BY_CLIENT');
    const slow = expectError(await callJson(server.client, 'browser_navigate', { url: fixture.urlFor('/hang') }), 'NAVIGATION_FAILED');
    expect(slow.details.timeout).toBe(1500);
    // The failures left the connection's page usable.
    expect((await navigate(server, fixture.urlFor('/pages/home'))).title).toBe('Home');
  });

  it("--proxy-server with a password: every session's traffic goes through the proxy, and the password is never printed", async () => {
    const server = await asPlaywrightMcp(['--verbose', '--proxy-server', `http://proxy-user:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`]);
    expect((await navigate(server, 'http://only-via-proxy.test/pages/home')).title).toBe('Home');
    expect(proxy.requests.some((request) => request.url === 'http://only-via-proxy.test/pages/home' && request.authorized)).toBe(true);
    expect(server.stderrText()).not.toContain(PROXY_PASSWORD);
  });

  it('--allowed-origins lets the pages reach only those origins; --image-responses omit and --console-level error shape the results', async () => {
    const server = await asPlaywrightMcp(['--allowed-origins', `http://127.0.0.1:${fixture.port}`, '--image-responses', 'omit', '--console-level', 'error']);
    await navigate(server, fixture.urlFor('/pages/console'));
    const messages = expectSuccess(await call(server.client, 'browser_console_messages')).messages as Array<{ text: string }>;
    expect(messages.map((message) => message.text)).toEqual(['error-line']);
    const reach = (origin: string) =>
      `async () => { try { await fetch('${origin}/echo-cookie.json', { mode: 'no-cors' }); return 'reached'; } catch { return 'blocked'; } }`;
    expect(await evaluate(server, reach(`http://127.0.0.1:${fixture.port}`))).toBe('reached');
    expect(await evaluate(server, reach(`http://localhost:${fixture.port}`))).toBe('blocked');
    const shot = await call(server.client, 'browser_take_screenshot');
    expect(shot.isError).toBe(false);
    expect(shot.result.content.map((item: { type: string }) => item.type)).toEqual(['text']);
  });

  it('over HTTP as @playwright/mcp serves it (--port, --host, legacy SSE at the bare URL), with its flags shaping the page', async () => {
    const server = await startHttpCli(
      ['--profile', 'playwright', '--port', '0', '--host', 'localhost', '--headless', '--isolated', '--viewport-size', '700x500'],
      {
        env: cleanEnv(),
        onlyFlags: true,
      },
    );
    try {
      const { client } = await connectSse(server.base);
      try {
        expect(expectSuccess(await call(client, 'browser_navigate', { url: fixture.urlFor('/pages/home') })).title).toBe('Home');
        expect(expectSuccess(await call(client, 'browser_evaluate', { function: '() => [innerWidth, innerHeight]' })).result).toEqual([700, 500]);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('a flag without meaning here is said exactly once on stderr, however often it is given, and the server works', async () => {
    const server = await asPlaywrightMcp(['--extension', '--extension'], { PLAYWRIGHT_MCP_EXTENSION: 'true' });
    expect(unmeantLines(server)).toEqual([
      'sessionwright: --extension: accepted, no effect here: sessionwright launches or connects to its own browser; it does not drive the browser extension',
    ]);
    expect((await navigate(server, fixture.urlFor('/pages/home'))).title).toBe('Home');
  });
});
