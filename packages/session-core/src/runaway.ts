// Bounds on what one session's pages may cost everyone else: events counted in a sliding window, and each tab's heap.
import { randomBytes } from 'node:crypto';
import type { BrowserContext } from 'playwright';

/**
 * What a runaway page was stopped for (`details.bound` of reason `runaway_page`): too many console messages and page
 * errors, requests, dialogs, tabs it opened or downloads within one window, or a tab's heap past its bound.
 */
export type RunawayBound = 'console' | 'requests' | 'dialogs' | 'popups' | 'downloads' | 'memory';

/** The bounds that count events. */
export type EventBound = Exclude<RunawayBound, 'memory'>;

export interface RunawayLimits {
  /** How many events of each kind a session's pages may produce within one window; one more stops them. */
  events: Record<EventBound, number>;
  /** The window the events are counted in, in ms. */
  windowMs: number;
  /**
   * How late a console message may reach the server, in ms after the page wrote it. A session more than a quarter of
   * whose console bound arrives that late within one window is stopped too: the browser cannot relay its messages as
   * fast as its pages write them (on a busy machine it relays fewer than the bound a second), so every other session of
   * that browser is waiting behind them.
   */
  lateMs: number;
  /**
   * The most bytes one tab may hold in JavaScript (its heap plus the ArrayBuffers it owns); past it the tab is stopped.
   * 0: no bound on memory.
   */
  heapBytes: number;
  /**
   * How often the resident memory of each launched browser's processes is read, in ms: one timer per browser, and the
   * tabs' heaps are measured only when one process holds more than heapBytes (see MemoryWatch; Linux, Chromium).
   */
  heapCheckMs: number;
}

/**
 * The defaults (docs/limits.md). Every page event crosses the browser's one pipe, which all sessions share: on a
 * two-core machine the browser relays about 1 500 of them a second, and while a page keeps it that busy every other
 * session's calls wait behind its events. The bounds sit well above what a page a person would use produces (a heavy
 * page load is a few hundred requests; dialogs, tabs and downloads come one at a time) and low enough that a flood
 * is stopped within a second or two.
 */
export const DEFAULT_RUNAWAY_LIMITS: RunawayLimits = {
  events: { console: 2_000, requests: 1_000, dialogs: 100, popups: 10, downloads: 50 },
  windowMs: 2_000,
  lateMs: 2_000,
  heapBytes: 1024 ** 3,
  heapCheckMs: 2_000,
};

/** Why a session's pages were stopped: the bound, its limit, and what was seen. */
export interface RunawayTrip {
  bound: RunawayBound;
  /** The limit passed: events per window, or bytes of heap. */
  limit: number;
  /** What was seen: events within the window (the first count past the limit), or bytes of heap. */
  observed: number;
  /** For event bounds: the window, in ms. */
  windowMs?: number;
  /** When the messages counted arrived late: how late the last one was, in ms (see RunawayLimits.lateMs). */
  lateMs?: number;
  /** The page it was seen on, when known. */
  url?: string;
}

/**
 * Knows whether more than `limit` events fell within the last `windowMs`, exactly: it keeps the times of the last
 * `limit + 1` events in a ring (made on the first event, 8 bytes each) and compares the newest with the oldest.
 * Constant time per event, no timer.
 */
class WindowCount {
  private times: Float64Array | undefined;
  private next = 0;
  private seen = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one event at `now`; true when it is more than `limit` within the window. */
  add(now: number): boolean {
    this.times ??= new Float64Array(this.limit + 1);
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.times.length;
    this.seen += 1;
    // After the write, `next` holds the oldest of the last limit + 1 events.
    return this.seen > this.limit && now - (this.times[this.next] ?? 0) < this.windowMs;
  }
}

/**
 * One session's guard: the collectors and the session count each event here (a counter and a comparison), and the
 * first count past a bound calls `onTrip` once. From then until `reset` every event is refused, so what a stopped page
 * still had in flight is dropped rather than collected.
 */
export class RunawayGuard {
  readonly limits: RunawayLimits;
  private counts: Record<EventBound, WindowCount>;
  private late: WindowCount;
  /**
   * The smallest delay seen between a page writing a console message and the server receiving it: what the clocks of
   * the browser's machine and this one differ by, plus the quickest delivery. Lateness is counted from it.
   */
  private delivery = Number.POSITIVE_INFINITY;
  private trip: RunawayTrip | undefined;
  private readonly onTrip: (trip: RunawayTrip) => void;
  private readonly now: () => number;

