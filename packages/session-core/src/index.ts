// The library surface of @sessionwright/session-core: what a script or a server of one's own needs to open, use and close sessions (docs/library.md); public-api.txt lists it.
export { BrowserHost, type BrowserHostOptions } from './browser-host.js';
export type { BrowserSource } from './browser-source.js';
export { RemoteBrowser, type RemoteBrowserOptions } from './remote-browser.js';
export { SessionManager, type CreateRequest, type ManagerRunOptions, type SessionInfo, type SessionManagerOptions } from './session-manager.js';
export { Session } from './session.js';
export type { SessionOptions } from './context-options.js';
export { imageOfStorageState, type SessionImage } from './session-image.js';
export {
  BROWSER_ERROR_REASONS,
  ERROR_CODES,
  SessionError,
  browserError,
  isSessionError,
  type BrowserErrorReason,
  type ErrorCode,
  type ErrorPayload,
} from './errors.js';
export { systemClock, systemTimers, type Clock, type TimerHandle, type Timers } from './clock.js';
export { shortId, stderrLogger, type LogSubject, type Logger } from './logger.js';
export { RecordTooLarge, type Store } from './store.js';
