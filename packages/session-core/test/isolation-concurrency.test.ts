// Sessions are isolated from each other, run in parallel across sessions and in order within one, and survive a closed page.
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';

let host: BrowserHost;
let manager: SessionManager;
let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host, maxSessions: 10 });
  await host.browser();
});
afterAll(async () => {
  await manager.shutdown();
  await server.close();
});

const text = (selector: string) => async (page: import('playwright').Page) => (await page.textContent(selector)) ?? '';

describe('isolation', () => {
  it('keeps cookies, localStorage and sessionStorage of one session invisible to another', async () => {
    const [a, b] = await Promise.all([manager.create(), manager.create()]);
    try {
      await manager.run(a.id, async (page) => {
        await page.goto(server.urlFor('/set-cookie?name=k&value=1'));
        await page.goto(server.urlFor('/pages/storage?set=one'));
      });
      // The writing session sees its own state (so the check below can fail).
      await manager.run(a.id, (page) => page.goto(server.urlFor('/echo-cookie')));
      expect(await manager.run(a.id, text('#cookies'))).toBe('k=one');
      await manager.run(a.id, (page) => page.goto(server.urlFor('/pages/storage')));
      expect(await manager.run(a.id, text('#ls'))).toBe('one');
      expect(await manager.run(a.id, text('#ss'))).toBe('one');
      expect(await manager.run(a.id, text('#ck'))).toBe('one');

      // The other session sent no cookie, and its storage is empty.
      await manager.run(b.id, (page) => page.goto(server.urlFor('/echo-cookie')));
      expect(await manager.run(b.id, text('#cookies'))).toBe('');
      await manager.run(b.id, (page) => page.goto(server.urlFor('/pages/storage')));
      expect(await manager.run(b.id, text('#ls'))).toBe('');
      expect(await manager.run(b.id, text('#ss'))).toBe('');
      expect(await manager.run(b.id, text('#ck'))).toBe('');
      expect(await manager.run(b.id, (page) => page.context().cookies())).toEqual([]);
    } finally {
      await Promise.all([manager.close(a.id), manager.close(b.id)]);
    }
  });
});

describe('concurrency', () => {
  it('runs calls on different sessions in parallel: five 1-second loads finish in under 3 s', async () => {
    const sessions = await Promise.all(Array.from({ length: 5 }, () => manager.create()));
    try {
      const started = Date.now();
      const statuses = await Promise.all(
        sessions.map((session) => manager.run(session.id, async (page) => (await page.goto(server.urlFor('/wait?ms=1000')))?.status())),
      );
      const elapsed = Date.now() - started;
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(elapsed).toBeGreaterThanOrEqual(990);
      expect(elapsed).toBeLessThan(3000);
    } finally {
      await Promise.all(sessions.map((session) => manager.close(session.id)));
    }
  });

  it('runs calls on one session one at a time, in arrival order', async () => {
    const session = await manager.create();
    try {
      const order: number[] = [];
      let running = 0;
      let maxRunning = 0;
      const calls = Array.from({ length: 10 }, (_, index) =>
        manager.run(session.id, async (page) => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          order.push(index);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 30)));
          // A page call inside, so the queue serialises real browser work too.
          await page.evaluate((i) => (document.title = `call ${i}`), index);
          running -= 1;
          return index;
        }),
      );
      expect(session.busy).toBe(true);
      expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(maxRunning).toBe(1);
      expect(session.busy).toBe(false);
      expect(await manager.run(session.id, (page) => page.title())).toBe('call 9');
    } finally {
      await manager.close(session.id);
    }
  });

  it('keeps the queue going after a call fails, and passes the failure to its caller only', async () => {
    const session = await manager.create();
    try {
      const first = manager.run(session.id, async () => {
        throw new TypeError('boom');
      });
      const second = manager.run(session.id, async () => 'after');
      await expect(first).rejects.toThrow(TypeError);
      expect(await second).toBe('after');
    } finally {
      await manager.close(session.id);
    }
  });
});

