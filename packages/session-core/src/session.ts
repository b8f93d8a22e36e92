// One isolated browser session: a BrowserContext, its current Page, and a FIFO queue so calls never interleave.
import type { Browser, BrowserContext, Dialog, Page } from 'playwright';
import type { EffectiveSessionOptions } from './context-options.js';
import { browserError, firstLine, isSessionError, messageOf, type BrowserErrorReason, type SessionError } from './errors.js';

/** A JavaScript dialog the session answered by itself, reported with the next result. */
export interface DialogRecord {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed';
}

/** At most this many dialogs and tabs are remembered between two calls: a page that loops alert() cannot flood a result. */
const MAX_EVENTS = 50;

export interface SessionEvents {
  dialogs: DialogRecord[];
  /** URLs of tabs the page opened since the last call (the session switched to the newest). */
  openedTabs: string[];
}

/** How a call may be ended from outside: the caller gives up (signal), or its time runs out (timeout). */
export interface RunOptions {
  /** Aborted when the caller no longer wants the result (the client cancelled the call). */
  signal?: AbortSignal | undefined;
  /** The call's time limit in ms, counted from when it starts running; past it the call ends with reason `call_timeout`. */
  timeout?: number | undefined;
}

/** Why a running call is told to stop. */
type StopReason = Extract<BrowserErrorReason, 'cancelled' | 'call_timeout'>;

/**
 * How long a cancelled or timed-out call may take to let go of the page after being told to stop, before the session
 * replaces the page. A navigation stops at once; a script in a loop or a slow `type` never does.
 */
export const LET_GO_GRACE_MS = 1_500;

/** How long a context may take to close (or a page to open) before the session stops waiting for a browser that hangs. */
export const CLOSE_TIMEOUT_MS = 2_000;

export class Session {
  readonly id: string;
  readonly createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  /** The connection (or any caller-chosen owner) that created the session. */
  readonly owner: string | undefined;
  readonly context: BrowserContext;
  /** The browser this session lives in; sessions of a browser that died are gone with it. */
  readonly browser: Browser;
  /** What the session was created with, secrets left out ({} for a plain session). */
  readonly options: EffectiveSessionOptions;
  /** The label of the browser source it runs on ("local", or an endpoint's scheme://host:port; never a secret). */
  readonly endpoint: string;
  private currentPage: Page;
  private tail: Promise<unknown> = Promise.resolve();
  /** Tabs whose renderer crashed, or that did not let go of a call: never handed to a call again. */
  private readonly abandoned = new WeakSet<Page>();
  private readonly crashed = new WeakSet<Page>();
  private pendingCalls = 0;
  private events: SessionEvents = { dialogs: [], openedTabs: [] };
  /** True while the session opens a page itself to replace a closed one. */
  private replacingPage = false;

  constructor(init: {
    id: string;
    now: number;
    timeout: number;
    owner?: string;
    browser: Browser;
    context: BrowserContext;
    page: Page;
    options?: EffectiveSessionOptions;
    endpoint?: string;
  }) {
    this.id = init.id;
    this.createdAt = init.now;
    this.lastUsedAt = init.now;
    this.expiresAt = init.now + init.timeout;
    this.owner = init.owner;
    this.browser = init.browser;
    this.options = init.options ?? {};
    this.endpoint = init.endpoint ?? 'local';
    this.context = init.context;
    this.currentPage = init.page;
    this.watchPage(init.page);
    // A link with target=_blank or window.open: follow the newest tab, as a person would, and say so in the next result.
    this.context.on('page', (page) => {
      // A page the session opens itself (livePage) is not a tab the site opened; livePage watches it.
      if (page === this.currentPage || this.replacingPage) return;
      this.currentPage = page;
      this.watchPage(page);
      if (this.events.openedTabs.length < MAX_EVENTS) this.events.openedTabs.push(page.url());
    });
  }

  /** The page calls act on (the newest tab the session opened). */
  get page(): Page {
    return this.currentPage;
  }

  /** Calls queued or running on this session. */
  get busy(): boolean {
    return this.pendingCalls > 0;
  }

  /**
   * Runs `fn` after every call queued before it has let go of the page; the only way to touch the page.
   * A page the site closed (window.close()) or that crashed is replaced by a fresh one in the same context first.
   * A call that is cancelled (`signal`) or runs past `timeout` is told to stop (the page stops loading); if it does not
   * let go within LET_GO_GRACE_MS, the page is replaced by a fresh one in the same context (cookies and storage kept),
   * so the next call runs at once. Either way it rejects with BROWSER_ERROR, reason `cancelled` or `call_timeout`.
   */
  run<T>(fn: (page: Page) => Promise<T>, options: RunOptions = {}): Promise<T> {
    this.pendingCalls += 1;
    const previous = this.tail;
    let letGo!: () => void;
    const released = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    // The next call waits for this one to let go, and (if this one was cancelled while queued) for the one before it.
    this.tail = previous.then(() => released);
    return this.execute(previous, fn, options)
      .finally(() => {
        letGo();
        this.pendingCalls -= 1;
      });
  }

