// Idle expiry: one timer per open session, moved by each use, that ends the session once it has gone unused for its timeout.
import type { Clock, TimerHandle, Timers } from './clock.js';
import type { Session } from './session.js';

interface IdleExpiryInit {
  clock: Clock;
  timers: Timers;
  /** The idle timeout, also how long a busy session's check waits before it looks again. */
  sessionTimeout: number;
  /** True while `session` is the open session of its id (an ended one is left alone). */
  isOpen: (session: Session) => boolean;
  /** Ends a session that expired. */
  expire: (session: Session) => void;
}

/** Arms, moves and clears each open session's expiry timer (Session.expiresAt says when). */
export class IdleExpiry {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(private readonly init: IdleExpiryInit) {}

  /** Marks the session used now and moves its expiry. */
  touch(session: Session): void {
    session.touch(this.init.clock.now());
    this.schedule(session);
  }

  /** Arms the session's timer for its expiry (or `delay` ms from now). */
  schedule(session: Session, delay = Math.max(0, session.expiresAt - this.init.clock.now())): void {
    const previous = this.timers.get(session.id);
    if (previous !== undefined) this.init.timers.clearTimeout(previous);
    this.timers.set(
      session.id,
      this.init.timers.setTimeout(() => this.check(session), delay),
    );
  }

  /** Clears the timer of a session that ended. */
  clear(sessionId: string): void {
    const timer = this.timers.get(sessionId);
    if (timer !== undefined) this.init.timers.clearTimeout(timer);
    this.timers.delete(sessionId);
  }

  private check(session: Session): void {
    if (!this.init.isOpen(session)) return;
    // A call still running keeps the session alive; it is touched again when the call ends. Until then look again
    // a full timeout later: expiresAt is already past, so the default delay would be 0 and the timer would spin.
    if (session.busy) {
      this.schedule(session, this.init.sessionTimeout);
      return;
    }
    if (this.init.clock.now() < session.expiresAt) {
      this.schedule(session);
      return;
    }
    this.init.expire(session);
  }
}
