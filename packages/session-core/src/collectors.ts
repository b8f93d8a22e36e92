// Per-session collectors: console messages, page errors and network requests kept in bounded rings, read by cursor.
import type { BrowserContext, ConsoleMessage, Page, Request, Response, WebError } from 'playwright';
import { RUNAWAY_MARKER, type RunawayGuard } from './runaway.js';
import { cut } from './fields.js';

/**
 * A ring of the last `capacity` entries, each numbered in arrival order (1, 2, …). Readers pass the number they last
 * saw (a cursor) and get what came after it; what fell out before they read it is counted, never kept.
 */
export class Ring<T> {
  readonly capacity: number;
  private readonly items: T[] = [];
  /** Number of the oldest entry kept (1 when nothing fell out yet). */
  private first = 1;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.capacity = capacity;
  }

  /** Number of the newest entry (0 before the first). */
  get last(): number {
    return this.first + this.items.length - 1;
  }

  /** How many entries fell out of the ring so far. */
  get dropped(): number {
    return this.first - 1;
  }

  get size(): number {
    return this.items.length;
  }

  push(item: T): number {
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.shift();
      this.first += 1;
    }
    return this.last;
  }

  /** The entry numbered `seq`, if it is still kept. */
  at(seq: number): T | undefined {
    return seq >= this.first ? this.items[seq - this.first] : undefined;
  }

  /**
   * Entries after `since` (from the oldest kept when undefined) that pass `keep`, at most `limit` of them.
   * `cursor` is what to pass as `since` next time (it moves past entries `keep` skipped too); `dropped` is how many
   * entries after `since` fell out of the ring before this read.
   */
  read(options: { since?: number; limit?: number; keep?: (item: T) => boolean } = {}): { items: T[]; cursor: number; dropped: number } {
    const since = Math.max(0, Math.min(options.since ?? 0, this.last));
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const dropped = Math.max(0, this.first - 1 - since);
    const items: T[] = [];
    let cursor = since;
    for (let seq = Math.max(since + 1, this.first); seq <= this.last; seq += 1) {
      if (items.length >= limit) break;
      const item = this.items[seq - this.first] as T;
      cursor = seq;
      if (!options.keep || options.keep(item)) items.push(item);
    }
    if (items.length < limit) cursor = this.last;
    return { items, cursor, dropped };
  }
}

/** How many console messages and requests a session keeps (docs/agent-tools.md). */
export const COLLECTOR_CAPACITY = 1_000;
/** A console message or error text longer than this is cut: a page that logs megabytes cannot grow the ring's memory. */
const MAX_TEXT = 4_000;
/** URLs longer than this are cut in the request list (data: URLs can be megabytes). */
const MAX_URL = 2_000;

/** How severe a console message is, from least shown to most: a request for console messages names the least it wants. */
export type ConsoleLevel = 'error' | 'warning' | 'info' | 'debug';
const LEVEL_RANK: Record<ConsoleLevel, number> = { debug: 0, info: 1, warning: 2, error: 3 };

export interface ConsoleEntry {
  /** Playwright's console type (log, info, warning, error, debug, trace, …); uncaught page errors are `error`. */
  type: string;
  text: string;
  url?: string;
  line?: number;
  /** When it was logged (ms since epoch). */
  time: number;
}

/** The level a console type counts as, for `level` filtering. */
export function consoleLevel(type: string): ConsoleLevel {
  if (type === 'error' || type === 'assert') return 'error';
  if (type === 'warning') return 'warning';
  if (type === 'debug' || type === 'trace') return 'debug';
  return 'info';
}

/** A filter for console entries of `level` or more severe ones. */
export function atLeast(level: ConsoleLevel): (entry: ConsoleEntry) => boolean {
  const minimum = LEVEL_RANK[level];
  return (entry) => LEVEL_RANK[consoleLevel(entry.type)] >= minimum;
}

/** One request a session's pages made, as its request list keeps it. */
export interface RequestEntry {
  /** Stable within the session: r1, r2, … in the order the requests started. */
  id: string;
  method: string;
  url: string;
  resourceType: string;
  /** The HTTP status, or null while there is no response (pending or failed). */
  status: number | null;
  /** Why it failed (net::ERR_…), when it did. */
  failure?: string;
  /** How long it took until the response ended or it failed, in ms. */
  ms?: number;
  time: number;
}

/** What a session collects: console messages and page errors always; the request list only when a tool reads it. */
interface CollectOptions {
  /**
   * Keep the request list (default true). Without it only the start of each request is listened to, to count it
   * (see RunawayGuard): Playwright then makes no response objects, timings or failure reports for this session.
   */
  network?: boolean;
  /** Counts every event; an event it refuses is dropped (the session's pages are being stopped). */
  guard?: RunawayGuard;
}

/**
 * Collects one session's console messages, page errors and requests from its browser context, so every tab (popups
 * too) is covered and nothing needs attaching per page. Listeners go with the context; `dispose` removes them early.
 * Each listener does a fixed, small amount of work and never waits, so no session's events queue behind another's.
 *
 * Removing a listener is not free: when an event loses its last listener, Playwright tells its side of the connection
 * to stop sending it, one message per event, each with a captured stack trace. A closed context therefore is never
 * asked: the request would fail (another stack trace) and change nothing. The cost adds up when a browser that holds
 * hundreds of closing contexts goes away at once (a recycle after a burst of closes).
 */
