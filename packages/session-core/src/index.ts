// Public API of @sessionwright/session-core: anything exported here is public.
export { BrowserHost, type BrowserHostOptions } from './browser-host.js';
export {
  endpointLabel,
  parseEndpoint,
  redactUrls,
  uniqueLabels,
  type BrowserOwnership,
  type BrowserSource,
  type BrowserSourceKind,
  type ParsedEndpoint,
  type SourceFailure,
  type SourceFailureReason,
} from './browser-source.js';
export { orAfter, systemClock, systemTimers, type Clock, type TimerHandle, type Timers } from './clock.js';
export {
  BLOCKABLE_RESOURCES,
  HIDDEN,
  SESSION_OPTION_NAMES,
  deviceNames,
  hasSessionOptions,
  resolveSessionOptions,
  type BlockableResource,
  type EffectiveSessionOptions,
  type ResolvedSessionOptions,
  type SessionOptions,
  type StorageState,
  type StorageStateInput,
} from './context-options.js';
export {
  BROWSER_ERROR_REASONS,
  ERROR_CODES,
  NEXT_STEPS,
  SessionError,
  browserError,
  firstLine,
  isBrowserErrorReason,
  isSessionError,
  messageOf,
  nextStepOf,
  type BrowserErrorReason,
  type ErrorCode,
  type ErrorDetails,
  type ErrorPayload,
  type NextStep,
} from './errors.js';
export {
  BROWSER_NAMES,
  installHint,
  resolveExecutable,
  resolveHeadless,
  systemChromiumCandidates,
  type BrowserName,
  type ExecutableSource,
  type HeadlessDecision,
  type ResolvedExecutable,
  type ResolveExecutableOptions,
} from './executable.js';
export { loadWithCodeCache, writeCodeCaches } from './code-cache.js';
export { startBrowserEarly } from './early-browser.js';
export { isTimeoutError } from './load-playwright.js';
export { shortId, silentLogger, stderrLogger, type Logger } from './logger.js';
export { RemoteBrowser, playwrightVersion, type RemoteBrowserOptions } from './remote-browser.js';
export {
  CLOSE_TIMEOUT_MS,
  DEFAULT_MAX_TABS,
  LET_GO_GRACE_MS,
  Session,
  type DialogAnswer,
  type DialogRecord,
  type EffectiveEmulation,
  type EmulationSettings,
  type ModalMode,
  type ModalState,
  type RunOptions,
  type SessionEvents,
  type SessionInit,
} from './session.js';
export {
  COLLECTOR_CAPACITY,
  Ring,
  STATIC_RESOURCE_TYPES,
  SessionCollectors,
  atLeast,
  type CollectOptions,
  consoleLevel,
  type ConsoleEntry,
  type ConsoleLevel,
  type RequestEntry,
} from './collectors.js';
export { DEFAULT_DOWNLOAD_LIMITS, DownloadDirectory, isInside, safeFileName, type DownloadLimits, type DownloadRecord } from './downloads.js';
export {
  DEFAULT_CALL_TIMEOUT,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_TIMEOUT,
  SessionManager,
  type EndReason,
  type ManagerRunOptions,
  type OwnerScope,
  type SessionInfo,
  type SessionManagerOptions,
} from './session-manager.js';
export {
  DEFAULT_RUNAWAY_LIMITS,
  RunawayGuard,
  runawayLimits,
  type EventBound,
  type RunawayBound,
  type RunawayLimits,
  type RunawayOptions,
  type RunawayTrip,
} from './runaway.js';
export { Turns, type Release } from './turns.js';
export { defaultWarmSessions } from './warm-pool.js';
