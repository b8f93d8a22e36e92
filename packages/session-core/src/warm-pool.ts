// Keeps a few blank contexts+pages open ahead of time, so creating a session hands one out at once and refills in the background.
import type { Browser, BrowserContext, Page } from 'playwright';
import { Activity } from './activity.js';
import { orAfter, systemClock, systemTimers, type Clock, type TimerHandle, type Timers } from './clock.js';
import { messageOf } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import { CLOSE_TIMEOUT_MS } from './open-context.js';

/** A context and its first page, opened in one browser. */
interface OpenedContext {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

interface WarmPoolOptions {
  /** How many contexts to keep ready (0 disables the pool). */
  size: number;
  /** The browser to open them in (the host's current one, launching it if needed). */
  browser: () => Promise<Browser>;
  /** Opens one context+page with the session defaults. */
  open: (browser: Browser) => Promise<{ context: BrowserContext; page: Page }>;
  logger?: Logger;
  clock?: Clock;
  timers?: Timers;
  /** The source's calls and creations, which the manager counts (default: only what `work` counts). */
  activity?: Activity;
  /**
   * A refill waits until no work (see Activity) has run for this many ms (default 50), or for maxRefillDelay ms
   * (default 1000) at the latest: opening a context costs the browser as much as a page load, and on a small machine
   * it would slow the very call that follows create_session. A creation waiting for a pooled context that is still
   * opening holds the refill however long it waits, and the latest counts from the end of that wait.
   */
  idleDelay?: number;
  maxRefillDelay?: number;
}

/** One pooled context: `browser` once known, settled once its open finished (value undefined when it failed). */
interface Slot {
  promise: Promise<OpenedContext | undefined>;
  browser: Browser | undefined;
  settled: boolean;
  value: OpenedContext | undefined;
  /** Set when the pool let go of it (its browser went away): its open failing says nothing about the next browser. */
  dropped?: boolean;
}

/**
 * What the server uses when --warm-sessions is not given: one ready context in headless mode, none in headed mode,
 * where every pooled context would open a window the user did not ask for.
 */
export function defaultWarmSessions(headless: boolean): number {
  return headless ? 1 : 0;
}

/**
 * A slot is claimed by exactly one caller (it leaves the pool in the same tick), so a pooled context is never shared.
 * Pooled contexts are not sessions: they don't count against maxSessions until they are handed out.
 */
export class WarmPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly options: WarmPoolOptions;
  private readonly logger: Logger;
  private closed = false;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly idleDelay: number;
  private readonly maxRefillDelay: number;
  /** Work in flight on the source, and when the last piece ended. */
  private readonly activity: Activity;
  /** Creations waiting for a pooled context that is still opening. */
  private awaitingOpen = 0;
  private refillTimer: TimerHandle | undefined;
  /** Set after a failed open, so a browser that can't start is not retried in a loop; the next take() tries again. */
  private paused = false;

