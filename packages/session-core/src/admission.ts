// Who may open a session now: the server-wide and per-identity limits, with the creations still in flight counted as open.
import { SessionError } from './errors.js';

/** The sessions open now, as the manager's map knows them. */
interface OpenSessions {
  /** Open sessions in all. */
  count(): number;
  /** Open sessions of one identity. */
  countOf(identity: string): number;
}

/** One admitted creation: counted as open until released, and counted on its browser source once it has one. */
export interface Admitted<Source> {
  /** The creation goes to `source`: it counts there too, so that creations at the same moment spread over the sources. */
  headFor(source: Source): void;
  /** The creation ended, opened or not: it no longer counts. Calling it again does nothing. */
  release(): void;
}

/**
 * Admits creations within `maxSessions` (all identities together) and `maxSessionsPerIdentity`; a creation in flight holds its
 * place from admission to release, so a burst of creations cannot overshoot either limit.
 */
export class Admission<Source> {
  readonly maxSessions: number;
  readonly maxSessionsPerIdentity: number | undefined;
  private readonly open: OpenSessions;
  private creating = 0;
  private readonly creatingBy = new Map<string, number>();
  private readonly creatingOn = new Map<Source, number>();

  constructor(limits: { maxSessions: number; maxSessionsPerIdentity?: number | undefined }, open: OpenSessions) {
    this.maxSessions = limits.maxSessions;
    if (!Number.isInteger(this.maxSessions) || this.maxSessions < 1) throw new RangeError('maxSessions must be a positive integer');
    this.maxSessionsPerIdentity = limits.maxSessionsPerIdentity;
    if (this.maxSessionsPerIdentity !== undefined && (!Number.isInteger(this.maxSessionsPerIdentity) || this.maxSessionsPerIdentity < 1)) {
      throw new RangeError('maxSessionsPerIdentity must be a positive integer');
    }
    this.open = open;
  }

  /** Creations admitted and not yet released. */
  get inFlight(): number {
    return this.creating;
  }

  /** Creations in flight that have headed for `source`. */
  inFlightOn(source: Source): number {
    return this.creatingOn.get(source) ?? 0;
  }

  /**
   * Admits a creation for `identity`, or throws MAX_SESSIONS_REACHED (details.scope `server` or `client`) when a limit is
   * met. A `guarded` identity (one client of several) hears of its own sessions only, never how many the server
   * holds for the others: its refusal carries `yourSessions` where any other caller's carries `openSessions`.
   */
  admit(identity: string | undefined, guarded = false): Admitted<Source> {
    if (this.open.count() + this.creating >= this.maxSessions) {
      if (guarded && identity !== undefined) {
        const yours = this.open.countOf(identity);
        throw new SessionError(
          'MAX_SESSIONS_REACHED',
          `The server has no free session: all ${this.maxSessions} it allows are in use, ${yours} of them yours.`,
          { details: { scope: 'server', maxSessions: this.maxSessions, yourSessions: yours, next: 'free_session' } },
        );
      }
      throw new SessionError('MAX_SESSIONS_REACHED', `All ${this.maxSessions} sessions of the server are in use.`, {
        details: { scope: 'server', maxSessions: this.maxSessions, openSessions: this.open.count(), next: 'free_session' },
      });
    }
    const limit = this.maxSessionsPerIdentity;
    if (identity !== undefined && limit !== undefined && this.open.countOf(identity) + (this.creatingBy.get(identity) ?? 0) >= limit) {
      throw new SessionError('MAX_SESSIONS_REACHED', `This client already holds ${limit} sessions, the most one client may have open.`, {
        details: { scope: 'client', maxSessionsPerClient: limit, maxSessions: this.maxSessions, next: 'free_session' },
      });
    }
    this.creating += 1;
    if (identity !== undefined) add(this.creatingBy, identity, 1);
    let source: { value: Source } | undefined;
    let released = false;
    return {
      headFor: (chosen) => {
        if (released || source) return;
        source = { value: chosen };
        add(this.creatingOn, chosen, 1);
      },
      release: () => {
        if (released) return;
        released = true;
        this.creating -= 1;
        if (identity !== undefined) add(this.creatingBy, identity, -1);
        if (source) add(this.creatingOn, source.value, -1);
      },
    };
  }
}

/** Adds `delta` to a count, forgetting a key whose count reaches 0. */
function add<K>(counts: Map<K, number>, key: K, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
