// The error contract: one SessionError class carrying a stable code, shared by every layer above.
import { defined } from './fields.js';

/** Every code a sessionwright call can answer with. */
export const ERROR_CODES = [
  /** Arguments missing, of the wrong type, out of range or unknown; an unparsable or disallowed URL. */
  'INVALID_PARAMETERS',
  /** The id was never issued, was closed, or its browser died. */
  'SESSION_NOT_FOUND',
  /** The id expired by idle timeout. */
  'SESSION_EXPIRED',
  /** `maxSessions` sessions are open (creations in flight count). */
  'MAX_SESSIONS_REACHED',
  /** DNS, connection or TLS failure, timeout, or an aborted navigation. */
  'NAVIGATION_FAILED',
  /** The selector or ref matches nothing within the timeout (a stale ref too). */
  'ELEMENT_NOT_FOUND',
  /** The selector matches more than one element. */
  'ELEMENT_AMBIGUOUS',
  /** The element exists but is hidden, disabled, detached or covered. */
  'ELEMENT_NOT_CLICKABLE',
  /** The element exists but is not an editable field, or is disabled or readonly. */
  'ELEMENT_NOT_EDITABLE',
  /** A wait condition did not come true within its timeout. */
  'WAIT_TIMEOUT',
  /** The browser failed in any other way (a launch failure names the executables tried). */
  'BROWSER_ERROR',
] as const;

/** One of ERROR_CODES. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Why a BROWSER_ERROR happened (`details.reason`): a closed set, so an agent can branch on it. */
export const BROWSER_ERROR_REASONS = [
  /** The client cancelled the call. */
  'cancelled',
  /** The call ran past its time limit: `--call-timeout` (the call ceiling), or a shorter `timeout` the call itself was given (evaluate). */
  'call_timeout',
  /** A page script the agent ran threw, or the page navigated away under it so it has no result. */
  'script_error',
  /** The page (its renderer) crashed or was closed under the call; the session opens a fresh page for the next one. */
  'page_crashed',
  /** The browser could not be started: `details` names the executables tried and what to install. */
  'launch_failed',
  /** A remote browser endpoint cannot be reached or refused the connection. */
  'browser_unreachable',
  /** A remote browser endpoint runs another Playwright version; the message names both. */
  'version_mismatch',
  /** Every browser endpoint is down. */
  'no_browser_available',
  /** The server is shutting down and takes no new work. */
  'shutting_down',
  /** The browser type cannot do this (e.g. PDF outside Chromium). */
  'unsupported',
  /** The session's pages passed a bound on events or memory (docs/limits.md) and were stopped; `details.bound` says which. */
  'runaway_page',
  /** The shared store (docs/deploy.md, docs/sign-ins.md) cannot be reached; what the caller's sessions hold on this server keeps working. */
  'store_unavailable',
  /** Anything else; the browser's own message is in `details.browserMessage`. */
  'unknown',
] as const;

/** One of BROWSER_ERROR_REASONS. */
export type BrowserErrorReason = (typeof BROWSER_ERROR_REASONS)[number];

/**
 * What the caller should do next (`details.next`), as a hint rather than a sentence: session-core names no tool, and
 * the layer above words it for the tools it serves.
 */
export const NEXT_STEPS = [
  /** Start a new session (the id ended, or the session is gone). */
  'new_session',
  /** Look up the open sessions (the id is not known). */
  'find_session',
  /** Free a slot by closing a session no longer needed. */
  'free_session',
  /** Read the page again to get current refs. */
  'new_snapshot',
  /** Load a page again (the session is on a fresh blank page). */
  'load_page',
] as const;

/** One of NEXT_STEPS. */
export type NextStep = (typeof NEXT_STEPS)[number];

export type ErrorDetails = Record<string, unknown>;

/** The wire shape of an error, as tools put it in `content[0].text`. */
export interface ErrorPayload {
  errorCode: ErrorCode;
  message: string;
  sessionId?: string;
  details?: ErrorDetails;
}

/** Every failure session-core answers with: a stable `code`, a message for the reader, the session's id and details. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: ErrorCode;
  readonly sessionId: string | undefined;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, options: { sessionId?: string; details?: ErrorDetails; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    // Every BROWSER_ERROR carries a reason from the closed set; one built without a valid one is `unknown` rather than reasonless.
    this.details = code === 'BROWSER_ERROR' && !isBrowserErrorReason(options.details?.reason) ? { ...options.details, reason: 'unknown' } : options.details;
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
      ...defined({ sessionId: this.sessionId, details: this.details }),
    };
  }
}

/**
 * The one way to build a BROWSER_ERROR: its reason comes first, so none is ever left without one.
 * `details.reason` is set here and nowhere else.
 */
export function browserError(
  reason: BrowserErrorReason,
  message: string,
  options: { sessionId?: string; details?: ErrorDetails; cause?: unknown } = {},
): SessionError {
  return new SessionError('BROWSER_ERROR', message, { ...options, details: { ...options.details, reason } });
}

function isBrowserErrorReason(value: unknown): value is BrowserErrorReason {
  return typeof value === 'string' && (BROWSER_ERROR_REASONS as readonly string[]).includes(value);
}

/** The error's next-step hint, if it has one. */
export function nextStepOf(error: SessionError): NextStep | undefined {
  const next = error.details?.next;
  return typeof next === 'string' && (NEXT_STEPS as readonly string[]).includes(next) ? (next as NextStep) : undefined;
}

/** True for a SessionError, to tell it from anything else thrown. */
export function isSessionError(value: unknown): value is SessionError {
  return value instanceof SessionError;
}

/**
 * The message of anything thrown, without its stack, and without what Playwright adds for a terminal: colour codes
 * (ANSI escapes) and the call log it appends after "Call log:". Every browser message that reaches a result or a log
 * is read through here.
 */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(ANSI_ESCAPE, '').replace(CALL_LOG, '');
}

/** CSI and OSC escape sequences (colours, cursor moves, hyperlinks). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is exactly what is matched.
const ANSI_ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
/** Playwright's call log: from its heading to the end of the message. */
const CALL_LOG = /\s*\n\s*Call log:[\s\S]*$/;

/** The first line of a browser message, capped: enough for a model, never a stack trace. */
export function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? text).slice(0, 500);
}
