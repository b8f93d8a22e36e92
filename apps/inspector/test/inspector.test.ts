// The inspector in a real browser: a session made through the form, navigated to a demo page, seen in the log and the sessions panel.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { chromium, type Browser, type Page } from 'playwright';
import { validate, version } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InfoResponse } from '../src/api.js';
import { imageSize } from '@sessionwright/tools';

const INSPECTOR = fileURLToPath(new URL('../dist/inspector.js', import.meta.url));
const README_SHOT = fileURLToPath(new URL('../../../docs/inspector.png', import.meta.url));
const LATEST_SHOT = fileURLToPath(new URL('../../../.tmp/inspector.png', import.meta.url));

/** Polls like expect.poll, but with room for a busy machine: a call plus its thumbnail can take seconds when cores are shared. */
const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });

/** Submits the open tool form and waits until its call is in the log. */
async function submitForm(): Promise<void> {
  const before = await page.locator('#log .entry').count();
  await page.click('#tool-form #call-button');
  await eventually(() => page.locator('#log .entry').count()).toBe(before + 1);
}

/**
 * Clicks "New session" and waits until its call is in the log (the page makes the new session current at that moment)
 * and its card is shown. The card alone is not enough: the session list's refresh can show it before the call's answer.
 */
async function newSession(): Promise<void> {
  const creations = page.locator('#log .entry[data-tool="create_session"]');
  const cards = page.locator('#sessions .session');
  const [logged, shown] = [await creations.count(), await cards.count()];
  await page.click('#new-session');
  await eventually(() => creations.count()).toBe(logged + 1);
  await eventually(() => cards.count()).toBe(shown + 1);
}

let child: ChildProcess;
let output = '';
let inspectorUrl: string;
let browser: Browser;
let page: Page;
let info: InfoResponse;

