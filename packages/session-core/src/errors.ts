// The error contract: one SessionError class carrying a stable code, shared by every layer above.

/** Every code a sessionwright call can answer with. */
export type ErrorCode =
  /** Arguments missing, of the wrong type, out of range or unknown; an unparsable or disallowed URL. */
  | 'INVALID_PARAMETERS'
  /** The id was never issued, was closed, or its browser died. */
  | 'SESSION_NOT_FOUND'
  /** The id expired by idle timeout. */
  | 'SESSION_EXPIRED'
  /** `maxSessions` sessions are open (creations in flight count). */
  | 'MAX_SESSIONS_REACHED'
  /** DNS, connection or TLS failure, timeout, or an aborted navigation. */
  | 'NAVIGATION_FAILED'
  /** The selector or ref matches nothing within the timeout (a stale ref too). */
  | 'ELEMENT_NOT_FOUND'
  /** The selector matches more than one element. */
  | 'ELEMENT_AMBIGUOUS'
  /** The element exists but is hidden, disabled, detached or covered. */
  | 'ELEMENT_NOT_CLICKABLE'
  /** The element exists but is not an editable field, or is disabled or readonly. */
  | 'ELEMENT_NOT_EDITABLE'
  /** A wait condition did not come true within its timeout. */
  | 'WAIT_TIMEOUT'
  /** The browser failed in any other way (a launch failure names the executables tried). */
  | 'BROWSER_ERROR';

export const ERROR_CODES: readonly ErrorCode[] = [
  'INVALID_PARAMETERS',
  'SESSION_NOT_FOUND',
  'SESSION_EXPIRED',
  'MAX_SESSIONS_REACHED',
  'NAVIGATION_FAILED',
  'ELEMENT_NOT_FOUND',
  'ELEMENT_AMBIGUOUS',
  'ELEMENT_NOT_CLICKABLE',
  'ELEMENT_NOT_EDITABLE',
  'WAIT_TIMEOUT',
  'BROWSER_ERROR',
];

export type ErrorDetails = Record<string, unknown>;

/** The wire shape of an error, as tools put it in `content[0].text`. */
export interface ErrorPayload {
  errorCode: ErrorCode;
  message: string;
  sessionId?: string;
  details?: ErrorDetails;
}

export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: ErrorCode;
  readonly sessionId: string | undefined;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, options: { sessionId?: string; details?: ErrorDetails; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    this.details = options.details;
  }

  /** A copy that names the session, for errors raised below the point where the id is known. */
  withSession(sessionId: string): SessionError {
    if (this.sessionId === sessionId) return this;
    return new SessionError(this.code, this.message, { sessionId, details: this.details, cause: this.cause });
  }

  toJSON(): ErrorPayload {
    return {
      errorCode: this.code,
      message: this.message,
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

export function isSessionError(value: unknown): value is SessionError {
  return value instanceof SessionError;
}

/** The message of anything thrown, without its stack. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The first line of a browser message, capped: enough for a model, never a stack trace. */
export function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? text).slice(0, 500);
}
