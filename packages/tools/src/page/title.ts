// Reading a page's title for a result without a renderer round trip: from the browser process where it can be trusted.
import { serverSide } from '@sessionwright/session-core/parts';
import type { Browser, CDPSession, Page } from 'playwright';

/** Sends one CDP command and resolves with its result. */
type Send = (method: 'Target.getTargetInfo', params: { targetId: string }) => Promise<{ targetInfo: { title: string; url: string } }>;

/** A page's target as the browser process knows it: how to ask the browser, and the page's target id. */
interface BrowserTarget {
  send: Send;
  targetId: string;
}

/** Per browser: how to ask its browser process (null where that cannot be done: Firefox, WebKit). */
const browserSessions = new WeakMap<Browser, Promise<Send | null>>();
/** Per page: where the browser process answers about it (null: ask the page). */
const pageTargets = new WeakMap<Page, Promise<BrowserTarget | null>>();
/** The same, once found: what the read at load needs at once. */
const foundTargets = new WeakMap<Page, BrowserTarget>();

/**
 * Starts finding where the browser process answers about this page, so that the title read at the end of a call
 * does not wait for it. Cheap to call again.
 */
export function prepareTitle(page: Page): void {
  void browserTarget(page);
}

/**
 * The page's title. With `fromBrowser` (the default; false when the caller knows the page is idle, so it answers as
 * fast): the page's renderer answers slowly when it is busy (right after a load its post-load work comes first;
 * during a snapshot or a read-back, that comes first), while the browser process answers at once
 * (docs/performance.md). The browser's copy is trusted only when it cannot be stale or stand for something else: it must
 * describe the document the page is on (same URL), and must not be the URL that Chromium shows in place of a missing
 * title. Otherwise, and outside Chromium, the page itself is asked.
 *
 * Why the browser's copy is not stale: the renderer sends a new title to the browser process as soon as a script sets
 * it, on the same channel and before the message that ends what the caller waited for (the load event of a navigation,
 * the reply of an evaluate), so the browser has it by the time the call ends; a call that only reads the page starts
 * after the last one ended. Input is not such a message: Chromium acknowledges a key or inserted text on another
 * channel, and the title its handlers set can reach the browser after the acknowledgement (type reads it after the
 * field's value, for that reason).
 */
export async function readTitle(page: Page, options: { fromBrowser: boolean } = { fromBrowser: true }): Promise<string> {
  if (page.isClosed()) return '';
  const known = options.fromBrowser ? await browserCopy(page) : undefined;
  return known && trustworthy(known.title, known.url, page.url()) ? known.title : page.title().catch(() => '');
}

/** The browser process's copy of the page's title and URL, or undefined where it cannot be asked. */
async function browserCopy(page: Page): Promise<{ title: string; url: string } | undefined> {
  const target = await browserTarget(page);
  return target ? askBrowser(target) : undefined;
}

function askBrowser(target: BrowserTarget): Promise<{ title: string; url: string } | undefined> {
  // A page closing under us, or a browser going away: the caller asks the page (or answers '').
  return target.send('Target.getTargetInfo', { targetId: target.targetId }).then(
    ({ targetInfo }) => targetInfo,
    () => undefined,
  );
}

/** What the read at load needs of Playwright's server-side frame; anything else counts as missing. */
interface ServerFrameEvents {
  on(event: string, listener: (value: unknown) => void): unknown;
  off(event: string, listener: (value: unknown) => void): unknown;
}

/**
 * Reads the title from the browser process the moment Playwright's server side sees a new document of the page's main
 * frame fire its load event: before `goto()` has brought that news back to its caller, so the read overlaps the
 * way back instead of following it (why the browser's copy is current then: see readTitle). Only a load after the new
 * document's commit counts, never the previous document's, and only once prepareTitle() has found the page's target.
 * `title()` is that read, checked against the page's URL when asked (a page that moved on since gets a fresh read), or
 * undefined where none started; `stop()` detaches.
 */
export function titleAtLoad(page: Page): { title(): Promise<string> | undefined; stop(): void } {
  const frame = serverSide(page.mainFrame()) as Partial<ServerFrameEvents> | undefined;
  if (typeof frame?.on !== 'function' || typeof frame.off !== 'function') return { title: () => undefined, stop() {} };
  let committed = false;
  let read: Promise<{ title: string; url: string } | undefined> | undefined;
  const onNavigation = (event: unknown) => {
    if ((event as { newDocument?: unknown } | undefined)?.newDocument) committed = true;
  };
  const onLifecycle = (event: unknown) => {
    // Asked at once or not at all: a read that left later could meet the next document's URL beside this one's title.
    const target = foundTargets.get(page);
    if (event === 'load' && committed && !read && target) read = askBrowser(target);
  };
  frame.on('internalnavigation', onNavigation);
  frame.on('addlifecycle', onLifecycle);
  return {
    title: () => read?.then((known) => (known && !page.isClosed() && trustworthy(known.title, known.url, page.url()) ? known.title : readTitle(page))),
    stop() {
      frame.off?.('internalnavigation', onNavigation);
      frame.off?.('addlifecycle', onLifecycle);
    },
  };
}

/**
 * Whether the browser's title can stand as the page's title. Chromium shows the URL (without its scheme, or a file's
 * name, or about:blank) when a page has no title, so anything that may be that, or may be a URL formatted for display,
 * is checked with the page instead; so is a title from a document other than the one the page is on.
 */
export function trustworthy(title: string, browserUrl: string, pageUrl: string): boolean {
  if (title === '' || browserUrl !== pageUrl) return false;
  if (pageUrl.includes(title) || safeDecode(pageUrl).includes(title)) return false;
  return /\s/.test(title) || !/[/:]/.test(title);
}

function safeDecode(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

function browserTarget(page: Page): Promise<BrowserTarget | null> {
  let found = pageTargets.get(page);
  if (!found) {
    found = findTarget(page).then((target) => {
      if (target) foundTargets.set(page, target);
      return target;
    });
    pageTargets.set(page, found);
  }
  return found;
}

async function findTarget(page: Page): Promise<BrowserTarget | null> {
  const browser = page.context().browser();
  if (!browser) return null;
  try {
    const [send, targetId] = await Promise.all([browserSession(browser), targetIdOf(page)]);
    return send && targetId ? { send, targetId } : null;
  } catch {
    return null;
  }
}

/** The page's target id, from a page-level session that is closed again at once (the browser-level one does the reads). */
async function targetIdOf(page: Page): Promise<string | null> {
  const session = await page.context().newCDPSession(page);
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo');
    return targetInfo.targetId;
  } finally {
    void session.detach().catch(() => {});
  }
}

function browserSession(browser: Browser): Promise<Send | null> {
  let session = browserSessions.get(browser);
  if (!session) {
    session = browser.newBrowserCDPSession().then(directSend, () => null);
    browserSessions.set(browser, session);
  }
  return session;
}

/**
 * How the title read reaches the browser: straight to Playwright's server-side session where it runs in this process,
 * whose `_send` writes the command to the browser at once. Through the public `send`, Playwright's client layer costs
 * about as much as the browser's answer, on the critical path of every navigate (docs/performance.md).
 * `playwright-internals.test.ts` fails if the pinned Playwright stops offering the internal.
 */
export function directSend(cdp: CDPSession): Send {
  const twin = serverSide(cdp) as { _send?: (method: string, params: object) => Promise<unknown> } | undefined;
  const internal = twin?._send;
  if (typeof internal === 'function') return (method, params) => internal.call(twin, method, params) as ReturnType<Send>;
  return (method, params) => cdp.send(method, params);
}