  constructor(limits: RunawayLimits, onTrip: (trip: RunawayTrip) => void, now: () => number = Date.now) {
    this.limits = limits;
    this.onTrip = onTrip;
    this.now = now;
    this.counts = this.freshCounts();
    this.late = this.lateCount();
  }

  /** Why the pages were stopped, until `reset`. */
  get tripped(): RunawayTrip | undefined {
    return this.trip;
  }

  /**
   * Counts one event; false when it is to be dropped (this one passed a bound, or the pages are stopped already).
   * `writtenAt`: when the page wrote it (console messages), to tell how late it arrives.
   */
  count(bound: EventBound, url?: () => string, writtenAt?: number): boolean {
    if (this.trip) return false;
    const now = this.now();
    const limit = this.limits.events[bound];
    if (this.counts[bound].add(now)) {
      this.stop({ bound, limit, observed: limit + 1, windowMs: this.limits.windowMs, ...(url ? { url: url() } : {}) });
      return false;
    }
    if (writtenAt === undefined || !Number.isFinite(writtenAt)) return true;
    this.delivery = Math.min(this.delivery, now - writtenAt);
    const lateBy = now - writtenAt - this.delivery;
    if (lateBy <= this.limits.lateMs || !this.late.add(now)) return true;
    const lateLimit = lateLimitOf(limit);
    this.stop({ bound, limit: lateLimit, observed: lateLimit + 1, windowMs: this.limits.windowMs, lateMs: Math.round(lateBy), ...(url ? { url: url() } : {}) });
    return false;
  }

  /** Stops the pages for a bound the page itself saw passed (see guardConsole). */
  report(bound: EventBound, observed: number, url?: string): void {
    if (this.trip) return;
    this.stop({ bound, limit: this.limits.events[bound], observed, windowMs: this.limits.windowMs, ...(url ? { url } : {}) });
  }

  /** Checks one tab's measured heap against its bound. */
  heap(bytes: number, url: string): void {
    if (this.trip || this.limits.heapBytes === 0 || bytes <= this.limits.heapBytes) return;
    this.stop({ bound: 'memory', limit: this.limits.heapBytes, observed: bytes, url });
  }

  /** Starts counting afresh once the trip has been reported (the session goes on with a fresh page). */
  reset(): void {
    this.trip = undefined;
    this.counts = this.freshCounts();
    this.late = this.lateCount();
  }

  private stop(trip: RunawayTrip): void {
    this.trip = trip;
    this.onTrip(trip);
  }

  private lateCount(): WindowCount {
    return new WindowCount(lateLimitOf(this.limits.events.console), this.limits.windowMs);
  }

  private freshCounts(): Record<EventBound, WindowCount> {
    const { events, windowMs } = this.limits;
    return {
      console: new WindowCount(events.console, windowMs),
      requests: new WindowCount(events.requests, windowMs),
      dialogs: new WindowCount(events.dialogs, windowMs),
      popups: new WindowCount(events.popups, windowMs),
      downloads: new WindowCount(events.downloads, windowMs),
    };
  }
}

/** How many late console messages within a window stop a session: a quarter of its console bound. */
function lateLimitOf(consoleLimit: number): number {
  return Math.max(1, Math.floor(consoleLimit / 4));
}

/** The limits with the caller's changes over the defaults (each may be given alone); RangeError for a bad one. */
export function runawayLimits(given: RunawayOptions = {}): RunawayLimits {
  const events = { ...DEFAULT_RUNAWAY_LIMITS.events };
  for (const [bound, limit] of Object.entries(given.events ?? {}) as [EventBound, number | undefined][]) {
    if (limit === undefined) continue;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`runaway.events.${bound} must be a positive integer`);
    events[bound] = limit;
  }
  const limits: RunawayLimits = { ...DEFAULT_RUNAWAY_LIMITS, events };
  for (const key of ['windowMs', 'lateMs', 'heapBytes', 'heapCheckMs'] as const) {
    const value = given[key];
    if (value === undefined) continue;
    if (key === 'heapBytes' && value === 0) {
      limits.heapBytes = 0;
      continue;
    }
    if (!Number.isFinite(value) || value <= 0)
      throw new RangeError(`runaway.${key} must be a positive number${key === 'heapBytes' ? ' (or 0: no bound)' : ''}`);
    limits[key] = value;
  }
  return limits;
}