  constructor(options: WarmPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 0) throw new RangeError('warm pool size must be a whole number of at least 0');
    this.options = options;
    this.size = options.size;
    this.logger = options.logger ?? silentLogger;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.idleDelay = options.idleDelay ?? 50;
    this.maxRefillDelay = options.maxRefillDelay ?? 1_000;
    this.activity = options.activity ?? new Activity(this.clock);
  }

  /** Marks `work` (a creation waiting for a pooled context) as running: refills wait for a quiet moment. */
  work<T>(work: Promise<T>): Promise<T> {
    return this.activity.during(work);
  }

  /** Starts opening contexts in the background until `size` are ready or in flight. */
  fill(): void {
    while (!this.closed && !this.paused && this.slots.length < this.size) this.slots.push(this.openSlot());
  }

  /**
   * Claims a pooled context of `browser`, preferring one already open, else one still opening; undefined when the pool
   * has none (the caller opens its own). Contexts of another browser (one that died) are closed and skipped. Refills.
   */
  async take(browser: Browser): Promise<OpenedContext | undefined> {
    if (this.closed || this.size === 0) return undefined;
    this.paused = false;
    this.discard((slot) => (slot.browser !== undefined && slot.browser !== browser) || (slot.settled && !usable(slot.value, browser)));
    const index = this.slots.findIndex((slot) => slot.settled);
    const [slot] = this.slots.splice(Math.max(index, 0), 1);
    this.fillWhenIdle();
    if (!slot) return undefined;
    // Playwright may never settle a newPage() whose browser was killed: stop waiting when the browser goes. Waiting for
    // a context still opening counts as work, so the refill does not open a second one beside it (on a browser that
    // just started, two opens at once make the first take much longer).
    const waitsForOpen = !slot.settled;
    if (waitsForOpen) this.awaitingOpen += 1;
    let opened: OpenedContext | undefined;
    try {
      opened = await this.work(unlessDisconnected(slot.promise, browser));
    } finally {
      if (waitsForOpen) this.awaitingOpen -= 1;
    }
    if (usable(opened, browser)) return opened;
    void slot.promise.then(closeQuietly);
    return undefined;
  }

  /** Drops the contexts of a browser that went away (they died with it), those still opening too. */
  dropBrowser(browser: Browser): void {
    this.discard((slot) => slot.browser === browser);
  }

  /**
   * Closes every pooled context that is open. One still opening closes itself when it lands (and dies with the
   * browser anyway), so shutdown never waits on an open that a dying browser may never finish.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.refillTimer !== undefined) this.timers.clearTimeout(this.refillTimer);
    this.refillTimer = undefined;
    const slots = this.slots.splice(0);
    await Promise.all(slots.filter((slot) => slot.settled).map((slot) => closeQuietly(slot.value)));
  }

  /** Fills once no work has run for idleDelay ms, or after maxRefillDelay ms of work (not while a creation waits for a context still opening). */
  private fillWhenIdle(): void {
    if (this.refillTimer !== undefined || this.closed) return;
    let since = this.clock.now();
    const check = (lookedAgain = false) => {
      this.refillTimer = undefined;
      const now = this.clock.now();
      if (this.awaitingOpen > 0) {
        // A creation waits for a context still opening: one more open beside it slows it down however long it takes
        // (on a loaded machine, more than maxRefillDelay), so the wait holds the refill and the limit counts from its end.
        since = now;
        this.refillTimer = this.timers.setTimeout(check, this.idleDelay);
        return;
      }
      const quietFor = this.activity.quietFor(now);
      if (now - since >= this.maxRefillDelay || (quietFor >= this.idleDelay && lookedAgain)) {
        this.fill();
        return;
      }
      if (quietFor >= this.idleDelay) {
        // Quiet so far, but timers run before the loop reads input: a call whose request has already arrived (the
        // navigate right after create_session, when the thread was busy) starts, and counts as work, before this looks again.
        this.refillTimer = this.timers.setTimeout(() => check(true), 0);
        return;
      }
      this.refillTimer = this.timers.setTimeout(check, Math.min(this.idleDelay - quietFor, this.maxRefillDelay - (now - since)));
    };
    this.refillTimer = this.timers.setTimeout(check, this.idleDelay);
  }

  private openSlot(): Slot {
    const slot: Slot = { promise: Promise.resolve(undefined), browser: undefined, settled: false, value: undefined };
    slot.promise = (async () => {
      try {
        const browser = await this.options.browser();
        slot.browser = browser;
        const { context, page } = await this.options.open(browser);
        const opened = { browser, context, page };
        // The pool closed while this was opening: nobody will take it.
        if (this.closed) {
          await closeQuietly(opened);
          return undefined;
        }
        return opened;
      } catch (error) {
        // A slot dropped with its browser (recycled, crashed) failing is no reason to stop: the next browser refills the pool.
        if (!slot.dropped && (slot.browser === undefined || slot.browser.isConnected())) this.paused = true;
        this.logger.debug(`warm pool: could not open a context: ${messageOf(error)}`);
        return undefined;
      }
    })().then((value) => {
      slot.settled = true;
      slot.value = value;
      // A failed open leaves no dead slot behind: it is removed so it is neither handed out nor counted.
      if (value === undefined) this.remove(slot);
      return value;
    });
    return slot;
  }

  private discard(predicate: (slot: Slot) => boolean): void {
    for (const slot of this.slots.filter(predicate)) {
      slot.dropped = true;
      this.remove(slot);
      void slot.promise.then(closeQuietly);
    }
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }
}

/** A pooled context can be handed out if it belongs to the browser in use and nothing closed it meanwhile. */
function usable(opened: OpenedContext | undefined, browser: Browser): opened is OpenedContext {
  return opened !== undefined && opened.browser === browser && browser.isConnected() && !opened.page.isClosed();
}

/** The promise's value, or undefined as soon as the browser disconnects (or at once if it already has). */
function unlessDisconnected<T>(promise: Promise<T | undefined>, browser: Browser): Promise<T | undefined> {
  if (!browser.isConnected()) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const gone = () => resolve(undefined);
    browser.once('disconnected', gone);
    promise.then(resolve, gone).finally(() => browser.off('disconnected', gone));
  });
}

/** Closes a pooled context; gives up waiting after a few seconds, so a browser that hangs cannot hold shutdown. */
async function closeQuietly(opened: OpenedContext | undefined): Promise<void> {
  if (!opened) return;
  await orAfter(
    opened.context.close().catch(() => {}),
    CLOSE_TIMEOUT_MS,
    undefined,
  );
}
