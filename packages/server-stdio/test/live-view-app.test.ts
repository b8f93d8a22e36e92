// The live view MCP App in a real browser, inside a host page built on ext-apps' own AppBridge, under the strictest hosts' policy (no frame of another origin, no connection): it shows the session, follows the agent, and a person takes control, clicks and gives it back while the agent's call waits; over stdio and over HTTP in both protocol eras.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { build } from 'esbuild';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_APPS_CLIENT, REPO_ROOT, startCli } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';
import { modernCall, modernRequest } from './modern-helpers.js';

/** What the strictest hosts allow an app's frame: no frame of another origin and no connection at all. */
const STRICT_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; frame-src 'self' blob: data:; " +
  "connect-src 'none'; base-uri 'none'; form-action 'none'";

/** The top half of the page is one button: a click in the middle of the view's top half lands on it. */
const COUNTER_PAGE = `<!doctype html><html><head><title>Counter</title><style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  #inc { position: fixed; left: 0; top: 0; width: 100vw; height: 50vh; font-size: 64px; background: #dbeafe; border: 0; }
  p { position: fixed; top: 55vh; left: 24px; font-size: 28px; }
</style></head><body><button id="inc" onclick="this.textContent = String(Number(this.textContent) + 1)">0</button><p>Clicks on the blue button count.</p></body></html>`;