beforeAll(async () => {
  if (!existsSync(INSPECTOR)) throw new Error(`${INSPECTOR} is missing: run pnpm build first`);
  child = spawn(process.execPath, [INSPECTOR, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  inspectorUrl = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /inspector\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`inspector exited with ${code}:\n${output}`)));
  });
  info = (await (await fetch(new URL('/api/info', inspectorUrl))).json()) as InfoResponse;

  // Playwright's own browsers cannot be downloaded here; use the one the server would pick.
  const executable = resolveExecutable({ browser: 'chromium', headless: true });
  browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (error) => {
    output += `\npage error: ${error.message}`;
  });
  // Every test starts on the inspector page, whichever ran before it.
  await page.goto(inspectorUrl);
  await page.locator('body.ready').waitFor();
});

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('inspector page', () => {
  it('creates a session through the form, navigates it to a demo page, and shows the calls and the session', async () => {
    await page.goto(inspectorUrl);
    await page.locator('body.ready').waitFor();
    expect(await page.locator('#tool-list button').count()).toBe(info.tools.length);
    await eventually(() => page.locator('#server-name').textContent()).toMatch(/^sessionwright \d+\.\d+\.\d+/);

    // create_session through its generated form.
    await page.click('#tool-list button[data-tool="create_session"]');
    await page.click('#tool-form[data-tool="create_session"] #call-button');
    const created = page.locator('#log .entry[data-tool="create_session"]');
    await created.waitFor();
    await eventually(() => created.locator('.badge').textContent()).toBe('ok');
    const card = page.locator('#sessions .session');
    await card.waitFor();
    const sessionId = (await card.getAttribute('data-session-id')) ?? '';
    expect(validate(sessionId) && version(sessionId) === 4, sessionId).toBe(true);

    // navigate: the sessionId field follows the new session; the enum and integer fields render as select and number.
    await page.click('#tool-list button[data-tool="navigate"]');
    const form = page.locator('#tool-form[data-tool="navigate"]');
    expect(await form.locator('[name="sessionId"]').inputValue()).toBe(sessionId);
    expect(await form.locator('select[name="waitUntil"] option').allTextContents()).toEqual(['(default)', 'load', 'domcontentloaded', 'networkidle', 'commit']);
    expect(await form.locator('[name="timeout"]').getAttribute('type')).toBe('number');
    const loginUrl = `${info.demoSite?.url}/login`;
    await form.locator('[name="url"]').fill(loginUrl);
    await form.locator('#call-button').click();

    const navigated = page.locator('#log .entry[data-tool="navigate"]');
    await navigated.waitFor();
    expect(await navigated.locator('.badge').textContent()).toBe('ok');
    expect(await navigated.locator('.duration').textContent()).toMatch(/^\d+ ms$/);
    expect(JSON.parse((await navigated.locator('pre.request').textContent()) ?? '')).toEqual({ sessionId, url: loginUrl });
    expect(JSON.parse((await navigated.locator('pre.response').textContent()) ?? '')).toMatchObject({
      success: true,
      status: 200,
      title: 'Sign in · Teahouse',
    });

    await eventually(() => card.locator('.title').textContent()).toBe('Sign in · Teahouse');
    expect(await card.locator('.url').textContent()).toBe(loginUrl);
    expect(await card.locator('.expires').textContent()).toMatch(/^expires in \d+:\d\d$/);
    if (info.thumbnails) {
      const thumb = card.locator('img.thumb');
      await thumb.waitFor();
      expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    } else {
      expect(await card.locator('.placeholder').textContent()).toBe('no screenshot tool');
    }
  });

  it('generates a form field of the right kind for every argument of every tool', async () => {
    for (const tool of info.tools) {
      await page.click(`#tool-list button[data-tool="${tool.name}"]`);
      const form = page.locator(`#tool-form[data-tool="${tool.name}"]`);
      await form.waitFor();
      const required = new Set(tool.inputSchema.required ?? []);
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        const field = form.locator(`[name="${name}"]`);
        const tag = await field.evaluate((el) => el.tagName.toLowerCase());
        const type = await field.getAttribute('type');
        const expected =
          Array.isArray(schema.enum) || (schema.type === 'boolean' && !required.has(name))
            ? 'select'
            : schema.type === 'boolean'
              ? 'input:checkbox'
              : schema.type === 'integer' || schema.type === 'number'
                ? 'input:number'
                : schema.type === 'string'
                  ? name === 'function'
                    ? 'textarea'
                    : 'input:text'
                  : 'textarea';
        expect(`${tool.name}.${name}: ${tag}${tag === 'input' ? `:${type}` : ''}`).toBe(`${tool.name}.${name}: ${expected}`);
      }
    }
  });

  it('shows a failed call with its error code', async () => {
    await page.click('#tool-list button[data-tool="navigate"]');
    const form = page.locator('#tool-form[data-tool="navigate"]');
    // The URL is checked before the session is looked up: any id will do where no session is open yet.
    const sessionId = form.locator('[name="sessionId"]');
    if ((await sessionId.inputValue()) === '') await sessionId.fill(randomUUID());
    await form.locator('[name="url"]').fill('not a url');
    await form.locator('#call-button').click();
    const failed = page.locator('#log .entry.is-error[data-tool="navigate"]');
    await failed.waitFor();
    expect(await failed.locator('.badge').textContent()).toBe('INVALID_PARAMETERS');
    expect(await failed.locator('.text').textContent()).toContain('not a valid absolute URL');
  });

  it('dresses two sessions differently through the "New session" options, side by side', async () => {
    const cards = page.locator('#sessions .session');
    const before = await cards.count();
    const form = page.locator('#dress-form');
    await page.click('#new-session-options summary');
    expect(await form.locator('select[name="device"] option').count()).toBeGreaterThan(50);
    const dress = async (device: string, locale: string, timezoneId: string, colorScheme: string) => {
      await form.locator('select[name="device"]').selectOption(device);
      await form.locator('[name="locale"]').fill(locale);
      await form.locator('[name="timezoneId"]').fill(timezoneId);
      await form.locator('select[name="colorScheme"]').selectOption(colorScheme);
      await newSession();
      const created = page.locator('#log .entry[data-tool="create_session"]').first();
      expect(JSON.parse((await created.locator('pre.request').textContent()) ?? '')).toEqual({ device, locale, timezoneId, colorScheme });
      return (await page.locator('#sessions .session.current').getAttribute('data-session-id'))!;
    };
    const phone = await dress('iPhone 15', 'de-DE', 'Asia/Tokyo', 'dark');
    const desk = await dress('Desktop Chrome', 'en-GB', 'Europe/London', 'light');
    const card = (sessionId: string) => page.locator(`#sessions .session[data-session-id="${sessionId}"]`);
    await eventually(() => card(phone).locator('.identity').textContent()).toBe('iPhone 15 · 393×659 · de-DE · Asia/Tokyo · dark');
    await eventually(() => card(desk).locator('.identity').textContent()).toBe('Desktop Chrome · 1280×720 · en-GB · Europe/London · light');

    // Each page is what its card says.
    const seen = async (sessionId: string) => {
      const response = await fetch(new URL('/api/call', inspectorUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          tool: 'evaluate',
          arguments: {
            sessionId,
            function: "() => [navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone, matchMedia('(prefers-color-scheme: dark)').matches]",
          },
        }),
      });
      return ((await response.json()) as { response: { result: unknown } }).response.result;
    };
    expect(await seen(phone)).toEqual(['de-DE', 'Asia/Tokyo', true]);
    expect(await seen(desk)).toEqual(['en-GB', 'Europe/London', false]);
    if (info.thumbnails) {
      // The phone's picture is portrait, the desktop's landscape.
      const shape = async (sessionId: string) => {
        const thumb = card(sessionId).locator('img.thumb');
        await thumb.waitFor();
        return thumb.evaluate((img: HTMLImageElement) => (img.naturalWidth < img.naturalHeight ? 'portrait' : 'landscape'));
      };
      expect(await shape(phone)).toBe('portrait');
      expect(await shape(desk)).toBe('landscape');
    }

    // Undressed again, so the next "New session" is a plain one; the two dressed sessions are closed.
    await form.evaluate((element: HTMLFormElement) => element.reset());
    await page.click('#new-session-options summary');
    for (const sessionId of [phone, desk]) await card(sessionId).locator('button[data-action="close"]').click();
    await eventually(() => cards.count()).toBe(before);
  });

  it('runs the quick flows from a session card, and the README screenshot shows them', async () => {
    // The picture shows two sessions: the first test's, or one made here when it did not run.
    if ((await page.locator('#sessions .session').count()) === 0) await newSession();
    // A second session, signed in as bob through the card's navigate box and the type/click forms.
    await newSession();
    expect(await page.locator('#sessions .session').count()).toBe(2);
    const card = page.locator('#sessions .session.current');
    await card.locator('.go input').fill(`${info.demoSite?.url}/login`);
    await card.locator('.go button').click();
    await eventually(() => card.locator('.title').textContent()).toBe('Sign in · Teahouse');
    for (const [selector, text] of [
      ['#username', 'bob'],
      ['#password', 'builder'],
    ] as const) {
      await page.click('#tool-list button[data-tool="type"]');
      await page.fill('#tool-form [name="selector"]', selector);
      await page.fill('#tool-form [name="text"]', text);
      await submitForm();
      // The card's navigate can reach the log after the title changed, and so count as the entry submitForm waited for.
      await eventually(() => page.locator('#log .entry').first().getAttribute('data-tool')).toBe('type');
    }
    await page.click('#tool-list button[data-tool="click"]');
    await page.fill('#tool-form [name="selector"]', '#sign-in');
    await submitForm();
    await eventually(() => card.locator('.title').textContent()).toBe('Welcome, Bob · Teahouse');
    // Leave the form on navigate with a URL filled in: the screenshot then shows a generated form with an enum.
    await page.click('#tool-list button[data-tool="navigate"]');
    await page.fill('#tool-form [name="url"]', `${info.demoSite?.url}/teas`);
    // The card's Snapshot button: the snapshot text gets a block of its own under the response.
    const newest = info.tools.some((tool) => tool.name === 'snapshot') ? 'snapshot' : 'click';
    if (newest === 'snapshot') {
      await card.locator('button[data-action="snapshot"]').click();
      const snap = page.locator('#log .entry[data-tool="snapshot"]');
      await snap.waitFor();
      expect(await snap.locator('.badge').textContent()).toBe('ok');
      expect(await snap.locator('pre.block').textContent()).toMatch(/Hello, Bob![\s\S]*\[ref=/);
    }
    // Only the newest entry is open, the older ones folded.
    expect(await page.locator('#log details[open]').count()).toBe(1);
    await page.locator(`#log .entry[data-tool="${newest}"] details[open]`).first().waitFor();

    // A tidy picture: no focus ring or open datalist, every panel scrolled to its top.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      for (const el of document.querySelectorAll('.panel')) el.scrollTop = 0;
    });
    await page.mouse.move(0, 0);
    const shot = await page.screenshot();
    expect(imageSize(shot)).toEqual({ width: 1440, height: 900 });
    // The committed image changes only on request (or when missing), so a test run does not dirty the tree.
    const targets = [LATEST_SHOT, ...(process.env['UPDATE_SCREENSHOTS'] === '1' || !existsSync(README_SHOT) ? [README_SHOT] : [])];
    for (const file of targets) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, shot);
    }

    // Close from the card: the session leaves the panel.
    await card.locator('button[data-action="close"]').click();
    // The list's refresh can drop the card before the call's answer puts it in the log.
    await eventually(() => page.locator('#log .entry').first().getAttribute('data-tool')).toBe('close_session');
    await eventually(() => page.locator('#sessions .session').count()).toBe(1);
  });
});

