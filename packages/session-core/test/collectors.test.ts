// The collectors' rings (bounded, read by cursor) and the Session's per-tab behaviours: console and page errors, tabs and their limit, dialog modes, downloads, emulation.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Ring } from '../src/collectors.js';
import { safeFileName } from '../src/downloads.js';
import { BrowserHost, SessionManager, type Session } from '../src/index.js';
import { atLeast, type ModalState } from '../src/parts.js';
import { rejectionOf } from './session-errors.js';

describe('Ring', () => {
  it('keeps the last `capacity` entries, numbers them in order and counts what fell out', () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 5; i += 1) ring.push(i * 10);
    expect(ring.size).toBe(3);
    expect(ring.dropped).toBe(2);
    expect(ring.read()).toEqual({ items: [30, 40, 50], cursor: 5, dropped: 2 });
    expect(ring.at(2)).toBeUndefined();
    expect(ring.at(4)).toBe(40);
  });

  it('reads by cursor: only what came after it, with the misses counted from the cursor on', () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 3; i += 1) ring.push(i);
    const first = ring.read();
    expect(first).toEqual({ items: [1, 2, 3], cursor: 3, dropped: 0 });
    expect(ring.read({ since: first.cursor })).toEqual({ items: [], cursor: 3, dropped: 0 });
    for (let i = 4; i <= 8; i += 1) ring.push(i);
    // 4 and 5 came after the cursor and fell out before this read.
    expect(ring.read({ since: first.cursor })).toEqual({ items: [6, 7, 8], cursor: 8, dropped: 2 });
  });

  it('pages with limit and moves the cursor past entries a filter skipped', () => {
    const ring = new Ring<number>(10);
    for (let i = 1; i <= 6; i += 1) ring.push(i);
    const page = ring.read({ limit: 2, keep: (n) => n % 2 === 0 });
    expect(page).toEqual({ items: [2, 4], cursor: 4, dropped: 0 });
    expect(ring.read({ since: page.cursor, limit: 2, keep: (n) => n % 2 === 0 })).toEqual({ items: [6], cursor: 6, dropped: 0 });
    // A cursor from the future reads nothing rather than failing.
    expect(ring.read({ since: 99 })).toEqual({ items: [], cursor: 6, dropped: 0 });
  });

  it('filters console entries by the lowest level asked for', () => {
    const entries = ['debug', 'log', 'info', 'warning', 'error', 'assert', 'trace'].map((type) => ({ type, text: type, time: 0 }));
    expect(entries.filter(atLeast('warning')).map((entry) => entry.type)).toEqual(['warning', 'error', 'assert']);
    expect(entries.filter(atLeast('info')).map((entry) => entry.type)).toEqual(['log', 'info', 'warning', 'error', 'assert']);
    expect(entries.filter(atLeast('debug'))).toHaveLength(entries.length);
  });
});

