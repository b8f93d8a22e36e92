// One isolated browser session: a BrowserContext, its tabs and current Page, its collectors, and a FIFO queue so calls never interleave.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Dialog, Download, FileChooser, Page } from 'playwright';
import { SessionCollectors } from './collectors.js';
import { captureImage, type SessionImage } from './session-image.js';
import { resolveSessionOptions, type EffectiveSessionOptions, type SessionOptions } from './context-options.js';
import {
  DEFAULT_DOWNLOAD_LIMITS,
  DOWNLOAD_CHECK_MS,
  bytesSoFar,
  folderBytes,
  isInside,
  safeFileName,
  uniqueName,
  type DownloadLimits,
  type DownloadRecord,
} from './downloads.js';
import { SessionError, browserError, firstLine, isSessionError, messageOf, type BrowserErrorReason } from './errors.js';
import type { BrowserName } from './executable.js';
import { orAfter } from './clock.js';
import { ControlLease, type ControlRequest } from './control.js';
import { dispatchPersonInput, type PersonInput } from './person-input.js';
import { Screencast, cdpOf } from './screencast.js';
import { PageVideo, type VideoSettings } from './page-video.js';
import { ActionRecording, canRecordActions } from './action-recording.js';
import { ensureFfmpeg } from './video.js';
import { defined } from './fields.js';
import { TraceSize, checkVideoSettings } from './recording-limits.js';
import { DEFAULT_RUNAWAY_LIMITS, RunawayGuard, guardPages, type RunawayLimits, type RunawayTrip } from './runaway.js';

/** A JavaScript dialog the page opened, and how it was answered ('pending' while a held dialog waits for an answer). */
export interface DialogRecord {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed' | 'pending';
}

/** How long after its pages were stopped a new page is taken for a popup they opened, and closed. */
const LEFTOVER_POPUP_MS = 2_000;

/** How long one tab's heap measure may take (opening its DevTools session, then the measure) before the tab is skipped. */
const HEAP_MEASURE_TIMEOUT_MS = 2_000;
/** At most this many events of each kind are remembered between two calls: a page that loops alert() cannot flood a result. */
const MAX_EVENTS = 50;

/** Tabs a session keeps open by default; the oldest background tab is closed when a new one would pass it. */
export const DEFAULT_MAX_TABS = 10;

export interface SessionEvents {
  dialogs: DialogRecord[];
  /** URLs of tabs the page opened since the last call (the session switched to the newest). */
  openedTabs: string[];
  /** URLs of background tabs closed because the session would have passed its tab limit. */
  closedTabs: string[];
  /** Files the pages downloaded since the last call. */
  downloads: DownloadRecord[];
}

/**
 * How dialogs and file choosers are handled. 'auto' (the default): a dialog is answered at once (see answerDialog) and
 * a file chooser is left alone. 'hold': each is kept open and reported as pending until answerPendingDialog /
 * answerPendingFileChooser answers it, as clients of the playwright profile expect.
 */
export type ModalMode = 'auto' | 'hold';

/**
 * A dialog or file chooser the session holds open (ModalMode 'hold'), waiting for an answer: a dialog first, since the
 * page waits for it.
 */
export type ModalState = { type: 'dialog'; dialogType: string; message: string; defaultValue: string } | { type: 'fileChooser'; multiple: boolean };

/** The longest the next call waits for an action a dialog interrupted to end, once the dialog has been answered. */
const INTERRUPTED_SETTLE_MS = 10_000;

/** How the next dialog (or, with persist, every dialog) is answered instead of the default. */
export interface DialogAnswer {
  accept: boolean;
  promptText?: string;
  persist?: boolean;
}

/** The CSS media features only emulate changes (Playwright's page.emulateMedia), beside the session options. */
export interface MediaOverrides {
  forcedColors?: 'active' | 'none';
  contrast?: 'more' | 'no-preference';
  /** The CSS media type: `print` renders as for printing. */
  media?: 'screen' | 'print';
}

/** What the session's emulate call can change after creation. */
export type EmulationSettings = Pick<SessionOptions, 'viewport' | 'colorScheme' | 'reducedMotion' | 'geolocation' | 'offline' | 'extraHTTPHeaders'> &
  MediaOverrides;
export type EffectiveEmulation = Pick<EffectiveSessionOptions, 'colorScheme' | 'reducedMotion' | 'geolocation' | 'offline' | 'extraHTTPHeaders'> &
  MediaOverrides & {
    viewport: { width: number; height: number } | null;
  };

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

/** A file the session wrote (a trace, a video), in its folder of the output directory. */
export interface FileRecord {
  path: string;
  bytes: number;
  /** The file went with its session's folder as the session closed (no --keep-downloads). */
  removed?: true;
  /** Why the recording ended before it was asked to: it passed the session's byte limit. */
  stopped?: string;
}

/** What a session leaves when it closes: its videos (one per tab, with recordVideo) and a trace still being recorded. */
export interface SessionFiles {
  videos: FileRecord[];
  traces: FileRecord[];
}

/** Why a running call is told to stop. */
type StopReason = Extract<BrowserErrorReason, 'cancelled' | 'call_timeout' | 'runaway_page'>;

/**
 * How long a cancelled or timed-out call may take to let go of the page after being told to stop, before the session
 * replaces the page. A navigation stops at once; a script in a loop or a slow `type` never does.
 */
export const LET_GO_GRACE_MS = 1_500;

/** How long a context may take to close (or a page to open) before the session stops waiting for a browser that hangs. */
export const CLOSE_TIMEOUT_MS = 2_000;

export interface SessionInit {
  id: string;
  now: number;
  timeout: number;
  owner?: string;
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
}

/** How long closing may wait for the video being recorded to be written. */
const VIDEO_CLOSE_TIMEOUT_MS = 15_000;

