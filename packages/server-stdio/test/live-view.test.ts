// Watching and handing over sessions in a real browser, over the built CLI: the live page follows the agent, a person's clicks reach the page, calls wait for them, strangers are refused, traces and videos are written.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveExecutable, silentLogger } from '@sessionwright/session-core/parts';
import { playwrightProfile } from '@sessionwright/tools';
import { readZip, startFixtureServer, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/protocol/mcp-server.js';
import { createServer } from '../src/runtime.js';
import { CLI_PATH, MCP_APPS_CLIENT, REPO_ROOT, call, expectError, expectSuccess, startCli } from './helpers.js';

const CALL_TIMEOUT = 6_000;

/** The top half of the page is one button: a click at the middle of the view's top half lands on it. */
const COUNTER_PAGE = `<!doctype html><html><head><title>Counter</title><style>
  html, body { margin: 0; height: 100%; }
  #inc { position: fixed; left: 0; top: 0; width: 100vw; height: 50vh; font-size: 40px; }
</style></head><body><button id="inc" onclick="this.textContent = String(Number(this.textContent) + 1)">0</button></body></html>`;

let fixture: FixtureServer;
let cli: StdioConnection;
let browser: Browser;
let outputDir: string;

beforeAll(async () => {
  outputDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-live-'));
  fixture = await startFixtureServer({ pages: { counter: COUNTER_PAGE } });
  cli = await startCli(['--caps', 'live,devtools', '--call-timeout', String(CALL_TIMEOUT), '--output-dir', outputDir, '--keep-downloads']);
  const executable = resolveExecutable({ browser: 'chromium', headless: true });
  browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
});
afterAll(async () => {
  await browser?.close();
  await cli?.close();
  await fixture?.close();
  rmSync(outputDir, { recursive: true, force: true });
});

async function newSession(url?: string): Promise<string> {
  const sessionId = expectSuccess(await call(cli.client, 'create_session')).sessionId as string;
  if (url !== undefined) expectSuccess(await call(cli.client, 'navigate', { sessionId, url }));
  return sessionId;
}

async function liveUrl(sessionId: string): Promise<string> {
  const result = expectSuccess(await call(cli.client, 'live_view', { sessionId }));
  expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/live\/[\w-]+\/[\w-]{43}\/$/);
  expect(result.expiresAt).toBeGreaterThan(Date.now());
  return result.url as string;
}

/** A person's page on the live view, with the number of frames it has drawn. */
async function openView(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(url);
  await expect.poll(() => frames(page), { timeout: 10_000 }).toBeGreaterThan(0);
  return page;
}

async function frames(page: Page): Promise<number> {
  return Number(await page.locator('#view').getAttribute('data-frames'));
}