/** What a caller may change: any of the limits. */
export type RunawayOptions = Partial<Omit<RunawayLimits, 'events'>> & { events?: Partial<Record<EventBound, number>> };

/**
 * The start of the console message a page's guard writes when it stops the page's logging (see guardConsole). Random
 * per process, so a page cannot write it on purpose; one that could would only stop its own session.
 */
export const RUNAWAY_MARKER = `sessionwright-runaway-${randomBytes(8).toString('hex')}`;

/**
 * Counts a page's console use, uncaught errors and requests where they happen, in the page, before anything crosses to
 * the browser: every document of the context (frames too) reads `console`, `fetch`, `XMLHttpRequest.prototype.send` and
 * `navigator.sendBeacon` through getters that count, and counts its uncaught errors and rejections; past the console
 * or requests bound within a window the getters hand out versions that do nothing (a request fails as a network error
 * does), further uncaught errors go unreported, and RUNAWAY_MARKER is written once, which the collectors turn into a
 * stop. Counting downstream alone comes too late: the browser relays a page's events more
 * slowly than a page in a loop makes them, so by the time the collectors have seen a bound passed, seconds of events
 * wait in the browser ahead of every other session's answers (and ahead of the command that closes the page). The
 * functions handed out are the browser's own, so console messages keep the page's place in them (`location`). A
 * reference taken before the bound (`const log = console.log`), other ways to make requests, and workers escape the
 * count; the collectors' bounds catch those, later.
 */
export async function guardPages(context: BrowserContext, limits: RunawayLimits): Promise<void> {
  const bounds = JSON.stringify({ console: limits.events.console, requests: limits.events.requests });
  await context.addInitScript({ content: `(${PAGE_GUARD})(${bounds}, ${limits.windowMs}, ${JSON.stringify(RUNAWAY_MARKER)});` });
}

/** The page side of guardPages, as source: it runs before the page's own scripts, so what it captures is the browser's. */
const PAGE_GUARD = `(limits, windowMs, marker) => {
  const native = globalThis.console;
  if (typeof native !== 'object' || native === null) return;
  const write = native.error;
  const apply = Reflect.apply;
  const define = Object.defineProperty;
  const describe = Object.getOwnPropertyDescriptor;
  const now = Date.now;
  const counts = { console: 0, requests: 0 };
  let start = 0;
  let stopped = false;
  const passed = (bound) => {
    if (stopped) return true;
    const at = now();
    if (at - start >= windowMs) {
      start = at;
      counts.console = 0;
      counts.requests = 0;
    }
    counts[bound] += 1;
    if (counts[bound] <= limits[bound]) return false;
    stopped = true;
    apply(write, native, [marker + ' ' + bound + ' ' + counts[bound]]);
    return true;
  };
  const guard = (target, name, bound, quiet) => {
    const own = describe(target, name);
    if (!own || !('value' in own) || !own.configurable) return;
    let current = own.value;
    define(target, name, {
      configurable: true,
      enumerable: own.enumerable,
      get() {
        return passed(bound) ? quiet : current;
      },
      set(value) {
        current = value;
      },
    });
  };
  const quietConsole = {};
  for (const key of Object.getOwnPropertyNames(native)) quietConsole[key] = typeof native[key] === 'function' ? () => {} : native[key];
  guard(globalThis, 'console', 'console', quietConsole);
  guard(globalThis, 'fetch', 'requests', () => Promise.reject(new TypeError('Failed to fetch')));
  if (globalThis.XMLHttpRequest) {
    guard(globalThis.XMLHttpRequest.prototype, 'send', 'requests', function () {
      this.abort();
    });
  }
  if (globalThis.Navigator) guard(globalThis.Navigator.prototype, 'sendBeacon', 'requests', () => false);
  // Uncaught errors and rejections count as console messages; past the bound they are handled here, so never reported.
  const uncaught = (event) => {
    if ((event instanceof ErrorEvent || event.type === 'unhandledrejection') && passed('console')) event.preventDefault();
  };
  globalThis.addEventListener('error', uncaught, true);
  globalThis.addEventListener('unhandledrejection', uncaught, true);
}`;
