// Public API of @sessionwright/session-core: what a server built on it needs, and nothing else; public-api.txt and public-api.d.ts.txt list it.
export { BrowserHost, type BrowserHostOptions, type LaunchHook } from './browser-host.js';
export {
  parseEndpoint,
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
  checkStorageState,
  deviceNames,
  effectiveOptionsSchema,
  isStaticResource,
  exportedStorageStateSchema,
  resolveSessionDefaults,
  sessionDefaultsSchema,
  sessionOptionsShape,
  type EffectiveSessionOptions,
  type OriginRule,
  type ResolvedSessionDefaults,
  type SessionDefaults,
  type SessionOptions,
  type StorageState,
} from './context-options.js';
export { editDistance } from './edit-distance.js';
export { cut, defined } from './fields.js';
export {
  BROWSER_ERROR_REASONS,
  ERROR_CODES,
  NEXT_STEPS,
  SessionError,
  browserError,
  firstLine,
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
  resolveExecutable,
  resolveHeadless,
  systemChromiumCandidates,
  type BrowserName,
  type ExecutableSource,
  type HeadlessDecision,
  type ResolvedExecutable,
  type ResolveExecutableOptions,
} from './executable.js';
export { isTimeoutError, type PlaywrightLoader } from './load-playwright.js';
export { serverSide } from './playwright-internals.js';
export { isPipeBrowserCommand, killProcessGroup } from './process-tree.js';
export { shortId, silentLogger, stderrLogger, type LogSubject, type Logger } from './logger.js';
export { RemoteBrowser, playwrightVersion, type RemoteBrowserOptions } from './remote-browser.js';
export {
  DEFAULT_MAX_TABS,
  Session,
  type DialogAnswer,
  type DialogRecord,
  type EffectiveEmulation,
  type EmulationSettings,
  type MediaOverrides,
  type FileRecord,
  type ModalMode,
  type ModalState,
  type RunOptions,
  type SessionEvents,
  type SessionFiles,
} from './session.js';
export { RESTORE_TAB_TIMEOUT_MS, imageOfStorageState, type ImageStorageState, type ImageTab, type SessionImage } from './session-image.js';
export type { VideoSettings } from './page-video.js';
export type { ControlLease, PersonControl } from './control.js';
export type { Emulation } from './emulation.js';
export type { ModalHold } from './modal-hold.js';
export type { Recordings } from './recordings.js';
export type { RunawayWatch } from './runaway-watch.js';
export type { SessionDownloads } from './session-downloads.js';
export type { PersonInput } from './person-input.js';
export { COLLECTOR_CAPACITY, atLeast, type ConsoleEntry, type ConsoleLevel, type RequestEntry } from './collectors.js';
export { DEFAULT_DOWNLOAD_LIMITS, folderBytes, isInside, type DownloadLimits, type DownloadRecord } from './downloads.js';
export { MAX_FFMPEG_PER_SERVER, MAX_FFMPEG_PER_SESSION, MAX_VIDEO, checkVideoSettings } from './recording-limits.js';
export {
  DEFAULT_CALL_TIMEOUT,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_TIMEOUT,
  MAX_FORKS,
  SessionManager,
  type CreateRequest,
  type EndReason,
  type ManagerRunOptions,
  type IdentityScope,
  type SessionInfo,
  type SessionManagerOptions,
} from './session-manager.js';
export {
  DEFAULT_RUNAWAY_LIMITS,
  type EventBound,
  type RunawayBound,
  type RunawayLimits,
  type RunawayOptions,
  type RunawayTrip,
} from './runaway.js';
export { defaultWarmSessions } from './warm-pool.js';
export { RecordTooLarge, type Store } from './store.js';
export { FolderStore, defaultDataDir, type FolderStoreOptions } from './folder-store.js';
export { SealedStore, isKeyMismatch, keyFileSecret, keyMismatch, sealingKeys, type SealedStoreOptions, type SealingKeys } from './sealed-store.js';
export {
  DEFAULT_STATE_LIMITS,
  STATE_NAME_PATTERN,
  SavedStates,
  type SavedStateInfo,
  type StateLimits,
} from './saved-states.js';