/** Clicks the view at a point given as fractions of its size. */
async function clickView(page: Page, x: number, y: number): Promise<void> {
  const box = await page.locator('#view').boundingBox();
  if (!box) throw new Error('the view has no box');
  await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

async function countOn(sessionId: string): Promise<string> {
  return expectSuccess(await call(cli.client, 'evaluate', { sessionId, function: "() => document.querySelector('#inc').textContent" })).result as string;
}

describe('the live page', () => {
  it('shows what the agent does: a navigate brings a new frame and the new URL and title', async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/home'));
    const view = await openView(await liveUrl(sessionId));
    await expect.poll(() => view.locator('#title').textContent()).toBe('Home');
    expect(await view.getByRole('button', { name: 'Take control' }).isVisible()).toBe(true);
    const before = await frames(view);
    expectSuccess(await call(cli.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    await expect.poll(() => view.locator('#title').textContent(), { timeout: 5_000 }).toBe('Form');
    expect(await view.locator('#url').textContent()).toBe(fixture.urlFor('/pages/form'));
    // The new page's first frame comes when it paints, which may be a moment after its title.
    await expect.poll(() => frames(view), { timeout: 5_000 }).toBeGreaterThan(before);
    await view.close();
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });
});

/** Starts a tool call that reports progress; resolves its parsed JSON when it ends. */
function callWithProgress(name: string, args: Record<string, unknown>) {
  const progress: string[] = [];
  let settled = false;
  const done = cli.client
    .callTool({ name, arguments: args }, undefined, { onprogress: (update) => progress.push(update.message ?? ''), timeout: 60_000 })
    .then((result) => {
      settled = true;
      const first = (result as CallToolResult).content[0];
      return { isError: result.isError === true, json: JSON.parse(first?.type === 'text' ? first.text : 'null') };
    });
  return { progress, done, settled: () => settled };
}

describe("a person's control", () => {
  it("sends a click in the view to the page, while the agent's call waits (saying so) and runs after the hand-back", async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/counter'));
    const view = await openView(await liveUrl(sessionId));
    await view.getByRole('button', { name: 'Take control' }).click();
    await view.getByRole('button', { name: 'Give back control' }).waitFor();
    await clickView(view, 0.5, 0.25);
    await clickView(view, 0.5, 0.25);
    // The click went through the view; the agent reads the count only once the person gives control back.
    const agent = callWithProgress('evaluate', { sessionId, function: "() => document.querySelector('#inc').textContent" });
    await expect.poll(() => agent.progress.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(agent.progress[0]).toMatch(/a person has control/);
    expect(agent.settled()).toBe(false);
    await view.getByRole('button', { name: 'Give back control' }).click();
    const answer = await agent.done;
    expect(answer.isError).toBe(false);
    expect(answer.json.result).toBe('2');
    await view.getByRole('button', { name: 'Take control' }).waitFor();
    await view.close();
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });

  it('does not act while watching: a click without control does nothing', async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/counter'));
    const view = await openView(await liveUrl(sessionId));
    await clickView(view, 0.5, 0.25);
    expect(await countOn(sessionId)).toBe('0');
    await view.close();
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });

  it('still ends a call at --call-timeout while a person holds the session, and the session is usable afterwards', async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/counter'));
    const view = await openView(await liveUrl(sessionId));
    await view.getByRole('button', { name: 'Take control' }).click();
    await view.getByRole('button', { name: 'Give back control' }).waitFor();
    const started = Date.now();
    const error = expectError(await call(cli.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }), 'BROWSER_ERROR', sessionId);
    expect(error.details).toMatchObject({ reason: 'call_timeout', waitedFor: 'person' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(CALL_TIMEOUT - 100);
    expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT + 5_000);
    await view.getByRole('button', { name: 'Give back control' }).click();
    expect(expectSuccess(await call(cli.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') })).title).toBe('Home');
    await view.close();
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });

  it('gives control back when the person closes the page, after a short grace', async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/counter'));
    const view = await openView(await liveUrl(sessionId));
    await view.getByRole('button', { name: 'Take control' }).click();
    await view.getByRole('button', { name: 'Give back control' }).waitFor();
    await view.close();
    // After the grace (3 s), well within the call's time limit, the agent's call runs.
    expect(await countOn(sessionId)).toBe('0');
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });
});

describe('tokens', () => {
  it('refuses a wrong, stale or foreign token with 403 or 404 and shows nothing', async () => {
    const a = await newSession(fixture.urlFor('/pages/home'));
    const b = await newSession(fixture.urlFor('/pages/form'));
    const urlA = new URL(await liveUrl(a));
    const urlB = new URL(await liveUrl(b));
    const [, , idA, secretA] = urlA.pathname.split('/');
    const [, , idB, secretB] = urlB.pathname.split('/');
    expect(secretA).toBeDefined();
    const at = (pathname: string, init?: RequestInit) => fetch(new URL(pathname, urlA.origin), init);
    const refused = async (pathname: string, statuses: number[], init?: RequestInit) => {
      const response = await at(pathname, init);
      expect(statuses, pathname).toContain(response.status);
      const body = await response.text();
      expect(body).not.toContain('<canvas');
      expect(body).not.toContain('Home');
    };
    // The right one works.
    expect((await at(urlA.pathname)).status).toBe(200);
    // A wrong secret for a real id; a made-up id; one session's secret on the other's id (both ways).
    await refused(`/live/${idA}/${'x'.repeat(43)}/`, [403]);
    await refused(`/live/${'y'.repeat(12)}/${secretA}/`, [404]);
    await refused(`/live/${idB}/${secretA}/`, [403]);
    await refused(`/live/${idA}/${secretB}/events`, [403]);
    await refused(`/live/${idA}/${secretA!.slice(0, -1)}/control`, [403], { method: 'POST', body: '{"action":"take"}' });
    // Another web origin cannot drive the page even with the right token.
    const foreign = await at(`${urlA.pathname}control`, {
      method: 'POST',
      headers: { Origin: 'http://evil.example', 'Content-Type': 'application/json', 'X-Live-Viewer': 'anything' },
      body: '{"action":"take"}',
    });
    expect(foreign.status).toBe(403);
    // A Host that is not this server's (DNS rebinding) is refused before the token is looked at.
    // Stale: the session's end kills its URL.
    expectSuccess(await call(cli.client, 'close_session', { sessionId: a }));
    await refused(urlA.pathname, [404]);
    await refused(`${urlA.pathname}events`, [404]);
    expectSuccess(await call(cli.client, 'close_session', { sessionId: b }));
  });

  it('ends an open live page when its session closes', async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/home'));
    const view = await openView(await liveUrl(sessionId));
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
    await expect.poll(() => view.locator('#status').textContent(), { timeout: 5_000 }).toMatch(/session has ended/);
    expect(await view.getByRole('button', { name: 'Take control' }).isVisible()).toBe(false);
    await view.close();
  });

  it('answers live_view for an unknown or closed session with SESSION_NOT_FOUND', async () => {
    const unknown = '8c0f3c1e-5b7a-4d2e-9f10-2a3b4c5d6e7f';
    expectError(await call(cli.client, 'live_view', { sessionId: unknown }), 'SESSION_NOT_FOUND', unknown);
    expectError(await call(cli.client, 'request_human', { sessionId: unknown, message: 'help' }), 'SESSION_NOT_FOUND', unknown);
  });
});

describe('request_human', () => {
  it("without URL elicitation answers at once with the link; the person has control, and the agent's next call waits for them", async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/counter'));
    const asked = expectSuccess(await call(cli.client, 'request_human', { sessionId, message: 'Press the big button once.' }));
    expect(asked.outcome).toBe('show_link');
    expect(asked.title).toBe('Counter');
    const view = await openView(asked.liveUrl as string);
    expect(await view.locator('#message').textContent()).toContain('Press the big button once.');
    await view.getByRole('button', { name: 'Give back control' }).waitFor();
    const agent = callWithProgress('evaluate', { sessionId, function: "() => document.querySelector('#inc').textContent" });
    await expect.poll(() => agent.progress.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await clickView(view, 0.5, 0.25);
    await view.getByRole('button', { name: 'Give back control' }).click();
    expect((await agent.done).json.result).toBe('1');
    await view.close();
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });

  it('takes control back at its timeout when nobody opened the link', async () => {
    const sessionId = await newSession(fixture.urlFor('/pages/counter'));
    expect(expectSuccess(await call(cli.client, 'request_human', { sessionId, message: 'Nobody comes.', timeout: 1_000 })).outcome).toBe('show_link');
    // The call waits at most the hand-over's timeout, then runs.
    expect(await countOn(sessionId)).toBe('0');
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });

  it('with URL elicitation asks the client to open the link, and answers when control is given back, with url and title', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, '--headless', '--caps', 'live'], stderr: 'pipe' });
    const client = new Client({ name: 'elicit-url-client', version: '0.0.0' }, { capabilities: { elicitation: { url: {} } } });
    const opened: string[] = [];
    let view: Page | undefined;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode?: string; url?: string; message: string };
      expect(params.mode).toBe('url');
      opened.push(params.url ?? '');
      view = await openView(params.url ?? '');
      return { action: 'accept' };
    });
    await client.connect(transport);
    try {
      const sessionId = expectSuccess(await call(client, 'create_session')).sessionId as string;
      expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/counter') }));
      const asking = call(client, 'request_human', { sessionId, message: 'Press the button, then go home.' });
      await expect.poll(() => view !== undefined, { timeout: 15_000 }).toBe(true);
      const page = view as Page;
      await page.getByRole('button', { name: 'Give back control' }).waitFor();
      await clickView(page, 0.5, 0.25);
      await page.getByRole('button', { name: 'Give back control' }).click();
      const answer = expectSuccess(await asking);
      expect(answer).toMatchObject({ outcome: 'returned', title: 'Counter', url: fixture.urlFor('/pages/counter') });
      expect(opened).toEqual([answer.liveUrl]);
      expect(expectSuccess(await call(client, 'evaluate', { sessionId, function: "() => document.querySelector('#inc').textContent" })).result).toBe('1');
      await page.close();
    } finally {
      await client.close();
    }
  });
});

