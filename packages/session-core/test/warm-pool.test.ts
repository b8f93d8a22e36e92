// The warm pool: pooled contexts are handed out at once, refilled, never shared, outside maxSessions, and closed at shutdown.
import { browserProcesses, isAlive, startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { type AddressInfo, connect, createServer } from 'node:net';
import type { Browser, BrowserContext } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, isSessionError } from '../src/index.js';
import { defaultWarmSessions } from '../src/parts.js';
import { WarmPool } from '../src/warm-pool.js';
import { FakeTime } from './fake-time.js';

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

function start(options: { warmSessions?: number; maxSessions?: number; startHost?: boolean } = {}) {
  const host = new BrowserHost({ headless: true });
  if (options.startHost ?? true) host.start();
  const manager = new SessionManager({
    host,
    maxSessions: options.maxSessions ?? 10,
    ...(options.warmSessions === undefined ? {} : { warmSessions: options.warmSessions }),
  });
  managers.push(manager);
  return { host, manager };
}

/** Waits until the browser holds exactly `count` contexts (sessions plus pooled ones), each with its page open. */
async function contextsReach(browser: Browser, count: number): Promise<BrowserContext[]> {
  await waitFor(() => browser.contexts().length === count && browser.contexts().every((context) => context.pages().length === 1), {
    timeout: 15_000,
  });
  return browser.contexts();
}

async function browserPids(): Promise<number[]> {
  return (await browserProcesses(process.pid)).map((proc) => proc.pid);
}