describe('live view and trace', () => {
  it("shows a session's live view from its card and offers the trace it recorded", async () => {
    await newSession();
    const card = page.locator('#sessions .session.current');
    const traceButton = card.locator('button[data-action="trace"]');
    await traceButton.click();
    await eventually(() => traceButton.textContent()).toBe('Stop trace');
    await card.locator('.go input').fill(`${info.demoSite?.url}/teas`);
    await card.locator('.go button').click();
    await eventually(() => card.locator('.title').textContent()).toBe('Teas · Teahouse');

    await card.locator('button[data-action="live"]').click();
    const live = page.frameLocator('#live-frame');
    await eventually(() => live.locator('#title').textContent()).toBe('Teas · Teahouse');
    expect(await live.getByRole('button', { name: 'Take control' }).isVisible()).toBe(true);
    expect(await page.locator('#live-open').getAttribute('href')).toMatch(/\/live\/[\w-]+\/[\w-]{43}\/$/);
    await page.locator('#live-dialog button[type="submit"]').click();
    // The dialog's close event clears the frame after the click returns.
    await eventually(() => page.locator('#live-frame').getAttribute('src')).toBeNull();

    await traceButton.click();
    await eventually(() => traceButton.textContent()).toBe('Start trace');
    const download = card.locator('.trace-download');
    await download.waitFor();
    expect(await card.locator('.trace-line code').textContent()).toMatch(/^npx playwright show-trace .*trace-1\.zip$/);
    const zip = await fetch(new URL((await download.getAttribute('href')) ?? '', inspectorUrl));
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString('latin1'),
    ).toBe('PK');
    expect((await fetch(new URL('/api/trace/not-a-session', inspectorUrl))).status).toBe(404);

    await card.locator('button[data-action="close"]').click();
    await eventually(() => page.locator('#log .entry').first().getAttribute('data-tool')).toBe('close_session');
  });
});

describe('inspector API', () => {
  const post = (path: string, headers: Record<string, string>, body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(new URL(path, inspectorUrl), { method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
  const call = JSON.stringify({ tool: 'list_sessions', arguments: {} });

  it('answers same-origin JSON calls', async () => {
    expect(await post('/api/call', { 'Content-Type': 'application/json' }, call)).toBe(200);
  });

  it('refuses what a foreign web page could send: a form post, another Origin, another Host', async () => {
    expect(await post('/api/call', { 'Content-Type': 'text/plain' }, call)).toBe(415);
    expect(await post('/api/call', { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, call)).toBe(403);
    expect(await post('/api/call', { 'Content-Type': 'application/json', Host: 'evil.example' }, call)).toBe(403);
  });

  it('answers 400 for a body that is not a call', async () => {
    expect(await post('/api/call', { 'Content-Type': 'application/json' }, '{"tool": 5}')).toBe(400);
    expect(await post('/api/call', { 'Content-Type': 'application/json' }, 'nope')).toBe(400);
  });
});