export class SessionCollectors {
  readonly console: Ring<ConsoleEntry>;
  readonly requests: Ring<RequestEntry>;
  private nextRequest = 1;
  /** The live Playwright objects behind the entries still in the ring, for network_request's lazy details. */
  private readonly live = new Map<string, Request>();
  private readonly byRequest = new WeakMap<Request, RequestEntry>();
  /** Per tab: the newest console and request entries when its main frame last started loading a new document. */
  private readonly navigations = new WeakMap<Page, { console: number; requests: number }>();
  private readonly detach: () => void;
  /** Disposed, or the context closed: either way no listener is left to remove. */
  private stopped = false;

  constructor(context: BrowserContext, capacity = COLLECTOR_CAPACITY, now: () => number = Date.now, options: CollectOptions = {}) {
    this.console = new Ring(capacity);
    this.requests = new Ring(capacity);
    const { guard } = options;
    const network = options.network ?? true;
    const onConsole = (message: ConsoleMessage) => {
      const text = message.text();
      if (guard && text.startsWith(RUNAWAY_MARKER)) return reportFromPage(guard, text, pageOf(message));
      if (guard && !guard.count('console', () => pageOf(message), message.timestamp())) return;
      const location = message.location();
      this.console.push({
        type: message.type(),
        text: cut(text, MAX_TEXT),
        ...(location.url ? { url: cut(location.url, MAX_URL) } : {}),
        ...(location.url ? { line: location.lineNumber + 1 } : {}),
        time: now(),
      });
    };
    const onWebError = (webError: WebError) => {
      if (guard && !guard.count('console', () => pageUrl(webError).url ?? '')) return;
      const error = webError.error();
      this.console.push({
        type: 'error',
        text: cut(`Uncaught ${error.name ? `${error.name}: ` : ''}${error.message}`, MAX_TEXT),
        ...pageUrl(webError),
        time: now(),
      });
    };
    const onRequest = (request: Request) => {
      if (guard && !guard.count('requests', () => cut(request.url(), MAX_URL))) return;
      if (request.isNavigationRequest()) this.markNavigation(request);
      if (!network) return;
      const entry: RequestEntry = {
        id: `r${this.nextRequest++}`,
        method: request.method(),
        url: cut(request.url(), MAX_URL),
        resourceType: request.resourceType(),
        status: null,
        time: now(),
      };
      this.byRequest.set(request, entry);
      this.live.set(entry.id, request);
      const seq = this.requests.push(entry);
      // The entry that just fell out takes its Request with it.
      const gone = seq - this.requests.capacity;
      if (gone >= 1) this.live.delete(`r${gone}`);
    };
    const onResponse = (response: Response) => {
      const entry = this.byRequest.get(response.request());
      if (entry) entry.status = response.status();
    };
    const onDone = (request: Request) => {
      const entry = this.byRequest.get(request);
      if (!entry) return;
      const failure = request.failure();
      if (failure) entry.failure = failure.errorText;
      const timing = request.timing();
      entry.ms = Math.round(timing.responseEnd >= 0 ? timing.responseEnd : now() - entry.time);
    };
    const listen = (method: 'on' | 'off') => {
      context[method]('console', onConsole);
      context[method]('weberror', onWebError);
      if (network || guard) context[method]('request', onRequest);
      if (!network) return;
      context[method]('response', onResponse);
      context[method]('requestfinished', onDone);
      context[method]('requestfailed', onDone);
    };
    listen('on');
    this.detach = () => listen('off');
    context.once('close', () => this.stop());
  }

  /** The Playwright request behind an id, while its entry is still in the ring. */
  request(id: string): { entry: RequestEntry; request: Request } | undefined {
    const request = this.live.get(id);
    const entry = request && this.byRequest.get(request);
    return request && entry ? { entry, request } : undefined;
  }

  /**
   * The console cursor at which `page` last started loading a new document (0 before its first): what came after it
   * is what the page logged since its last navigation, as @playwright/mcp's console list shows by default. A
   * same-document navigation (history.pushState) is not one.
   */
  consoleSinceNavigation(page: Page): number {
    return this.navigations.get(page)?.console ?? 0;
  }

  /** The request cursor at which `page` last started loading a new document: its document's request and what followed. */
  requestsSinceNavigation(page: Page): number {
    return this.navigations.get(page)?.requests ?? 0;
  }

  private markNavigation(request: Request): void {
    try {
      const frame = request.frame();
      if (frame.parentFrame() === null) this.navigations.set(frame.page(), { console: this.console.last, requests: this.requests.last });
    } catch {
      // A new tab's first request comes before its frame exists: nothing was logged in that tab yet.
    }
  }

  /** Whether `id` was ever issued in this session (it may have fallen out of the ring since). */
  issued(id: string): boolean {
    const match = /^r(\d+)$/.exec(id);
    return match !== null && Number(match[1]) >= 1 && Number(match[1]) < this.nextRequest;
  }

  /** Stops collecting while the context stays open (a context that closes stops it by itself). Safe to call twice. */
  dispose(): void {
    if (!this.stopped) this.detach();
    this.stop();
  }

  private stop(): void {
    this.stopped = true;
    this.live.clear();
  }
}

/** Stops the session's pages for the bound the page's own guard saw passed (its message: marker, bound, count). */
function reportFromPage(guard: RunawayGuard, text: string, url: string): void {
  const [, bound, count] = text.split(' ');
  guard.report(bound === 'requests' ? 'requests' : 'console', Number(count) || 0, url);
}

/** The URL of the page a console message came from ('' for a worker's). */
function pageOf(message: ConsoleMessage): string {
  const page = message.page();
  return page && !page.isClosed() ? cut(page.url(), MAX_URL) : '';
}

function pageUrl(webError: WebError): { url?: string } {
  const page = webError.page();
  return page && !page.isClosed() ? { url: cut(page.url(), MAX_URL) } : {};
}
