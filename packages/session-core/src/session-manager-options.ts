// What a SessionManager is built with and asked for: its options, a creation request, a call's scope and a session as listed.
import type { BrowserContextOptions } from 'playwright';
import type { BrowserSource } from './browser-source.js';
import type { Clock, Timers } from './clock.js';
import type { SessionDefaults, SessionOptions } from './context-options.js';
import type { DownloadLimits } from './downloads.js';
import type { Logger } from './logger.js';
import type { RunawayOptions } from './runaway.js';
import type { SessionImage } from './session-image.js';
import type { RunOptions } from './session.js';

/** What a SessionManager is built with: only `host` is required. */
export interface SessionManagerOptions {
  /** Where browsers come from: one (a local BrowserHost) or several (remote endpoints); sessions spread over them by load. */
  host: BrowserSource | readonly BrowserSource[];
  /** Idle timeout in ms (default 300 000). */
  sessionTimeout?: number;
  /** Sessions open at once, creations in flight included (default 10). */
  maxSessions?: number;
  /** Sessions one identity (see create) may hold at once, creations in flight included (default: no limit but maxSessions). */
  maxSessionsPerIdentity?: number;
  /** The longest any call through run() may take, in ms (default 120 000): past it the call ends with reason call_timeout. */
  callTimeout?: number;
  /** Options for every new BrowserContext (viewport, locale, …). */
  contextOptions?: BrowserContextOptions;
  /**
   * What every session starts with, checked as a session's own options are (INVALID_PARAMETERS from the constructor):
   * context options over `contextOptions`, page scripts, request origins. A session's own options override each.
   */
  sessionDefaults?: SessionDefaults;
  clock?: Clock;
  timers?: Timers;
  logger?: Logger;
  /** How many ended ids are remembered, and for how long (defaults 10 000 and one hour). */
  tombstoneLimit?: number;
  tombstoneTtl?: number;
  /**
   * Contexts+pages kept open ahead of time, so create() hands one out at once and refills in the background
   * (default 0), per browser source. They don't count against maxSessions. The CLI's default is defaultWarmSessions(headless).
   */
  warmSessions?: number;
  /**
   * Replace the launched browser by a fresh one once it has served sessions and none has been open for this many ms,
   * giving back the memory a browser keeps after its sessions closed (default: never). See BrowserRecycler.
   */
  recycleIdleBrowser?: number;
  /**
   * With recycleIdleBrowser: after this many sessions, new sessions open in a fresh launched browser while the old one
   * serves those still open in it and closes after the last (default: never). See BrowserRecycler.
   */
  rotateBrowserAfter?: number;
  /** Most tabs a session keeps open (default 10); the oldest background tab is closed first. */
  maxTabs?: number;
  /** Where downloads, traces and videos are saved, in folders per session (default: a temporary folder removed by shutdown). */
  outputDir?: string;
  /**
   * The folder inside outputDir that holds an identity's session folders: one plain name, '' for outputDir itself (the
   * default for every identity). The server gives each client identity its own, so no identity's files lie in another's.
   */
  identityFolder?: (identity: string | undefined) => string;
  /**
   * Page loads (calls run with `loads`) under way at once across all sessions (default: 8 per CPU core, at least 16);
   * the others wait their turn, fairly across identities. A load holds its turn until it ends or for `holdMs` (default
   * 5 000), so a page that never finishes loading cannot keep others waiting for long; while every CPU core is busy
   * (the 1-minute load average), a load keeps its turn past that, because more loads at once would only slow each one.
   */
  pageLoads?: { atOnce?: number; holdMs?: number };
  /** How much each session may download, and whether its files outlive it (default DEFAULT_DOWNLOAD_LIMITS). */
  downloads?: Partial<DownloadLimits>;
  /** Bounds on a session's page events and heap, past which its pages are stopped (default DEFAULT_RUNAWAY_LIMITS; docs/limits.md). */
  runaway?: RunawayOptions;
  /** Keep each session's request list (default true); a server that serves no tool reading it turns it off. */
  collectNetwork?: boolean;
  /**
   * Browser processes of their own for identities (docs/limits.md): `launch(identity)` makes one for an identity (undefined: that
   * identity shares `host`), started with the identity's first session and closed `idleMs` (default 30 000) after its last.
   * A page that floods its browser with events then slows only its own identity's sessions.
   */
  browserPerIdentity?: { launch: (identity: string) => BrowserSource | undefined; idleMs?: number };
}

/** What run() accepts besides the session id and the function. */
export interface ManagerRunOptions extends RunOptions, IdentityScope {
  /**
   * The call loads a page (navigate, history, a new tab's URL): it waits for a turn first (see
   * SessionManagerOptions.pageLoads). The wait counts against the call's time limit, not against the load's own timeout.
   */
  loads?: boolean;
}

/** What create() is asked for. */
export interface CreateRequest {
  /** Who the session belongs to (see IdentityScope). */
  identity?: string;
  /** The identity is one client of several: a full server tells it only of its own sessions (see Admission). */
  guarded?: boolean;
  options?: SessionOptions;
  /**
   * Start as a copy of a session (Session.image()): its options (in place of `options`), cookies, localStorage,
   * IndexedDB, and its tabs at their URLs with their sessionStorage, the same tab current.
   */
  image?: SessionImage;
  /** The id to give the session (default a new random one); INVALID_PARAMETERS while a session with it is open. */
  sessionId?: string;
  signal?: AbortSignal | undefined;
}

/** One open session as list() describes it. */
export interface SessionInfo {
  sessionId: string;
  createdAt: number;
  expiresAt: number;
  url: string;
  title: string;
  /** The Playwright device the session was created as, if any. */
  device?: string;
  /** The page's viewport (null when the browser window sets it). */
  viewport: { width: number; height: number } | null;
  /** The label of the browser source the session runs on ("local", or an endpoint's scheme://host:port). */
  endpoint: string;
}

/**
 * Who is asking, for the calls that take a session id: when `identity` is given, a session created by another identity is
 * answered exactly as an id that was never issued. Without it the id alone is the capability.
 */
export interface IdentityScope {
  identity?: string | undefined;
}
