// Ended session ids, remembered for a while, so that a stale id is answered with why it ended rather than as unknown.
import { endedError, type EndReason } from './call-errors.js';
import type { Clock } from './clock.js';
import type { SessionError } from './errors.js';

export type { EndReason } from './call-errors.js';

interface Tombstone {
  reason: EndReason;
  at: number;
  identity: string | undefined;
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

  /** Remembers that `id`, of `identity`, ended for `reason`, and forgets what is past the limit or the ttl. */
  bury(id: string, reason: EndReason, identity: string | undefined): void {
    const now = this.clock.now();
    this.ended.delete(id);
    this.ended.set(id, { reason, at: now, identity });
    for (const [oldest, tombstone] of this.ended) {
      if (this.ended.size <= this.limit && now - tombstone.at <= this.ttl) break;
      this.ended.delete(oldest);
    }
  }

  /**
   * What a call presenting an id that is not open is told (see endedError): why it ended, while it is remembered and the
   * caller is its identity (or gives none).
   */
  errorFor(id: string, identity: string | undefined): SessionError {
    const tombstone = this.ended.get(id);
    const fresh = tombstone !== undefined && this.clock.now() - tombstone.at <= this.ttl && (identity === undefined || tombstone.identity === identity);
    return endedError(id, fresh ? tombstone.reason : undefined, this.sessionTimeout);
  }
}
