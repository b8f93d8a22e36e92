// A session's image: what a new session needs to start as a copy of it (options, storage, tabs), captured and put back.
import type { BrowserContext, Page } from 'playwright';
import type { SessionOptions } from './context-options.js';
import { orAfter, type Timers } from './clock.js';
import { messageOf } from './errors.js';

/** Cookies and every origin's localStorage and IndexedDB, as Playwright's `storageState({ indexedDB: true })` gives them. */
export type ImageStorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** One open tab of an image: where it was, and its origin's sessionStorage (sessionStorage belongs to a tab). */
export interface ImageTab {
  url: string;
  /** The sessionStorage of the tab's origin (none for about:blank, data: and pages that refused to be read). */
  sessionStorage: { name: string; value: string }[];
}

/**
 * Everything a session can be restarted or copied from, as plain JSON: the options it was created with (secrets
 * included: an image stays on the server and is sealed before it is stored), its cookies and every origin's
 * localStorage and IndexedDB, and its tabs with their sessionStorage. A page's in-memory state, service workers, refs
 * and running traces are not in it.
 */
export interface SessionImage {
  /** The shape's version, for a reader of an older or newer image. */
  version: 1;
  /** When it was captured, ms since the epoch. */
  capturedAt: number;
  /** The options the session was created with, as given ({} for a plain session). */
  options: SessionOptions;
  storageState: ImageStorageState;
  /** The open tabs, oldest first (at least one). */
  tabs: ImageTab[];
  /** The index in `tabs` of the one calls act on. */
  currentTab: number;
}

/** The image of a session that starts from a storage state (a saved sign-in) with `options`: one blank tab. */
export function imageOfStorageState(storageState: ImageStorageState, options: SessionOptions = {}): SessionImage {
  return { version: 1, capturedAt: Date.now(), options, storageState, tabs: [{ url: 'about:blank', sessionStorage: [] }], currentTab: 0 };
}

/** How long putting a tab back waits for its page to load before the session is handed out as it is. */
export const RESTORE_TAB_TIMEOUT_MS = 15_000;

/** The image of a context and its tabs; a tab that does not answer (busy in a script) keeps its URL without sessionStorage. */
export async function captureImage(
  context: BrowserContext,
  tabs: readonly Page[],
  current: Page,
  options: SessionOptions,
  time: { now: number; timers: Timers },
): Promise<SessionImage> {
  const storageState = await context.storageState({ indexedDB: true });
  const captured = await Promise.all(
    tabs.map(async (page): Promise<ImageTab> => ({ url: page.url(), sessionStorage: await readSessionStorage(page, time.timers) })),
  );
  const index = tabs.indexOf(current);
  if (captured.length === 0) captured.push({ url: 'about:blank', sessionStorage: [] });
  return { version: 1, capturedAt: time.now, options: structuredClone(options), storageState, tabs: captured, currentTab: Math.max(0, index) };
}

/**
 * Opens the image's tabs in `context` (the first in `first`, the context's first page) and answers the current one.
 * Each tab gets its sessionStorage back before its page's own scripts run (a script of that tab only, removed once the
 * page has loaded); a tab whose page does not load within RESTORE_TAB_TIMEOUT_MS is left as far as it got.
 */
export async function restoreTabs(context: BrowserContext, first: Page, image: SessionImage): Promise<Page> {
  const pages = await Promise.all(
    image.tabs.map(async (tab, index) => {
      const page = index === 0 ? first : await context.newPage();
      await openTab(page, tab);
      return page;
    }),
  );
  return pages[Math.min(Math.max(0, image.currentTab), pages.length - 1)] ?? first;
}

async function openTab(page: Page, tab: ImageTab): Promise<void> {
  if (!/^(https?|file):/i.test(tab.url)) {
    if (tab.url !== 'about:blank' && tab.url !== '') await page.goto(tab.url, { timeout: RESTORE_TAB_TIMEOUT_MS }).catch(() => {});
    return;
  }
  const origin = new URL(tab.url).origin;
  const script =
    tab.sessionStorage.length === 0
      ? undefined
      : await page.addInitScript(
          ({ origin, items }: { origin: string; items: { name: string; value: string }[] }) => {
            if (location.origin !== origin) return;
            try {
              for (const { name, value } of items) sessionStorage.setItem(name, value);
            } catch {}
          },
          { origin, items: tab.sessionStorage },
        );
  try {
    await page.goto(tab.url, { timeout: RESTORE_TAB_TIMEOUT_MS });
  } catch {
    // A site that is down or slow leaves the tab where it got; the session is usable all the same.
  } finally {
    await script?.dispose().catch(() => {});
  }
}

async function readSessionStorage(page: Page, timers: Timers): Promise<{ name: string; value: string }[]> {
  if (page.isClosed() || !/^(https?|file):/i.test(page.url())) return [];
  const reading = page
    .evaluate(() => {
      const items: { name: string; value: string }[] = [];
      for (let index = 0; index < sessionStorage.length; index += 1) {
        const name = sessionStorage.key(index);
        if (name !== null) items.push({ name, value: sessionStorage.getItem(name) ?? '' });
      }
      return items;
    })
    .catch((error: unknown) => {
      void messageOf(error);
      return [];
    });
  return orAfter(reading, READ_TAB_TIMEOUT_MS, [], timers);
}

/** How long reading a tab's sessionStorage may take (a page busy in a script does not answer). */
const READ_TAB_TIMEOUT_MS = 2_000;
