// A session's image and what starts from it: a restore under the same id, and forks that land signed in and then diverge.
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import type { Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, isSessionError, type Session, type SessionImage } from '../src/index.js';

let fixture: FixtureServer;
let host: BrowserHost;
let manager: SessionManager;

const STORE_PAGE = `<!doctype html><html><head><title>Store</title></head><body><p id="out"></p><script>
  window.putIdb = (value) => new Promise((resolve, reject) => {
    const open = indexedDB.open('notes', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('kv');
    open.onsuccess = () => { const tx = open.result.transaction('kv', 'readwrite'); tx.objectStore('kv').put(value, 'note'); tx.oncomplete = () => resolve(true); tx.onerror = () => reject(tx.error); };
    open.onerror = () => reject(open.error);
  });
  window.getIdb = () => new Promise((resolve) => {
    const open = indexedDB.open('notes', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('kv');
    open.onsuccess = () => { const get = open.result.transaction('kv').objectStore('kv').get('note'); get.onsuccess = () => resolve(get.result ?? null); get.onerror = () => resolve(null); };
    open.onerror = () => resolve(null);
  });
  document.getElementById('out').textContent = 'early:' + (sessionStorage.getItem('step') ?? 'none');
</script></body></html>`;

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { store: STORE_PAGE } });
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host, maxSessions: 8 });
});
afterEach(async () => {
  await Promise.all((await manager.list()).map((info) => manager.close(info.sessionId).catch(() => {})));
});
afterAll(async () => {
  await manager.shutdown();
  await fixture.close();
});

const on = <T>(session: Session, fn: (page: Page) => Promise<T>) => manager.run(session.id, fn);
const text = (session: Session, path: string, selector = '#account') =>
  on(session, async (page) => {
    await page.goto(fixture.urlFor(path));
    return page.locator(selector).textContent();
  });

/** A session signed in to both of the fixture's sites, with sessionStorage and IndexedDB of its own, on two tabs. */
async function signedInSession(options: Parameters<SessionManager['create']>[0] = {}): Promise<Session> {
  const session = await manager.create(options);
  await on(session, async (page) => {
    await page.goto(fixture.urlFor('/login'));
    await page.fill('#user', 'ann');
    await Promise.all([page.waitForURL(/sign-in/), page.click('#sign-in')]);
    await page.goto(fixture.urlFor('/token-login'));
    await page.fill('#user', 'bea');
    await page.click('#sign-in');
    await page.waitForFunction(() => document.title === 'Signed in as bea');
    await page.goto(fixture.urlFor('/pages/store'));
    await page.evaluate(() => (window as unknown as { putIdb(value: string): Promise<boolean> }).putIdb('kept in idb'));
    await page.evaluate(() => sessionStorage.setItem('step', 'three'));
  });
  await on(session, async () => {
    const tab = await session.newTab();
    await tab.goto(fixture.urlFor('/pages/form'));
  });
  await session.selectTab(0);
  return session;
}

const idb = (page: Page) => page.evaluate(() => (window as unknown as { getIdb(): Promise<string | null> }).getIdb());

describe('Session.image', () => {
  it('holds the options as given, cookies, every origin’s storage with IndexedDB, and each tab with its sessionStorage', async () => {
    const session = await signedInSession({ options: { locale: 'de-DE', extraHTTPHeaders: { 'X-Key': 'secret-value' } } });
    const image: SessionImage = await session.image();
    expect(image.version).toBe(1);
    expect(image.options).toEqual({ locale: 'de-DE', extraHTTPHeaders: { 'X-Key': 'secret-value' } });
    expect(image.storageState.cookies.map((cookie) => cookie.name)).toContain('session');
    // Playwright's storageState type leaves out the indexedDB entries it writes for `{ indexedDB: true }`.
    const origin: { localStorage: { name: string }[]; indexedDB?: unknown } | undefined = image.storageState.origins.find(
      (entry) => entry.origin === fixture.url,
    );
    expect(origin?.localStorage.map((item) => item.name)).toContain('token');
    expect(JSON.stringify(origin?.indexedDB)).toContain('kept in idb');
    expect(image.tabs.map((tab) => tab.url)).toEqual([fixture.urlFor('/pages/store'), fixture.urlFor('/pages/form')]);
    expect(image.tabs[0]?.sessionStorage).toEqual([{ name: 'step', value: 'three' }]);
    expect(image.currentTab).toBe(0);
    // Plain data: it survives JSON as it is.
    expect(JSON.parse(JSON.stringify(image))).toEqual(image);
  });
});

