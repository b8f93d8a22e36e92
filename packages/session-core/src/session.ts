// One isolated browser session: a BrowserContext, its tabs and current Page, its collectors, and a FIFO queue so calls never interleave.
import type { Browser, BrowserContext, Page } from 'playwright';
import { SessionCollectors } from './collectors.js';
import { captureImage, type SessionImage } from './session-image.js';
import type { EffectiveSessionOptions, SessionOptions } from './context-options.js';
import { isInside, type DownloadLimits, type DownloadRecord } from './downloads.js';
import { SessionError } from './errors.js';
import type { BrowserName } from './executable.js';
import { orAfter, systemClock, systemTimers, type Clock, type TimerHandle, type Timers } from './clock.js';
import { PersonControl, type ControlLease, type QueuePlace } from './control.js';
import { Emulation } from './emulation.js';
import { DEFAULT_RUNAWAY_LIMITS, type RunawayLimits, type RunawayTrip } from './runaway.js';
import { ModalHold, type DialogRecord } from './modal-hold.js';
import { SessionDownloads } from './session-downloads.js';
import { Recordings, type FileRecord } from './recordings.js';
import { RunawayWatch } from './runaway-watch.js';
import { callError, runawayError, stoppedError, waitedForPersonError, type StopReason } from './call-errors.js';
import { CLOSE_TIMEOUT_MS } from './open-context.js';

export type { DialogAnswer, DialogRecord, ModalMode, ModalState } from './modal-hold.js';
export type { FileRecord } from './recordings.js';
export type { EffectiveEmulation, EmulationSettings, MediaOverrides } from './emulation.js';
export { CLOSE_TIMEOUT_MS } from './open-context.js';

/** At most this many events of each kind are remembered between two calls: a page that loops alert() cannot flood a result. */
const MAX_EVENTS = 50;

/** Tabs a session keeps open by default; the oldest background tab is closed when a new one would pass it. */
export const DEFAULT_MAX_TABS = 10;

/** What happened in a session between two calls (dialogs answered, tabs opened or closed, files downloaded), read once with takeEvents(). */
export interface SessionEvents {
  dialogs: DialogRecord[];
  /** URLs of tabs the page opened since the last call (the session switched to the newest). */
  openedTabs: string[];
  /** URLs of background tabs closed because the session would have passed its tab limit. */
  closedTabs: string[];
  /** Files the pages downloaded since the last call. */
  downloads: DownloadRecord[];
}

/** How a call may be ended from outside: the caller gives up (signal), or its time runs out (timeout). */
export interface RunOptions {
  /** Aborted when the caller no longer wants the result (the client cancelled the call). */
  signal?: AbortSignal | undefined;
  /**
   * The call's time limit in ms, counted from when it starts running; past it the call ends with reason `call_timeout`.
   * A call queued behind a person's control counts it from its arrival: the wait for the person is part of it.
   */
  timeout?: number | undefined;
  /** Called once if the call has to wait for a person who has (or is about to take) control of the session. */
  onWaitForPerson?: ((lease: ControlLease) => void) | undefined;
}

/** What a session leaves when it closes: its videos (one per tab, with recordVideo) and a trace still being recorded. */
export interface SessionFiles {
  videos: FileRecord[];
  traces: FileRecord[];
}

/**
 * How long a cancelled or timed-out call may take to let go of the page after being told to stop, before the session
 * replaces the page. A navigation stops at once; a script in a loop or a slow `type` never does.
 */
const LET_GO_GRACE_MS = 1_500;

interface SessionInit {
  id: string;
  now: number;
  timeout: number;
  identity?: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  options?: EffectiveSessionOptions;
  /** The options as the creator gave them, secrets included: kept only for image(), never shown. */
  givenOptions?: SessionOptions;
  /** Headers every session of the manager sends (its defaults' extraHTTPHeaders): their values are hidden as the session's own are. */
  defaultHeaders?: readonly string[];
  /** The label of the browser source it runs on ("local", or an endpoint's scheme://host:port; never a secret). */
  endpoint?: string;
  /** Most tabs open at once (default 10). */
  maxTabs?: number;
  /**
   * The session's one folder, made on first use: its downloads, traces and videos (removed when it ends unless kept).
   * Without it downloads are reported as failed and traces cannot be saved.
   */
  folder?: () => Promise<string>;
  /** How much the session may download, and whether its files outlive it (default DEFAULT_DOWNLOAD_LIMITS). */
  downloadLimits?: DownloadLimits;
  /** Bounds on events and memory past which the session's pages are stopped (default DEFAULT_RUNAWAY_LIMITS). */
  runaway?: RunawayLimits;
  /** Keep the request list (default true): off when no tool reads it. */
  collectNetwork?: boolean;
  /** Told when the session's pages are stopped for passing a bound (for a log line). */
  onRunaway?: (trip: RunawayTrip) => void;
  /** The time the session reads (call deadlines, the popup window after a stop, a person's lease); default the system's. */
  clock?: Clock;
  timers?: Timers;
}