/** A page an agent cannot pass alone: what request_human is for. */
const HUMAN_CHECK_PAGE = `<!doctype html><html><head><title>One more step · Example Shop</title><style>
  body { margin: 0; height: 100vh; display: grid; place-items: center; background: #eef1f5; font: 16px system-ui, sans-serif; color: #1f2933; }
  .card { background: #fff; padding: 32px 40px; border-radius: 14px; box-shadow: 0 8px 30px rgba(0,0,0,.08); width: 400px; }
  h1 { margin: 0 0 8px; font-size: 26px; } p { color: #52606d; }
  label { display: flex; gap: 14px; align-items: center; border: 1px solid #cbd2d9; border-radius: 10px; padding: 18px; font-size: 18px; }
  input { width: 28px; height: 28px; }
  button { margin-top: 22px; width: 100%; padding: 13px; background: #2563eb; color: #fff; border: 0; border-radius: 10px; font-size: 17px; }
</style></head><body><div class="card"><h1>One more step</h1><p>Confirm that you are a person to see your order.</p>
<label><input type="checkbox" id="human"> I am not a robot</label><button id="continue">Continue</button></div></body></html>`;

describe('the docs picture', () => {
  it("shows a session handed to a person: the page live, its URL and title, the agent's request and Give back control", async () => {
    fixture.addPage('human-check', HUMAN_CHECK_PAGE);
    const sessionId = await newSession(fixture.urlFor('/pages/human-check'));
    // Where the checkbox is, as fractions of the page (the view shows the page at another size).
    const box = expectSuccess(
      await call(cli.client, 'evaluate', {
        sessionId,
        function:
          "() => { const box = document.querySelector('#human').getBoundingClientRect(); return { x: (box.left + box.width / 2) " +
          '/ innerWidth, y: (box.top + box.height / 2) / innerHeight }; }',
      }),
    ).result as { x: number; y: number };
    const asked = expectSuccess(await call(cli.client, 'request_human', { sessionId, message: 'Tick "I am not a robot", then give control back.' }));
    const view = await browser.newPage({ viewport: { width: 1100, height: 820 } });
    await view.goto(asked.liveUrl as string);
    await view.getByRole('button', { name: 'Give back control' }).waitFor();
    await expect.poll(() => frames(view), { timeout: 10_000 }).toBeGreaterThan(0);
    const before = await frames(view);
    await clickView(view, box.x, box.y);
    // The tick shows in a new frame.
    await expect.poll(() => frames(view), { timeout: 5_000 }).toBeGreaterThan(before);
    await view.mouse.move(0, 0);
    const shot = await view.screenshot();
    // The committed picture changes only on request (or when missing), so a test run does not dirty the tree.
    const committed = path.join(REPO_ROOT, 'docs/live-view.png');
    const targets = [path.join(REPO_ROOT, '.tmp/live-view.png'), ...(process.env['UPDATE_SCREENSHOTS'] === '1' || !existsSync(committed) ? [committed] : [])];
    for (const file of targets) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, shot);
    }
    await view.getByRole('button', { name: 'Give back control' }).click();
    expect(expectSuccess(await call(cli.client, 'evaluate', { sessionId, function: "() => document.querySelector('#human').checked" })).result).toBe(true);
    await view.close();
    expectSuccess(await call(cli.client, 'close_session', { sessionId }));
  });
});

