// Runaway pages: a page that floods events or memory is stopped, says so on its session's next call, and costs the other sessions little.
import { pipeBrowsers, startFixtureServer, treePss, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_ERROR_REASONS, BrowserHost, SessionManager, isSessionError, type Session } from '../src/index.js';
import { DEFAULT_RUNAWAY_LIMITS } from '../src/parts.js';
import type { RunawayTrip } from '../src/runaway.js';
import { RunawayGuard, runawayLimits } from '../src/runaway.js';

describe('RunawayGuard', () => {
  const limits = runawayLimits({ events: { console: 3, dialogs: 2 }, windowMs: 1_000 });

  it('trips once on the first event past a bound within the window, then refuses every event until reset', () => {
    let now = 10_000;
    const trips: RunawayTrip[] = [];
    const guard = new RunawayGuard(
      limits,
      (trip) => trips.push(trip),
      () => now,
    );
    expect([1, 2, 3].map(() => guard.count('console'))).toEqual([true, true, true]);
    expect(guard.count('console', () => 'http://a.test/')).toBe(false);
    expect(trips).toEqual([{ bound: 'console', limit: 3, observed: 4, windowMs: 1_000, url: 'http://a.test/' }]);
    // Stopped: every kind is refused, and nothing trips again.
    expect(guard.count('requests')).toBe(false);
    now += 5_000;
    expect(guard.count('console')).toBe(false);
    expect(trips).toHaveLength(1);
    guard.reset();
    expect(guard.tripped).toBeUndefined();
    expect(guard.count('console')).toBe(true);
  });

  it('counts over a sliding window: events spread over time pass, the same number bunched up does not', () => {
    let now = 0;
    const trips: RunawayTrip[] = [];
    const guard = new RunawayGuard(
      limits,
      (trip) => trips.push(trip),
      () => now,
    );
    // A dialog every 0.7 s for fourteen seconds: never more than two within one window.
    for (let i = 0; i < 20; i += 1) {
      now = i * 700;
      expect(guard.count('dialogs')).toBe(true);
    }
    expect(trips).toEqual([]);
    // Three at the end of one window and the start of the next: still within one sliding second.
    now = 30_900;
    guard.count('dialogs');
    guard.count('dialogs');
    now = 31_100;
    expect(guard.count('dialogs')).toBe(false);
    expect(trips[0]).toMatchObject({ bound: 'dialogs', limit: 2, observed: 3 });
  });

  it('stops a session whose console messages keep arriving late, counting lateness from the quickest delivery', () => {
    let now = 50_000;
    const trips: RunawayTrip[] = [];
    // The browser's clock runs 10 s ahead of this one: the first, quick message sets what "on time" is.
    const guard = new RunawayGuard(
      { ...limits, events: { ...limits.events, console: 8 } },
      (trip) => trips.push(trip),
      () => now,
    );
    expect(guard.count('console', undefined, now + 10_000)).toBe(true);
    // Late messages, but no more than a quarter of the console bound within the window: a busy moment, not a flood.
    now += 5_000;
    expect([1, 2].map(() => guard.count('console', undefined, now + 10_000 - 3_000))).toEqual([true, true]);
    expect(trips).toEqual([]);
    // On time again: any number of them (within the bound) passes.
    now += 5_000;
    expect([1, 2, 3, 4].map(() => guard.count('console', undefined, now + 10_000))).toEqual([true, true, true, true]);
    now += 5_000;
    guard.count('console', undefined, now + 10_000 - 2_500);
    guard.count('console', undefined, now + 10_000 - 2_500);
    expect(guard.count('console', () => 'http://late.test/', now + 10_000 - 2_500)).toBe(false);
    expect(trips).toEqual([{ bound: 'console', limit: 2, observed: 3, windowMs: 1_000, lateMs: 2_500, url: 'http://late.test/' }]);
  });

  it('stops for a heap past its bound, and for a bound the page reported itself', () => {
    const trips: RunawayTrip[] = [];
    const guard = new RunawayGuard(limits, (trip) => trips.push(trip));
    guard.heap(limits.heapBytes, 'http://a.test/');
    expect(trips).toEqual([]);
    guard.heap(limits.heapBytes + 1, 'http://a.test/');
    expect(trips).toEqual([{ bound: 'memory', limit: limits.heapBytes, observed: limits.heapBytes + 1, url: 'http://a.test/' }]);
    guard.reset();
    guard.report('requests', 5_000, 'http://b.test/');
    expect(trips[1]).toEqual({ bound: 'requests', limit: limits.events.requests, observed: 5_000, windowMs: 1_000, url: 'http://b.test/' });
  });

  it('takes the defaults for what is not given and refuses bad limits', () => {
    expect(runawayLimits()).toEqual(DEFAULT_RUNAWAY_LIMITS);
    expect(runawayLimits({ events: { popups: 5 } }).events).toEqual({ ...DEFAULT_RUNAWAY_LIMITS.events, popups: 5 });
    expect(() => runawayLimits({ events: { console: 0 } })).toThrow(RangeError);
    expect(() => runawayLimits({ windowMs: Number.NaN })).toThrow(RangeError);
    expect(() => runawayLimits({ heapBytes: -1 })).toThrow(RangeError);
    // 0: no memory bound, and no heap is ever past it.
    expect(runawayLimits({ heapBytes: 0 }).heapBytes).toBe(0);
    const unbounded = new RunawayGuard(runawayLimits({ heapBytes: 0 }), () => {
      throw new Error('tripped');
    });
    unbounded.heap(2 ** 40, 'http://a.test/');
    expect(unbounded.tripped).toBeUndefined();
    expect(() => runawayLimits({ lateMs: 0 })).toThrow(RangeError);
    expect(BROWSER_ERROR_REASONS).toContain('runaway_page');
  });
});