describe('safeFileName', () => {
  it('keeps a plain name and strips directories, control characters, leading dots and reserved names', () => {
    expect(safeFileName('report.csv')).toBe('report.csv');
    expect(safeFileName('../../evil.sh')).toBe('evil.sh');
    expect(safeFileName('..\\..\\win.bat')).toBe('win.bat');
    expect(safeFileName('.bashrc')).toBe('bashrc');
    expect(safeFileName('a\u0000b<c>.txt')).toBe('a_b_c_.txt');
    expect(safeFileName('..')).toBe('download');
    expect(safeFileName('CON.txt')).toBe('_CON.txt');
    const long = safeFileName(`${'n'.repeat(300)}.pdf`);
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});

describe('Session in a real browser', () => {
  let host: BrowserHost;
  let manager: SessionManager;
  let server: FixtureServer;
  let outputDir: string;
  beforeAll(async () => {
    server = await startFixtureServer();
    outputDir = await mkdtemp(path.join(tmpdir(), 'sw-collectors-'));
    host = new BrowserHost({ headless: true }).start();
    manager = new SessionManager({ host, maxSessions: 10, maxTabs: 3, outputDir });
    await host.browser();
  });
  afterAll(async () => {
    await manager.shutdown();
    await server.close();
    await rm(outputDir, { recursive: true, force: true });
  });

  async function sessionOn(page: string): Promise<Session> {
    const session = await manager.create();
    await manager.run(session.id, (p) => p.goto(server.urlFor(`/pages/${page}`)));
    return session;
  }

  it("sees the first call's requests and console lines when it starts in the same tick as the creation", async () => {
    // The listeners are attached after create() answers (or by the first run()), yet in time for a call made at once.
    const session = await manager.create();
    await manager.run(session.id, (p) => p.goto(server.urlFor('/pages/console')));
    const requests = session.collectors.requests.read().items.map((entry) => entry.url);
    expect(requests[0]).toBe(server.urlFor('/pages/console'));
    await expect.poll(() => session.collectors.console.read().items.map((entry) => entry.text)).toContain('log on load');
    await manager.close(session.id);
  });

  it('leaves its listeners to a closing context: closing a session removes none of them one by one', async () => {
    const session = await sessionOn('console');
    expect(session.collectors.console.size).toBeGreaterThan(0);
    // Each removal of an event's last listener is a message to Playwright's side; a closed context would answer each with an error.
    const off = vi.spyOn(session.context, 'off');
    await manager.close(session.id);
    expect(session.context.pages()).toEqual([]);
    expect(off).not.toHaveBeenCalled();
  });

  it('stops collecting on dispose, removing its listeners once however often it is called', async () => {
    const session = await sessionOn('console');
    const off = vi.spyOn(session.context, 'off');
    session.collectors.dispose();
    const removed = off.mock.calls.map(([event]) => event);
    expect(removed).toEqual(expect.arrayContaining(['console', 'request', 'response']));
    session.collectors.dispose();
    expect(off).toHaveBeenCalledTimes(removed.length);
    const before = session.collectors.console.last;
    await manager.run(session.id, async (page) => {
      // The page's own listener sees the line, so the context's would have by now.
      const logged = page.waitForEvent('console');
      await page.evaluate(() => console.log('after dispose'));
      expect((await logged).text()).toBe('after dispose');
    });
    expect(session.collectors.console.last).toBe(before);
    await manager.close(session.id);
    expect(off).toHaveBeenCalledTimes(removed.length);
  });

  it('keeps the console ring at 1000 entries when a page logs 1500 lines, counting the rest as dropped', async () => {
    const session = await sessionOn('console');
    await manager.run(session.id, async (page) => {
      await page.click('#flood');
      await expect.poll(() => session.collectors.console.last, { timeout: 10_000 }).toBe(5 + 1500);
    });
    const { items, dropped } = session.collectors.console.read({ keep: atLeast('debug') });
    expect(items).toHaveLength(1000);
    expect(session.collectors.console.size).toBe(1000);
    expect(dropped).toBe(5 + 1500 - 1000);
    expect(items.at(-1)?.text).toBe('line 1499');
    await manager.close(session.id);
  });

  it('records uncaught page errors as type error, and console lines of a popup tab too', async () => {
    const session = await sessionOn('console');
    await manager.run(session.id, async (page) => {
      await page.click('#boom');
      await page.evaluate(() => window.open('/pages/console?popup=1'));
    });
    await expect.poll(() => session.collectors.console.read().items.filter((entry) => entry.text.includes('kaboom')).length, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => session.collectors.console.read().items.filter((entry) => entry.text === 'log on load').length, { timeout: 5_000 }).toBe(2);
    const error = session.collectors.console.read().items.find((entry) => entry.text.includes('kaboom'));
    expect(error?.type).toBe('error');
    await manager.close(session.id);
  });

  it('keeps at most maxTabs tabs, closing the oldest background tab first and saying so', async () => {
    const session = await sessionOn('home');
    await manager.run(session.id, async () => {
      await session.newTab();
      await session.newTab();
    });
    expect(session.tabs()).toHaveLength(3);
    session.takeEvents();
    const first = session.tabs()[0];
    await manager.run(session.id, (page) => page.evaluate(() => window.open('/pages/form')));
    await expect.poll(() => session.tabs().length).toBe(3);
    expect(session.tabs()).not.toContain(first);
    const events = session.takeEvents();
    expect(events.closedTabs).toEqual([server.urlFor('/pages/home')]);
    expect(events.openedTabs).toHaveLength(1);
    await manager.close(session.id);
  });

  it('selects and closes tabs by index, and leaves one blank tab when the last one closes', async () => {
    const session = await sessionOn('home');
    await manager.run(session.id, async (page) => {
      await session.newTab();
      expect(session.page).not.toBe(page);
      await session.selectTab(0);
      expect(session.page).toBe(page);
      const error = await rejectionOf(session.selectTab(5));
      expect(error.code).toBe('INVALID_PARAMETERS');
      expect(error.details).toMatchObject({ reason: 'no_such_tab', tabCount: 2 });
      await session.closeTab(1);
      await session.closeTab();
    });
    expect(session.tabs()).toHaveLength(1);
    expect(session.page.url()).toBe('about:blank');
    await manager.close(session.id);
  });

  it('answers the next dialog as set, then returns to the default; persist keeps the answer', async () => {
    const session = await sessionOn('dialog');
    const confirmResult = (page: import('playwright').Page) => page.click('#confirm').then(() => page.textContent('#confirm-result'));
    session.modal.setDialogAnswer({ accept: true });
    expect(await manager.run(session.id, confirmResult)).toBe('true');
    expect(await manager.run(session.id, confirmResult)).toBe('false');
    session.modal.setDialogAnswer({ accept: true, promptText: 'Ada', persist: true });
    expect(await manager.run(session.id, (page) => page.click('#prompt').then(() => page.textContent('#prompt-result')))).toBe('Ada');
    expect(await manager.run(session.id, confirmResult)).toBe('true');
    expect(session.takeEvents().dialogs.map((dialog) => dialog.action)).toEqual(['accepted', 'dismissed', 'accepted', 'accepted']);
    await manager.close(session.id);
  });

  it('holds a dialog open in hold mode until answerPendingDialog, and refuses an answer when none is open', async () => {
    const session = await sessionOn('dialog');
    session.modal.setMode('hold');
    expect((await rejectionOf(session.modal.answerDialog(true))).details).toEqual({ reason: 'no_dialog' });
    // The click cannot finish while the dialog is open: a caller in hold mode races its action against the dialog.
    const clicking = manager.run(session.id, (page) => page.click('#confirm'));
    await expect.poll(() => session.modal.state).toEqual({ type: 'dialog', dialogType: 'confirm', message: 'ok?', defaultValue: '' });
    expect(session.takeEvents().dialogs).toEqual([{ type: 'confirm', message: 'ok?', action: 'pending' }]);
    const record = await session.modal.answerDialog(true);
    expect(record.action).toBe('accepted');
    await clicking;
    expect(session.modal.state).toBeUndefined();
    expect(await manager.run(session.id, (page) => page.textContent('#confirm-result'))).toBe('true');
    await manager.close(session.id);
  });

  it('ends an action at the dialog it opens, tells listeners, and lets the next call wait for the action to finish', async () => {
    const session = await sessionOn('dialog');
    session.modal.setMode('hold');
    const seen: ModalState[] = [];
    const stop = session.modal.onState((state) => seen.push(state));
    const clicked = await manager.run(session.id, (page) => session.modal.race(page.click('#confirm').then(() => 'clicked')));
    const confirm = { type: 'dialog', dialogType: 'confirm', message: 'ok?', defaultValue: '' };
    // The queue is free while the click waits for the answer: the call returned with the dialog instead.
    expect(clicked).toEqual({ interrupted: confirm });
    expect(seen).toEqual([confirm]);
    await session.modal.answerDialog(false);
    await session.modal.settleInterrupted();
    expect(await manager.run(session.id, (page) => session.modal.race(page.textContent('#confirm-result')))).toEqual({ value: 'false' });
    stop();
    await manager.run(session.id, (page) => session.modal.race(page.click('#alert')));
    expect(seen).toHaveLength(1);
    await session.modal.answerDialog(true);
    await manager.close(session.id);
  });

  it('holds a file chooser in hold mode and answers it with files', async () => {
    const session = await sessionOn('upload');
    session.modal.setMode('hold');
    await manager.run(session.id, (page) => page.click('#chooser'));
    await expect.poll(() => session.modal.state).toEqual({ type: 'fileChooser', multiple: true });
    await session.modal.answerFileChooser([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('abc') }]);
    expect(session.modal.state).toBeUndefined();
    expect(await manager.run(session.id, (page) => page.textContent('#names'))).toBe('a.txt:3');
    expect((await rejectionOf(session.modal.answerFileChooser([]))).details).toEqual({ reason: 'no_file_chooser' });
    await manager.close(session.id);
  });

  it('saves downloads in a folder of its own under the output directory, with safe names', async () => {
    const [a, b] = await Promise.all([sessionOn('downloads'), sessionOn('downloads')]);
    for (const session of [a, b]) {
      await manager.run(session.id, async (page) => {
        await page.click('#csv');
        await page.click('#evil');
        await page.click('#csv');
      });
      await session.downloads.settle();
    }
    const [eventsA, eventsB] = [a.takeEvents().downloads, b.takeEvents().downloads];
    // The browser may clean "../../evil.sh" itself; whatever name is left, the file lies in the session's folder.
    const names = eventsA.map((download) => path.basename(download.path));
    expect(names[0]).toBe('report.csv');
    expect(names[1]).toMatch(/evil\.sh$/);
    expect(names[2]).toBe('report (1).csv');
    expect(eventsA.map((download) => download.bytes)).toEqual([1234, 10, 1234]);
    const folderA = path.dirname(eventsA[0]?.path ?? '');
    const folderB = path.dirname(eventsB[0]?.path ?? '');
    expect(folderA).not.toBe(folderB);
    for (const folder of [folderA, folderB]) expect(path.dirname(folder)).toBe(outputDir);
    expect(folderA).not.toContain(a.id);
    expect((await readdir(folderA)).sort()).toEqual([names[1], 'report (1).csv', 'report.csv'].sort());
    for (const download of eventsA) expect(path.dirname(download.path)).toBe(folderA);
    expect(await readdir(outputDir)).toHaveLength(2);
    await Promise.all([manager.close(a.id), manager.close(b.id)]);
  });

  it('emulates viewport and colour scheme on every tab, also tabs opened later', async () => {
    const session = await sessionOn('home');
    const settings = await manager.run(session.id, () =>
      session.emulation.emulate({ viewport: { width: 500, height: 400 }, colorScheme: 'dark', extraHTTPHeaders: { 'X-Api-Key': 'secret', 'X-Team': 'qa' } }),
    );
    expect(settings).toMatchObject({
      viewport: { width: 500, height: 400 },
      colorScheme: 'dark',
      extraHTTPHeaders: { 'X-Api-Key': '(hidden)', 'X-Team': '(hidden)' },
    });
    const popup = await manager.run(session.id, async (page) => {
      await page.evaluate(() => window.open('/pages/home'));
      await expect.poll(() => session.tabs().length).toBe(2);
      const opened = session.page;
      await expect.poll(() => opened.evaluate(() => [innerWidth, matchMedia('(prefers-color-scheme: dark)').matches])).toEqual([500, true]);
      return opened;
    });
    expect(popup.viewportSize()).toEqual({ width: 500, height: 400 });
    const error = await rejectionOf(manager.run(session.id, () => session.emulation.emulate({ viewport: { width: 0, height: 10 } })));
    expect(error.code).toBe('INVALID_PARAMETERS');
    await manager.close(session.id);
  });
});
