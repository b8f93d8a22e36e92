// One server with --data-dir and no fleet: its sessions are checkpointed in that folder (sealed), and a restarted server restores each at its next call.
import { randomUUID } from 'node:crypto';
import {
  isSessionError,
  shortId,
  systemClock,
  systemTimers,
  type Clock,
  type Logger,
  type Session,
  type SessionManager,
  type Store,
  type TimerHandle,
  type Timers,
} from '@sessionwright/session-core';
import { validate } from 'uuid';
import type { CallerScope } from '../identity/session-access.js';
import { Checkpointer, captureSession } from './checkpointer.js';
import { type Keeper, RESTORED_LOST, type Restored, type Routed } from './restored.js';

/** How often ended sessions' checkpoints are removed. */
const SWEEP_MS = 5_000;

/** The same keeping as a fleet's replica, for one process: checkpoints in a (sealed) folder store, restore by id. */
export class LocalCheckpoints implements Keeper {
  private readonly held = new Map<string, { identity: string; guarded: boolean }>();
  private readonly checkpoints: Checkpointer;
  private readonly restoring = new Map<string, Promise<Restored | undefined>>();
  private sweep: TimerHandle | undefined;
  private drained = false;
  private readonly clock: Clock;
  private readonly timers: Timers;

  constructor(
    store: Store,
    private readonly manager: SessionManager,
    private readonly logger: Logger,
    private readonly takesSessionId: (tool: string) => boolean,
    time: { clock?: Clock; timers?: Timers } = {},
  ) {
    this.clock = time.clock ?? systemClock;
    this.timers = time.timers ?? systemTimers;
    this.checkpoints = new Checkpointer({
      clock: this.clock,
      timers: this.timers,
      store,
      ttlMs: manager.sessionTimeout,
      logger,
      capture: async (sessionId) => {
        const held = this.held.get(sessionId);
        if (held === undefined || !this.isLocal(sessionId)) return undefined;
        return { ...held, image: await captureSession(manager, sessionId) };
      },
    });
    this.sweepSoon();
  }

  private sweepSoon(): void {
    if (this.drained) return;
    this.sweep = this.timers.setTimeout(() => void this.forgetEnded().finally(() => this.sweepSoon()), SWEEP_MS);
  }

  async reserve(): Promise<{ sessionId: string; release(): void }> {
    return { sessionId: randomUUID(), release() {} };
  }

  async opened(session: Session, scope: CallerScope): Promise<void> {
    this.held.set(session.id, { identity: scope.identity, guarded: scope.guarded });
    this.used(session.id);
  }

  used(sessionId: string): void {
    if (this.held.has(sessionId)) this.checkpoints.used(sessionId);
  }

  closed(sessionId: string): void {
    this.held.delete(sessionId);
    this.checkpoints.remove(sessionId);
  }

  /** A call naming a session this process does not hold, but whose checkpoint is here: it is restored first. Every call runs here. */
  async route(scope: CallerScope, tool: string, args: unknown): Promise<Routed> {
    const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
    if (!this.takesSessionId(tool) || typeof sessionId !== 'string' || this.isLocal(sessionId)) return { kind: 'local' };
    try {
      const restored = await this.restore(scope, sessionId);
      return restored === undefined ? { kind: 'local' } : { kind: 'local', restored };
    } catch (error) {
      if (isSessionError(error)) return { kind: 'error', error };
      throw error;
    }
  }

  private restore(scope: CallerScope, sessionId: string): Promise<Restored | undefined> {
    const running = this.restoring.get(sessionId);
    if (running) return running;
    const restoring = (async () => {
      if (!validate(sessionId)) return undefined;
      const checkpoint = await this.checkpoints.read(sessionId);
      if (checkpoint === undefined) return undefined;
      // Another identity's id is answered as an unknown one (by the manager, which holds no such session).
      if (checkpoint.guarded && checkpoint.identity !== scope.identity) return undefined;
      if (this.isLocal(sessionId)) return undefined;
      await this.manager.create({ identity: checkpoint.identity, guarded: checkpoint.guarded, sessionId, image: checkpoint.image });
      this.held.set(sessionId, { identity: checkpoint.identity, guarded: checkpoint.guarded });
      this.logger.info(`session ${shortId(sessionId)} restored from its checkpoint`);
      return { at: this.clock.now(), lost: [...RESTORED_LOST, ...checkpoint.dropped] };
    })().finally(() => this.restoring.delete(sessionId));
    this.restoring.set(sessionId, restoring);
    return restoring;
  }

  /** Before shutdown: a final checkpoint of each session, so the next start restores them all. */
  async drain(): Promise<void> {
    this.checkpoints.stop();
    this.drained = true;
    this.timers.clearTimeout(this.sweep);
    await Promise.all([...this.held.keys()].map((sessionId) => this.checkpoints.now(sessionId).catch(() => {})));
  }

  /** Sessions that ended here (idle expiry) take their checkpoints with them. */
  private async forgetEnded(): Promise<void> {
    for (const sessionId of [...this.held.keys()]) {
      if (this.isLocal(sessionId) || this.restoring.has(sessionId)) continue;
      this.closed(sessionId);
    }
  }

  private isLocal(sessionId: string): boolean {
    return this.manager.has(sessionId);
  }
}
