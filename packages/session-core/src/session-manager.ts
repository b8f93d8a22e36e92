// The map of live sessions: composes admission, the warm pools, the browser sources, the shared turns, idle expiry and tombstones.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright';
import { Admission, type Admitted } from './admission.js';
import { BrowserHost } from './browser-host.js';
import { disconnectsWithin, type BrowserSource } from './browser-source.js';
import { orAfter, systemClock, systemTimers, type Clock, type Timers } from './clock.js';
import {
  applySessionDefaults,
  blockResourceTypes,
  hasSessionOptions,
  resolveSessionDefaults,
  resolveSessionOptions,
  type ResolvedSessionDefaults,
  type ResolvedSessionOptions,
} from './context-options.js';
import { SessionError, browserError, isSessionError } from './errors.js';
import type { SessionImage } from './session-image.js';
import { shortId, silentLogger, type Logger } from './logger.js';
import { chooseSource, leastLoaded } from './scheduler.js';
import { DEFAULT_MAX_TABS, Session, type SessionFiles } from './session.js';
import { unknownIdError, type EndReason } from './call-errors.js';
import { Tombstones } from './tombstones.js';
import { WorkTurns } from './turns.js';
import { BrowserRecycler } from './browser-recycler.js';
import { DEFAULT_DOWNLOAD_LIMITS, DownloadDirectory, type DownloadLimits } from './downloads.js';
import { creationStop, openContext, restoreImageTabs, unlessStopped } from './open-context.js';
import { ensureFfmpeg } from './video.js';
import { checkVideoSlot } from './recording-limits.js';
import { WarmPool } from './warm-pool.js';
import { IdleExpiry } from './idle-expiry.js';
import { IdentityBrowsers } from './identity-browsers.js';
import { Activity } from './activity.js';
import { defined } from './fields.js';
import { BrowserMemory } from './memory-watch.js';
import { runawayLimits, type RunawayLimits } from './runaway.js';
import type { CreateRequest, IdentityScope, ManagerRunOptions, SessionInfo, SessionManagerOptions } from './session-manager-options.js';

export type { EndReason } from './call-errors.js';
export type { CreateRequest, IdentityScope, ManagerRunOptions, SessionInfo, SessionManagerOptions } from './session-manager-options.js';

/** Idle milliseconds after which a session is closed, unless SessionManagerOptions.sessionTimeout says otherwise. */
export const DEFAULT_SESSION_TIMEOUT = 300_000;
/** Sessions open at once, unless SessionManagerOptions.maxSessions says otherwise. */
export const DEFAULT_MAX_SESSIONS = 10;
/** The longest one call through run() may take, in ms, unless SessionManagerOptions.callTimeout says otherwise. */
export const DEFAULT_CALL_TIMEOUT = 120_000;

/** Owns the sessions: creates them within the limits, runs each call in its session's queue, expires idle ones and shuts everything down. */
export class SessionManager {
  readonly sessionTimeout: number;
  readonly callTimeout: number;
  /** The first browser source (the local browser, unless endpoints were given). */
  readonly host: BrowserSource;
  readonly sources: readonly BrowserSource[];
  private readonly sessions = new Map<string, Session>();
  private readonly expiry: IdleExpiry;
  private readonly tombstones: Tombstones;
  private readonly admission: Admission<BrowserSource>;
  private shuttingDown = false;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly logger: Logger;
  private readonly contextOptions: BrowserContextOptions;
  private readonly defaults: ResolvedSessionDefaults;
  /** One warm pool per source: a pooled context belongs to one browser. */
  private readonly pools = new Map<BrowserSource, WarmPool>();
  /** What each source is doing (calls and creations), which its warm pool reads to refill in a quiet moment. */
  private readonly activities = new Map<BrowserSource, Activity>();
  private readonly sourceOf = new WeakMap<Session, BrowserSource>();
  /** Per launched browser: replaces it once idle, or after many sessions (only with recycleIdleBrowser). */
  private readonly recyclers = new Map<BrowserSource, BrowserRecycler>();
  /** The memory watch of each launched browser (see BrowserMemory). */
  private readonly memory: BrowserMemory;
  readonly maxTabs: number;
  private readonly downloads: DownloadDirectory;
  private readonly identityFolder: (identity: string | undefined) => string;
  /** Turns to open a context (see openContext) and to load a page (see run). */
  private readonly turns: WorkTurns;
  private readonly downloadLimits: DownloadLimits;
  private readonly runaway: RunawayLimits;
  private readonly collectNetwork: boolean;
  /** Each identity's own browser (browserPerIdentity), when asked for. */
  private readonly identityBrowsers: IdentityBrowsers | undefined;
  private readonly launchListeners = new Set<(browser: Browser) => void>();
  private readonly warmSize: number;
  /** Ids given by callers to creations under way (see claimId). */
  private readonly creatingIds = new Set<string>();

