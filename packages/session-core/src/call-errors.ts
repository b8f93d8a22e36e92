// The errors a call on a session ends with, built in one place: what the browser threw, mapped to error codes; a call stopped, or run past its time limit; pages stopped for passing a bound; an id no session has.
import { SessionError, browserError, firstLine, isSessionError, messageOf, type BrowserErrorReason } from './errors.js';
import { shortId } from './logger.js';
import type { RunawayTrip } from './runaway.js';
import { defined } from './fields.js';

/** Why a running call is told to stop. */
export type StopReason = Extract<BrowserErrorReason, 'cancelled' | 'call_timeout' | 'runaway_page'>;

/** Why an id is no longer open. */
export type EndReason = 'closed' | 'expired' | 'browser_disconnected';

/**
 * The one mapping of what a call's function threw on the session's page: a SessionError stays as it is; a failure on a
 * page whose renderer crashed is reason page_crashed, not Playwright's words; anything else is passed on for the
 * tools to map with what they know of the action.
 */
export function callError(error: unknown, page: { crashed: boolean }): unknown {
  if (!page.crashed || isSessionError(error)) return error;
  return browserError('page_crashed', 'The page crashed during the call. The session opens a fresh blank page in the same context for the next call.', {
    details: { browserMessage: firstLine(messageOf(error)), next: 'load_page' },
    cause: error,
  });
}

/** A call that did not start within its time limit because a person had control of the session all along. */
export function waitedForPersonError(options: { timeout?: number | undefined }): SessionError {
  return browserError(
    'call_timeout',
    `The call did not start within its time limit of ${options.timeout} ms: a person has control of this session in its live view, and the call waited for them to give it back. Nothing was done; try again once they have.`,
    { details: { timeout: options.timeout, pageReplaced: false, waitedFor: 'person' } },
  );
}

/** A call told to stop (cancelled, or past its time limit), and whether its page had to be replaced because it did not let go. */
export function stoppedError(reason: StopReason, options: { timeout?: number | undefined }, pageReplaced: boolean): SessionError {
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
export function runawayError(trip: RunawayTrip | undefined): SessionError {
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
              ...defined({ windowMs: trip.windowMs, lateMs: trip.lateMs }),
              ...(trip.url ? { url: trip.url } : {}),
            }),
      },
    },
  );
}

/**
 * What a call presenting an id that is not open is told: SESSION_EXPIRED or SESSION_NOT_FOUND with the reason it ended,
 * or, for an id never issued, forgotten, or ended under another identity than the caller's (`reason` undefined), that no
 * session has it.
 */
export function endedError(id: string, reason: EndReason | undefined, sessionTimeout: number): SessionError {
  if (reason === undefined) return unknownIdError(id);
  if (reason === 'expired') {
    return new SessionError('SESSION_EXPIRED', `Session ${shortId(id)} expired after ${sessionTimeout} ms without use.`, {
      sessionId: id,
      details: { reason: 'expired', sessionTimeout, next: 'new_session' },
    });
  }
  if (reason === 'browser_disconnected') {
    return new SessionError(
      'SESSION_NOT_FOUND',
      'This session was lost because its browser went away: the browser process ended (a new one is started for the next new ' +
        'session) or its endpoint disconnected.',
      {
        sessionId: id,
        details: { reason: 'browser_disconnected', next: 'new_session' },
      },
    );
  }
  return new SessionError('SESSION_NOT_FOUND', 'This session was closed.', { sessionId: id, details: { reason, next: 'new_session' } });
}

/** What an id that no session has is told, word for word the same whatever the reason (never issued, another identity's). */
export function unknownIdError(id: string): SessionError {
  return new SessionError('SESSION_NOT_FOUND', 'No session has this id.', { sessionId: id, details: { next: 'find_session' } });
}