describe('traces and videos', () => {
  it("writes a trace of the session's actions that holds them, and a video per tab listed when the session closes", async () => {
    const sessionId = expectSuccess(await call(cli.client, 'create_session', { recordVideo: true })).sessionId as string;
    expectSuccess(await call(cli.client, 'start_trace', { sessionId }));
    expectSuccess(await call(cli.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/buttons') }));
    expectSuccess(await call(cli.client, 'click', { sessionId, selector: '#inc' }));
    const stopped = expectSuccess(await call(cli.client, 'stop_trace', { sessionId }));
    const tracePath = stopped.trace.path as string;
    expect(tracePath.startsWith(outputDir)).toBe(true);
    expect(stopped.message).toContain('npx playwright show-trace');
    const events = readZip(tracePath).get('trace.trace')?.toString('utf8') ?? '';
    expect(events).toContain(fixture.urlFor('/pages/buttons'));
    expect(events).toContain('#inc');
    const closed = expectSuccess(await call(cli.client, 'close_session', { sessionId }));
    expect(closed.videos).toHaveLength(1);
    const video = closed.videos[0] as { path: string; bytes: number };
    expect(video.path.startsWith(outputDir)).toBe(true);
    expect(video.path).toMatch(/\.webm$/);
    const head = readFileSync(video.path).subarray(0, 64);
    expect(head.readUInt32BE(0)).toBe(0x1a45dfa3);
    expect(head.toString('latin1')).toContain('webm');
  });
});

describe('the playwright profile', () => {
  it('lists neither the live nor the tracing tools without their groups', async () => {
    const plain = await startCli(['--profile', 'playwright']);
    const names = (await plain.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('live_view');
    expect(names).not.toContain('browser_start_tracing');
    await plain.close();
  });

  it("serves live_view, request_human and @playwright/mcp's tracing tools on the connection's own page, in a server built with those groups", async () => {
    // A program that builds its server chooses the groups itself, as --caps does on the command line.
    const runtime = createServer({ headless: true, outputDir, warmSessions: 0 }, silentLogger);
    const connection = createMcpServer({
      sessions: runtime.manager,
      logger: silentLogger,
      toolOptions: { allowFileUrls: false },
      profile: playwrightProfile(['live', 'devtools']),
      live: runtime.live,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await connection.server.connect(serverSide);
    const client = new Client({ name: 'playwright-profile-live', version: '0.0.0' }, { capabilities: MCP_APPS_CLIENT });
    await client.connect(clientSide);
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toEqual(expect.arrayContaining(['live_view', 'request_human', 'browser_start_tracing', 'browser_stop_tracing']));
      expectSuccess(await call(client, 'browser_start_tracing'));
      expectSuccess(await call(client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
      const link = expectSuccess(await call(client, 'live_view'));
      const view = await openView(link.url as string);
      await expect.poll(() => view.locator('#title').textContent()).toBe('Home');
      await view.close();
      // The MCP App's tools act on the same page, named by the sessionId live_view answered or, without one, the connection's own.
      expect(listed).toEqual(expect.arrayContaining(['live_view_frame', 'live_view_control', 'live_view_input']));
      const frame = expectSuccess(await call(client, 'live_view_frame', { sessionId: link.sessionId }));
      expect(frame.url).toBe(fixture.urlFor('/pages/home'));
      expect(expectSuccess(await call(client, 'live_view_frame', { viewer: frame.viewer })).viewer).toBe(frame.viewer);
      const trace = expectSuccess(await call(client, 'browser_stop_tracing')).trace as { path: string };
      expect(readZip(trace.path).get('trace.trace')?.toString('utf8')).toContain(fixture.urlFor('/pages/home'));
    } finally {
      await client.close();
      await runtime.close();
    }
  });
});