  constructor(options: SessionManagerOptions) {
    this.sources = Array.isArray(options.host) ? [...(options.host as readonly BrowserSource[])] : [options.host as BrowserSource];
    const [first] = this.sources;
    if (!first) throw new RangeError('at least one browser source is needed');
    this.host = first;
    this.sessionTimeout = options.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT;
    this.admission = new Admission(
      { maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS, maxSessionsPerIdentity: options.maxSessionsPerIdentity },
      { count: () => this.sessions.size, countOf: (identity) => this.idsOf(identity).length },
    );
    if (!Number.isFinite(this.sessionTimeout) || this.sessionTimeout <= 0) throw new RangeError('sessionTimeout must be a positive number of ms');
    this.callTimeout = options.callTimeout ?? DEFAULT_CALL_TIMEOUT;
    if (!Number.isFinite(this.callTimeout) || this.callTimeout <= 0) throw new RangeError('callTimeout must be a positive number of ms');
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.logger = options.logger ?? silentLogger;
    this.defaults = resolveSessionDefaults(options.sessionDefaults, this.host.browserName);
    this.contextOptions = { ...options.contextOptions, ...this.defaults.contextOptions };
    this.maxTabs = options.maxTabs ?? DEFAULT_MAX_TABS;
    if (!Number.isInteger(this.maxTabs) || this.maxTabs < 1) throw new RangeError('maxTabs must be a positive integer');
    this.downloads = new DownloadDirectory(options.outputDir);
    this.identityFolder = options.identityFolder ?? (() => '');
    this.downloadLimits = { ...DEFAULT_DOWNLOAD_LIMITS, ...defined(options.downloads ?? {}) };
    for (const key of ['maxBytes', 'maxCount'] as const) {
      if (!Number.isInteger(this.downloadLimits[key]) || this.downloadLimits[key] < 0)
        throw new RangeError(`downloads.${key} must be an integer of at least 0`);
    }
    this.runaway = runawayLimits(options.runaway);
    this.memory = new BrowserMemory(this.runaway, (browser) => [...this.sessions.values()].filter((session) => session.browser === browser));
    this.collectNetwork = options.collectNetwork ?? true;
    const perIdentity = options.browserPerIdentity;
    this.identityBrowsers =
      perIdentity &&
      new IdentityBrowsers({
        launch: perIdentity.launch,
        idleMs: perIdentity.idleMs,
        timers: this.timers,
        logger: this.logger,
        load: (source) => this.load(source),
        added: (source) => this.addPool(source),
        removed: (source) => {
          void this.pools.get(source)?.close();
          this.pools.delete(source);
          this.activities.delete(source);
        },
      });
    this.expiry = new IdleExpiry({
      clock: this.clock,
      timers: this.timers,
      sessionTimeout: this.sessionTimeout,
      isOpen: (session) => this.sessions.get(session.id) === session,
      expire: (session) => {
        this.logger.debug(`session ${shortId(session.id)} expired after ${this.sessionTimeout} ms idle`);
        void this.end(session, 'expired');
      },
    });
    this.turns = new WorkTurns({ loadsAtOnce: options.pageLoads?.atOnce, loadHoldMs: options.pageLoads?.holdMs, timers: this.timers });
    this.tombstones = new Tombstones({
      limit: options.tombstoneLimit ?? 10_000,
      ttl: options.tombstoneTtl ?? 3_600_000,
      clock: this.clock,
      sessionTimeout: this.sessionTimeout,
    });
    this.warmSize = options.warmSessions ?? 0;
    for (const source of this.sources) this.addPool(source);
    const idleMs = options.recycleIdleBrowser;
    if (idleMs !== undefined && (!Number.isFinite(idleMs) || idleMs < 0)) throw new RangeError('recycleIdleBrowser must be a number of ms of at least 0');
    const rotateAfter = options.rotateBrowserAfter;
    if (rotateAfter !== undefined && (!Number.isInteger(rotateAfter) || rotateAfter < 1)) throw new RangeError('rotateBrowserAfter must be a positive integer');
    // Only a browser this process launched is ours to replace; a remote one (an endpoint) is left as it is.
    for (const source of this.sources) {
      if (idleMs === undefined || !(source instanceof BrowserHost)) continue;
      const pool = this.poolOf(source);
      // Any creation in flight counts, even one that has not picked its source yet.
      const openSessions = () => this.load(source) + this.admission.inFlight;
      // A creation in flight may be opening in the old browser still: nothing is retired while one runs.
      const openIn = (browser: Browser) => [...this.sessions.values()].filter((session) => session.browser === browser).length + this.admission.inFlight;
      this.recyclers.set(
        source,
        new BrowserRecycler({ host: source, pool, openSessions, openIn, idleMs, rotateAfter, timers: this.timers, logger: this.logger }),
      );
    }
  }

