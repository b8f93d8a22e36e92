// Opening a session's context and page in a browser that may hang or die meanwhile, and never leaving one behind.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright';
import type { Timers } from './clock.js';
import { browserError, messageOf } from './errors.js';
import { restoreTabs, type SessionImage } from './session-image.js';

/** How long a context may take to close (or a page to open) before the session stops waiting for a browser that hangs. */
export const CLOSE_TIMEOUT_MS = 2_000;

/** How long opening a context and its page may take before creating a session answers BROWSER_ERROR. */
const OPEN_CONTEXT_TIMEOUT = 30_000;

/**
 * Opens a context with `options`, lets `setUp` prepare it (page scripts, request routes), then opens its first page.
 * A browser that hangs or dies mid-open must not leave the caller waiting for ever (a creation holds a place under
 * maxSessions): after OPEN_CONTEXT_TIMEOUT, or at the disconnect, it fails with BROWSER_ERROR, and an open that lands
 * later is closed.
 */
export async function openContext(
  browser: Browser,
  options: BrowserContextOptions,
  setUp: (context: BrowserContext) => Promise<void>,
  timers: Timers,
): Promise<{ context: BrowserContext; page: Page }> {
  const opening = (async () => {
    const context = await browser.newContext(options);
    try {
      await setUp(context);
      return { context, page: await context.newPage() };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  })();
  try {
    return await settleWithin(opening, browser, OPEN_CONTEXT_TIMEOUT, timers);
  } catch (error) {
    void opening.then(({ context }) => context.close()).catch(() => {});
    throw browserError('unknown', `The browser could not open a new session: ${messageOf(error)}`, {
      details: { browserMessage: messageOf(error) },
      cause: error,
    });
  }
}

/**
 * The opened context and page, or the signal's reason as soon as it aborts: the caller gave up, and an open that lands
 * later is closed rather than left without a session.
 */
export function unlessStopped<T extends { context: BrowserContext }>(opening: Promise<T>, signal: AbortSignal): Promise<T> {
  const closeWhenOpen = () => void opening.then(({ context }) => context.close()).catch(() => {});
  if (signal.aborted) {
    closeWhenOpen();
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      closeWhenOpen();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    opening.then(
      (opened) => {
        signal.removeEventListener('abort', onAbort);
        resolve(opened);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The promise's value, unless the browser disconnects or the time runs out first (then it rejects). */
function settleWithin<T>(promise: Promise<T>, browser: Browser, timeout: number, timers: Timers): Promise<T> {
  return new Promise((resolve, reject) => {
    const settle = (how: () => void) => {
      timers.clearTimeout(timer);
      browser.off('disconnected', gone);
      how();
    };
    const gone = () => settle(() => reject(new Error('the browser disconnected')));
    const timer = timers.setTimeout(() => settle(() => reject(new Error(`no answer within ${timeout} ms`))), timeout);
    browser.once('disconnected', gone);
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** Aborts with create()'s error when the caller gives up or the call timeout passes; dispose() when done. */
export function creationStop(signal: AbortSignal | undefined, callTimeout: number, timers: Timers): { signal: AbortSignal; dispose(): void } {
  const stop = new AbortController();
  const cancelled = () => stop.abort(browserError('cancelled', 'The call was cancelled before the session was created; nothing was left open.'));
  const timer = timers.setTimeout(
    () =>
      stop.abort(
        browserError('call_timeout', `No session could be opened within the call time limit of ${callTimeout} ms; nothing was left open. Try again.`, {
          details: { timeout: callTimeout },
        }),
      ),
    callTimeout,
  );
  if (signal?.aborted) cancelled();
  else signal?.addEventListener('abort', cancelled, { once: true });
  return {
    signal: stop.signal,
    dispose: () => {
      timers.clearTimeout(timer);
      signal?.removeEventListener('abort', cancelled);
    },
  };
}

/** Puts an image's tabs (the newest maxTabs) back in a context just opened for it; a creation given up on meanwhile closes the context. */
export async function restoreImageTabs(context: BrowserContext, page: Page, image: SessionImage, maxTabs: number, signal: AbortSignal): Promise<Page> {
  const fitting =
    image.tabs.length > maxTabs
      ? { ...image, tabs: image.tabs.slice(-maxTabs), currentTab: Math.max(0, image.currentTab - (image.tabs.length - maxTabs)) }
      : image;
  try {
    const current = await unlessStopped(
      restoreTabs(context, page, fitting).then((opened) => ({ context, page: opened })),
      signal,
    );
    return current.page;
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}
