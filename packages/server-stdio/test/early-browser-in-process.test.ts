// The early browser in one process: the first launch of a BrowserHost given the command's launch hook takes the Chromium
// that startBrowserEarly started when Playwright asks for the same command, records the command otherwise, and nothing
// started early is left running.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAlive, pipeBrowsers, waitFor } from '@sessionwright/test-kit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserHost } from '@sessionwright/session-core';
import { earlyBrowserPid, launchWithEarlyBrowser, startBrowserEarly } from '../src/startup/early-browser.js';
import { commandLaunchHook } from '../src/startup/launch-hook.js';

const STATE = Symbol.for('sessionwright.earlyBrowser');
let root: string;
let saved: { XDG_CACHE_HOME?: string; TMPDIR?: string };
let launchDir: string;
let profiles: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sessionwright-early-core-'));
  saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, TMPDIR: process.env.TMPDIR };
  process.env.XDG_CACHE_HOME = path.join(root, 'cache');
  profiles = path.join(root, 'tmp');
  launchDir = path.join(root, 'cache', 'sessionwright', 'launch');
  mkdirSync(profiles);
  // The profiles of this test's browsers (os.tmpdir() reads TMPDIR at each call), set for the whole start: it is part of
  // the environment the early browser must have been started with.
  process.env.TMPDIR = profiles;
});
afterEach(() => {
  vi.useRealTimers();
  // Each test is a start of its own.
  (globalThis as { [STATE]?: unknown })[STATE] = undefined;
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

const earlyProfiles = () => readdirSync(profiles).filter((name) => name.startsWith('sessionwright-profile-'));
/** A first start with these settings: nothing to start early yet; its launch records the command. */
async function firstStart(settings: string[]): Promise<void> {
  startBrowserEarly(settings);
  expect(earlyBrowserPid()).toBeUndefined();
  const host = new BrowserHost({ headless: true, launchHook: commandLaunchHook() });
  await host.browser();
  await host.close();
  (globalThis as { [STATE]?: unknown })[STATE] = undefined;
}

describe('the early browser in one process', () => {
  it("is the browser of BrowserHost's first launch, and goes when it closes", async () => {
    await firstStart(['same']);
    startBrowserEarly(['same']);
    const early = earlyBrowserPid();
    expect(early).toBeGreaterThan(0);
    expect(earlyProfiles()).toHaveLength(1);
    const host = new BrowserHost({ headless: true, launchHook: commandLaunchHook() });
    try {
      const browser = await host.browser();
      const page = await (await browser.newContext()).newPage();
      expect(await page.evaluate(() => 6 * 7)).toBe(42);
      expect((await pipeBrowsers(process.pid)).map((proc) => proc.pid)).toContain(early);
      expect(earlyBrowserPid()).toBeUndefined();
    } finally {
      await host.close();
    }
    await waitFor(() => !isAlive(early!), { timeout: 10_000 });
    await waitFor(() => earlyProfiles().length === 0, { timeout: 10_000 });
  }, 60_000);

  it('is killed when the environment changed before the launch, which then spawns its own', async () => {
    await firstStart(['env']);
    startBrowserEarly(['env']);
    const early = earlyBrowserPid()!;
    process.env.SESSIONWRIGHT_EARLY_TEST = 'changed';
    const host = new BrowserHost({ headless: true, launchHook: commandLaunchHook() });
    try {
      await host.browser();
      await waitFor(() => !isAlive(early), { timeout: 10_000 });
      expect(await pipeBrowsers(process.pid)).toHaveLength(1);
      expect(earlyProfiles()).toEqual([]);
    } finally {
      delete process.env.SESSIONWRIGHT_EARLY_TEST;
      await host.close();
    }
  }, 60_000);

  it('is killed when the launch fails before it spawns anything, and the record stays as it was', async () => {
    await firstStart(['fails']);
    startBrowserEarly(['fails']);
    const early = earlyBrowserPid()!;
    const [record] = readdirSync(launchDir);
    const before = readFileSync(path.join(launchDir, record!), 'utf8');
    await expect(launchWithEarlyBrowser(() => Promise.reject(new Error('no browser')))).rejects.toThrow('no browser');
    await waitFor(() => !isAlive(early), { timeout: 10_000 });
    expect(readFileSync(path.join(launchDir, record!), 'utf8')).toBe(before);
    // Only the first launch could take it: the next one just runs.
    await expect(launchWithEarlyBrowser(async () => 'second')).resolves.toBe('second');
  }, 60_000);

  it('is let go after 30 s when no launch began, and its record dropped', async () => {
    await firstStart(['unclaimed']);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    startBrowserEarly(['unclaimed']);
    const early = earlyBrowserPid()!;
    expect(early).toBeGreaterThan(0);
    vi.advanceTimersByTime(30_000);
    vi.useRealTimers();
    expect(earlyBrowserPid()).toBeUndefined();
    await waitFor(() => !isAlive(early), { timeout: 10_000 });
    expect(readdirSync(launchDir)).toEqual([]);
  }, 60_000);

  it('starts nothing from a record it cannot read, and records anew', async () => {
    await firstStart(['garbled']);
    const [record] = readdirSync(launchDir);
    writeFileSync(path.join(launchDir, record!), '{"command": 42');
    startBrowserEarly(['garbled']);
    expect(earlyBrowserPid()).toBeUndefined();
    const host = new BrowserHost({ headless: true, launchHook: commandLaunchHook() });
    try {
      await host.browser();
      expect(JSON.parse(readFileSync(path.join(launchDir, record!), 'utf8')).args).toContain('--remote-debugging-pipe');
    } finally {
      await host.close();
    }
  }, 60_000);
});