  /** Sessions open at once, creations in flight included. */
  get maxSessions(): number {
    return this.admission.maxSessions;
  }

  /** Sessions one identity may hold at once, creations in flight included (undefined: no limit but maxSessions). */
  get maxSessionsPerIdentity(): number | undefined {
    return this.admission.maxSessionsPerIdentity;
  }

  /** How many contexts the warm pool of each browser source keeps ready (0: none). */
  get warmSessions(): number {
    return this.poolOf(this.host).size;
  }

  /**
   * Called with each browser launched or connected from now on, by any source: the shared ones and the identities' own
   * (browserPerIdentity). Returns the unsubscribe.
   */
  onBrowserLaunched(listener: (browser: Browser) => void): () => void {
    this.launchListeners.add(listener);
    return () => this.launchListeners.delete(listener);
  }

  /** Sessions open now (creations in flight not included). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Opens a new isolated session; MAX_SESSIONS_REACHED when the limit is met (`details.scope`: `server`, or `client`
   * for the per-identity limit), BROWSER_ERROR when the browser can't start, INVALID_PARAMETERS for bad `options` (checked
   * before anything opens). Only option-free sessions come from the warm pool. `identity` is an opaque key (a connection, a
   * client identity) that lists, counts and, when a call presents it, guards the session. Like every call it ends when
   * `signal` aborts (BROWSER_ERROR `cancelled`) and within the call timeout (`call_timeout`), waiting for its turn in a
   * burst included; a context that opens after that is closed, so a caller that gave up never leaves a session behind.
   * `guarded`: the identity is one client of several, and a full server tells it only of its own sessions (see Admission).
   */
  async create(request: CreateRequest = {}): Promise<Session> {
    if (this.shuttingDown) throw browserError('shutting_down', 'The server is shutting down; no new sessions can be created.');
    const given = request.image ? request.image.options : request.options;
    // Checked before anything is counted or opened.
    if (request.image || hasSessionOptions(given)) resolveSessionOptions(given ?? {}, this.host.browserName);
    if (request.sessionId !== undefined) this.claimId(request.sessionId);
    let admitted: Admitted<BrowserSource>;
    try {
      admitted = this.admission.admit(request.identity, request.guarded);
    } catch (error) {
      if (request.sessionId !== undefined) this.creatingIds.delete(request.sessionId);
      throw error;
    }
    return this.open(request, admitted);
  }