describe('the session page', () => {
  it('replaces a page the site closed with window.close() by a fresh page in the same context', async () => {
    const session = await manager.create();
    try {
      // Chromium honours window.close() only in a tab with one history entry (or one a script opened), and
      // page.goto() from about:blank adds an entry, so the site is entered with location.replace() instead.
      const replaceWith = (page: import('playwright').Page, path: string) =>
        Promise.all([page.waitForURL(server.urlFor(path)), page.evaluate((url) => location.replace(url), server.urlFor(path))]);
      await manager.run(session.id, (page) => replaceWith(page, '/set-cookie?name=kept&value=yes'));
      const closedPage = await manager.run(session.id, async (page) => {
        await replaceWith(page, '/pages/closer');
        // The click may lose the race with the page closing under it; the close event is what counts.
        await Promise.all([page.waitForEvent('close'), page.click('#close', { noWaitAfter: true }).catch(() => {})]);
        return page;
      });
      expect(closedPage.isClosed()).toBe(true);

      const fresh = await manager.run(session.id, async (page) => {
        expect(page.isClosed()).toBe(false);
        expect(page.context()).toBe(session.context);
        await page.goto(server.urlFor('/echo-cookie'));
        return page;
      });
      expect(fresh).not.toBe(closedPage);
      expect(session.page).toBe(fresh);
      expect(await manager.run(session.id, text('#cookies'))).toBe('kept=yes');
      // The replacement page is watched like the first: a dialog there is answered too. It is not a tab the site opened.
      await manager.run(session.id, (page) => page.evaluate(() => alert('on the fresh page')));
      expect(session.takeEvents()).toEqual({
        dialogs: [{ type: 'alert', message: 'on the fresh page', action: 'accepted' }],
        openedTabs: [],
        closedTabs: [],
        downloads: [],
      });
    } finally {
      await manager.close(session.id);
    }
  });

  it('goes back to the opener when a popup closes itself', async () => {
    const session = await manager.create();
    try {
      const opener = await manager.run(session.id, async (page) => {
        await page.goto(server.urlFor('/pages/popup'));
        await Promise.all([page.context().waitForEvent('page'), page.click('#newtab')]);
        return page;
      });
      const popup = session.page;
      expect(popup).not.toBe(opener);
      await manager.run(session.id, async (page) => {
        await Promise.all([page.waitForEvent('close'), page.evaluate(() => window.close()).catch(() => {})]);
      });
      expect(popup.isClosed()).toBe(true);
      expect(await manager.run(session.id, async (page) => page)).toBe(opener);
      expect(await manager.run(session.id, (page) => page.title())).toBe('Popup');
    } finally {
      await manager.close(session.id);
    }
  });

  it('follows a tab the page opens and reports it in the events', async () => {
    const session = await manager.create();
    try {
      const opener = await manager.run(session.id, async (page) => {
        await page.goto(server.urlFor('/pages/popup'));
        await Promise.all([page.context().waitForEvent('page'), page.click('#newtab')]);
        return page;
      });
      expect(session.page).not.toBe(opener);
      await manager.run(session.id, (page) => page.waitForURL('**/pages/home'));
      expect(await manager.run(session.id, (page) => page.title())).toBe('Home');
      expect(session.takeEvents().openedTabs).toHaveLength(1);
      expect(session.takeEvents().openedTabs).toEqual([]);
    } finally {
      await manager.close(session.id);
    }
  });

  it('answers dialogs itself: an alert does not block and is reported; confirm and prompt are dismissed', async () => {
    const session = await manager.create();
    try {
      await manager.run(session.id, (page) => page.evaluate(() => alert('x')));
      const confirmed = await manager.run(session.id, (page) => page.evaluate(() => confirm('sure?')));
      const prompted = await manager.run(session.id, (page) => page.evaluate(() => prompt('name?')));
      expect(confirmed).toBe(false);
      expect(prompted).toBeNull();
      expect(session.takeEvents().dialogs).toEqual([
        { type: 'alert', message: 'x', action: 'accepted' },
        { type: 'confirm', message: 'sure?', action: 'dismissed' },
        { type: 'prompt', message: 'name?', action: 'dismissed' },
      ]);
      // Reading empties the list.
      expect(session.takeEvents()).toEqual({ dialogs: [], openedTabs: [], closedTabs: [], downloads: [] });
    } finally {
      await manager.close(session.id);
    }
  });

  it('remembers at most 50 dialogs between two reads, so a page that loops alert() cannot flood a result', async () => {
    const session = await manager.create();
    try {
      await manager.run(session.id, (page) =>
        page.evaluate(() => {
          for (let i = 0; i < 80; i += 1) alert(`n${i}`);
        }),
      );
      const { dialogs } = session.takeEvents();
      expect(dialogs).toHaveLength(50);
      expect(dialogs[0]).toEqual({ type: 'alert', message: 'n0', action: 'accepted' });
    } finally {
      await manager.close(session.id);
    }
  });
});

describe('listing', () => {
  it('lists open sessions with url and title, filtered by identity', async () => {
    const mine = await manager.create({ identity: 'conn-1' });
    const theirs = await manager.create({ identity: 'conn-2' });
    try {
      await manager.run(mine.id, (page) => page.goto(server.urlFor('/pages/home')));
      const listed = await manager.list({ identity: 'conn-1' });
      expect(listed).toEqual([
        {
          sessionId: mine.id,
          createdAt: mine.createdAt,
          expiresAt: mine.expiresAt,
          url: server.urlFor('/pages/home'),
          title: 'Home',
          viewport: { width: 1280, height: 720 },
          endpoint: 'local',
        },
      ]);
      expect((await manager.list()).map((info) => info.sessionId)).toEqual([mine.id, theirs.id]);
      expect(manager.idsOf('conn-2')).toEqual([theirs.id]);
      expect(manager.idsOf('nobody')).toEqual([]);
      expect(mine.identity).toBe('conn-1');
    } finally {
      await Promise.all([manager.close(mine.id), manager.close(theirs.id)]);
    }
  });
});
