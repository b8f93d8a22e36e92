// Live views over HTTP with client identities: links on the server's own listener, another identity refused, the page checked for its host and origin; and the MCP App that shows the view inside a host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resolveExecutable } from '@sessionwright/session-core';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess } from './helpers.js';
import { connectStreamable, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';

const ALICE = 'alice-token-5c1e9a';
const BOB = 'bob-token-0d8f42';

let dir: string;
let server: HttpCli;
let fixture: FixtureServer;
let browser: Browser;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-live-http-'));
  const tokensFile = path.join(dir, 'tokens');
  writeFileSync(tokensFile, `alice ${ALICE}\nbob ${BOB}\n`);
  fixture = await startFixtureServer();
  server = await startHttpCli(['--auth-tokens-file', tokensFile, '--caps', 'live']);
  alice = (await connectStreamable(server.base, { Authorization: `Bearer ${ALICE}` })).client;
  bob = (await connectStreamable(server.base, { Authorization: `Bearer ${BOB}` })).client;
  const executable = resolveExecutable({ browser: 'chromium', headless: true });
  browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
});
afterAll(async () => {
  await browser?.close();
  await alice?.close().catch(() => {});
  await bob?.close().catch(() => {});
  await server?.stop();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('live views over HTTP with identities', () => {
  it("serves the link on the server's own listener without a bearer token, and keeps another identity out", async () => {
    const sessionId = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    const { url } = expectSuccess(await call(alice, 'live_view', { sessionId }));
    expect(url.startsWith(`${server.base}/live/`)).toBe(true);

    // Bob cannot get a link to, or hand over, a session that is not his: as for an unknown id.
    expectError(await call(bob, 'live_view', { sessionId }), 'SESSION_NOT_FOUND', sessionId);
    expectError(await call(bob, 'request_human', { sessionId, message: 'let me in' }), 'SESSION_NOT_FOUND', sessionId);

    // A person's browser opens the link as it is (no Authorization header) and sees the session.
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => page.locator('#title').textContent(), { timeout: 10_000 }).toBe('Form');
    await page.close();

    // Without the token the MCP endpoint still refuses; a wrong live token shows nothing.
    expect((await rawRequest(server.base, { method: 'POST', body: '{}' })).status).toBe(401);
    const wrong = await rawRequest(server.base, { method: 'GET', path: new URL(url).pathname.replace(/[\w-]{43}\/$/, `${'z'.repeat(43)}/`) });
    expect(wrong.status).toBe(403);
    expect(wrong.body).not.toContain('<canvas');
    // A Host header that names another site (DNS rebinding) is refused before anything else.
    const rebound = await rawRequest(server.base, { method: 'GET', path: new URL(url).pathname, headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(403);
    expectSuccess(await call(alice, 'close_session', { sessionId }));
  });
});

describe('the MCP App', () => {
  it('declares the ui:// resource on live_view, serves it as text/html;profile=mcp-app, and shows the live page inside a host', async () => {
    const { tools } = await alice.listTools();
    const tool = tools.find((candidate) => candidate.name === 'live_view');
    const resourceUri = (tool?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect(resourceUri).toMatch(/^ui:\/\//);
    expect(tool?._meta?.['ui/resourceUri']).toBe(resourceUri);
    const { resources } = await alice.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(resourceUri);
    const read = await alice.readResource({ uri: resourceUri as string });
    const content = read.contents[0] as { mimeType: string; text: string; _meta?: { ui?: { csp?: { frameDomains?: string[] } } } };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    expect(content._meta?.ui?.csp?.frameDomains).toEqual([server.base]);

    const sessionId = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    const result = await alice.callTool({ name: 'live_view', arguments: { sessionId } });

    // A host: renders the resource in a frame, answers ui/initialize, then hands it the tool's result.
    fixture.addPage(
      'host',
      `<!doctype html><title>Host</title><iframe id="app" style="width:1000px;height:800px"></iframe><script>
        const frame = document.getElementById('app');
        window.initialized = false;
        window.addEventListener('message', (event) => {
          const message = event.data;
          if (message.method === 'ui/initialize') frame.contentWindow.postMessage({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2026-01-26', hostCapabilities: {}, hostInfo: { name: 'test-host', version: '1' }, hostContext: {} } }, '*');
          if (message.method === 'ui/notifications/initialized') {
            window.initialized = true;
            frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: {} } }, '*');
            frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: window.toolResult }, '*');
          }
        });
      </script>`,
    );
    const host = await browser.newPage();
    await host.goto(fixture.urlFor('/pages/host'));
    await host.evaluate(
      ({ html, toolResult }) => {
        (window as unknown as { toolResult: unknown }).toolResult = toolResult;
        (document.getElementById('app') as HTMLIFrameElement).srcdoc = html;
      },
      { html: content.text, toolResult: result },
    );
    await expect.poll(() => host.evaluate(() => (window as unknown as { initialized: boolean }).initialized), { timeout: 10_000 }).toBe(true);
    const live = host.frameLocator('#app').frameLocator('#live');
    await expect.poll(() => live.locator('#title').textContent(), { timeout: 10_000 }).toBe('Home');
    expect(await live.getByRole('button', { name: 'Take control' }).isVisible()).toBe(true);
    await host.close();
    expectSuccess(await call(alice, 'close_session', { sessionId }));
  });
});