  /**
   * Opens `count` copies of the session (1 to 10; default 1), each as create() with the session's image
   * (Session.image(), taken in the session's queue), owned by `identity` (default the session's identity). All are admitted first: MAX_SESSIONS_REACHED
   * answers for the whole fork when they do not all fit, and when one fails to open the others are closed, so a fork
   * leaves all its sessions or none.
   */
  async fork(sessionId: string, request: IdentityScope & { count?: number; guarded?: boolean; signal?: AbortSignal | undefined } = {}): Promise<Session[]> {
    const count = request.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_FORKS) {
      throw new SessionError('INVALID_PARAMETERS', `count must be a whole number from 1 to ${MAX_FORKS}.`, { details: { option: 'count' } });
    }
    const source = this.get(sessionId, request);
    if (this.shuttingDown) throw browserError('shutting_down', 'The server is shutting down; no new sessions can be created.');
    // The copies belong to the caller; a caller that gives no identity gets copies owned as the session is.
    const identity = request.identity ?? source.identity;
    const tickets: Admitted<BrowserSource>[] = [];
    try {
      for (let index = 0; index < count; index += 1) tickets.push(this.admission.admit(identity, request.guarded));
    } catch (error) {
      for (const ticket of tickets) ticket.release();
      throw error;
    }
    let image: SessionImage;
    try {
      image = await this.run(sessionId, (_page, session) => session.image(), { identity: request.identity, signal: request.signal });
    } catch (error) {
      for (const ticket of tickets) ticket.release();
      throw error;
    }
    const opened = await Promise.allSettled(tickets.map((ticket) => this.open({ ...defined({ identity }), image, signal: request.signal }, ticket)));
    const failed = opened.find((result) => result.status === 'rejected');
    const sessions = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    if (failed) {
      await Promise.all(sessions.map((session) => this.end(session, 'closed')));
      throw failed.reason;
    }
    return sessions;
  }

  /** Opens an admitted creation (see create); the admission is released however it ends. */
  private async open(request: CreateRequest, admitted: Admitted<BrowserSource>): Promise<Session> {
    const { identity, image } = request;
    const given = image ? image.options : request.options;
    const settings = image || hasSessionOptions(given) ? resolveSessionOptions(given ?? {}, this.host.browserName) : undefined;
    if (image && settings) settings.contextOptions = { ...settings.contextOptions, storageState: image.storageState };
    const id = request.sessionId ?? randomUUID();
    this.sessionsChanged();
    const stop = creationStop(request.signal, this.callTimeout, this.timers);
    let source: BrowserSource | undefined;
    try {
      // Picked and counted in the same tick when a source is available, so concurrent creations spread.
      const load = (candidate: BrowserSource) => this.load(candidate);
      source = this.identityBrowsers?.sourceOf(identity) ?? leastLoaded(this.sources, load) ?? (await chooseSource(this.sources, load));
      admitted.headFor(source);
      const pool = this.poolOf(source);
      const activity = this.activityOf(source);
      // The session's one folder (downloads, traces, videos), made on first use; a recording session's is made first:
      // its video starts as it opens.
      const owned = this.identityFolder(identity);
      if (settings?.recordVideo) checkVideoSlot();
      const folder = settings?.recordVideo ? await this.recordingFolder(source, owned) : undefined;
      let sessionFolder = folder === undefined ? undefined : Promise.resolve(folder);
      const ownFolder = () => {
        sessionFolder ??= this.downloads.sessionFolder(owned);
        return sessionFolder;
      };
      const videoFile = folder === undefined ? undefined : path.join(folder, 'videos', 'video.webm');
      const browser = await source.browser();
      if (stop.signal.aborted) throw stop.signal.reason;
      const { context, page } = await unlessStopped(
        settings
          ? activity.during(this.openContext(browser, settings, identity, stop.signal))
          : pool.take(browser).then((pooled) => pooled ?? activity.during(this.openContext(browser, undefined, identity, stop.signal))),
        stop.signal,
      );
      const current = image ? await restoreImageTabs(context, page, image, this.maxTabs, stop.signal) : page;
      const session = new Session({
        id,
        maxTabs: this.maxTabs,
        folder: ownFolder,
        downloadLimits: this.downloadLimits,
        collectNetwork: this.collectNetwork,
        runaway: this.runaway,
        onRunaway: (trip) =>
          this.logger.warn(`session ${shortId(id)}: its page passed the ${trip.bound} bound (${trip.observed} > ${trip.limit}); its tabs were closed`, {
            sessionId: id,
            identity,
          }),
        now: this.clock.now(),
        clock: this.clock,
        timers: this.timers,
        timeout: this.sessionTimeout,
        browser,
        context,
        page: current,
        endpoint: source.label,
        ...defined({ identity }),
        ...(settings === undefined ? {} : { options: settings.echo }),
        ...defined({ givenOptions: given }),
        defaultHeaders: Object.keys(this.contextOptions.extraHTTPHeaders ?? {}),
      });
      this.sourceOf.set(session, source);
      if (this.shuttingDown || !browser.isConnected()) {
        await session.close();
        throw this.shuttingDown
          ? browserError('shutting_down', 'The server is shutting down; no new sessions can be created.')
          : browserError('unknown', 'The browser went away while the session was being created. Try again.', {
              details: { browserMessage: 'the browser disconnected' },
            });
      }
      // recordVideo is the video tool's recording of every tab, started with the session: weighed against the
      // session's byte limit, bounded in size and rate, its tabs taking the server's ffmpeg slots.
      if (videoFile !== undefined) {
        try {
          await mkdir(path.dirname(videoFile), { recursive: true });
          await session.recordings.startVideo(videoFile);
        } catch (error) {
          await session.close();
          throw error;
        }
      }
      this.sessions.set(session.id, session);
      this.recyclers.get(source)?.sessionOpened();
      this.expiry.schedule(session);
      this.logger.debug(
        `session ${shortId(session.id)} created (${this.sessions.size}/${this.maxSessions})${settings ? ` with ${Object.keys(settings.echo).join(', ')}` : ''}`,
      );
      return session;
    } finally {
      if (request.sessionId !== undefined) this.creatingIds.delete(request.sessionId);
      stop.dispose();
      admitted.release();
      this.sessionsChanged();
      if (source) this.identityBrowsers?.release(source);
    }
  }

  /** Holds a caller-chosen id for a creation; INVALID_PARAMETERS when a session with it is open or being created. */
  private claimId(sessionId: string): void {
    if (this.sessions.has(sessionId) || this.creatingIds.has(sessionId)) {
      throw new SessionError('INVALID_PARAMETERS', `A session with the id ${sessionId} is open; an id can be given only to a session that is not.`, {
        details: { sessionId, reason: 'id_in_use' },
      });
    }
    this.creatingIds.add(sessionId);
  }

  /** Whether a session with this id is open here (whoever it belongs to). Does not count as use. */
  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /**
   * The open session with this id; SESSION_EXPIRED or SESSION_NOT_FOUND otherwise. Does not count as use.
   * With an identity, another identity's session (open or ended) is SESSION_NOT_FOUND, word for word as an unknown id.
   */
  get(sessionId: string, scope: IdentityScope = {}): Session {
    const session = this.sessions.get(sessionId);
    if (session && (scope.identity === undefined || session.identity === scope.identity)) return session;
    if (session) throw unknownIdError(sessionId);
    throw this.tombstones.errorFor(sessionId, scope.identity);
  }

  /**
   * Runs `fn` on the session's page in its queue, marking the session used when the call arrives and when it ends.
   * The call ends within `timeout` (at most the manager's callTimeout) and when `signal` aborts: see Session.run, whose
   * stop signal `fn` gets, so that work of several parts stops before its next part.
   * Errors that are not SessionErrors are passed through for the caller to map; SessionErrors get the session id.
   * A call that `loads` a page first waits for its turn (SessionManagerOptions.pageLoads).
   */
  async run<T>(sessionId: string, fn: (page: Page, session: Session, stop: AbortSignal) => Promise<T>, options: ManagerRunOptions = {}): Promise<T> {
    const session = this.get(sessionId, options);
    this.expiry.touch(session);
    const timeout = Math.min(options.timeout ?? this.callTimeout, this.callTimeout);
    const call = options.loads
      ? (page: Page, stop: AbortSignal) => this.turns.load(session.identity, stop, () => fn(page, session, stop))
      : (page: Page, stop: AbortSignal) => fn(page, session, stop);
    // Counted on its source, whose warm pool refills between calls rather than during one.
    const ended = this.activityOf(this.sourceOf.get(session) ?? this.host).begin();
    try {
      return await session.run(call, { signal: options.signal, timeout, onWaitForPerson: options.onWaitForPerson }).finally(ended);
    } catch (error) {
      // A call that failed because its browser died reports that, not a confusing Playwright message. A remote browser's
      // pages close (failing the call) a moment before its connection reports 'disconnected': wait for that moment.
      if (this.sessions.get(sessionId) === session && this.sourceOf.get(session)?.ownership === 'attached' && session.page.isClosed()) {
        if (await disconnectsWithin(session.browser, DISCONNECT_GRACE_MS, this.timers)) void this.end(session, 'browser_disconnected');
      }
      if (!this.sessions.has(sessionId)) throw this.tombstones.errorFor(sessionId, options.identity);
      throw isSessionError(error) ? error.withSession(sessionId) : error;
    } finally {
      if (this.sessions.get(sessionId) === session) this.expiry.touch(session);
    }
  }

  /**
   * Closes the session (within a few seconds, even if the browser hangs; longer while its videos are written) and
   * answers the files it leaves (videos, a trace still recording); SESSION_NOT_FOUND / SESSION_EXPIRED when it is not open.
   */
  async close(sessionId: string, scope: IdentityScope = {}): Promise<SessionFiles> {
    const session = this.get(sessionId, scope);
    return (await this.end(session, 'closed')) ?? { videos: [], traces: [] };
  }

  /** The folder of a session that records video; BROWSER_ERROR `unsupported` when no ffmpeg can encode it. */
  private async recordingFolder(source: BrowserSource, owned: string): Promise<string> {
    // A remote browser encodes its videos where it runs; only a browser launched here needs an ffmpeg here.
    if (source instanceof BrowserHost) await ensureFfmpeg();
    return this.downloads.sessionFolder(owned);
  }

  /** Open sessions, oldest first, optionally only those of one identity. */
  async list(filter: { identity?: string } = {}): Promise<SessionInfo[]> {
    const sessions = [...this.sessions.values()].filter((session) => filter.identity === undefined || session.identity === filter.identity);
    return Promise.all(
      sessions.map(async (session) => ({
        sessionId: session.id,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
        url: session.page.isClosed() ? 'about:blank' : session.page.url(),
        // The title is read outside the session queue; a page busy navigating answers with an empty title rather than waiting.
        title: await titleOf(session.page, this.timers),
        ...defined({ device: session.options.device }),
        viewport: session.page.isClosed() ? (session.options.viewport ?? null) : session.page.viewportSize(),
        endpoint: session.endpoint,
      })),
    );
  }

  /** Ids of the open sessions of one identity (for closing a connection's sessions when it drops). */
  idsOf(identity: string): string[] {
    return [...this.sessions.values()].filter((session) => session.identity === identity).map((session) => session.id);
  }

  /** Closes every session, then the browser. New creations are refused from the first moment. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const recycler of this.recyclers.values()) recycler.stop();
    const closing = Promise.all([
      ...[...this.pools.values()].map((pool) => pool.close()),
      ...[...this.sessions.values()].map((session) => this.end(session, 'closed')),
    ]);
    // Closing the browser closes every context anyway: a browser that does not close them promptly is not waited for,
    // so shutdown ends in a few seconds, before a supervisor's SIGKILL could orphan the browser.
    await orAfter(closing, SHUTDOWN_CONTEXTS_TIMEOUT, undefined, this.timers);
    // Owned browsers are closed; attached ones (remote endpoints) are only disconnected from.
    this.identityBrowsers?.stop();
    this.memory.stop();
    await Promise.all([...this.sources, ...(this.identityBrowsers?.all ?? [])].map((source) => source.close()));
    await this.downloads.dispose();
  }

  /** Tells the recyclers that sessions opened, closed or started opening. */
  private sessionsChanged(): void {
    for (const recycler of this.recyclers.values()) recycler.sessionsChanged();
  }

  /** Open sessions plus creations in flight on one source: what the scheduler balances. */
  private load(source: BrowserSource): number {
    let sessions = this.admission.inFlightOn(source);
    for (const session of this.sessions.values()) if (this.sourceOf.get(session) === source) sessions += 1;
    return sessions;
  }

  /** A warm pool for a source, reading the source's activity, and the hooks that keep it in step. */
  private addPool(source: BrowserSource): WarmPool {
    const activity = new Activity(this.clock);
    this.activities.set(source, activity);
    const pool = new WarmPool({
      activity,
      size: this.warmSize,
      browser: () => source.browser(),
      open: (browser) => this.openContext(browser, undefined),
      logger: this.logger,
      clock: this.clock,
      timers: this.timers,
    });
    this.pools.set(source, pool);
    source.onDisconnected((browser) => this.dropBrowser(pool, browser));
    // The pool fills once a browser is up (and again after a crash or a reconnection), never launching one itself: whoever starts the source decides when.
    source.onLaunched((browser) => {
      pool.fill();
      if (source instanceof BrowserHost) this.memory.watch(browser, source.processIdsOf(browser));
      for (const listener of this.launchListeners) listener(browser);
    });
    return pool;
  }

  private activityOf(source: BrowserSource): Activity {
    const activity = this.activities.get(source);
    if (!activity) throw new Error(`no activity for browser source ${source.label}`);
    return activity;
  }

  private poolOf(source: BrowserSource): WarmPool {
    const pool = this.pools.get(source);
    if (!pool) throw new Error(`no warm pool for browser source ${source.label}`);
    return pool;
  }

  /**
   * Opens a context+page with the manager's defaults, and the session's own options over them when given, in its turn
   * (see WorkTurns.open); the open's own time limit counts from the turn.
   */
  private openContext(browser: Browser, settings: ResolvedSessionOptions | undefined, identity?: string, signal?: AbortSignal) {
    return this.turns.open(identity, signal, () =>
      openContext(
        browser,
        settings ? { ...this.contextOptions, ...settings.contextOptions } : this.contextOptions,
        async (context) => {
          await applySessionDefaults(context, this.defaults);
          // A session's own blockResources replaces the defaults' list, as each of its options replaces a default.
          await blockResourceTypes(context, settings?.echo.blockResources ?? this.defaults.blockResources);
        },
        this.timers,
      ),
    );
  }

  /**
   * Removes the session from the map at once (so the id answers with its reason), then closes its context; answers the
   * files it left. A session whose browser went away is only marked ended (its live views close).
   */
  private async end(session: Session, reason: EndReason): Promise<SessionFiles | undefined> {
    if (this.sessions.get(session.id) !== session) return undefined;
    this.sessions.delete(session.id);
    this.sessionsChanged();
    this.expiry.clear(session.id);
    this.tombstones.bury(session.id, reason, session.identity);
    const source = this.sourceOf.get(session);
    if (source) this.identityBrowsers?.release(source);
    if (reason !== 'browser_disconnected') return session.close();
    session.markEnded();
    await session.downloads.remove();
    return undefined;
  }

  private dropBrowser(pool: WarmPool, browser: Browser): void {
    pool.dropBrowser(browser);
    for (const session of [...this.sessions.values()]) {
      if (session.browser === browser) void this.end(session, 'browser_disconnected');
    }
  }
}

/** The most copies one fork_session makes. */
export const MAX_FORKS = 10;

/** How long shutdown waits for the sessions' contexts to close before it closes the browser. */
const SHUTDOWN_CONTEXTS_TIMEOUT = 1_000;

/** How long a failed call on a closed remote page waits to learn whether its browser's connection went too. */
const DISCONNECT_GRACE_MS = 1_000;

async function titleOf(page: Page, timers: Timers): Promise<string> {
  if (page.isClosed()) return '';
  return orAfter(
    page.title().catch(() => ''),
    500,
    '',
    timers,
  );
}
