// Recycling the launched browser: one that served sessions and has none open for the delay is replaced by a fresh one,
// quietly (no crash reported), with its warm pool refilled there, never while a session is open or being created; and
// after many sessions new ones open in a fresh browser while the old one drains.
import { createRequire } from 'node:module';
import { holdsFor, startBrowserServer, startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import type { Browser } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, RemoteBrowser, SessionManager } from '../src/index.js';
import { resolveExecutable } from '../src/parts.js';
import { FakeTime } from './fake-time.js';

const IDLE_MS = 10_000;

let server: FixtureServer;
const managers: SessionManager[] = [];
beforeAll(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.shutdown()));
});
afterAll(async () => {
  await server.close();
});

function start(options: { rotateBrowserAfter?: number } = {}) {
  const host = new BrowserHost({ headless: true });
  const time = new FakeTime();
  const logged: string[] = [];
  const logger = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), debug: () => {} };
  const manager = new SessionManager({ host, warmSessions: 1, recycleIdleBrowser: IDLE_MS, clock: time, timers: time, logger, ...options });
  managers.push(manager);
  const crashes: Browser[] = [];
  host.onDisconnected((browser) => crashes.push(browser));
  host.start();
  return { host, manager, time, crashes, logged };
}

describe('idle browser recycling', () => {
  it('replaces a browser that served sessions once none was open for the delay, and the next session opens in the new one', async () => {
    const { host, manager, time, crashes } = start();
    const first = await host.browser();
    const session = await manager.create();
    await session.page.goto(server.urlFor('/pages/home'));
    await manager.close(session.id);

    time.advance(IDLE_MS - 1);
    expect(first.isConnected()).toBe(true);
    time.advance(1);
    await waitFor(() => !first.isConnected(), { timeout: 15_000 });
    const second = await host.browser();
    expect(second).not.toBe(first);
    // A recycle is not a crash: nothing hears of a disconnection.
    expect(crashes).toEqual([]);
    // The warm pool refilled in the new browser, and the next session comes from it.
    await waitFor(() => second.contexts().length === 1, { timeout: 15_000 });
    const next = await manager.create();
    expect(next.browser).toBe(second);
    await next.page.goto(server.urlFor('/pages/home'));
    expect(await next.page.title()).toBe('Home');
  });

  it('never replaces a browser while a session is open or being created, nor one that served nobody', async () => {
    const { host, manager, time } = start();
    const first = await host.browser();
    time.advance(IDLE_MS * 3);
    expect(await host.browser()).toBe(first);

    const one = await manager.create();
    time.advance(IDLE_MS * 3);
    const two = await manager.create();
    await manager.close(one.id);
    time.advance(IDLE_MS * 3);
    expect(await host.browser()).toBe(first);
    expect(two.page.isClosed()).toBe(false);

    // The last close starts the delay; a creation within it cancels the recycle.
    await manager.close(two.id);
    time.advance(IDLE_MS / 2);
    const creating = manager.create();
    time.advance(IDLE_MS * 3);
    const three = await creating;
    time.advance(IDLE_MS * 3);
    expect(await host.browser()).toBe(first);
    expect(three.browser).toBe(first);
    expect(first.isConnected()).toBe(true);
  });

  it('gives a creation that arrives while the old browser is closing the new browser', async () => {
    const { host, manager, time } = start();
    const first = await host.browser();
    await manager.close((await manager.create()).id);
    time.advance(IDLE_MS);
    // Let the recycle start closing the old browser, then ask for a session.
    await new Promise((resolve) => setImmediate(resolve));
    const session = await manager.create();
    expect(session.browser).not.toBe(first);
    expect(session.browser.isConnected()).toBe(true);
    await session.page.goto(server.urlFor('/pages/home'));
    expect(await session.page.title()).toBe('Home');
    await waitFor(() => !first.isConnected(), { timeout: 15_000 });
    expect(manager.size).toBe(1);
  });

  it('leaves a browser alone when a creation starts in the same moment the delay ends', async () => {
    const { host, manager, time } = start();
    const first = await host.browser();
    await manager.close((await manager.create()).id);
    time.advance(IDLE_MS);
    const session = await manager.create();
    await session.page.goto(server.urlFor('/pages/home'));
    expect(session.browser.isConnected()).toBe(true);
    expect(await host.browser()).toBe(session.browser);
    expect([first]).toContain(session.browser);
  });

  it("never replaces a browser it reached over an endpoint: it is not this process's to close", async () => {
    const executablePath = resolveExecutable({ browser: 'chromium', headless: true }).executablePath;
    const served = await startBrowserServer({
      playwright: createRequire(import.meta.url).resolve('playwright'),
      ...(executablePath ? { executablePath } : {}),
    });
    try {
      const source = new RemoteBrowser({ kind: 'connect', endpoint: served.wsEndpoint });
      const time = new FakeTime();
      const manager = new SessionManager({ host: source, recycleIdleBrowser: IDLE_MS, clock: time, timers: time });
      managers.push(manager);
      const remote = await source.start().browser();
      await manager.close((await manager.create()).id);
      time.advance(IDLE_MS * 3);
      await holdsFor(() => remote.isConnected(), 500, { what: 'the remote browser connected' });
      expect(remote.isConnected()).toBe(true);
      expect((await manager.create()).browser).toBe(remote);
    } finally {
      await Promise.all(managers.splice(0).map((manager) => manager.shutdown()));
      await served.kill();
    }
  });
});

describe('browser rotation after many sessions', () => {
  it('opens new sessions in a fresh browser while the old one serves its open sessions, and closes it after the last', async () => {
    const { host, manager, crashes, logged } = start({ rotateBrowserAfter: 2 });
    const first = await host.browser();
    const one = await manager.create();
    const two = await manager.create();
    const three = await manager.create();
    expect([one.browser, two.browser]).toEqual([first, first]);
    expect(three.browser).not.toBe(first);
    // The old browser keeps serving what is open in it.
    await manager.run(one.id, (page) => page.goto(server.urlFor('/pages/home')));
    expect(await manager.run(one.id, (page) => page.title())).toBe('Home');
    await manager.close(one.id);
    expect(first.isConnected()).toBe(true);
    await manager.close(two.id);
    await waitFor(() => !first.isConnected(), { timeout: 15_000 });
    await waitFor(() => logged.some((line) => line.startsWith('browser retired: ')), { timeout: 5_000 });
    expect(crashes).toEqual([]);
    expect(three.browser.isConnected()).toBe(true);
    expect(manager.size).toBe(1);
  });

  it('drains one old browser at a time, and shutdown closes a draining one', async () => {
    const { host, manager } = start({ rotateBrowserAfter: 1 });
    const first = await host.browser();
    const kept = await manager.create();
    const second = await manager.create();
    expect(second.browser).not.toBe(first);
    // The first browser still drains (kept is open), so the second is not set aside yet.
    const third = await manager.create();
    expect(third.browser).toBe(second.browser);
    expect(kept.browser).toBe(first);
    await manager.shutdown();
    expect(first.isConnected()).toBe(false);
    expect(second.browser.isConnected()).toBe(false);
  });
});
