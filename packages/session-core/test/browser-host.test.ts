// BrowserHost: background start, one shared Browser, launch failures as BROWSER_ERROR, close during launch.
import { browserProcesses, isAlive, waitFor } from '@sessionwright/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, type Logger } from '../src/index.js';
import { rejectionOf } from './session-errors.js';

const hosts: BrowserHost[] = [];
function track(host: BrowserHost): BrowserHost {
  hosts.push(host);
  return host;
}
afterAll(() => Promise.all(hosts.map((host) => host.close())));

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), debug: (m) => lines.push(`debug ${m}`) };
}

describe('BrowserHost', () => {
  it('starts in the background and hands out one shared Browser', async () => {
    const logger = recordingLogger();
    const host = track(new BrowserHost({ headless: true, logger }));
    expect(host.start()).toBe(host);
    // start() returned before the browser is up.
    expect(host.connected).toBe(false);
    const first = await host.browser();
    const second = await host.browser();
    expect(second).toBe(first);
    expect(host.connected).toBe(true);
    expect(host.headless).toBe(true);
    expect(host.browserName).toBe('chromium');
    expect(host.resolved?.description).toBeTruthy();
    expect(logger.lines.some((line) => line.startsWith('info browser ready: ') && line.includes('headless'))).toBe(true);
  });

  it("leaves Playwright's own --disable-features list in force: the browser gets one, and it is Playwright's", async () => {
    const host = track(new BrowserHost({ headless: true }));
    await host.browser();
    const [main] = (await browserProcesses(process.pid)).filter((proc) => proc.cmdline.includes('--remote-debugging-pipe'));
    const lists = (main?.cmdline ?? '').split(' ').filter((arg) => arg.startsWith('--disable-features='));
    expect(lists).toHaveLength(1);
    // HTTPS upgrades would turn a navigation to http:// into an https:// attempt first.
    expect(lists[0]).toContain('HttpsUpgrades');
    await host.close();
  });

  it('passes chromiumSandbox to the launch: off, Chromium runs with --no-sandbox; on, without it (as root it cannot start, and the error says why)', async () => {
    const mainOf = async () => (await browserProcesses(process.pid)).filter((proc) => proc.cmdline.includes('--remote-debugging-pipe'));
    const off = track(new BrowserHost({ headless: true, chromiumSandbox: false }));
    await off.browser();
    expect((await mainOf()).some((proc) => proc.cmdline.split(' ').includes('--no-sandbox'))).toBe(true);
    await off.close();
    const on = track(new BrowserHost({ headless: true, chromiumSandbox: true }));
    if (process.getuid?.() === 0) {
      const error = await rejectionOf(on.browser());
      expect(error.details).toMatchObject({ reason: 'launch_failed', hint: expect.stringContaining("Chromium's sandbox cannot run as root") });
    } else {
      await on.browser();
      expect((await mainOf()).every((proc) => !proc.cmdline.split(' ').includes('--no-sandbox'))).toBe(true);
    }
    await on.close();
  });

  it('answers concurrent browser() calls with one launch', async () => {
    const host = track(new BrowserHost({ headless: true }));
    const before = (await browserProcesses(process.pid)).filter((p) => p.ppid === process.pid).length;
    const [a, b, c] = await Promise.all([host.browser(), host.browser(), host.browser()]);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect((await browserProcesses(process.pid)).filter((p) => p.ppid === process.pid)).toHaveLength(before + 1);
    await host.close();
  });

  it('says once why it runs headless when no display is set', () => {
    const logger = recordingLogger();
    const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    try {
      const host = new BrowserHost({ logger });
      if (process.platform === 'linux') {
        expect(host.headless).toBe(true);
        expect(logger.lines).toEqual([expect.stringMatching(/^info no DISPLAY/)]);
      } else {
        expect(host.headless).toBe(false);
      }
    } finally {
      for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
    }
  });

  it('rejects browser() with BROWSER_ERROR for a missing executable, and create() answers the same', async () => {
    const logger = recordingLogger();
    const host = track(new BrowserHost({ headless: true, executablePath: '/nonexistent', logger }).start());
    const error = await rejectionOf(host.browser());
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.details).toMatchObject({ tried: ['/nonexistent'] });
    expect(logger.lines.some((line) => line.startsWith('warn ') && line.includes('/nonexistent'))).toBe(true);

    const manager = new SessionManager({ host });
    const createError = await rejectionOf(manager.create());
    expect(createError.code).toBe('BROWSER_ERROR');
    expect(createError.message).toContain('/nonexistent');
    // A failed creation does not hold a slot.
    expect(manager.size).toBe(0);
    expect((await rejectionOf(manager.create())).code).toBe('BROWSER_ERROR');
  });

  it('answers BROWSER_ERROR naming the executable when the binary exists but is no browser', async () => {
    const host = track(new BrowserHost({ headless: true, executablePath: '/bin/false', launchTimeout: 10_000 }));
    const error = await rejectionOf(host.browser());
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.message).toMatch(/^The browser failed to start: /);
    expect(error.details).toMatchObject({ executable: 'chromium at /bin/false (explicit)' });
    expect(typeof error.details?.browserMessage).toBe('string');
  });

  it('closes a browser whose launch was still in flight, leaving no process', async () => {
    const host = new BrowserHost({ headless: true }).start();
    const launching = host.browser();
    await host.close();
    const error = await rejectionOf(launching);
    expect(error.code).toBe('BROWSER_ERROR');
    expect((await rejectionOf(host.browser())).code).toBe('BROWSER_ERROR');
    expect(host.connected).toBe(false);
    // Only the other hosts' browsers (direct children of this process) may remain; this one's are gone.
    const survivors = hosts.filter((other) => other.connected).length;
    await waitFor(async () => (await browserProcesses(process.pid)).filter((p) => p.ppid === process.pid).length === survivors);
  });

  it('close() is safe to call twice and stops the browser process', async () => {
    const host = new BrowserHost({ headless: true });
    const before = new Set((await browserProcesses(process.pid)).map((p) => p.pid));
    await host.browser();
    const mine = (await browserProcesses(process.pid)).map((p) => p.pid).filter((pid) => !before.has(pid));
    expect(mine.length).toBeGreaterThan(0);
    await host.close();
    await host.close();
    await waitFor(() => mine.every((pid) => !isAlive(pid)));
  });

  it('answers BROWSER_ERROR to a creation still in flight when shutdown starts, and leaves nothing open', async () => {
    const host = new BrowserHost({ headless: true });
    const manager = new SessionManager({ host });
    const creating = manager.create();
    await manager.shutdown();
    const error = await rejectionOf(creating);
    expect(error.code).toBe('BROWSER_ERROR');
    expect(manager.size).toBe(0);
    expect(host.connected).toBe(false);
  });

  it('SessionManager rejects a maxSessions or sessionTimeout out of range', () => {
    const host = new BrowserHost({ headless: true });
    expect(() => new SessionManager({ host, maxSessions: 0 })).toThrow(RangeError);
    expect(() => new SessionManager({ host, maxSessions: 1.5 })).toThrow(RangeError);
    expect(() => new SessionManager({ host, sessionTimeout: 0 })).toThrow(RangeError);
    expect(() => new SessionManager({ host, sessionTimeout: Number.NaN })).toThrow(RangeError);
    const manager = new SessionManager({ host });
    expect(manager.maxSessions).toBe(10);
    expect(manager.sessionTimeout).toBe(300_000);
  });
});