/** Pages that flood the browser, each in its own way. */
const FLOODS: Record<string, string> = {
  'flood-console': `<title>Console flood</title><script>setInterval(() => { for (let i = 0; i < 20000; i++) console.log('line ' + i); }, 0);</script>`,
  'flood-fetch': `<title>Fetch flood</title><script>setInterval(() => { for (let i = 0; i < 200; i++) fetch('/status/204?' + Math.random()).catch(() => {}); }, 0);</script>`,
  'flood-errors': `<title>Error flood</title><script>setInterval(() => { for (let i = 0; i < 2000; i++) setTimeout(() => { throw new Error('boom ' + i); }); }, 0);</script>`,
  'flood-popups': `<title>Popup flood</title><script>setInterval(() => { for (let i = 0; i < 5; i++) window.open('/pages/flood-popups'); }, 0);</script>`,
  'flood-dialogs': `<title>Dialog flood</title><script>setTimeout(() => { for (;;) { alert('again'); confirm('and again'); } }, 0);</script>`,
  // A worker's console is out of reach of the page's own guard: the collectors' bound stops it.
  'flood-worker': `<title>Worker flood</title><script>new Worker(URL.createObjectURL(new Blob(["setInterval(() => { for (let i = 0; i < 20000; i++) console.log('w' + i); }, 0)"])));</script>`,
  'flood-memory': `<title>Memory</title><script>const kept = []; setInterval(() => kept.push(new Uint8Array(20e6).fill(1)), 50);</script>`,
  plain: '<title>Plain</title><p>plain</p>',
  'logs-here': `<title>Logs</title><script>
console.log('first line');
console.log('second line');
</script>`,
};