describe('SessionManager.create from an image', () => {
  it('restores under the given id, signed in, with its tabs, sessionStorage before the page’s scripts, and IndexedDB', async () => {
    const original = await signedInSession();
    const image = await original.image();
    await manager.close(original.id);
    const restored = await manager.create({ image, sessionId: original.id });
    expect(restored.id).toBe(original.id);
    expect(restored.tabs().map((tab) => tab.url())).toEqual([fixture.urlFor('/pages/store'), fixture.urlFor('/pages/form')]);
    expect(restored.page.url()).toBe(fixture.urlFor('/pages/store'));
    // The page's own first script saw the sessionStorage already there.
    expect(await on(restored, (page) => page.locator('#out').textContent())).toBe('early:three');
    expect(await on(restored, idb)).toBe('kept in idb');
    expect(await text(restored, '/account')).toBe('Signed in as ann');
    await on(restored, (page) => page.goto(fixture.urlFor('/token-account')));
    await on(restored, (page) => page.waitForFunction(() => document.title !== 'Token account' && !document.title.startsWith('Checking')));
    expect(await on(restored, (page) => page.title())).toBe('Signed in as bea');
  });

  it('refuses an id that is open, and counts nothing for the refusal', async () => {
    const open = await manager.create();
    const before = manager.size;
    const refused = await manager.create({ image: await open.image(), sessionId: open.id }).catch((error: unknown) => error);
    expect(isSessionError(refused) && refused.code).toBe('INVALID_PARAMETERS');
    expect(isSessionError(refused) && refused.details?.['reason']).toBe('id_in_use');
    expect(manager.size).toBe(before);
  });

  it('starts from a storage state alone (one blank tab) with the image’s options', async () => {
    const original = await signedInSession();
    const { storageState } = await original.image();
    const fresh = await manager.create({
      image: {
        version: 1,
        capturedAt: Date.now(),
        options: { locale: 'fr-FR' },
        storageState,
        tabs: [{ url: 'about:blank', sessionStorage: [] }],
        currentTab: 0,
      },
    });
    expect(fresh.page.url()).toBe('about:blank');
    expect(fresh.options.locale).toBe('fr-FR');
    expect(await text(fresh, '/account')).toBe('Signed in as ann');
  });
});

describe('SessionManager.fork', () => {
  it('lands every copy signed in on the same page, with the options, and each then goes its own way', async () => {
    const original = await signedInSession({ options: { extraHTTPHeaders: { 'X-Key': 'secret-value' } } });
    const forks = await manager.fork(original.id, { count: 3 });
    expect(forks).toHaveLength(3);
    expect(new Set(forks.map((fork) => fork.id)).size).toBe(3);
    for (const fork of forks) {
      expect(fork.page.url()).toBe(fixture.urlFor('/pages/store'));
      expect(await on(fork, (page) => page.evaluate(() => sessionStorage.getItem('step')))).toBe('three');
      expect(await on(fork, idb)).toBe('kept in idb');
      const headers = await on(fork, async (page) => (await page.goto(fixture.urlFor('/echo-headers.json')))!.json());
      expect(headers['x-key']).toBe('secret-value');
      expect(await text(fork, '/account')).toBe('Signed in as ann');
    }
    const [first, second] = forks as [Session, Session, Session];
    await on(first, (page) => page.evaluate(() => localStorage.setItem('branch', 'first')));
    await on(first, (page) => page.context().clearCookies());
    expect(await text(first, '/account')).toBe('Not signed in');
    expect(await text(second, '/account')).toBe('Signed in as ann');
    expect(await on(second, (page) => page.evaluate(() => localStorage.getItem('branch')))).toBeNull();
    expect(await text(original, '/account')).toBe('Signed in as ann');
  });

  it('answers MAX_SESSIONS_REACHED for the whole fork when it does not fit, and opens none', async () => {
    const small = new SessionManager({ host, maxSessions: 3 });
    try {
      const session = await small.create();
      const refused = await small.fork(session.id, { count: 3 }).catch((error: unknown) => error);
      expect(isSessionError(refused) && refused.code).toBe('MAX_SESSIONS_REACHED');
      expect(small.size).toBe(1);
      expect(await small.fork(session.id, { count: 2 })).toHaveLength(2);
      expect(small.size).toBe(3);
    } finally {
      for (const info of await small.list()) await small.close(info.sessionId);
    }
  });

  it('refuses a count outside 1 to 10 and another identity’s session', async () => {
    const session = await manager.create({ identity: 'a' });
    for (const count of [0, 11, 1.5]) {
      const refused = await manager.fork(session.id, { count, identity: 'a' }).catch((error: unknown) => error);
      expect(isSessionError(refused) && refused.code).toBe('INVALID_PARAMETERS');
    }
    const foreign = await manager.fork(session.id, { identity: 'b' }).catch((error: unknown) => error);
    expect(isSessionError(foreign) && foreign.code).toBe('SESSION_NOT_FOUND');
    const [copy] = await manager.fork(session.id, { identity: 'a' });
    expect(copy?.identity).toBe('a');
  });
});