/** One isolated session: a BrowserContext, its current page and tabs, and the queue that runs its calls one at a time. */
export class Session {
  readonly id: string;
  readonly createdAt: number;
  /** How long the session may go unused before it expires, in ms (see touch). */
  readonly idleTimeout: number;
  private usedAt: number;
  /** When someone last looked at the session (an MCP App's frame poll); see watched(). */
  private watchedAt = 0;
  /** The connection (or any caller-chosen identity) that created the session. */
  readonly identity: string | undefined;
  readonly context: BrowserContext;
  /** The browser this session lives in; sessions of a browser that died are gone with it. */
  readonly browser: Browser;
  /** What the session was created with, secrets left out ({} for a plain session). */
  readonly options: EffectiveSessionOptions;
  /** The label of the browser source it runs on ("local", or an endpoint's scheme://host:port; never a secret). */
  readonly endpoint: string;
  readonly maxTabs: number;
  /** The options as given, secrets included (see image()). */
  private readonly givenOptions: SessionOptions;
  /** Console messages, page errors and requests of every tab, once listen() has started them. */
  private collected: SessionCollectors | undefined;
  /** listen() as soon as the creation has been answered (see the constructor). */
  private readonly listenSoon: TimerHandle;
  private currentPage: Page;
  private tail: Promise<unknown> = Promise.resolve();
  /** Tabs whose renderer crashed, that did not let go of a call, or that the tab limit closed: never handed to a call again. */
  private readonly abandoned = new WeakSet<Page>();
  private readonly crashed = new WeakSet<Page>();
  private pendingCalls = 0;
  private events: SessionEvents = emptyEvents();
  /** True while the session opens a page itself (a replacement, or a tab asked for): not a tab the site opened. */
  private openingOwnPage = false;
  private readonly pageListeners = new Set<(page: Page) => void>();
  private readonly endListeners = new Set<() => void>();
  private ended = false;
  private readonly collectNetwork: boolean;
  private readonly clock: Clock;
  private readonly timers: Timers;
  /** Stops the call running now, if any. */
  private stopRunning: ((reason: StopReason) => void) | undefined;
  /** A fresh page being opened (in place of pages given up on); the next call waits for it. */
  private opening: Promise<Page> | undefined;
  /** The session's folder, the files it writes and the downloads of its pages. */
  readonly downloads: SessionDownloads;
  /** The dialogs and file choosers of its pages, answered at once or held for a call. */
  readonly modal: ModalHold;
  /** Its trace, video and action recording. */
  readonly recordings: Recordings;
  /** A person's part: the live picture, their control and their input. */
  readonly control: PersonControl;
  /** Counts its pages' events and measures their heaps; stops them past a bound. */
  readonly runaway: RunawayWatch;
  /** The settings emulate changes after creation, and the headers whose values no result shows. */
  readonly emulation: Emulation;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.createdAt = init.now;
    this.idleTimeout = init.timeout;
    this.usedAt = init.now;
    this.identity = init.identity;
    this.browser = init.browser;
    this.options = init.options ?? {};
    this.givenOptions = init.givenOptions ?? {};
    this.endpoint = init.endpoint ?? 'local';
    this.maxTabs = init.maxTabs ?? DEFAULT_MAX_TABS;
    this.clock = init.clock ?? systemClock;
    this.timers = init.timers ?? systemTimers;
    this.collectNetwork = init.collectNetwork ?? true;
    this.context = init.context;
    this.currentPage = init.page;
    const { clock, timers, context } = this;
    const reportRunaway = init.onRunaway;
    this.runaway = new RunawayWatch({
      context,
      limits: init.runaway ?? DEFAULT_RUNAWAY_LIMITS,
      clock,
      timers,
      tabs: () => this.tabs(),
      giveUp: (page) => this.abandoned.add(page),
      ended: () => this.ended,
      onStop: (trip) => {
        this.modal.forget();
        reportRunaway?.(trip);
        if (this.stopRunning) this.stopRunning('runaway_page');
        void this.freshPage().catch(() => {});
      },
    });
    const guard = this.runaway.guard;
    this.modal = new ModalHold({
      timers,
      count: (dialog) => guard.count('dialogs', () => dialog.page()?.url() ?? ''),
      report: (record) => this.pushEvent('dialogs', record),
    });
    this.downloads = new SessionDownloads({
      folder: init.folder,
      limits: init.downloadLimits,
      timers,
      count: (download) => guard.count('downloads', () => download.page().url()),
      report: (record) => this.pushEvent('downloads', record),
      recordings: () => this.recordings.measure(),
      recording: () => this.recordings.active,
    });
    this.recordings = new Recordings({ context, id: this.id, endpoint: this.endpoint, tabs: () => this.tabs(), files: this.downloads, clock, timers });
    this.control = new PersonControl({ current: this, join: () => this.join(), livePage: () => this.livePage(), ended: () => this.ended, clock, timers });
    this.emulation = new Emulation({
      context,
      browserName: this.browser.browserType().name() as BrowserName,
      options: this.options,
      defaultHeaders: init.defaultHeaders ?? [],
      tabs: () => this.tabs(),
      page: () => this.currentPage,
    });
    // Each kind of event Playwright is asked to report costs a call through its client (together most of what opening a
    // session costs besides the browser's own work). The new page is blank and only a call can bring anything to it, so
    // the listeners (and the page guard's script) are attached right after the creation is answered, or by the first call.
    this.listenSoon = timers.setTimeout(() => this.listen(), 0);
  }

  /** When the session was last used: created, or a call on it arrived or ended. */
  get lastUsedAt(): number {
    return this.usedAt;
  }

  /**
   * When the session expires if nothing uses it before: idleTimeout after its last use, or after it was last watched,
   * but never more than twice idleTimeout after its last use: watching alone keeps a session alive for a while, not forever.
   */
  get expiresAt(): number {
    return this.usedAt + this.idleTimeout + Math.min(this.idleTimeout, Math.max(0, this.watchedAt - this.usedAt));
  }

  /** Marks the session watched at `now` (ms since the epoch): a bounded use (see expiresAt), for looking without acting. */
  watched(now: number): void {
    this.watchedAt = Math.max(this.watchedAt, now);
  }

  /** Marks the session used at `now` (ms since the epoch), which moves its expiry to `now + idleTimeout`. */
  touch(now: number): void {
    this.usedAt = now;
  }

  /** Console messages, page errors and requests of every tab, in bounded rings. */
  get collectors(): SessionCollectors {
    return this.listen();
  }

  /** Attaches the session's listeners to its context and tabs, once. */
  private listen(): SessionCollectors {
    if (this.collected) return this.collected;
    this.timers.clearTimeout(this.listenSoon);
    const collectors = new SessionCollectors(this.context, undefined, undefined, { guard: this.runaway.guard, network: this.collectNetwork });
    this.runaway.start();
    this.collected = collectors;
    for (const page of this.context.pages()) this.watchPage(page);
    // A link with target=_blank or window.open: follow the newest tab, as a person would, and say so in the next result.
    this.context.on('page', (page) => {
      this.watchPage(page);
      // A page the session opens itself is not a tab the site opened; whoever opened it decides what follows.
      if (page === this.currentPage || this.openingOwnPage) return;
      if (this.runaway.refusesPopup(page)) return;
      this.setCurrentPage(page);
      if (this.events.openedTabs.length < MAX_EVENTS) this.events.openedTabs.push(page.url());
      this.enforceTabLimit(page);
    });
    return collectors;
  }

  /** The page calls act on (the newest tab the session opened, or the one selected). */
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
   * `fn` gets a signal that aborts at that moment, for waits of its own that are not on the page.
   */
  run<T>(fn: (page: Page, stop: AbortSignal) => Promise<T>, options: RunOptions = {}): Promise<T> {
    // A person who has control, or waits for it, is ahead of this call: the call waits for them, and says so.
    const person = this.control.lease;
    const { previous, letGo } = this.join();
    return this.execute(previous, fn, options, person).finally(letGo);
  }

  /**
   * A place at the end of the queue, for a call or a person's control: the entry before it, and how to let the next go.
   * The next entry waits for this one to let go, and (if this one was cancelled while queued) for the one before it.
   */
  private join(): QueuePlace {
    this.listen();
    this.pendingCalls += 1;
    const previous = this.tail;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.tail = previous.then(() => released);
    return {
      previous,
      letGo: () => {
        release();
        this.pendingCalls -= 1;
      },
    };
  }

  private async execute<T>(
    previous: Promise<unknown>,
    fn: (page: Page, stop: AbortSignal) => Promise<T>,
    options: RunOptions,
    person: ControlLease | undefined,
  ): Promise<T> {
    const { signal } = options;
    const arrived = this.clock.now();
    if (person) {
      options.onWaitForPerson?.(person);
      // The wait for the person counts against the call's time limit: a person who keeps control cannot hold a call for longer.
      const ran = await untilDeadline(previous, signal, options.timeout, this.timers);
      if (!ran && !signal?.aborted) throw waitedForPersonError(options);
    } else {
      // A call cancelled while it waits in the queue never starts.
      await untilAborted(previous, signal);
    }
    if (signal?.aborted) throw stoppedError('cancelled', options, false);
    if (person && options.timeout !== undefined) {
      const left = options.timeout - (this.clock.now() - arrived);
      if (left <= 0) throw waitedForPersonError(options);
      options = { ...options, timeout: left };
    }
    // Pages stopped for passing a bound while no call ran: this call says so; the next one runs on a fresh page.
    const runaway = this.runaway.take();
    if (runaway) throw runawayError(runaway);
    const halt = new AbortController();
    let stop!: (reason: StopReason) => void;
    const stopped = new Promise<StopReason>((resolve) => {
      stop = (reason) => {
        resolve(reason);
        // What fn then throws is not reported: the call ends with the reason it was stopped for.
        halt.abort();
      };
    });
    const onAbort = () => stop('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    // The limit counts from here, so that waiting for a page (which a browser busy elsewhere may answer late) counts too.
    const timer: TimerHandle | undefined = options.timeout === undefined ? undefined : this.timers.setTimeout(() => stop('call_timeout'), options.timeout);
    this.stopRunning = stop;
    let page: Page | undefined;
    const work = (async () => {
      // The page's own guard must be in place before the call loads anything.
      await this.runaway.ready;
      page = await this.livePage();
      if (halt.signal.aborted) throw new Error('stopped before it started');
      return fn(page, halt.signal);
    })();
    try {
      const first = await Promise.race([
        work.then(
          () => undefined,
          () => undefined,
        ),
        stopped,
      ]);
      if (first === undefined)
        return await work.catch((error: unknown) => Promise.reject(callError(error, { crashed: page !== undefined && this.crashed.has(page) })));
      work.catch(() => {});
      // Its pages are closing already: nothing to wait for.
      if (first === 'runaway_page') throw runawayError(this.runaway.take());
      // Told to stop: ask the page to stop loading, then give the call a moment to end by itself.
      const stopSent = page ? stopLoading(page) : Promise.resolve();
      const ended = await orAfter(
        work.then(
          () => true,
          () => true,
        ),
        LET_GO_GRACE_MS,
        false,
        this.timers,
      );
      // The stop reaches the page before the call lets go, so it cannot land on the next call's navigation.
      if (ended) await orAfter(stopSent, LET_GO_GRACE_MS, undefined, this.timers);
      // The fresh page opens while the answer goes out; the next call waits for it (livePage).
      if (!ended && page) this.replaceInBackground(page);
      throw stoppedError(first, options, !ended);
    } finally {
      if (timer !== undefined) this.timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (this.stopRunning === stop) this.stopRunning = undefined;
    }
  }

  /** Dialogs, tabs and downloads seen since the last call, emptied by reading. */
  takeEvents(): SessionEvents {
    const events = this.events;
    this.events = emptyEvents();
    return events;
  }

  /**
   * Closes the context and its pages; gives up waiting after CLOSE_TIMEOUT_MS (longer while videos are written), so a
   * browser that hangs cannot hold the caller. A trace still being recorded is saved first. Answers the files left behind.
   */
  async close(): Promise<SessionFiles> {
    this.timers.clearTimeout(this.listenSoon);
    this.markEnded();
    const { traces, videos } = await this.recordings.finish();
    // The collectors' listeners go with the context; removing them first would cost a message per event.
    await orAfter(
      this.context.close().catch(() => {}),
      CLOSE_TIMEOUT_MS,
      undefined,
      this.timers,
    );
    const removed = await this.downloads.remove();
    const mark = (file: FileRecord): FileRecord => (removed !== undefined && isInside(removed, file.path) ? { ...file, removed: true } : file);
    return { videos: videos.map(mark), traces: traces.map(mark) };
  }

  /**
   * Says the session has ended (closed, expired, or its browser gone): a person's control is let go, the screencast
   * stops and whoever listens to onEnd is told. close() does it; the manager calls it for a session it drops unclosed.
   */
  markEnded(): void {
    if (this.ended) return;
    this.ended = true;
    this.control.end();
    for (const listener of [...this.endListeners]) listener();
    this.endListeners.clear();
  }

  /** Calls `listener` once when the session ends (at once if it has). Returns how to stop listening. */
  onEnd(listener: () => void): () => void {
    if (this.ended) {
      listener();
      return () => {};
    }
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** True once the session has ended. */
  get hasEnded(): boolean {
    return this.ended;
  }

  // Watching and handing over -----------------------------------------------------------------------------------

  /** Calls `listener` whenever calls start acting on another tab (a tab switch, a popup, a replaced page). */
  onPageChange(listener: (page: Page) => void): () => void {
    this.pageListeners.add(listener);
    return () => this.pageListeners.delete(listener);
  }

  /**
   * What a new session needs to start as a copy of this one (SessionManager.create's `image`): the options it was
   * created with, secrets included, its cookies, every origin's localStorage and IndexedDB, and each tab's URL and
   * sessionStorage. It reads the pages without waiting for the session's queue: a caller that needs a moment between
   * two calls runs it through SessionManager.run.
   */
  image(): Promise<SessionImage> {
    return captureImage(this.context, this.tabs(), this.currentPage, this.givenOptions, { now: this.clock.now(), timers: this.timers });
  }

  // Tabs ---------------------------------------------------------------------------------------------------------

  /** The open tabs, oldest first; a tab's index is its position here. */
  tabs(): Page[] {
    return this.context.pages().filter((page) => this.usable(page));
  }

  /** Makes tab `index` the one calls act on, and brings it to the front. */
  async selectTab(index: number): Promise<Page> {
    const page = this.tabAt(index);
    this.setCurrentPage(page);
    await page.bringToFront().catch(() => {});
    return page;
  }

  /** Opens a blank tab and makes it current; the oldest background tab closes if the limit would be passed. */
  async newTab(): Promise<Page> {
    const page = await this.openPage();
    this.setCurrentPage(page);
    this.enforceTabLimit(page);
    return page;
  }

  /** Closes tab `index` (default: the current one). The newest remaining tab becomes current; the last tab is replaced by a blank one. */
  async closeTab(index?: number): Promise<void> {
    const page = index === undefined ? this.currentPage : this.tabAt(index);
    const wasCurrent = page === this.currentPage;
    await page.close({ runBeforeUnload: false }).catch(() => {});
    if (!wasCurrent) return;
    const rest = this.tabs();
    this.setCurrentPage(rest.at(-1) ?? (await this.openPage()));
  }

  private tabAt(index: number): Page {
    const tabs = this.tabs();
    const page = tabs[index];
    if (!Number.isInteger(index) || page === undefined) {
      throw new SessionError(
        'INVALID_PARAMETERS',
        `There is no tab ${index}: the session has ${tabs.length} tab${tabs.length === 1 ? '' : 's'} (indexes 0 to ${tabs.length - 1}).`,
        {
          details: { reason: 'no_such_tab', index, tabCount: tabs.length },
        },
      );
    }
    return page;
  }

  /** Closes the oldest background tabs while more than maxTabs are open (never the current tab nor `keep`). */
  private enforceTabLimit(keep: Page): void {
    let tabs = this.tabs();
    while (tabs.length > this.maxTabs) {
      const victim = tabs.find((page) => page !== this.currentPage && page !== keep);
      if (!victim) return;
      if (this.events.closedTabs.length < MAX_EVENTS) this.events.closedTabs.push(victim.url());
      // Marked unusable at once: close() lands asynchronously, and the count must drop now.
      this.abandoned.add(victim);
      void victim.close({ runBeforeUnload: false }).catch(() => {});
      tabs = this.tabs();
    }
  }

  // Internals ----------------------------------------------------------------------------------------------------

  /** The page calls act on: the current tab, else the newest usable one, else a fresh blank one (waiting for one being opened). */
  private async livePage(): Promise<Page> {
    if (this.opening) await this.opening.catch(() => {});
    if (this.usable(this.currentPage)) return this.currentPage;
    const open = this.context.pages().filter((page) => this.usable(page));
    const newest = open.at(-1);
    if (newest) {
      this.setCurrentPage(newest);
      return newest;
    }
    return this.freshPage();
  }

  /** A new blank page in the session's context (watched by the 'page' listener; not reported as a tab the site opened). */
  private async openPage(): Promise<Page> {
    this.openingOwnPage = true;
    try {
      return await this.context.newPage();
    } finally {
      this.openingOwnPage = false;
    }
  }

  /** Opens a fresh blank page and makes it current; one at a time, however many callers ask at once. */
  private freshPage(): Promise<Page> {
    this.opening ??= this.openPage()
      .then(async (page) => {
        this.setCurrentPage(page);
        // Once the stopped pages are closed nothing they had in flight (a popup they opened) can arrive: count afresh.
        await this.runaway.settle();
        return page;
      })
      .finally(() => {
        this.opening = undefined;
      });
    return this.opening;
  }

  /**
   * Gives up on a page that does not let go of a call: it is never handed out again, it is closed without waiting (a
   * page stuck in a script may take long to close), and a fresh page in the same context takes its place, opened in
   * the background (the next call waits for it; if the browser cannot open one now, the next call tries again). Also
   * for a call's own part that passed its time limit on a page that no longer answers (a run's step).
   */
  replaceInBackground(stuck: Page): void {
    this.abandoned.add(stuck);
    void stuck.close({ runBeforeUnload: false }).catch(() => {});
    if (this.currentPage === stuck) void this.freshPage().catch(() => {});
  }

  /** Makes `page` the tab calls act on, and tells whoever follows the current tab (the screencast). */
  private setCurrentPage(page: Page): void {
    if (page === this.currentPage) return;
    this.currentPage = page;
    for (const listener of [...this.pageListeners]) listener(page);
  }

  private usable(page: Page): boolean {
    return !page.isClosed() && !this.abandoned.has(page);
  }

  private watchPage(page: Page): void {
    this.modal.watch(page);
    this.downloads.watch(page);
    this.emulation.watch(page);
    page.on('crash', () => {
      // The tab is unusable at once (a call may arrive before close() lands); the next call gets a fresh page in the same context.
      this.abandoned.add(page);
      this.crashed.add(page);
      void page.close().catch(() => {});
    });
  }

  private pushEvent<K extends keyof SessionEvents>(kind: K, event: SessionEvents[K][number]): void {
    const list = this.events[kind] as SessionEvents[K][number][];
    if (list.length < MAX_EVENTS) list.push(event);
  }
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
 * Waits for `turn` until the signal aborts or `timeout` ms pass: true when the turn came, false when the wait gave up.
 * Without a timeout it waits as untilAborted does.
 */
async function untilDeadline(turn: Promise<unknown>, signal: AbortSignal | undefined, timeout: number | undefined, timers: Timers): Promise<boolean> {
  if (timeout === undefined) {
    await untilAborted(turn, signal);
    return !signal?.aborted;
  }
  let timer: TimerHandle | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = timers.setTimeout(() => resolve(false), timeout);
  });
  try {
    return await Promise.race([untilAborted(turn, signal).then(() => !signal?.aborted), expired]);
  } finally {
    timers.clearTimeout(timer);
  }
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

function emptyEvents(): SessionEvents {
  return { dialogs: [], openedTabs: [], closedTabs: [], downloads: [] };
}