/** A host page: a chat with the app's frame in it, inline (780×150, as strict hosts give) or fullscreen on the app's request. */
const HOST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>A host of MCP Apps</title><style>
  body { margin: 0; padding: 20px; font: 14px/1.45 system-ui, sans-serif; background: #f4f4f5; color: #18181b; }
  .msg { max-width: 780px; margin: 0 0 12px; padding: 10px 14px; border-radius: 12px; background: #fff; }
  .user { margin-left: auto; background: #e0e7ff; max-width: 420px; }
  .tool { font-size: 12px; color: #52525b; margin: 0 0 6px; }
  #app { display: block; width: 780px; height: 150px; border: 1px solid #d4d4d8; border-radius: 10px; background: #fff; }
  body.full #app { position: fixed; inset: 0; width: 100vw; height: 100vh; border: 0; border-radius: 0; z-index: 1; }
</style></head><body>
<div class="msg user">Open the shop's page and show me what you are doing.</div>
<div class="msg"><div class="tool">sessionwright · live_view</div>Here is the session, live. Press Take control to use the page yourself.</div>
<iframe id="app" sandbox="allow-scripts" title="sessionwright live view"></iframe>
<script src="/bridge.js"></script>
<script>
  window.startHost = async (toolInput, toolResult) => {
    const { AppBridge, PostMessageTransport } = window.HostKit;
    const iframe = document.getElementById('app');
    const modes = ['inline', 'fullscreen'];
    const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {}, openLinks: {} }, {
      hostContext: { displayMode: 'inline', availableDisplayModes: modes, theme: 'light' },
    });
    window.displayMode = 'inline';
    window.calls = [];
    bridge.oncalltool = async (params) => {
      window.calls.push(params.name);
      return window.hostCallTool(params);
    };
    bridge.onrequestdisplaymode = async ({ mode }) => {
      document.body.classList.toggle('full', mode === 'fullscreen');
      window.displayMode = mode;
      bridge.setHostContext({ displayMode: mode, availableDisplayModes: modes, theme: 'light' });
      return { mode };
    };
    bridge.oninitialized = () => {
      window.appInitialized = true;
      bridge.sendToolInput({ arguments: toolInput });
      bridge.sendToolResult(toolResult);
    };
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.src = '/app.html';
  };
</script>
</body></html>`;

/** An MCP client for the host, whichever the transport and era. */
interface HostLink {
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  listTools(): Promise<Tool[]>;
  readResource(uri: string): Promise<string>;
  close(): Promise<void>;
}

function json(result: CallToolResult): any {
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : 'null');
}

let fixture: FixtureServer;
let browser: Browser;
let bridgeScript: string;

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { counter: COUNTER_PAGE } });
  // ext-apps' host side, bundled for the browser as a host would ship it.
  const bundled = await build({
    stdin: {
      contents:
        "import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'; window.HostKit = { AppBridge, PostMessageTransport };",
      resolveDir: path.dirname(fileURLToPath(import.meta.url)),
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  bridgeScript = bundled.outputFiles[0]?.text ?? '';
  const executable = resolveExecutable({ browser: 'chromium', headless: true });
  browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

/** Serves the host page, the bridge, and the app's HTML under the strict policy, on 127.0.0.1. */
async function serveHost(appHtml: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/host.html') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HOST_PAGE);
    else if (req.url === '/bridge.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bridgeScript);
    else if (req.url === '/app.html') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': STRICT_CSP }).end(appHtml);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/host.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function frames(app: FrameLocator): Promise<number> {
  return Number(await app.locator('#view').getAttribute('data-frames'));
}

/**
 * The whole story in one host: the app shows the session's page, follows the agent's navigation, and a person takes
 * control, clicks the page's button and gives control back while the agent's call waits. Answers the host page's
 * pictures: inline, and fullscreen while the person has control.
 */
async function hostStory(link: HostLink): Promise<{ inline: Buffer; fullscreen: Buffer }> {
  const tools = await link.listTools();
  // The app's tools are listed for the app only, so a host keeps them from the model.
  const appOnly = tools.filter((tool) => isToolVisibilityAppOnly(tool as Parameters<typeof isToolVisibilityAppOnly>[0])).map((tool) => tool.name);
  expect(appOnly.sort()).toEqual(['live_view_control', 'live_view_frame', 'live_view_input']);
  const liveView = tools.find((tool) => tool.name === 'live_view');
  const resourceUri = (liveView?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri as string;
  const appHtml = await link.readResource(resourceUri);

  const sessionId = json(await link.call('create_session', {})).sessionId as string;
  expect(json(await link.call('navigate', { sessionId, url: fixture.urlFor('/pages/counter') })).title).toBe('Counter');
  const toolResult = await link.call('live_view', { sessionId });
  expect(json(toolResult).sessionId).toBe(sessionId);

  const host = await serveHost(appHtml);
  const page: Page = await browser.newPage({ viewport: { width: 840, height: 420 } });
  try {
    await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) =>
      link.call(params.name, params.arguments ?? {}),
    );
    await page.goto(host.url);
    await page.evaluate(({ input, result }) => (window as any).startHost(input, result), { input: { sessionId }, result: toolResult });
    const app = page.frameLocator('#app');
    await expect.poll(() => page.evaluate(() => (window as any).appInitialized === true), { timeout: 10_000 }).toBe(true);

    // The app draws the session's page from frames it got through the host, with the page's title and URL.
    await expect.poll(() => frames(app), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => app.locator('#title').textContent(), { timeout: 10_000 }).toBe('Counter');
    expect(await app.locator('#url').textContent()).toBe(fixture.urlFor('/pages/counter'));
    // The frame really is under the strict policy: a connection of its own is refused.
    const fetched = await page.frame({ url: /\/app\.html$/ })?.evaluate(
      (url) =>
        fetch(url).then(
          () => 'connected',
          () => 'refused',
        ),
      host.url,
    );
    expect(fetched).toBe('refused');
    const inline = await page.screenshot();

    // The agent navigates: the app follows.
    const seen = await frames(app);
    expect(json(await link.call('navigate', { sessionId, url: fixture.urlFor('/pages/home') })).title).toBe('Home');
    await expect.poll(() => app.locator('#title').textContent(), { timeout: 10_000 }).toBe('Home');
    await expect.poll(() => frames(app), { timeout: 10_000 }).toBeGreaterThan(seen);
    expect(json(await link.call('navigate', { sessionId, url: fixture.urlFor('/pages/counter') })).title).toBe('Counter');
    await expect.poll(() => app.locator('#title').textContent(), { timeout: 10_000 }).toBe('Counter');

    // A person takes control: the app asks for fullscreen, and the agent's next call waits for them.
    await app.getByRole('button', { name: 'Take control' }).click();
    await expect.poll(() => app.locator('#view').getAttribute('data-control'), { timeout: 10_000 }).toBe('held:mine');
    expect(await page.evaluate(() => (window as any).displayMode)).toBe('fullscreen');
    let answered = false;
    const waiting = link.call('evaluate', { sessionId, function: "() => document.querySelector('#inc').textContent" }).then((result) => {
      answered = true;
      return json(result);
    });
    const before = await frames(app);
    const box = await app.locator('#view').boundingBox();
    if (!box) throw new Error('the view has no box');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 4);
    // The click shows in a new frame, and the agent's call is still waiting.
    await expect.poll(() => frames(app), { timeout: 10_000 }).toBeGreaterThan(before);
    expect(answered).toBe(false);
    await page.mouse.move(0, 0);
    const fullscreen = await page.screenshot();
    await app.getByRole('button', { name: 'Give back control' }).click();
    // Control is back: the waiting call runs and reads the person's click.
    expect((await waiting).result).toBe('1');
    await expect.poll(() => app.locator('#view').getAttribute('data-control'), { timeout: 10_000 }).toBe('free');
    const called = await page.evaluate(() => (window as any).calls as string[]);
    expect(new Set(called)).toEqual(new Set(['live_view_frame', 'live_view_control', 'live_view_input']));

    // The session ends: the app says so and stops asking.
    await link.call('close_session', { sessionId });
    await expect.poll(() => app.locator('#status').textContent(), { timeout: 10_000 }).toBe('The session has ended.');
    return { inline, fullscreen };
  } finally {
    await page.close();
    await host.close();
  }
}

function sdkLink(client: {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<{ tools: Tool[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  close(): Promise<void>;
}): HostLink {
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    listTools: async () => (await client.listTools()).tools,
    readResource: async (uri) => ((await client.readResource({ uri })).contents[0] as { text: string }).text,
    close: () => client.close(),
  };
}

describe('the live view MCP App inside a strict host', () => {
  describe('over stdio', () => {
    let cli: StdioConnection;
    beforeAll(async () => {
      cli = await startCli(['--caps', 'live', '--call-timeout', '30000'], { capabilities: MCP_APPS_CLIENT });
    });
    afterAll(async () => {
      await cli?.close();
    });

    it("shows the session, follows the agent, and hands control to a person and back while the agent's call waits", async () => {
      const shots = await hostStory(sdkLink(cli.client));
      // The committed pictures change only on request (or when missing), so a test run does not dirty the tree.
      for (const [name, shot] of [
        ['live-view-app.png', shots.inline],
        ['live-view-app-fullscreen.png', shots.fullscreen],
      ] as const) {
        const committed = path.join(REPO_ROOT, 'docs', name);
        const targets = [path.join(REPO_ROOT, '.tmp', name), ...(process.env['UPDATE_SCREENSHOTS'] === '1' || !existsSync(committed) ? [committed] : [])];
        for (const file of targets) {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, shot);
        }
      }
    });
  });

  describe('over HTTP', () => {
    let server: HttpCli;
    beforeAll(async () => {
      server = await startHttpCli(['--caps', 'live', '--call-timeout', '30000']);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("refuses the app's tools to a client that declared no MCP Apps support, in both eras", async () => {
      const { client } = await connectStreamable(server.base);
      try {
        const sessionId = json((await client.callTool({ name: 'create_session', arguments: {} })) as CallToolResult).sessionId as string;
        const plain = (await client.callTool({ name: 'live_view_frame', arguments: { sessionId } })) as CallToolResult;
        expect(plain.isError).toBe(true);
        expect(json(plain)).toMatchObject({ errorCode: 'INVALID_PARAMETERS', sessionId, details: { reason: 'app_only', tool: 'live_view_frame' } });
        const modern = await modernCall(server.base, 'live_view_input', { sessionId, viewer: 'any', events: [{ kind: 'text', text: 'x' }] });
        expect(modern.json).toMatchObject({ errorCode: 'INVALID_PARAMETERS', details: { reason: 'app_only' } });
        // The same request from a client that declares the extension reaches the tool, which asks for a viewer first.
        const app = await modernCall(
          server.base,
          'live_view_input',
          { sessionId, viewer: 'any', events: [{ kind: 'text', text: 'x' }] },
          { capabilities: MCP_APPS_CLIENT },
        );
        expect(app.json).toMatchObject({ errorCode: 'INVALID_PARAMETERS', details: { reason: 'viewer_gone' } });
        await client.callTool({ name: 'close_session', arguments: { sessionId } });
      } finally {
        await client.close();
      }
    });

    it('the same, for a 2025 client (Streamable HTTP)', async () => {
      const { client } = await connectStreamable(server.base, {}, MCP_APPS_CLIENT);
      const link = sdkLink(client as never);
      try {
        await hostStory(link);
      } finally {
        await link.close();
      }
    });

    it('the same, for a 2026-07-28 client (a request each)', async () => {
      const answer = async (method: string, params: Record<string, unknown>, name?: string) => {
        const { response } = await modernRequest(server.base, method, params, name === undefined ? {} : { headers: { 'Mcp-Name': name } });
        if (response.error) throw new Error(JSON.stringify(response.error));
        return response.result;
      };
      await hostStory({
        call: async (name, args) => {
          const { response } = await modernCall(server.base, name, args, { capabilities: MCP_APPS_CLIENT });
          if (response.error) throw new Error(JSON.stringify(response.error));
          return response.result as CallToolResult;
        },
        listTools: async () => (await answer('tools/list', {})).tools as Tool[],
        readResource: async (uri) => ((await answer('resources/read', { uri }, uri)).contents[0] as { text: string }).text,
        close: async () => {},
      });
    });
  });
});
