// A session's runaway watch: counts its pages' events and measures their heaps, and stops every tab once one passes a bound.
import type { BrowserContext, Page } from 'playwright';
import { orAfter, systemClock, type Clock, type Timers } from './clock.js';
import { CLOSE_TIMEOUT_MS } from './open-context.js';
import { RunawayGuard, guardPages, type RunawayLimits, type RunawayTrip } from './runaway.js';

/** How long after its pages were stopped a new page is taken for a popup they opened, and closed. */
export const LEFTOVER_POPUP_MS = 2_000;

/** How long one tab's heap measure may take (opening its DevTools session, then the measure) before the tab is skipped. */
const HEAP_MEASURE_TIMEOUT_MS = 2_000;

interface RunawayWatchInit {
  context: BrowserContext;
  limits: RunawayLimits;
  clock: Clock;
  timers: Timers;
  /** The session's open tabs (each is measured). */
  tabs: () => Page[];
  /** Marks a page the session must never hand to a call again. */
  giveUp: (page: Page) => void;
  /** True once the session has ended (nothing is measured then). */
  ended: () => boolean;
  /** Told once the pages are stopped: the session ends the call running and opens a fresh page. */
  onStop: (trip: RunawayTrip) => void;
}

/**
 * The guard counts events in real time (a page's flood is a rate of the browser's, as a process's memory is read in
 * real time), whatever clock the session runs on; the window for a stopped page's popups is on the session's clock.
 */
export class RunawayWatch {
  /** Counts the pages' events and checks their heaps; stops them past a bound. */
  readonly guard: RunawayGuard;
  /** The page guard's registration (guardPages), started with the listeners; a call waits for it before it loads a page. */
  private guarded: Promise<void> = Promise.resolve();
  /** Stopped pages still closing; the guard counts afresh once they are closed. */
  private readonly closing = new Set<Promise<void>>();
  /** When the session's pages were last stopped for passing a bound (0: never). */
  private stoppedAt = 0;
  /** A measure of the tabs' heaps in progress (see measureHeaps). */
  private measuring: Promise<void> | undefined;
  /** Why the pages were stopped, until a call has said so. */
  private trip: RunawayTrip | undefined;

  constructor(private readonly init: RunawayWatchInit) {
    this.guard = new RunawayGuard(init.limits, (trip) => this.stop(trip), systemClock.now);
  }

  /** Puts the page guard in place in every page of the context (see guardPages). */
  start(): void {
    this.guarded = guardPages(this.init.context, this.guard.limits).catch(() => {});
  }

  /** Resolves once the page guard is in place: a call waits for it before it loads anything. */
  get ready(): Promise<void> {
    return this.guarded;
  }

  /**
   * True for a popup the session does not follow, closed at once: one a stopped page opened just before it closed
   * (it arrives once its first navigation commits, which may be after the stop; it is part of the flood), or one past
   * the popup bound.
   */
  refusesPopup(page: Page): boolean {
    if (this.init.clock.now() - this.stoppedAt < LEFTOVER_POPUP_MS || !this.guard.count('popups', () => page.url())) {
      this.abandon(page);
      return true;
    }
    return false;
  }

  /** The trip not yet reported, once: a call that reports it clears it. */
  take(): RunawayTrip | undefined {
    const trip = this.trip;
    this.trip = undefined;
    return trip;
  }

  /** After a stop, once the stopped pages are closed nothing they had in flight (a popup they opened) can arrive: count afresh. */
  async settle(): Promise<void> {
    if (!this.guard.tripped) return;
    await orAfter(Promise.allSettled([...this.closing]), CLOSE_TIMEOUT_MS, undefined, this.init.timers);
    this.guard.reset();
  }

  /**
   * Measures each tab's JavaScript heap once (over a DevTools session made for it and detached after) and stops the
   * session's pages when one holds more than the bound. Nothing measures on a timer: the manager asks when one of the
   * browser's processes holds more than the bound (see MemoryWatch). A tab that does not answer within
   * HEAP_MEASURE_TIMEOUT_MS (busy in a script) is skipped; a measure asked for while one runs joins it.
   */
  measureHeaps(): Promise<void> {
    if (this.guard.tripped || this.init.ended()) return Promise.resolve();
    this.measuring ??= Promise.all(this.init.tabs().map((page) => this.measureHeap(page)))
      .then(() => undefined)
      .finally(() => {
        this.measuring = undefined;
      });
    return this.measuring;
  }

  /**
   * Stops every tab of a session that passed a runaway bound: each is closed without waiting (its renderer and workers
   * go with it, so the flood ends at its source); the session then ends the call running now and goes on with a fresh
   * blank page (onStop), and the next call (or this one) answers BROWSER_ERROR reason runaway_page.
   */
  private stop(trip: RunawayTrip): void {
    this.trip = trip;
    this.stoppedAt = this.init.clock.now();
    for (const page of this.init.context.pages()) this.abandon(page);
    this.init.onStop(trip);
  }

  /** Closes a stopped page without waiting (a page busy in a script may take long to close); it is never handed out again. */
  private abandon(page: Page): void {
    this.init.giveUp(page);
    const closed = page.close({ runBeforeUnload: false }).catch(() => {});
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
  }

  private async measureHeap(page: Page): Promise<void> {
    const { context, timers } = this.init;
    const opening = context.newCDPSession(page).catch(() => null);
    const session = await orAfter(opening, HEAP_MEASURE_TIMEOUT_MS, null, timers);
    if (!session) {
      // Opened too late: let it go once it is there.
      void opening.then((late) => late?.detach().catch(() => {}));
      return;
    }
    try {
      const usage = await orAfter(
        session.send('Runtime.getHeapUsage').catch(() => undefined),
        HEAP_MEASURE_TIMEOUT_MS,
        undefined,
        timers,
      );
      // backingStorageSize (ArrayBuffers) is reported by recent Chromium only.
      if (usage && !page.isClosed()) this.guard.heap(usage.usedSize + ((usage as { backingStorageSize?: number }).backingStorageSize ?? 0), page.url());
    } finally {
      void session.detach().catch(() => {});
    }
  }
}
