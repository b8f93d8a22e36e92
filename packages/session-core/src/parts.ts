// The parts the sessionwright server wires around the library surface (@sessionwright/session-core/parts): limits and their defaults, stores and sealing, schemas, launch plumbing, helpers; public-api.parts.txt lists them.
export type { LaunchHook } from './browser-host.js';
export { parseEndpoint, uniqueLabels } from './browser-source.js';
export { orAfter } from './clock.js';
export {
  checkStorageState,
  deviceNames,
  effectiveOptionsSchema,
  exportedStorageStateSchema,
  isStaticResource,
  resolveSessionDefaults,
  sessionDefaultsSchema,
  sessionOptionsShape,
  type SessionDefaults,
} from './context-options.js';
export { editDistance } from './edit-distance.js';
export { cut, defined } from './fields.js';
export { NEXT_STEPS, firstLine, messageOf, nextStepOf, type NextStep } from './errors.js';
export { BROWSER_NAMES, resolveExecutable, resolveHeadless, systemChromiumCandidates, type BrowserName } from './executable.js';
export { isTimeoutError } from './load-playwright.js';
export { serverSide } from './playwright-internals.js';
export { isPipeBrowserCommand, killProcessGroup } from './process-tree.js';
export { silentLogger } from './logger.js';
export { playwrightVersion } from './remote-browser.js';
export { DEFAULT_MAX_TABS, type SessionEvents, type SessionFiles } from './session.js';
export type { ModalState } from './modal-hold.js';
export type { ControlLease } from './control.js';
export type { PersonInput } from './person-input.js';
export type { ImageStorageState } from './session-image.js';
export { COLLECTOR_CAPACITY, atLeast, type ConsoleLevel, type RequestEntry } from './collectors.js';
export { DEFAULT_DOWNLOAD_LIMITS, folderBytes, isInside } from './downloads.js';
export { MAX_FFMPEG_PER_SERVER, MAX_FFMPEG_PER_SESSION, MAX_VIDEO, checkVideoSettings } from './recording-limits.js';
export { DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TIMEOUT, MAX_FORKS } from './session-manager.js';
export { DEFAULT_RUNAWAY_LIMITS } from './runaway.js';
export { defaultWarmSessions } from './warm-pool.js';
export { FolderStore, defaultDataDir } from './folder-store.js';
export { SealedStore, isKeyMismatch, keyFileSecret } from './sealed-store.js';
export { STATE_NAME_PATTERN, SavedStates, type SavedStateInfo } from './saved-states.js';