describe('warm pool', () => {
  it('hands a pooled context to create() and opens a new one in the background', async () => {
    const { host, manager } = start({ warmSessions: 1 });
    const browser = await host.browser();
    const [pooled] = await contextsReach(browser, 1);
    expect(manager.size).toBe(0);

    const session = await manager.create();
    expect(session.context).toBe(pooled);
    expect(session.page.url()).toBe('about:blank');

    const contexts = await contextsReach(browser, 2);
    const refill = contexts.find((context) => context !== pooled);
    expect(refill).toBeDefined();
    expect(refill?.pages()).toHaveLength(1);

    // The next session gets the refilled context, not a share of the first one.
    const second = await manager.create();
    expect(second.context).toBe(refill);
    expect(second.context).not.toBe(session.context);
  });

  it('does not open a second context beside the one a create() is waiting for', async () => {
    // Right after the launch the pooled context is still opening; two opens at once would slow the first session down.
    const { host, manager } = start({ warmSessions: 1 });
    const browser = await host.browser();
    // Counted the moment the creation resolves: the refill may start 50 ms later, and a busy machine can take longer
    // than that to come back to this test.
    const { session, contexts } = await manager.create().then((created) => ({ session: created, contexts: browser.contexts() }));
    expect(contexts).toEqual([session.context]);
    // The refill comes once the creation is over.
    await contextsReach(browser, 2);
  });

  it('works as a plain session: navigate and act on the pooled page', async () => {
    const { host, manager } = start({ warmSessions: 1 });
    await contextsReach(await host.browser(), 1);
    const session = await manager.create();
    const status = await manager.run(session.id, async (page) => (await page.goto(server.urlFor('/pages/buttons')))?.status());
    expect(status).toBe(200);
    await manager.run(session.id, (page) => page.click('#inc'));
    expect(await manager.run(session.id, (page) => page.textContent('#count'))).toBe('1');
  });

  it('does not count pooled contexts against maxSessions', async () => {
    const { host, manager } = start({ warmSessions: 2, maxSessions: 1 });
    const browser = await host.browser();
    await contextsReach(browser, 2);

    const session = await manager.create();
    const refused = await manager.create().catch((error: unknown) => error);
    expect(isSessionError(refused) && refused.code).toBe('MAX_SESSIONS_REACHED');
    // One session plus a full pool of two.
    await contextsReach(browser, 3);
    expect(manager.size).toBe(1);

    await manager.close(session.id);
    const next = await manager.create();
    expect(next.id).not.toBe(session.id);
    expect(manager.size).toBe(1);
  });

  it('never shares a context: concurrent creates get different, isolated contexts', async () => {
    const { host, manager } = start({ warmSessions: 1 });
    await contextsReach(await host.browser(), 1);
    const [a, b] = await Promise.all([manager.create(), manager.create()]);
    expect(a.context).not.toBe(b.context);
    expect(a.page).not.toBe(b.page);

    await manager.run(a.id, (page) => page.goto(server.urlFor('/set-cookie?name=pool&value=a')));
    await manager.run(b.id, (page) => page.goto(server.urlFor('/echo-cookie')));
    expect(await manager.run(b.id, (page) => page.textContent('#cookies'))).toBe('');
    await manager.run(a.id, (page) => page.goto(server.urlFor('/echo-cookie')));
    expect(await manager.run(a.id, (page) => page.textContent('#cookies'))).toBe('pool=a');
  });

  it('lets the first create() claim a context the pool is still opening instead of opening a second one', async () => {
    const { host, manager } = start({ warmSessions: 1, startHost: false });
    const session = await manager.create();
    const browser = await host.browser();
    // The session's context plus one refill: the claimed in-flight context was not opened twice.
    const contexts = await contextsReach(browser, 2);
    expect(contexts).toContain(session.context);
  });

  it('closes pooled contexts and the browser at shutdown, leaving no browser process', async () => {
    const before = new Set(await browserPids());
    const { host, manager } = start({ warmSessions: 2 });
    const browser = await host.browser();
    const pooled = await contextsReach(browser, 2);
    const closed = pooled.map((context) => new Promise<void>((resolve) => context.once('close', () => resolve())));
    const ours = (await browserPids()).filter((pid) => !before.has(pid));
    expect(ours.length).toBeGreaterThan(0);

    await manager.shutdown();
    await Promise.all(closed);
    await waitFor(() => ours.every((pid) => !isAlive(pid)), { timeout: 10_000 });
  });

  it('leaves no browser process when shut down while the pool is still opening', async () => {
    const before = new Set(await browserPids());
    const { host, manager } = start({ warmSessions: 3 });
    await host.browser();
    const ours = (await browserPids()).filter((pid) => !before.has(pid));
    await manager.shutdown();
    await waitFor(() => ours.every((pid) => !isAlive(pid)), { timeout: 10_000 });
    await expect(manager.create()).rejects.toMatchObject({ code: 'BROWSER_ERROR' });
  });

  it('discards the pool of a browser that died and hands out contexts of the new one', async () => {
    const before = new Set(await browserPids());
    const { host, manager } = start({ warmSessions: 1 });
    const oldBrowser = await host.browser();
    await contextsReach(oldBrowser, 1);
    const main = (await browserProcesses(process.pid)).find((proc) => !before.has(proc.pid) && proc.ppid === process.pid);
    expect(main).toBeDefined();
    process.kill(main!.pid, 'SIGKILL');
    await waitFor(() => !host.connected, { timeout: 10_000 });

    const session = await manager.create();
    expect(session.browser).not.toBe(oldBrowser);
    expect(session.context.browser()).toBe(session.browser);
    expect(session.browser.isConnected()).toBe(true);
    const status = await manager.run(session.id, async (page) => (await page.goto(server.urlFor('/')))?.status());
    expect(status).toBe(200);
  });

  it('is off by default in the library, and in headed mode unless asked', () => {
    expect(defaultWarmSessions(true)).toBe(1);
    expect(defaultWarmSessions(false)).toBe(0);
    // A manager that was not asked for a pool opens nothing: the browser is not even launched.
    const host = new BrowserHost({ headless: false });
    const manager = new SessionManager({ host });
    managers.push(manager);
    expect(manager.warmSessions).toBe(0);
    expect(host.connected).toBe(false);
  });

  it('rejects a negative or fractional pool size', () => {
    const host = new BrowserHost({ headless: true });
    expect(() => new SessionManager({ host, warmSessions: -1 })).toThrow(RangeError);
    expect(() => new SessionManager({ host, warmSessions: 1.5 })).toThrow(RangeError);
  });
});