export class Session {
  readonly id: string;
  readonly createdAt: number;
  /** How long the session may go unused before it expires, in ms (see touch). */
  readonly idleTimeout: number;
  private usedAt: number;
  /** When someone last looked at the session (an MCP App's frame poll); see watched(). */
  private watchedAt = 0;
  /** The connection (or any caller-chosen owner) that created the session. */
  readonly owner: string | undefined;
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
  private readonly listenSoon: NodeJS.Immediate;
  private currentPage: Page;
  private tail: Promise<unknown> = Promise.resolve();
  /** Tabs whose renderer crashed, that did not let go of a call, or that the tab limit closed: never handed to a call again. */
  private readonly abandoned = new WeakSet<Page>();
  private readonly crashed = new WeakSet<Page>();
  private pendingCalls = 0;
  private events: SessionEvents = emptyEvents();
  /** True while the session opens a page itself (a replacement, or a tab asked for): not a tab the site opened. */
  private openingOwnPage = false;
  private modalMode: ModalMode = 'auto';
  private dialogAnswer: DialogAnswer | undefined;
  private heldDialog: { dialog: Dialog; record: DialogRecord } | undefined;
  private heldChooser: FileChooser | undefined;
  /** Told when a dialog or file chooser starts being held open. */
  private readonly modalListeners = new Set<(state: ModalState) => void>();
  /** An action a held dialog interrupted, still running until the dialog is answered. */
  private interrupted: Promise<void> | undefined;
  private readonly savingDownloads = new Set<Promise<void>>();
  private readonly downloadNames = new Set<string>();
  /** The session's folder, once made. */
  private folder: Promise<string> | undefined;
  private readonly makeFolder: (() => Promise<string>) | undefined;
  private readonly downloadLimits: DownloadLimits;
  /**
   * Files the session started (downloads, traces, videos, filename outputs: each counts against maxCount), and the
   * bytes of those written (against maxBytes).
   */
  private filesStarted = 0;
  private writtenBytes = 0;
  /** A trace or video the byte limit stopped, until the call that stops it (or the close) answers it. */
  private readonly cutShort: { trace?: Promise<FileRecord | undefined> | undefined; videos?: Promise<FileRecord[]> | undefined } = {};
  /** Downloads in progress, with the bytes each had on disk at the last check. */
  private readonly downloading = new Map<Download, number>();
  /** Why a download was cancelled, for its record. */
  private readonly cancelledDownloads = new WeakMap<Download, string>();
  private downloadTimer: NodeJS.Timeout | undefined;
  private checkingDownloads = false;
  /** Lower-case names of the headers the session was given (extraHTTPHeaders): no result shows their values. */
  private readonly givenHeaders = new Set<string>();
  /** What emulate changed, applied to tabs opened later too. */
  private emulation: { viewport?: { width: number; height: number }; media?: Pick<SessionOptions, 'colorScheme' | 'reducedMotion'> & MediaOverrides } = {};
  private effectiveEmulation: Omit<EffectiveEmulation, 'viewport'>;
  private readonly pageListeners = new Set<(page: Page) => void>();
  private readonly endListeners = new Set<() => void>();
  private ended = false;
  /** A person's control, queued or held (at most one at a time). */
  private lease: ControlLease | undefined;
  private readonly controlListeners = new Set<(lease: ControlLease) => void>();
  private cast: Screencast | undefined;
  private tracing: { started: number; size: TraceSize } | undefined;
  private traceCount = 0;
  private pageVideo: PageVideo | undefined;
  private videoCount = 0;
  private actionRecording: ActionRecording | undefined;
  /** Counts the pages' events and checks their heaps; stops them past a bound (see onRunaway). */
  private readonly guard: RunawayGuard;
  private readonly collectNetwork: boolean;
  private readonly reportRunaway: ((trip: RunawayTrip) => void) | undefined;
  /** The page guard's registration (guardPages), started with the listeners; a call waits for it before it loads a page. */
  private pagesGuarded: Promise<void> = Promise.resolve();
  /** Stopped pages still closing; the guard counts afresh once they are closed. */
  private readonly closing = new Set<Promise<void>>();
  /** When the session's pages were last stopped for passing a bound (0: never). */
  private stoppedAt = 0;
  /** A measure of the tabs' heaps in progress (see measureHeaps). */
  private measuring: Promise<void> | undefined;
  /** Stops the call running now, if any. */
  private stopRunning: ((reason: StopReason) => void) | undefined;
  /** A fresh page being opened (in place of pages given up on); the next call waits for it. */
  private opening: Promise<Page> | undefined;
  /** Why the pages were stopped, until a call has said so. */
  private runaway: RunawayTrip | undefined;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.createdAt = init.now;
    this.idleTimeout = init.timeout;
    this.usedAt = init.now;
    this.owner = init.owner;
    this.browser = init.browser;
    this.options = init.options ?? {};
    this.givenOptions = init.givenOptions ?? {};
    this.endpoint = init.endpoint ?? 'local';
    this.maxTabs = init.maxTabs ?? DEFAULT_MAX_TABS;
    this.makeFolder = init.folder;
    this.downloadLimits = init.downloadLimits ?? DEFAULT_DOWNLOAD_LIMITS;
    this.guard = new RunawayGuard(init.runaway ?? DEFAULT_RUNAWAY_LIMITS, (trip) => this.onRunaway(trip));
    this.collectNetwork = init.collectNetwork ?? true;
    this.reportRunaway = init.onRunaway;
    this.context = init.context;
    this.currentPage = init.page;
    const { colorScheme, reducedMotion, geolocation, offline, extraHTTPHeaders } = this.options;
    this.effectiveEmulation = { ...defined({ colorScheme, reducedMotion, geolocation, offline, extraHTTPHeaders }) };
    this.noteGivenHeaders(extraHTTPHeaders);
    for (const name of init.defaultHeaders ?? []) this.givenHeaders.add(name.toLowerCase());
    // Each kind of event Playwright is asked to report costs a call through its client (together most of what opening a
    // session costs besides the browser's own work). The new page is blank and only a call can bring anything to it, so
    // the listeners (and the page guard's script) are attached right after the creation is answered, or by the first call.
    this.listenSoon = setImmediate(() => this.listen());
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
    clearImmediate(this.listenSoon);
    const collectors = new SessionCollectors(this.context, undefined, undefined, { guard: this.guard, network: this.collectNetwork });
    this.pagesGuarded = guardPages(this.context, this.guard.limits).catch(() => {});
    this.collected = collectors;
    for (const page of this.context.pages()) this.watchPage(page);
    // A link with target=_blank or window.open: follow the newest tab, as a person would, and say so in the next result.
    this.context.on('page', (page) => {
      this.watchPage(page);
      // A page the session opens itself is not a tab the site opened; whoever opened it decides what follows.
      if (page === this.currentPage || this.openingOwnPage) return;
      // A popup that a stopped page opened just before it closed arrives once its first navigation commits, which may
      // be after the stop: it is part of the flood, not a tab to follow.
      if (Date.now() - this.stoppedAt < LEFTOVER_POPUP_MS || !this.guard.count('popups', () => page.url())) {
        this.abandon(page);
        return;
      }
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
    this.listen();
    this.pendingCalls += 1;
    const previous = this.tail;
    // A person who has control, or waits for it, is ahead of this call: the call waits for them, and says so.
    const person = this.lease;
    let letGo!: () => void;
    const released = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    // The next call waits for this one to let go, and (if this one was cancelled while queued) for the one before it.
    this.tail = previous.then(() => released);
    return this.execute(previous, fn, options, person).finally(() => {
      letGo();
      this.pendingCalls -= 1;
    });
  }

  private async execute<T>(
    previous: Promise<unknown>,
    fn: (page: Page, stop: AbortSignal) => Promise<T>,
    options: RunOptions,
    person: ControlLease | undefined,
  ): Promise<T> {
    const { signal } = options;
    const arrived = Date.now();
    if (person) {
      options.onWaitForPerson?.(person);
      // The wait for the person counts against the call's time limit: a person who keeps control cannot hold a call for longer.
      const ran = await untilDeadline(previous, signal, options.timeout);
      if (!ran && !signal?.aborted) throw waitedForPersonError(options);
    } else {
      // A call cancelled while it waits in the queue never starts.
      await untilAborted(previous, signal);
    }
    if (signal?.aborted) throw stoppedError('cancelled', options, false);
    if (person && options.timeout !== undefined) {
      const left = options.timeout - (Date.now() - arrived);
      if (left <= 0) throw waitedForPersonError(options);
      options = { ...options, timeout: left };
    }
    // Pages stopped for passing a bound while no call ran: this call says so; the next one runs on a fresh page.
    const runaway = this.takeRunaway();
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
    const timer = options.timeout === undefined ? undefined : setTimeout(() => stop('call_timeout'), options.timeout);
    this.stopRunning = stop;
    let page: Page | undefined;
    const work = (async () => {
      // The page's own guard must be in place before the call loads anything.
      await this.pagesGuarded;
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
      if (first === undefined) return await work.catch((error: unknown) => Promise.reject(page ? this.crashError(page, error) : error));
      work.catch(() => {});
      // Its pages are closing already: nothing to wait for.
      if (first === 'runaway_page') throw runawayError(this.takeRunaway());
      // Told to stop: ask the page to stop loading, then give the call a moment to end by itself.
      const stopSent = page ? stopLoading(page) : Promise.resolve();
      const ended = await orAfter(
        work.then(
          () => true,
          () => true,
        ),
        LET_GO_GRACE_MS,
        false,
      );
      // The stop reaches the page before the call lets go, so it cannot land on the next call's navigation.
      if (ended) await orAfter(stopSent, LET_GO_GRACE_MS, undefined);
      // The fresh page opens while the answer goes out; the next call waits for it (livePage).
      if (!ended && page) this.replaceInBackground(page);
      throw stoppedError(first, options, !ended);
    } finally {
      clearTimeout(timer);
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

  /** Waits (at most `timeout` ms) for downloads still being saved, so the result of the call that started them lists them. */
  async settleDownloads(timeout = 30_000): Promise<void> {
    if (this.savingDownloads.size === 0) return;
    await orAfter(Promise.allSettled([...this.savingDownloads]), timeout, undefined);
  }

  /**
   * Closes the context and its pages; gives up waiting after CLOSE_TIMEOUT_MS (longer while videos are written), so a
   * browser that hangs cannot hold the caller. A trace still being recorded is saved first. Answers the files left behind.
   */
  async close(): Promise<SessionFiles> {
    clearImmediate(this.listenSoon);
    this.markEnded();
    const cutTrace = await this.cutShort.trace;
    this.cutShort.trace = undefined;
    const traces: FileRecord[] = cutTrace ? [cutTrace] : [];
    if (this.tracing) {
      const saved = await orAfter(
        this.stopTrace().catch(() => undefined),
        CLOSE_TIMEOUT_MS,
        undefined,
      );
      if (saved) traces.push(saved);
    }
    const ownVideos =
      this.pageVideo || this.cutShort.videos
        ? await orAfter(
            this.stopVideo().catch(() => []),
            VIDEO_CLOSE_TIMEOUT_MS,
            [],
          )
        : [];
    // The collectors' listeners go with the context; removing them first would cost a message per event.
    await orAfter(
      this.context.close().catch(() => {}),
      CLOSE_TIMEOUT_MS,
      undefined,
    );
    const videos = ownVideos;
    const removed = await this.removeDownloads();
    const mark = (file: FileRecord): FileRecord => (removed !== undefined && isInside(removed, file.path) ? { ...file, removed: true } : file);
    return { videos: videos.map(mark), traces: traces.map(mark) };
  }

  /**
   * Removes the session's folder (downloads, traces, videos), unless its files are to be kept; for a session that has
   * ended. Answers the folder removed.
   */
  async removeDownloads(): Promise<string | undefined> {
    clearInterval(this.downloadTimer);
    if (this.downloadLimits.keep || this.folder === undefined) return undefined;
    const folder = await this.folder.catch(() => undefined);
    if (folder === undefined) return undefined;
    await rm(folder, { recursive: true, force: true }).catch(() => {});
    return folder;
  }

  /**
   * Says the session has ended (closed, expired, or its browser gone): a person's control is let go, the screencast
   * stops and whoever listens to onEnd is told. close() does it; the manager calls it for a session it drops unclosed.
   */
  markEnded(): void {
    if (this.ended) return;
    this.ended = true;
    this.lease?.release();
    this.cast?.stop();
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

  /** The live picture of the current tab, for whoever watches (it runs only while someone does). */
  get screencast(): Screencast {
    this.cast ??= new Screencast(this);
    return this.cast;
  }

  /** A person's control, waiting or held; undefined when no one has it. */
  get control(): ControlLease | undefined {
    return this.lease;
  }

  /** Calls `listener` when a person's control is asked for and at each of its changes; returns how to stop. */
  onControl(listener: (lease: ControlLease) => void): () => void {
    this.controlListeners.add(listener);
    return () => this.controlListeners.delete(listener);
  }

  /**
   * Puts a person's control in the queue: once every call queued before it has let go, the person has the session,
   * and calls that arrive meanwhile wait behind it (each still ends at its time limit) until release(). At most one
   * at a time: INVALID_PARAMETERS (details.reason `control_taken`) while another is waiting or held.
   */
  takeControl(request: ControlRequest = {}): ControlLease {
    if (this.ended) throw browserError('unknown', 'The session has ended.', { details: { browserMessage: 'the session has ended' } });
    if (this.lease) {
      throw new SessionError('INVALID_PARAMETERS', 'Someone already has control of this session, or is about to get it.', {
        details: { reason: 'control_taken', state: this.lease.state },
      });
    }
    this.listen();
    this.pendingCalls += 1;
    const previous = this.tail;
    const lease = new ControlLease(previous, request, (input) => this.sendPersonInput(input), Date.now());
    this.lease = lease;
    // The next call waits for the lease to be given back, as for a call ahead of it.
    this.tail = previous.then(() => lease.released);
    lease.onChange((state) => {
      if (state === 'released') {
        this.pendingCalls -= 1;
        if (this.lease === lease) this.lease = undefined;
      }
      for (const listener of [...this.controlListeners]) listener(lease);
    });
    for (const listener of [...this.controlListeners]) listener(lease);
    return lease;
  }

  /** A person's input, on the current tab (the lease is held, so no call is running). */
  private async sendPersonInput(input: PersonInput): Promise<void> {
    const page = await this.livePage();
    const cdp = await cdpOf(page);
    const viewport =
      this.cast?.viewportOf(page) ??
      page.viewportSize() ??
      (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })).catch(() => ({ width: 0, height: 0 })));
    await dispatchPersonInput(cdp, input, viewport);
  }

  // Traces -------------------------------------------------------------------------------------------------------

  /** Whether a trace is being recorded. */
  get tracingSince(): number | undefined {
    return this.tracing?.started;
  }

  /**
   * Starts recording a Playwright trace of the session: every action, a DOM snapshot and a screenshot around each, and
   * the network. INVALID_PARAMETERS (details.reason `trace_running`) if one is already being recorded.
   */
  async startTrace(): Promise<void> {
    if (this.tracing) {
      throw new SessionError('INVALID_PARAMETERS', 'A trace of this session is already being recorded; stop it first.', {
        details: { reason: 'trace_running' },
      });
    }
    await this.checkFolderRoom('trace');
    this.claimFile('trace');
    this.cutShort.trace = undefined;
    // Named, so that its files can be found and weighed while it records (TraceSize).
    const name = `sessionwright-trace-${randomBytes(8).toString('hex')}`;
    this.tracing = { started: Date.now(), size: new TraceSize(name) };
    try {
      await this.context.tracing.start({ name, screenshots: true, snapshots: true, sources: false, title: `session ${this.id.slice(0, 8)}` });
    } catch (error) {
      this.tracing = undefined;
      this.filesStarted -= 1;
      throw error;
    }
    this.watchFiles();
  }

  /**
   * Stops the trace and writes it (trace-N.zip in the session's folder, which `npx playwright show-trace` opens).
   * INVALID_PARAMETERS (details.reason `no_trace`) when none is being recorded.
   */
  async stopTrace(): Promise<FileRecord> {
    const cut = this.cutShort.trace;
    if (!this.tracing && cut) {
      this.cutShort.trace = undefined;
      const trace = await cut;
      if (trace) return trace;
    }
    if (!this.tracing) {
      throw new SessionError('INVALID_PARAMETERS', 'No trace of this session is being recorded; start one first.', { details: { reason: 'no_trace' } });
    }
    this.tracing = undefined;
    if (!this.makeFolder) {
      await this.context.tracing.stop();
      throw browserError('unsupported', 'This session has no folder to write a trace to.');
    }
    const folder = await this.ownFolder();
    this.traceCount += 1;
    const target = path.join(folder, `trace-${this.traceCount}.zip`);
    await this.context.tracing.stop({ path: target });
    const bytes = (await stat(target)).size;
    this.writtenBytes += bytes;
    return { path: target, bytes };
  }

  /** The session's folder of the output directory, made on first use. */
  private ownFolder(): Promise<string> {
    if (!this.makeFolder) return Promise.reject(browserError('unsupported', 'This session has no folder to write files to.'));
    this.folder ??= this.makeFolder();
    return this.folder;
  }

  // Video and action recordings ----------------------------------------------------------------------------------

  /** Whether a video is being recorded (startVideo). */
  get recordingVideo(): boolean {
    return this.pageVideo !== undefined;
  }

  /**
   * Starts a video of every tab (those opened later too) into `file`, by default video-N.webm in the session's folder;
   * answers the file. INVALID_PARAMETERS (details.reason `video_running`) while one is being recorded.
   */
  async startVideo(file: string | undefined, settings: VideoSettings = {}): Promise<string> {
    if (this.pageVideo) {
      throw new SessionError('INVALID_PARAMETERS', 'A video of this session is already being recorded; stop it first.', {
        details: { reason: 'video_running' },
      });
    }
    checkVideoSettings(settings);
    // A remote browser encodes where it runs; only a browser here needs an ffmpeg here.
    if (this.endpoint === 'local') await ensureFfmpeg();
    const target = file ?? path.join(await this.ownFolder(), `video-${++this.videoCount}.webm`);
    await this.checkFolderRoom('video');
    this.claimFile('video');
    this.cutShort.videos = undefined;
    const video = new PageVideo(this.context, target, settings);
    this.pageVideo = video;
    try {
      await video.start(this.tabs());
    } catch (error) {
      this.pageVideo = undefined;
      this.filesStarted -= 1;
      throw error;
    }
    this.watchFiles();
    return target;
  }

  /** Stops the video and answers its files (one per tab). INVALID_PARAMETERS (details.reason `no_video`) when none is being recorded. */
  async stopVideo(): Promise<FileRecord[]> {
    const video = this.pageVideo;
    const cut = this.cutShort.videos;
    if (!video && cut) {
      this.cutShort.videos = undefined;
      return cut;
    }
    if (!video)
      throw new SessionError('INVALID_PARAMETERS', 'No video of this session is being recorded; start one first.', { details: { reason: 'no_video' } });
    this.pageVideo = undefined;
    const files = await video.stop();
    for (const file of files) this.writtenBytes += file.bytes;
    return files;
  }

  // The files a session writes ---------------------------------------------------------------------------------------

  /**
   * Counts a file the session's caller has the session write by name (a filename output) of `bytes` against the
   * session's limits, before it is written: the bytes and the number of every file it wrote (downloads, traces,
   * videos, filename outputs) and of those being written. INVALID_PARAMETERS (details.reason `file_limit`) past them.
   */
  countFile(bytes: number): void {
    const { maxBytes } = this.downloadLimits;
    if (this.writtenBytes + bytes > maxBytes) {
      throw new SessionError(
        'INVALID_PARAMETERS',
        `This file (${bytes} bytes) would pass the session's limit of ${maxBytes} bytes of files (downloads, traces, videos and saved files together).`,
        { details: { reason: 'file_limit', limit: maxBytes, written: this.writtenBytes } },
      );
    }
    this.claimFile('file');
    this.writtenBytes += bytes;
  }

  /** Why no file may be started in the owner's folder (it holds maxFolderBytes), or undefined while it has room. */
  private async folderFull(): Promise<string | undefined> {
    const max = this.downloadLimits.maxFolderBytes;
    if (max === undefined || !this.makeFolder) return undefined;
    const owner = path.dirname(await this.ownFolder());
    return (await folderBytes(owner)) >= max
      ? `the client's folder of the output directory holds ${max} bytes, the most it may (--output-max-size)`
      : undefined;
  }

  /** INVALID_PARAMETERS (details.reason `output_full`) when the owner's folder is full. */
  private async checkFolderRoom(what: 'trace' | 'video'): Promise<void> {
    const full = await this.folderFull();
    if (full !== undefined) {
      throw new SessionError('INVALID_PARAMETERS', `No ${what} is written: ${full}. Remove files from it, or close sessions whose files it keeps.`, {
        details: { reason: 'output_full', limit: this.downloadLimits.maxFolderBytes },
      });
    }
  }

  /** Counts one more file against maxCount; INVALID_PARAMETERS (details.reason `file_limit`) past it. */
  private claimFile(what: 'trace' | 'video' | 'file'): void {
    const { maxCount, maxBytes } = this.downloadLimits;
    if (this.filesStarted >= maxCount) {
      throw new SessionError('INVALID_PARAMETERS', `The session already wrote ${maxCount} files, the most it may; no ${what} is written.`, {
        details: { reason: 'file_limit', limit: maxCount },
      });
    }
    if (what !== 'file' && this.writtenBytes >= maxBytes) {
      throw new SessionError('INVALID_PARAMETERS', `The session already wrote ${maxBytes} bytes of files, the most it may; no ${what} is written.`, {
        details: { reason: 'file_limit', limit: maxBytes },
      });
    }
    this.filesStarted += 1;
  }

  /**
   * Starts writing down the actions done on the session's pages (a person's in the live view, or the tools') as
   * Playwright test code. INVALID_PARAMETERS (details.reason `recording_running`) while a recording runs.
   */
  async startRecordingActions(): Promise<void> {
    if (this.actionRecording) {
      throw new SessionError('INVALID_PARAMETERS', 'Actions are already being recorded; stop the recording first.', {
        details: { reason: 'recording_running' },
      });
    }
    if (!canRecordActions(this.context)) throw browserError('unsupported', 'This Playwright version cannot record actions.');
    const recording = new ActionRecording(this.context);
    this.actionRecording = recording;
    try {
      await recording.start();
    } catch (error) {
      this.actionRecording = undefined;
      throw error;
    }
  }

  /** Stops the recording and answers each recorded action's code. INVALID_PARAMETERS (details.reason `no_recording`) when none runs. */
  async stopRecordingActions(): Promise<string[]> {
    const recording = this.actionRecording;
    if (!recording)
      throw new SessionError('INVALID_PARAMETERS', 'No actions are being recorded; start a recording first.', { details: { reason: 'no_recording' } });
    this.actionRecording = undefined;
    return recording.stop();
  }

  /**
   * What a new session needs to start as a copy of this one (SessionManager.create's `image`): the options it was
   * created with, secrets included, its cookies, every origin's localStorage and IndexedDB, and each tab's URL and
   * sessionStorage. It reads the pages without waiting for the session's queue: a caller that needs a moment between
   * two calls runs it through SessionManager.run.
   */
  image(): Promise<SessionImage> {
    return captureImage(this.context, this.tabs(), this.currentPage, this.givenOptions, Date.now());
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

  // Dialogs and file choosers ------------------------------------------------------------------------------------

  /** 'auto' answers dialogs at once (the default); 'hold' keeps dialogs and file choosers open until answered. */
  setModalMode(mode: ModalMode): void {
    this.modalMode = mode;
  }

  /** How the next dialog (every dialog, with persist) is answered, instead of the default. */
  setDialogAnswer(answer: DialogAnswer): void {
    this.dialogAnswer = { ...answer };
  }

  /** The answer set for coming dialogs, if any. */
  get nextDialogAnswer(): DialogAnswer | undefined {
    return this.dialogAnswer;
  }

  /** The dialog (first) or file chooser held open in hold mode, if any. */
  get modalState(): ModalState | undefined {
    const dialog = this.heldDialogNow();
    if (dialog !== undefined) return { type: 'dialog', dialogType: dialog.type(), message: dialog.message(), defaultValue: dialog.defaultValue() };
    const chooser = this.heldChooserNow();
    if (chooser !== undefined) return { type: 'fileChooser', multiple: chooser.isMultiple() };
    return undefined;
  }

  /** Calls `listener` each time a dialog or file chooser starts being held open; returns how to stop. */
  onModalState(listener: (state: ModalState) => void): () => void {
    this.modalListeners.add(listener);
    return () => this.modalListeners.delete(listener);
  }

  /**
   * The action's value, or the modal state as soon as a dialog is held open during it: a page that shows a dialog
   * waits for its answer, and so does the action that opened it (a click whose handler called confirm()), which would
   * otherwise hold the session's queue until it timed out. The interrupted action goes on in the background;
   * settleInterrupted() waits for it.
   */
  async raceModalState<T>(action: Promise<T>): Promise<{ value: T } | { interrupted: ModalState }> {
    let stop = () => {};
    const opened = new Promise<{ interrupted: ModalState }>((resolve) => {
      stop = this.onModalState((state) => {
        if (state.type === 'dialog') resolve({ interrupted: state });
      });
    });
    try {
      const first = await Promise.race([action.then((value) => ({ value })), opened]);
      if ('interrupted' in first) {
        this.interrupted = action.then(
          () => undefined,
          () => undefined,
        );
      }
      return first;
    } finally {
      stop();
    }
  }

  /** Waits, at most `timeout` ms, for an action a dialog interrupted to end, so that the next call does not run beside it. */
  async settleInterrupted(timeout = INTERRUPTED_SETTLE_MS): Promise<void> {
    const action = this.interrupted;
    if (action === undefined) return;
    this.interrupted = undefined;
    await orAfter(action, timeout, undefined);
  }

  /** Answers the dialog held open; INVALID_PARAMETERS (details.reason 'no_dialog') when none is. */
  async answerPendingDialog(accept: boolean, promptText?: string): Promise<DialogRecord> {
    const held = this.heldDialogNow() === undefined ? undefined : this.heldDialog;
    if (held === undefined) throw new SessionError('INVALID_PARAMETERS', 'No dialog is open on this session.', { details: { reason: 'no_dialog' } });
    this.heldDialog = undefined;
    await (accept ? held.dialog.accept(promptText) : held.dialog.dismiss()).catch(() => {});
    const record: DialogRecord = { type: held.record.type, message: held.record.message, action: accept ? 'accepted' : 'dismissed' };
    this.pushEvent('dialogs', record);
    return record;
  }

  /** Answers the held file chooser with these files; INVALID_PARAMETERS (details.reason 'no_file_chooser') when none is open. */
  async answerPendingFileChooser(files: Parameters<FileChooser['setFiles']>[0]): Promise<void> {
    const chooser = this.heldChooserNow();
    if (chooser === undefined)
      throw new SessionError('INVALID_PARAMETERS', 'No file chooser is open on this session.', { details: { reason: 'no_file_chooser' } });
    this.heldChooser = undefined;
    await chooser.setFiles(files);
  }

  /** Forgets a chooser that a caller answered itself (it waited for the event while clicking). */
  releaseFileChooser(chooser: FileChooser): void {
    if (this.heldChooser === chooser) this.heldChooser = undefined;
  }

  /** The held dialog, forgotten once its page has closed. */
  private heldDialogNow(): Dialog | undefined {
    if (this.heldDialog?.dialog.page()?.isClosed()) this.heldDialog = undefined;
    return this.heldDialog?.dialog;
  }

  /** The held file chooser, forgotten once its page has closed. */
  private heldChooserNow(): FileChooser | undefined {
    if (this.heldChooser?.page().isClosed()) this.heldChooser = undefined;
    return this.heldChooser;
  }

  /** Tells the listeners what the session now holds open. */
  private announceModal(): void {
    const state = this.modalState;
    if (state !== undefined) for (const listener of this.modalListeners) listener(state);
  }

  // Emulation ----------------------------------------------------------------------------------------------------

  /**
   * Changes the session's settings from now on (every tab, and tabs opened later); INVALID_PARAMETERS for a bad value,
   * checked before anything changes. Answers the effective settings, header values hidden.
   */
  async emulate(settings: EmulationSettings): Promise<EffectiveEmulation> {
    const { forcedColors, contrast, media: mediaType, ...options } = settings;
    const checked = resolveSessionOptions(defined(options), this.browser.browserType().name() as BrowserName);
    const { viewport, colorScheme, reducedMotion, geolocation, offline, extraHTTPHeaders } = settings;
    if (viewport !== undefined) this.emulation.viewport = viewport;
    const media = defined({ colorScheme, reducedMotion, forcedColors, contrast, media: mediaType });
    if (Object.keys(media).length > 0) this.emulation.media = { ...this.emulation.media, ...media };
    for (const page of this.tabs()) await this.applyEmulation(page);
    if (geolocation !== undefined) {
      await this.context.setGeolocation(geolocation);
      await this.context.grantPermissions(['geolocation']);
    }
    if (offline !== undefined) await this.context.setOffline(offline);
    this.noteGivenHeaders(extraHTTPHeaders);
    if (extraHTTPHeaders !== undefined) await this.context.setExtraHTTPHeaders(extraHTTPHeaders);
    const { viewport: _viewport, ...echo } = checked.echo;
    this.effectiveEmulation = { ...this.effectiveEmulation, ...echo, ...defined({ forcedColors, contrast, media: mediaType }) };
    return this.emulationState();
  }

  /**
   * True for a header whose value a result must not show: one the session was given in extraHTTPHeaders, at creation, by
   * the manager's defaults or by emulate (a request a page sent carries it too), whatever its name.
   */
  hidesHeaderValue(name: string): boolean {
    return this.givenHeaders.has(name.toLowerCase());
  }

  private noteGivenHeaders(headers: Record<string, string> | undefined): void {
    for (const name of Object.keys(headers ?? {})) this.givenHeaders.add(name.toLowerCase());
  }

  /** The settings emulate can change, as they are now. */
  emulationState(): EffectiveEmulation {
    const page = this.currentPage;
    return { viewport: page.isClosed() ? (this.emulation.viewport ?? null) : page.viewportSize(), ...this.effectiveEmulation };
  }

  private async applyEmulation(page: Page): Promise<void> {
    if (this.emulation.viewport) await page.setViewportSize(this.emulation.viewport).catch(() => {});
    if (this.emulation.media) await page.emulateMedia(this.emulation.media).catch(() => {});
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

  /** What a call that failed on a page whose renderer crashed throws: reason page_crashed, not Playwright's words. */
  private crashError(page: Page, error: unknown): unknown {
    if (!this.crashed.has(page) || isSessionError(error)) return error;
    return browserError('page_crashed', 'The page crashed during the call. The session opens a fresh blank page in the same context for the next call.', {
      details: { browserMessage: firstLine(messageOf(error)), next: 'load_page' },
      cause: error,
    });
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
        if (this.guard.tripped) {
          await orAfter(Promise.allSettled([...this.closing]), CLOSE_TIMEOUT_MS, undefined);
          this.guard.reset();
        }
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
   * the background (the next call waits for it; if the browser cannot open one now, the next call tries again).
   */
  private replaceInBackground(stuck: Page): void {
    this.abandoned.add(stuck);
    void stuck.close({ runBeforeUnload: false }).catch(() => {});
    if (this.currentPage === stuck) void this.freshPage().catch(() => {});
  }

  /**
   * Stops every tab of a session that passed a runaway bound: each is closed without waiting (its renderer and workers
   * go with it, so the flood ends at its source), the call running now ends at once, and the next call (or this one)
   * answers BROWSER_ERROR reason runaway_page. Cookies and storage stay; a fresh blank page takes the tabs' place.
   */
  private onRunaway(trip: RunawayTrip): void {
    this.runaway = trip;
    this.stoppedAt = Date.now();
    for (const page of this.context.pages()) this.abandon(page);
    this.heldDialog = undefined;
    this.heldChooser = undefined;
    this.reportRunaway?.(trip);
    if (this.stopRunning) this.stopRunning('runaway_page');
    void this.freshPage().catch(() => {});
  }

  /** Closes a stopped page without waiting (a page busy in a script may take long to close); it is never handed out again. */
  private abandon(page: Page): void {
    this.abandoned.add(page);
    const closed = page.close({ runBeforeUnload: false }).catch(() => {});
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
  }

  /** The trip not yet reported, once: a call that reports it clears it. */
  private takeRunaway(): RunawayTrip | undefined {
    const trip = this.runaway;
    this.runaway = undefined;
    return trip;
  }

  /**
   * Measures each tab's JavaScript heap once (over a DevTools session made for it and detached after) and stops the
   * session's pages when one holds more than the bound. Nothing measures on a timer: the manager asks when one of the
   * browser's processes holds more than the bound (see MemoryWatch). A tab that does not answer within
   * HEAP_MEASURE_TIMEOUT_MS (busy in a script) is skipped; a measure asked for while one runs joins it.
   */
  measureHeaps(): Promise<void> {
    if (this.guard.tripped || this.ended) return Promise.resolve();
    this.measuring ??= Promise.all(this.tabs().map((page) => this.measureHeap(page)))
      .then(() => undefined)
      .finally(() => {
        this.measuring = undefined;
      });
    return this.measuring;
  }

  private async measureHeap(page: Page): Promise<void> {
    const opening = this.context.newCDPSession(page).catch(() => null);
    const session = await orAfter(opening, HEAP_MEASURE_TIMEOUT_MS, null);
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
      );
      // backingStorageSize (ArrayBuffers) is reported by recent Chromium only.
      if (usage && !page.isClosed()) this.guard.heap(usage.usedSize + ((usage as { backingStorageSize?: number }).backingStorageSize ?? 0), page.url());
    } finally {
      void session.detach().catch(() => {});
    }
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
    page.on('dialog', (dialog) => void this.onDialog(dialog));
    page.on('download', (download) => this.saveDownload(download));
    page.on('filechooser', (chooser) => {
      if (this.modalMode !== 'hold') return;
      this.heldChooser = chooser;
      this.announceModal();
    });
    if (this.emulation.viewport || this.emulation.media) void this.applyEmulation(page);
    page.on('crash', () => {
      // The tab is unusable at once (a call may arrive before close() lands); the next call gets a fresh page in the same context.
      this.abandoned.add(page);
      this.crashed.add(page);
      void page.close().catch(() => {});
    });
  }

  /**
   * By default alerts and beforeunload are accepted, confirm and prompt dismissed: no dialog ever blocks a session.
   * beforeunload is accepted because dismissing it cancels the navigation the caller asked for, leaving the agent stuck on the page.
   * An answer set with setDialogAnswer overrides that; in hold mode the dialog stays open until answerPendingDialog.
   */
  private async onDialog(dialog: Dialog): Promise<void> {
    // A page that loops on dialogs is stopped; the ones it still has open go unanswered and unlisted, closed with it.
    if (!this.guard.count('dialogs', () => dialog.page()?.url() ?? '')) return void dialog.dismiss().catch(() => {});
    const type = dialog.type();
    const message = dialog.message().slice(0, 2_000);
    if (this.modalMode === 'hold' && this.heldDialogNow() === undefined) {
      const record: DialogRecord = { type, message, action: 'pending' };
      this.heldDialog = { dialog, record };
      this.pushEvent('dialogs', record);
      this.announceModal();
      return;
    }
    const answer = this.dialogAnswer;
    if (answer && !answer.persist) this.dialogAnswer = undefined;
    const accept = answer ? answer.accept : type === 'alert' || type === 'beforeunload';
    this.pushEvent('dialogs', { type, message, action: accept ? 'accepted' : 'dismissed' });
    const promptText = type === 'prompt' ? answer?.promptText : undefined;
    await (accept ? dialog.accept(promptText) : dialog.dismiss()).catch(() => {});
  }

  /**
   * Saves a download in the session's folder and lists it in the next result. A download past the session's limits is
   * cancelled and listed as such: the files it may start (maxCount), and the bytes of its files, those still arriving
   * included (maxBytes, checked every DOWNLOAD_CHECK_MS while any is in progress, and again when each is saved).
   */
  private saveDownload(download: Download): void {
    if (!this.guard.count('downloads', () => download.page().url())) return void download.cancel().catch(() => {});
    const url = download.url();
    const suggestedFilename = download.suggestedFilename();
    const record = (state: DownloadRecord['state'], fields: Partial<DownloadRecord> = {}) =>
      this.pushEvent('downloads', { url, suggestedFilename, state, path: '', bytes: 0, ...fields });
    const { maxCount, maxBytes } = this.downloadLimits;
    if (this.filesStarted >= maxCount) {
      void download.cancel().catch(() => {});
      record('cancelled', { failure: `the session already wrote ${maxCount} files (downloads, traces, videos and saved files), the most it may` });
      return;
    }
    this.filesStarted += 1;
    this.downloading.set(download, 0);
    this.watchFiles();
    const tooLarge = `it passed the session's limit of ${maxBytes} bytes of downloads`;
    const saving = (async () => {
      let target: string | undefined;
      try {
        if (!this.makeFolder) throw new Error('downloads are not saved by this session');
        const folder = await this.ownFolder();
        const full = await this.folderFull();
        if (full !== undefined) {
          this.cancelledDownloads.set(download, full);
          void download.cancel().catch(() => {});
          throw new Error(full);
        }
        const name = uniqueName(safeFileName(suggestedFilename), (candidate) => this.downloadNames.has(candidate) || existsSync(path.join(folder, candidate)));
        this.downloadNames.add(name);
        target = path.join(folder, name);
        if (!isInside(folder, target)) throw new Error('unsafe file name');
        await download.saveAs(target);
        const { size } = await stat(target);
        // Also where its size could not be watched while it arrived (a browser on another machine).
        if (this.writtenBytes + size > maxBytes) {
          this.cancelledDownloads.set(download, tooLarge);
          throw new Error(tooLarge);
        }
        this.writtenBytes += size;
        record('saved', { path: target, bytes: size });
      } catch (error) {
        if (target !== undefined) await rm(target, { force: true }).catch(() => {});
        const cancelled = this.cancelledDownloads.get(download);
        if (cancelled !== undefined) record('cancelled', { failure: cancelled });
        else record('failed', { failure: (await download.failure().catch(() => null)) ?? messageOf(error).split('\n', 1)[0] ?? 'failed' });
        await download.delete().catch(() => {});
      } finally {
        this.downloading.delete(download);
      }
    })();
    this.savingDownloads.add(saving);
    void saving.finally(() => this.savingDownloads.delete(saving));
  }

  /** Checks the files being written every DOWNLOAD_CHECK_MS while any is (downloads arriving, a trace or a video recording). */
  private watchFiles(): void {
    this.downloadTimer ??= setInterval(() => void this.checkFiles(), DOWNLOAD_CHECK_MS).unref();
  }

  /**
   * Once the session's files, those being written included, pass maxBytes: cancels every download in progress, and
   * stops the trace and the video being recorded, keeping them as far as they got (their answer says why).
   */
  private async checkFiles(): Promise<void> {
    if (this.downloading.size === 0 && !this.tracing && !this.pageVideo) {
      clearInterval(this.downloadTimer);
      this.downloadTimer = undefined;
      return;
    }
    if (this.checkingDownloads) return;
    this.checkingDownloads = true;
    try {
      for (const download of this.downloading.keys()) this.downloading.set(download, (await bytesSoFar(download)) ?? 0);
      let total = this.writtenBytes;
      for (const bytes of this.downloading.values()) total += bytes;
      const tracing = this.tracing;
      const video = this.pageVideo;
      if (tracing) total += (await tracing.size.bytes()) ?? 0;
      if (video) total += await video.sizes();
      const { maxBytes } = this.downloadLimits;
      if (total <= maxBytes) return;
      const why = `it passed the session's limit of ${maxBytes} bytes of files (downloads, traces, videos and saved files together)`;
      for (const download of this.downloading.keys()) {
        this.cancelledDownloads.set(download, `it passed the session's limit of ${maxBytes} bytes of downloads`);
        void download.cancel().catch(() => {});
      }
      // Each is taken out of its place at once (stopTrace and stopVideo do so before they wait), so a stop asked for
      // meanwhile gets this one.
      if (tracing && this.tracing === tracing) {
        this.cutShort.trace = this.stopTrace().then(
          (trace) => ({ ...trace, stopped: why }),
          () => undefined,
        );
      }
      if (video && this.pageVideo === video) {
        this.cutShort.videos = this.stopVideo().then(
          (videos) => videos.map((file) => ({ ...file, stopped: why })),
          () => [],
        );
      }
      await Promise.all([this.cutShort.trace, this.cutShort.videos]);
    } finally {
      this.checkingDownloads = false;
    }
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
async function untilDeadline(turn: Promise<unknown>, signal: AbortSignal | undefined, timeout: number | undefined): Promise<boolean> {
  if (timeout === undefined) {
    await untilAborted(turn, signal);
    return !signal?.aborted;
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeout);
  });
  try {
    return await Promise.race([untilAborted(turn, signal).then(() => !signal?.aborted), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A call that did not start within its time limit because a person had control of the session all along. */
function waitedForPersonError(options: RunOptions): SessionError {
  return browserError(
    'call_timeout',
    `The call did not start within its time limit of ${options.timeout} ms: a person has control of this session in its live view, and the call waited for them to give it back. Nothing was done; try again once they have.`,
    { details: { timeout: options.timeout, pageReplaced: false, waitedFor: 'person' } },
  );
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
  const what =
    reason === 'cancelled' ? 'The call was cancelled before it finished.' : `The call did not finish within its time limit of ${options.timeout} ms.`;
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

const BOUND_WORDS: Record<RunawayTrip['bound'], string> = {
  console: 'console messages and page errors',
  requests: 'requests',
  dialogs: 'dialogs',
  popups: 'new tabs',
  downloads: 'downloads',
  memory: 'memory',
};

/** BROWSER_ERROR reason runaway_page: which bound the session's pages passed, and that they were replaced. */
function runawayError(trip: RunawayTrip | undefined): SessionError {
  const what =
    trip === undefined
      ? 'The page passed a bound on what one session may cost the browser'
      : trip.bound === 'memory'
        ? `The page held ${Math.round(trip.observed / 1024 ** 2)} MiB of JavaScript memory, more than the ${Math.round(trip.limit / 1024 ** 2)} MiB one tab may hold`
        : trip.lateMs !== undefined
          ? `The page wrote ${BOUND_WORDS[trip.bound]} faster than the browser could pass them on: ${trip.observed} reached the server late within ${(trip.windowMs ?? 0) / 1000} s (the last ${trip.lateMs} ms after the page wrote it)`
          : `The page produced ${trip.observed} ${BOUND_WORDS[trip.bound]} within ${(trip.windowMs ?? 0) / 1000} s, more than the ${trip.limit} one session may`;
  return browserError(
    'runaway_page',
    `${what}, so the session stopped it: its tabs were closed and it goes on with a fresh blank page in the same context (cookies and storage kept). Loading that page again will stop it again.`,
    {
      details: {
        pageReplaced: true,
        ...(trip === undefined
          ? {}
          : {
              bound: trip.bound,
              limit: trip.limit,
              observed: trip.observed,
              ...(trip.windowMs === undefined ? {} : { windowMs: trip.windowMs }),
              ...(trip.lateMs === undefined ? {} : { lateMs: trip.lateMs }),
              ...(trip.url ? { url: trip.url } : {}),
            }),
      },
    },
  );
}

function emptyEvents(): SessionEvents {
  return { dialogs: [], openedTabs: [], closedTabs: [], downloads: [] };
}