const CALL_TIMEOUT = 60_000;
let server: FixtureServer;
let host: BrowserHost;
let manager: SessionManager;
/** The browser this file launched (a browser of an earlier file in this process may still be going away). */
let browserPid: number;
beforeAll(async () => {
  server = await startFixtureServer({ pages: FLOODS });
  const before = new Set((await pipeBrowsers(process.pid)).map((browser) => browser.pid));
  host = new BrowserHost({ headless: true }).start();
  // A small heap bound, so the memory test does not need gigabytes.
  manager = new SessionManager({ host, callTimeout: CALL_TIMEOUT, maxSessions: 20, runaway: { heapBytes: 300 * 1024 ** 2, heapCheckMs: 500 } });
  await host.browser();
  const launched = (await pipeBrowsers(process.pid)).find((browser) => !before.has(browser.pid));
  if (!launched) throw new Error('the browser process was not found');
  browserPid = launched.pid;
}, 60_000);
afterAll(async () => {
  await manager.shutdown();
  await server.close();
});

/** The session's calls until one answers runaway_page (the navigation itself, or a later call): that error's details. */
async function runawayOf(session: Session, page: string): Promise<Record<string, unknown>> {
  const started = Date.now();
  let failure: unknown;
  try {
    await manager.run(session.id, (tab) => tab.goto(server.urlFor(`/pages/${page}`)));
    // Loaded before the bound was passed: a later call says so.
    await expect
      .poll(
        async () => {
          failure = await manager
            .run(session.id, (tab) => tab.title())
            .then(
              () => undefined,
              (error: unknown) => error,
            );
          return failure !== undefined;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
  } catch (error) {
    failure ??= error;
  }
  expect(isSessionError(failure), String(failure)).toBe(true);
  if (!isSessionError(failure)) throw failure;
  expect(failure.code).toBe('BROWSER_ERROR');
  expect(failure.details?.reason, failure.message).toBe('runaway_page');
  expect(failure.sessionId).toBe(session.id);
  // Every call ends within the ceiling, whatever the browser's pipe is doing.
  expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT);
  return failure.details ?? {};
}

/** How long a navigation of the plain page takes in this session, in ms. */
async function navigateMs(session: Session): Promise<number> {
  const started = Date.now();
  await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/plain'), { timeout: 30_000 }), { loads: true });
  return Date.now() - started;
}

describe('a runaway page in a real browser', () => {
  it('stops a console flood within seconds, while another session navigates at its usual speed, and the browser stays small', async () => {
    const other = await manager.create();
    const flooder = await manager.create();
    await manager.run(flooder.id, async (page) => {
      await page.goto(server.urlFor('/set-cookie?name=kept&value=yes'));
    });
    const baseline: number[] = [];
    for (let i = 0; i < 5; i += 1) baseline.push(await navigateMs(other));
    const memoryBefore = await treePss(browserPid);
    const flooding = runawayOf(flooder, 'flood-console');
    const during: number[] = [];
    const until = Date.now() + 10_000;
    while (Date.now() < until) during.push(await navigateMs(other));
    const grown = (await treePss(browserPid)) - memoryBefore;
    // The other session kept navigating throughout (wide margins: a flood left unchecked holds it for tens of seconds).
    expect(Math.max(...during), `baseline ${baseline.join(' ')}; during ${during.join(' ')}`).toBeLessThan(Math.max(...baseline) + 8_000);
    expect(during.length).toBeGreaterThan(2);
    // A flood left unchecked grows the browser by tens of megabytes a second, holding what it has not relayed yet.
    expect(grown).toBeLessThan(400 * 1024 ** 2);
    const details = await flooding;
    expect(details).toMatchObject({ bound: 'console', limit: DEFAULT_RUNAWAY_LIMITS.events.console, pageReplaced: true });
    // The flooding session goes on, on a fresh blank page of the same context.
    const after = await manager.run(flooder.id, async (page) => ({ url: page.url(), cookies: await page.context().cookies() }));
    expect(after.url).toBe('about:blank');
    expect(after.cookies.map((cookie) => cookie.name)).toContain('kept');
    await manager.close(other.id);
    await manager.close(flooder.id);
  }, 120_000);

  it.each([
    ['flood-fetch', 'requests'],
    ['flood-errors', 'console'],
    ['flood-popups', 'popups'],
    ['flood-dialogs', 'dialogs'],
    ['flood-worker', 'console'],
    ['flood-memory', 'memory'],
  ])(
    'stops %s for its %s bound and says which',
    async (page, bound) => {
      const session = await manager.create();
      const details = await runawayOf(session, page);
      expect(details).toMatchObject({ bound, pageReplaced: true });
      expect(details.observed).toBeGreaterThan(details.limit as number);
      // Reported once: the next call runs on a fresh page.
      expect(await manager.run(session.id, async (tab) => tab.url())).toBe('about:blank');
      await manager.close(session.id);
    },
    90_000,
  );

  it("keeps the page's own place in its console messages", async () => {
    const session = await manager.create();
    await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/logs-here')));
    await expect.poll(() => session.collectors.console.read().items.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const [first, second] = session.collectors.console.read().items;
    expect(first).toMatchObject({ text: 'first line', url: server.urlFor('/pages/logs-here'), line: 2 });
    expect(second).toMatchObject({ text: 'second line', line: 3 });
    await manager.close(session.id);
  });
});

describe('a browser per identity', () => {
  let isolated: SessionManager;
  const launched: BrowserHost[] = [];
  beforeAll(() => {
    isolated = new SessionManager({
      host,
      callTimeout: CALL_TIMEOUT,
      browserPerIdentity: {
        launch: (identity) => {
          if (identity === 'shared') return undefined;
          const own = new BrowserHost({ headless: true });
          launched.push(own);
          return own;
        },
        idleMs: 500,
      },
    });
  });
  afterAll(() => isolated.shutdown());

  /** A navigation of the plain page in this session of the isolated manager, in ms. */
  async function isolatedNavigateMs(session: Session): Promise<number> {
    const started = Date.now();
    await isolated.run(session.id, (page) => page.goto(server.urlFor('/pages/plain'), { timeout: 30_000 }), { loads: true });
    return Date.now() - started;
  }

  it("keeps another identity's navigations at their speed while a worker floods, which only the collectors' bound sees", async () => {
    const [mine, also, theirs, shared] = await Promise.all([
      isolated.create({ identity: 'a' }),
      isolated.create({ identity: 'a' }),
      isolated.create({ identity: 'b' }),
      isolated.create({ identity: 'shared' }),
    ]);
    expect(mine.browser).toBe(also.browser);
    expect(theirs.browser).not.toBe(mine.browser);
    expect(shared.browser).toBe(await host.browser());
    const baseline: number[] = [];
    for (let i = 0; i < 5; i += 1) baseline.push(await isolatedNavigateMs(theirs));
    const flooding = isolated
      .run(mine.id, (page) => page.goto(server.urlFor('/pages/flood-worker')))
      .then(async () => {
        for (;;) await isolated.run(mine.id, (page) => page.title());
      })
      .catch((error: unknown) => error);
    const during: number[] = [];
    const until = Date.now() + 10_000;
    while (Date.now() < until) during.push(await isolatedNavigateMs(theirs));
    // In one shared browser the same flood held the other session's navigations for 4 to 17 s each.
    expect(Math.max(...during), `baseline ${baseline.join(' ')}; during ${during.join(' ')}`).toBeLessThan(Math.max(...baseline) + 8_000);
    const stopped = await flooding;
    expect(isSessionError(stopped) && stopped.details?.reason).toBe('runaway_page');
    await Promise.all([mine, also, theirs, shared].map((session) => isolated.close(session.id)));
    // An identity's browser closes a moment after its last session.
    expect(launched).toHaveLength(2);
    await expect.poll(() => launched.filter((own) => own.available).length, { timeout: 10_000 }).toBe(0);
  }, 120_000);
});
