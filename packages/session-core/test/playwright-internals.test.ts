// Every Playwright internal sessionwright relies on (docs/decisions.md), all read through src/playwright-internals.ts,
// checked on the pinned Playwright with a real browser: an upgrade that moves one fails here, by name, rather than
// quietly sending a fast path to its fallback.
import childProcess from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { type FixtureServer, startFixtureServer } from '@sessionwright/test-kit';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playwrightVersion, resolveExecutable } from '../src/parts.js';
import { actionRecorder, downloadFile, registryFfmpegPath, saveClosedScreencast, serverSide } from '../src/playwright-internals.js';
import { ensureFfmpeg } from '../src/video.js';

const executablePath = resolveExecutable({ browser: 'chromium', headless: true }).executablePath;
let browser: Browser;
let fixture: FixtureServer;

beforeAll(async () => {
  fixture = await startFixtureServer({
    pages: { framed: '<!doctype html><title>Framed</title><p>Outside</p><iframe srcdoc="<button>Inside</button>"></iframe>' },
  });
  browser = await chromium.launch({ executablePath, headless: true });
});

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

/** A page on a fixture page, and its main frame's server-side twin. */
async function pageAt(name: string): Promise<{ page: Page; frame: Record<string, unknown> }> {
  const page = await browser.newPage();
  await page.goto(fixture.urlFor(`/pages/${name}`));
  return { page, frame: serverSide(page.mainFrame()) as Record<string, unknown> };
}

