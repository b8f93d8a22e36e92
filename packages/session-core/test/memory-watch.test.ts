// The memory watch: one timer per browser reading its processes, tabs measured only when a process grows past the bound, nothing asked of quiet pages.
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import type { BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';
import { MemoryWatch, readProcessMemory } from '../src/memory-watch.js';
import { FakeTime } from './fake-time.js';

describe('MemoryWatch', () => {
  const MB = 1024 ** 2;

  function watched(sizes: Map<number, number>) {
    const time = new FakeTime();
    let looks = 0;
    const watch = new MemoryWatch({
      roots: [1],
      bytes: 800 * MB,
      everyMs: 1_000,
      timers: time,
      look: async () => {
        looks += 1;
      },
      read: () => new Map(sizes),
    }).start();
    return { time, watch, looks: () => looks };
  }

  it('looks at the tabs only when a process holds more than the bound, and again only once it has grown by an eighth of it', async () => {
    const sizes = new Map([
      [1, 200 * MB],
      [2, 700 * MB],
    ]);
    const { watch, looks } = watched(sizes);
    await watch.check();
    expect(looks()).toBe(0);
    sizes.set(2, 900 * MB);
    await watch.check();
    expect(looks()).toBe(1);
    // Still large, not grown: no second look.
    await watch.check();
    sizes.set(2, 950 * MB);
    await watch.check();
    expect(looks()).toBe(1);
    sizes.set(2, 1_001 * MB);
    await watch.check();
    expect(looks()).toBe(2);
    // A process that went away and a new one past the bound under the same pid: it is looked at afresh.
    sizes.delete(2);
    await watch.check();
    sizes.set(2, 801 * MB);
    await watch.check();
    expect(looks()).toBe(3);
    watch.stop();
  });

  it('reads on its one timer, and stops', async () => {
    const sizes = new Map([[1, 900 * MB]]);
    const { time, watch, looks } = watched(sizes);
    expect(time.pending).toBe(1);
    time.advance(1_000);
    await expect.poll(() => looks()).toBe(1);
    await expect.poll(() => time.pending).toBe(1);
    watch.stop();
    expect(time.pending).toBe(0);
  });
});

const QUIET = '<title>Quiet</title><p>nothing happens here</p>';
const FLOOD = `<title>Memory</title><script>const kept = []; setInterval(() => kept.push(new Uint8Array(20e6).fill(1)), 50);</script>`;

describe('the memory watch in a real browser', () => {
  let server: FixtureServer;
  let host: BrowserHost;
  beforeAll(async () => {
    server = await startFixtureServer({ pages: { quiet: QUIET, flood: FLOOD } });
    host = new BrowserHost({ headless: true }).start();
    await host.browser();
  }, 60_000);
  afterAll(async () => {
    await host.close();
    await server.close();
  });

  it("reads the renderers of the launched browser's pages", async () => {
    const browser = await host.browser();
    const roots = host.processIdsOf(browser);
    expect(roots.length).toBeGreaterThan(0);
    const before = readProcessMemory(roots);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.urlFor('/pages/quiet'));
    const after = readProcessMemory(roots);
    // The new page's renderer is one more process, of some megabytes; the browser's own processes are not read.
    expect(after.size).toBeGreaterThan(before.size);
    for (const root of roots) expect(after.has(root)).toBe(false);
    for (const bytes of after.values()) expect(bytes).toBeGreaterThan(1024 ** 2);
    await context.close();
  });

  it('asks nothing of quiet pages, and still stops a page that fills its memory', async () => {
    const manager = new SessionManager({ host, maxSessions: 10, runaway: { heapBytes: 300 * 1024 ** 2, heapCheckMs: 200 } });
    try {
      const sessions = await Promise.all([1, 2, 3].map(() => manager.create()));
      // Every DevTools session opened on a session's tabs is counted: the old watch opened one per tab on a timer.
      let opened = 0;
      for (const session of sessions) {
        const context: BrowserContext = session.context;
        const open = context.newCDPSession.bind(context);
        context.newCDPSession = (page) => {
          opened += 1;
          return open(page);
        };
        await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/quiet')));
      }
      // Many reading periods of quiet pages.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(opened).toBe(0);
      const [flooder] = sessions;
      if (!flooder) throw new Error('no session');
      await manager.run(flooder.id, (page) => page.goto(server.urlFor('/pages/flood')));
      let failure: unknown;
      await expect
        .poll(
          async () => {
            failure = await manager
              .run(flooder.id, (page) => page.title())
              .then(
                () => undefined,
                (error: unknown) => error,
              );
            return failure !== undefined;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(true);
      expect(failure).toMatchObject({ code: 'BROWSER_ERROR', details: { reason: 'runaway_page', bound: 'memory', limit: 300 * 1024 ** 2 } });
      // The look measured the tabs once; the quiet sessions answer as before.
      expect(opened).toBeGreaterThan(0);
      for (const session of sessions.slice(1)) expect(await manager.run(session.id, (page) => page.title())).toBe('Quiet');
    } finally {
      await manager.shutdown();
    }
  }, 90_000);
});