  private async execute<T>(previous: Promise<unknown>, fn: (page: Page) => Promise<T>, options: RunOptions): Promise<T> {
    const { signal } = options;
    // A call cancelled while it waits in the queue never starts.
    await untilAborted(previous, signal);
    if (signal?.aborted) throw stoppedError('cancelled', options, false);
    const page = await this.livePage();
    const work = fn(page);
    let stop: ((reason: StopReason) => void) | undefined;
    const stopped = new Promise<StopReason>((resolve) => {
      stop = resolve;
    });
    const onAbort = () => stop?.('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeout === undefined ? undefined : setTimeout(() => stop?.('call_timeout'), options.timeout);
    try {
      const first = await Promise.race([work.then(() => undefined, () => undefined), stopped]);
      if (first === undefined) return await work.catch((error: unknown) => Promise.reject(this.crashError(page, error)));
      // Told to stop: ask the page to stop loading, then give the call a moment to end by itself.
      work.catch(() => {});
      void stopLoading(page);
      const ended = await Promise.race([work.then(() => true, () => true), delay(LET_GO_GRACE_MS, false)]);
      if (!ended) await this.replacePage(page);
      throw stoppedError(first, options, !ended);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Dialogs and new tabs seen since the last call, emptied by reading. */
  takeEvents(): SessionEvents {
    const events = this.events;
    this.events = { dialogs: [], openedTabs: [] };
    return events;
  }

  /** Closes the context and its pages; gives up waiting after CLOSE_TIMEOUT_MS, so a browser that hangs cannot hold the caller. */
  async close(): Promise<void> {
    await Promise.race([this.context.close().catch(() => {}), delay(CLOSE_TIMEOUT_MS, undefined)]);
  }

  private async livePage(): Promise<Page> {
    if (this.usable(this.currentPage)) return this.currentPage;
    const open = this.context.pages().filter((page) => this.usable(page));
    const page = open.at(-1) ?? (await this.openPage());
    this.currentPage = page;
    return page;
  }

  /** What a call that failed on a page whose renderer crashed throws: reason page_crashed, not Playwright's words. */
  private crashError(page: Page, error: unknown): unknown {
    if (!this.crashed.has(page) || isSessionError(error)) return error;
    return browserError('page_crashed', 'The page crashed during the call. The session opens a fresh blank page in the same context for the next call.', {
      details: { browserMessage: firstLine(messageOf(error)), next: 'load_page' },
      cause: error,
    });
  }

  /** A new blank page in the session's context, which the session watches (not reported as a tab the site opened). */
  private async openPage(): Promise<Page> {
    this.replacingPage = true;
    let page: Page;
    try {
      page = await this.context.newPage();
    } finally {
      this.replacingPage = false;
    }
    this.watchPage(page);
    return page;
  }

  /**
   * Gives up on a page that does not let go of a call: it is never handed out again, it is closed without waiting (a
   * page stuck in a script may take long to close), and a fresh page in the same context takes its place.
   */
  private async replacePage(stuck: Page): Promise<void> {
    this.abandoned.add(stuck);
    void stuck.close({ runBeforeUnload: false }).catch(() => {});
    if (this.currentPage !== stuck) return;
    const fresh = await Promise.race([this.openPage().catch(() => undefined), delay(CLOSE_TIMEOUT_MS, undefined)]);
    // If the browser cannot even open a page now, the next call tries again (livePage).
    if (fresh) this.currentPage = fresh;
  }

  private usable(page: Page): boolean {
    return !page.isClosed() && !this.abandoned.has(page);
  }

  private watchPage(page: Page): void {
    page.on('dialog', (dialog) => void this.answerDialog(dialog));
    page.on('crash', () => {
      // The tab is unusable at once (a call may arrive before close() lands); the next call gets a fresh page in the same context.
      this.abandoned.add(page);
      this.crashed.add(page);
      void page.close().catch(() => {});
    });
  }

  /**
   * Alerts and beforeunload are accepted, confirm and prompt dismissed: no dialog ever blocks a session.
   * beforeunload is accepted because dismissing it cancels the navigation the caller asked for, leaving the agent stuck on the page.
   */
  private async answerDialog(dialog: Dialog): Promise<void> {
    const type = dialog.type();
    const accept = type === 'alert' || type === 'beforeunload';
    if (this.events.dialogs.length < MAX_EVENTS) this.events.dialogs.push({ type, message: dialog.message(), action: accept ? 'accepted' : 'dismissed' });
    await (accept ? dialog.accept() : dialog.dismiss()).catch(() => {});
  }
}

function delay<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(resolve, ms, value).unref());
}

/** Waits for `turn`, or until the signal aborts, whichever comes first. */
function untilAborted(turn: Promise<unknown>, signal: AbortSignal | undefined): Promise<unknown> {
  if (!signal) return turn;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.finally(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(undefined);
    });
  });
}

/**
 * Stops the page loading, as the browser's stop button does: a navigation ends at once (net::ERR_ABORTED) and the page
 * keeps the document it was on. Chromium through CDP, because page.evaluate waits while a navigation is pending.
 */
async function stopLoading(page: Page): Promise<void> {
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.stopLoading');
    await cdp.detach().catch(() => {});
  } catch {
    // Firefox and WebKit have no CDP: ask the page itself, without waiting for an answer.
    page.evaluate(() => window.stop()).catch(() => {});
  }
}

function stoppedError(reason: StopReason, options: RunOptions, pageReplaced: boolean): SessionError {
  const what = reason === 'cancelled' ? 'The call was cancelled before it finished.' : `The call did not finish within its time limit of ${options.timeout} ms.`;
  const after = pageReplaced
    ? ' The page did not stop in time, so the session replaced it with a fresh blank page in the same context: cookies and storage are kept, the page itself (its URL, its state) is lost.'
    : ' The session is ready for the next call.';
  return browserError(reason, what + after, {
    details: {
      pageReplaced,
      ...(reason === 'call_timeout' ? { timeout: options.timeout } : {}),
      ...(pageReplaced ? { next: 'load_page' } : {}),
    },
  });
}