describe('the pinned Playwright offers every internal sessionwright uses', () => {
  it('client objects reach their server-side twins: `_connection.toImpl` (playwright-internals.ts)', async () => {
    const { page, frame } = await pageAt('home');
    const connection = (page as unknown as { _connection?: { toImpl?: unknown } })._connection;
    expect(typeof connection?.toImpl).toBe('function');
    expect(frame).toBeTypeOf('object');
    expect(frame).not.toBe(page.mainFrame());
    await page.close();
  });

  it("the server-side CDPSession's `_send` writes a command to the browser (page-title.ts, directSend)", async () => {
    const page = await browser.newPage();
    const cdp = await browser.newBrowserCDPSession();
    const twin = serverSide(cdp) as { _send?: (method: string, params: object) => Promise<{ targetInfos: { type: string }[] }> };
    expect(twin._send).toBeTypeOf('function');
    const answer = await twin._send?.call(twin, 'Target.getTargets', {});
    expect(answer?.targetInfos.some((target) => target.type === 'page')).toBe(true);
    await cdp.detach();
    await page.close();
  });

  it("the server-side Frame's 'internalnavigation' (newDocument) and 'addlifecycle' ('load') events (page-title.ts, titleAtLoad)", async () => {
    const { page, frame } = await pageAt('home');
    const on = frame.on as (event: string, listener: (value: unknown) => void) => unknown;
    const off = frame.off as (event: string, listener: (value: unknown) => void) => unknown;
    expect(on).toBeTypeOf('function');
    expect(off).toBeTypeOf('function');
    const seen: string[] = [];
    const onNavigation = (event: unknown) => {
      if ((event as { newDocument?: unknown }).newDocument) seen.push('new document');
    };
    const onLifecycle = (event: unknown) => seen.push(String(event));
    on.call(frame, 'internalnavigation', onNavigation);
    on.call(frame, 'addlifecycle', onLifecycle);
    await page.goto(fixture.urlFor('/pages/form'));
    off.call(frame, 'internalnavigation', onNavigation);
    off.call(frame, 'addlifecycle', onLifecycle);
    expect(seen).toContain('new document');
    expect(seen.indexOf('load')).toBeGreaterThan(seen.indexOf('new document'));
    const count = seen.length;
    await page.goto(fixture.urlFor('/pages/home'));
    expect(seen).toHaveLength(count);
    await page.close();
  });

  it("the utility world's injected script: `document`, `ariaSnapshot`, `_lastAriaSnapshotForQuery.iframeRefs` (page-snapshot.ts, quickSnapshot)", async () => {
    for (const [name, frames] of [
      ['home', 0],
      ['framed', 1],
    ] as const) {
      const { page, frame } = await pageAt(name);
      expect(frame.context).toBeTypeOf('function');
      const context = await (frame.context as (world: string) => Promise<{ injectedScript(): Promise<unknown> }>).call(frame, 'utility');
      const injected = (await context.injectedScript()) as {
        evaluate<R>(fn: (injected: Record<string, unknown>) => R): Promise<R>;
      };
      const found = await injected.evaluate((script) => {
        const document = script.document as Document;
        const snapshot = script.ariaSnapshot as (root: Element, options: { mode: 'ai' }) => string;
        const text = snapshot.call(script, document.body, { mode: 'ai' });
        const iframeRefs = (script._lastAriaSnapshotForQuery as { iframeRefs?: unknown } | undefined)?.iframeRefs;
        return { text, iframes: Array.isArray(iframeRefs) ? iframeRefs.length : 'missing' };
      });
      expect(found.iframes).toBe(frames);
      if (frames === 0) expect(found.text).toBe(await page.ariaSnapshot({ mode: 'ai' }));
      await page.close();
    }
  });

  it("a download's local file: `_artifact._initializer.absolutePath`, growing as `.crdownload` (downloads.ts, bytesSoFar)", async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.setContent(`<a id="endless" href="${fixture.urlFor('/download/endless')}">endless</a>`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#endless')]);
    const file = downloadFile(download);
    expect(file).toBeTypeOf('string');
    await expect.poll(() => existsSync(`${file}.crdownload`) || existsSync(file ?? '')).toBe(true);
    await download.cancel();
    await context.close();
  });

  it('a tab closed while its screencast records keeps its video: `screencast._artifact.saveAs` (page-video.ts)', async () => {
    await ensureFfmpeg();
    const folder = await mkdtemp(path.join(tmpdir(), 'sessionwright-internals-'));
    const page = await browser.newPage();
    const file = path.join(folder, 'closed.webm');
    await page.screencast.start({ path: file });
    await page.goto(fixture.urlFor('/pages/framed'));
    await page.close();
    expect(await saveClosedScreencast(page.screencast, file)).toBe(true);
    expect(statSync(file).size).toBeGreaterThan(0);
    await rm(folder, { recursive: true, force: true });
  });

  it("the context's recorder: `_startRecording` reports each action as code, `_stopRecording` ends it (action-recording.ts)", async () => {
    const context = await browser.newContext();
    const recorder = actionRecorder(context);
    expect(recorder).toBeDefined();
    const lines: string[] = [];
    await recorder?.start('playwright-test', {
      actionAdded: (_page, _action, code) => lines.push(code),
      actionUpdated: (_page, _action, code) => lines.push(code),
      signalAdded: () => {},
    });
    const page = await context.newPage();
    await page.goto(fixture.urlFor('/pages/buttons'));
    await page.click('#inc');
    await recorder?.stop();
    expect(lines.some((code) => code.includes('click()'))).toBe(true);
    await context.close();
  });

  it("Playwright's registry names where it runs ffmpeg from: `playwright-core/lib/coreBundle` (video.ts)", () => {
    expect(registryFfmpegPath()).toMatch(/ffmpeg-\d+[\\/]ffmpeg-/);
  });

  it('a launch spawns Chromium through `child_process.spawn`, looked up at the call, as the early browser expects (early-browser.ts)', async () => {
    const calls: { command: string; args: readonly string[]; options: childProcess.SpawnOptions }[] = [];
    const spawn = childProcess.spawn;
    childProcess.spawn = function recordSpawn(this: unknown, ...call: Parameters<typeof spawn>) {
      const [command, args, options] = call as unknown as [string, readonly string[], childProcess.SpawnOptions];
      calls.push({ command, args, options });
      return spawn.apply(this, call);
    } as typeof spawn;
    let launched: Browser | undefined;
    try {
      launched = await chromium.launch({ executablePath, headless: true });
    } finally {
      childProcess.spawn = spawn;
      await launched?.close();
    }
    const launch = calls.find((call) => call.args.includes('--remote-debugging-pipe'));
    expect(launch?.command).toBe(executablePath);
    expect(launch?.args.filter((arg) => arg.startsWith('--user-data-dir=')).length).toBe(1);
    expect(launch?.options.detached).toBe(true);
    expect(launch?.options.stdio).toEqual(['ignore', 'pipe', 'pipe', 'pipe', 'pipe']);
    expect(launch?.options.cwd).toBeUndefined();
  });

  it('a Playwright server refuses a client of another version with HTTP 428 naming both versions (remote-browser.ts)', async () => {
    const server = await chromium.launchServer({ executablePath, headless: true });
    try {
      const url = new URL(server.wsEndpoint());
      // The opening handshake of a WebSocket, as a client of Playwright 1.0 sends it.
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.get(url.href.replace(/^ws/, 'http'), {
          headers: {
            Connection: 'Upgrade',
            Upgrade: 'websocket',
            'Sec-WebSocket-Version': '13',
            'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
            'User-Agent': 'Playwright/1.0.0 (x64; linux) node/20.0',
          },
        });
        request.on('upgrade', () => reject(new Error('the server accepted a client of another version')));
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        request.on('error', reject);
      });
      expect(answer.status).toBe(428);
      const pinned = playwrightVersion().split('.').slice(0, 2).join('.');
      expect(answer.text).toMatch(new RegExp(`server version:\\s*v${pinned.replace('.', '\\.')}\\b`));
      expect(answer.text).toMatch(/client version:\s*v1\.0\b/);
    } finally {
      await server.close();
    }
  });
});