describe('warm pool refill timing (fake time, no browser)', () => {
  /** Just enough of a Browser, context and page for the pool's checks. */
  function fakes() {
    const browser = { isConnected: () => true, once() {}, off() {} } as unknown as Browser;
    let opened = 0;
    const open = async () => {
      opened += 1;
      const context = { close: async () => {} } as unknown as BrowserContext;
      return { context, page: { isClosed: () => false } as unknown as import('playwright').Page };
    };
    return { browser, open, opened: () => opened };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('refills only after 50 ms without work, so the refill does not slow the call that follows create', async () => {
    const time = new FakeTime();
    const { browser, open, opened } = fakes();
    const pool = new WarmPool({ size: 1, browser: async () => browser, open, clock: time, timers: time });
    pool.fill();
    await settle();
    expect(opened()).toBe(1);
    expect(await pool.take(browser)).toBeDefined();

    let finish!: () => void;
    const call = pool.work(new Promise<void>((resolve) => (finish = resolve)));
    time.advance(500);
    await settle();
    expect(opened()).toBe(1);
    finish();
    await call;
    time.advance(49);
    await settle();
    expect(opened()).toBe(1);
    time.advance(60);
    await settle();
    expect(opened()).toBe(2);
    await pool.close();
  });

  it('holds the refill back for a call whose request arrived while the thread was busy (real timers and a real socket)', async () => {
    const { browser, open, opened } = fakes();
    const pool = new WarmPool({ size: 1, browser: async () => browser, open });
    pool.fill();
    await settle();
    await pool.take(browser);
    // The next call's request: it is on the socket before the refill's 50 ms are up, but the thread is busy until after.
    let finish!: () => void;
    let call: Promise<void> | undefined;
    const server = createServer((socket) => socket.once('data', () => (call = pool.work(new Promise<void>((resolve) => (finish = resolve))))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await Promise.all([new Promise((resolve) => client.once('connect', resolve)), accepted]);
    client.write('request');
    const busyUntil = Date.now() + 80;
    while (Date.now() < busyUntil) {
      // The thread is busy: the refill's timer comes due meanwhile.
    }
    // The request is read once the thread is free, after the refill's timer came due: the refill must not have opened.
    await waitFor(() => call !== undefined);
    expect(call).toBeDefined();
    expect(opened()).toBe(1);
    finish();
    await call;
    await waitFor(() => opened() === 2, { timeout: 2_000 });
    client.destroy();
    server.close();
    await pool.close();
  });

  it('refills after a second at the latest when work never stops', async () => {
    const time = new FakeTime();
    const { browser, open, opened } = fakes();
    const pool = new WarmPool({ size: 1, browser: async () => browser, open, clock: time, timers: time });
    pool.fill();
    await settle();
    await pool.take(browser);
    void pool.work(new Promise<void>(() => {}));
    time.advance(999);
    await settle();
    expect(opened()).toBe(1);
    time.advance(1);
    await settle();
    expect(opened()).toBe(2);
    await pool.close();
    expect(time.pending).toBe(0);
  });

  it('opens no second context while a creation waits for one still opening, however long it takes', async () => {
    const time = new FakeTime();
    const { browser } = fakes();
    let opened = 0;
    let land!: () => void;
    // The first open hangs until the test lets it land, as on a loaded machine; later ones land at once.
    const open = async () => {
      opened += 1;
      if (opened === 1) await new Promise<void>((resolve) => (land = resolve));
      const context = { close: async () => {} } as unknown as BrowserContext;
      return { context, page: { isClosed: () => false } as unknown as import('playwright').Page };
    };
    const pool = new WarmPool({ size: 1, browser: async () => browser, open, clock: time, timers: time });
    pool.fill();
    await settle();
    const taken = pool.take(browser);
    time.advance(5_000);
    await settle();
    expect(opened).toBe(1);
    land();
    expect(await taken).toBeDefined();
    // From the end of the wait, the usual quiet moment.
    time.advance(49);
    await settle();
    expect(opened).toBe(1);
    time.advance(60);
    await settle();
    expect(opened).toBe(2);
    await pool.close();
  });
});
