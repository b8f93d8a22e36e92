// Says, on stderr and at a bounded rate, that the store held a record this replica ignored (not signed with the store key, or malformed).
import type { Clock, Logger } from '@sessionwright/session-core';

/** At most one warning per kind of record in this long; the rest are counted into the next. */
const WARN_EVERY_MS = 60_000;

export class UntrustedRecords {
  private readonly last = new Map<string, { at: number; since: number }>();

  constructor(private readonly init: { logger: Logger; clock: Clock }) {}

  /** A record of this kind (a session entry, a heartbeat, a live link…) was ignored. Names no key or value: they may be anyone's. */
  ignored(kind: string): void {
    const now = this.init.clock.now();
    const entry = this.last.get(kind);
    if (entry !== undefined && now - entry.at < WARN_EVERY_MS) {
      entry.since += 1;
      return;
    }
    const more = entry === undefined || entry.since === 0 ? '' : ` (and ${entry.since} more since the last warning)`;
    this.init.logger.warn(`the store holds a ${kind} not signed with this fleet's store key, or malformed; it is ignored${more}`);
    this.last.set(kind, { at: now, since: 0 });
  }
}
