// The browser dying under open sessions, a crashed tab, and shutdown leaving no browser process behind.
import { browserProcesses, isAlive, startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';
import { errorOf, rejectionOf } from './session-errors.js';

let host: BrowserHost;
let manager: SessionManager;
let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host });
  await host.browser();
});
afterAll(async () => {
  await manager.shutdown();
  await server.close();
});

/** The browser's main process: the one browser process whose parent is this test process. */
async function mainBrowserPid(): Promise<number> {
  const mains = (await browserProcesses(process.pid)).filter((p) => p.ppid === process.pid);
  expect(mains).toHaveLength(1);
  return mains[0]!.pid;
}

describe('a crashed tab', () => {
  it('is replaced by a fresh page in the same context on the next call', async () => {
    const session = await manager.create();
    try {
      await manager.run(session.id, (page) => page.goto(server.urlFor('/set-cookie?name=crash&value=survivor')));
      const crashed = await manager.run(session.id, async (page) => {
        await Promise.all([page.waitForEvent('crash'), page.goto('chrome://crash').catch(() => null)]);
        return page;
      });
      await waitFor(() => crashed.isClosed());
      const cookies = await manager.run(session.id, async (page) => {
        expect(page).not.toBe(crashed);
        await page.goto(server.urlFor('/echo-cookie'));
        return page.textContent('#cookies');
      });
      expect(cookies).toBe('crash=survivor');
    } finally {
      await manager.close(session.id);
    }
  });
});

describe('the browser process dies', () => {
  it('ends open sessions with browser_disconnected, and the next create starts a new browser', async () => {
    const [a, b] = await Promise.all([manager.create(), manager.create()]);
    const oldBrowser = a.browser;
    expect(host.connected).toBe(true);
    const oldPid = await mainBrowserPid();

    // One call is in flight on a page that never finishes loading.
    const inFlight = manager.run(a.id, (page) => page.goto(server.urlFor('/hang')));
    await waitFor(() => server.requests.includes('/hang'));
    process.kill(oldPid, 'SIGKILL');

    const runError = await rejectionOf(inFlight);
    expect(runError.code).toBe('SESSION_NOT_FOUND');
    expect(runError.sessionId).toBe(a.id);
    expect(runError.details).toEqual({ reason: 'browser_disconnected', next: 'new_session' });
    expect(runError.message).toMatch(/browser process ended/);

    for (const id of [a.id, b.id]) {
      const error = errorOf(() => manager.get(id));
      expect(error.code).toBe('SESSION_NOT_FOUND');
      expect(error.details).toEqual({ reason: 'browser_disconnected', next: 'new_session' });
      expect((await rejectionOf(manager.run(id, async () => 1))).details).toEqual({ reason: 'browser_disconnected', next: 'new_session' });
    }
    expect(manager.size).toBe(0);
    expect(host.connected).toBe(false);
    await waitFor(() => !isAlive(oldPid));

    const fresh = await manager.create();
    expect(fresh.browser).not.toBe(oldBrowser);
    expect(fresh.browser.isConnected()).toBe(true);
    expect(await host.browser()).toBe(fresh.browser);
    expect(await mainBrowserPid()).not.toBe(oldPid);
    await manager.run(fresh.id, (page) => page.goto(server.urlFor('/pages/home')));
    expect(await manager.run(fresh.id, (page) => page.title())).toBe('Home');
    await manager.close(fresh.id);
  });

  it('answers browser_disconnected for a call that was queued behind the one in flight', async () => {
    const session = await manager.create();
    const first = manager.run(session.id, (page) => page.goto(server.urlFor('/hang?first')));
    const queued = manager.run(session.id, (page) => page.title());
    await waitFor(() => server.requests.includes('/hang?first'));
    process.kill(await mainBrowserPid(), 'SIGKILL');
    for (const call of [first, queued]) {
      const error = await rejectionOf(call);
      expect(error.code).toBe('SESSION_NOT_FOUND');
      expect(error.details).toEqual({ reason: 'browser_disconnected', next: 'new_session' });
    }
    // And once more, a new browser serves the next session.
    const next = await manager.create();
    expect(next.browser.isConnected()).toBe(true);
    await manager.close(next.id);
  });
});

describe('shutdown', () => {
  it('closes every session and then the browser, leaving no browser process', async () => {
    const sessions = await Promise.all([manager.create(), manager.create()]);
    await manager.run(sessions[0]!.id, (page) => page.goto(server.urlFor('/pages/home')));
    const pids = (await browserProcesses(process.pid)).map((p) => p.pid);
    expect(pids.length).toBeGreaterThan(1);

    await manager.shutdown();
    for (const session of sessions) expect(errorOf(() => manager.get(session.id)).details).toEqual({ reason: 'closed', next: 'new_session' });
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { timeout: 5000 });
    expect(await browserProcesses(process.pid)).toEqual([]);
    expect(host.connected).toBe(false);

    // Nothing starts again afterwards.
    expect((await rejectionOf(manager.create())).code).toBe('BROWSER_ERROR');
    expect((await rejectionOf(host.browser())).code).toBe('BROWSER_ERROR');
    expect(await browserProcesses(process.pid)).toEqual([]);
  });
});
