// Ended session ids, remembered for a while, so that a stale id is answered with why it ended rather than as unknown.
import type { Clock } from './clock.js';
import { SessionError } from './errors.js';
import { shortId } from './logger.js';

/** Why an id is no longer open. */
export type EndReason = 'closed' | 'expired' | 'browser_disconnected';

interface Tombstone {
  reason: EndReason;
  at: number;
  owner: string | undefined;
}

/**
 * The last `limit` ended ids, each for at most `ttl` ms: the oldest go first, so memory stays bounded however many
 * sessions a long-running server ends.
 */
export class Tombstones {
  private readonly limit: number;
  private readonly ttl: number;
  private readonly clock: Clock;
  /** The idle timeout an expired id is said to have passed. */
  private readonly sessionTimeout: number;
  /** In the order the ids ended (a Map keeps insertion order, so the oldest is first). */
  private readonly ended = new Map<string, Tombstone>();

  constructor(options: { limit: number; ttl: number; clock: Clock; sessionTimeout: number }) {
    this.limit = options.limit;
    this.ttl = options.ttl;
    this.clock = options.clock;
    this.sessionTimeout = options.sessionTimeout;
  }

  /** Remembers that `id`, of `owner`, ended for `reason`, and forgets what is past the limit or the ttl. */
  bury(id: string, reason: EndReason, owner: string | undefined): void {
    const now = this.clock.now();
    this.ended.delete(id);
    this.ended.set(id, { reason, at: now, owner });
    for (const [oldest, tombstone] of this.ended) {
      if (this.ended.size <= this.limit && now - tombstone.at <= this.ttl) break;
      this.ended.delete(oldest);
    }
  }

  /**
   * What a call presenting an id that is not open is told: SESSION_EXPIRED or SESSION_NOT_FOUND with the reason it
   * ended, or, for an id never issued, forgotten, or ended under another owner than the caller's, that no session has it.
   */
  errorFor(id: string, owner: string | undefined): SessionError {
    const tombstone = this.ended.get(id);
    const fresh = tombstone !== undefined && this.clock.now() - tombstone.at <= this.ttl && (owner === undefined || tombstone.owner === owner);
    if (!fresh) return unknownIdError(id);
    if (tombstone.reason === 'expired') {
      return new SessionError('SESSION_EXPIRED', `Session ${shortId(id)} expired after ${this.sessionTimeout} ms without use.`, {
        sessionId: id,
        details: { reason: 'expired', sessionTimeout: this.sessionTimeout, next: 'new_session' },
      });
    }
    if (tombstone.reason === 'browser_disconnected') {
      return new SessionError(
        'SESSION_NOT_FOUND',
        'This session was lost because its browser went away: the browser process ended (a new one is started for the next new session) or its endpoint disconnected.',
        {
          sessionId: id,
          details: { reason: 'browser_disconnected', next: 'new_session' },
        },
      );
    }
    return new SessionError('SESSION_NOT_FOUND', 'This session was closed.', { sessionId: id, details: { reason: tombstone.reason, next: 'new_session' } });
  }
}

/** What an id that no session has is told, word for word the same whatever the reason (never issued, another owner's). */
export function unknownIdError(id: string): SessionError {
  return new SessionError('SESSION_NOT_FOUND', 'No session has this id.', { sessionId: id, details: { next: 'find_session' } });
}
