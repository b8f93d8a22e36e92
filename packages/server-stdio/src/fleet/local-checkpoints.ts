// One server with --data-dir and no fleet: its sessions are checkpointed in that folder (sealed), and a restarted server restores each at its next call.
import { randomUUID } from 'node:crypto';
import { isSessionError, messageOf, shortId, type Logger, type Session, type SessionImage, type SessionManager, type Store } from '@sessionwright/session-core';
import { validate } from 'uuid';
import type { CallerScope, SessionKeeper } from '../session-access.js';
import { RESTORED_LOST, type Restored, type Routed } from './restored.js';

/** A checkpoint follows a session's call by about this much, at most once a second per session. */
const CHECKPOINT_DELAY_MS = 300;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** How often ended sessions' checkpoints are removed. */
const SWEEP_MS = 5_000;
const CAPTURE_TIMEOUT_MS = 15_000;

interface Checkpoint {
  identity: string;
  guarded: boolean;
  image: SessionImage;
}

/** The same keeping as a fleet's replica, for one process: checkpoints in a (sealed) folder store, restore by id. */
export class LocalCheckpoints implements SessionKeeper {
  private readonly held = new Map<string, { identity: string; guarded: boolean }>();
  private readonly dirty = new Map<string, NodeJS.Timeout>();
  private readonly last = new Map<string, number>();
  private readonly restoring = new Map<string, Promise<Restored | undefined>>();
  private readonly sweep: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly manager: SessionManager,
    private readonly logger: Logger,
    private readonly takesSessionId: (tool: string) => boolean,
  ) {
    this.sweep = setInterval(() => void this.forgetEnded(), SWEEP_MS);
    this.sweep.unref();
  }

  async reserve(): Promise<{ sessionId: string; release(): void }> {
    return { sessionId: randomUUID(), release() {} };
  }

  async opened(session: Session, scope: CallerScope): Promise<void> {
    this.held.set(session.id, { identity: scope.identity, guarded: scope.guarded });
    this.used(session.id);
  }

  used(sessionId: string): void {
    if (this.stopped || !this.held.has(sessionId) || this.dirty.has(sessionId)) return;
    const since = Date.now() - (this.last.get(sessionId) ?? 0);
    const timer = setTimeout(
      () => {
        this.dirty.delete(sessionId);
        this.last.set(sessionId, Date.now());
        void this.checkpoint(sessionId).catch((error: unknown) => this.logger.debug(`checkpoint of ${shortId(sessionId)} failed: ${messageOf(error)}`));
      },
      Math.max(CHECKPOINT_DELAY_MS, CHECKPOINT_INTERVAL_MS - since),
    );
    timer.unref();
    this.dirty.set(sessionId, timer);
  }

  closed(sessionId: string): void {
    this.forget(sessionId);
    void this.store.delete(keyOf(sessionId)).catch(() => {});
  }

  /** A call naming a session this process does not hold, but whose checkpoint is here: it is restored first. */
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
      const stored = await this.store.get(keyOf(sessionId));
      if (stored === undefined) return undefined;
      const checkpoint = JSON.parse(Buffer.from(stored).toString('utf8')) as Checkpoint;
      // Another identity's id is answered as an unknown one (by the manager, which holds no such session).
      if (checkpoint.guarded && checkpoint.identity !== scope.identity) return undefined;
      if (this.isLocal(sessionId)) return undefined;
      await this.manager.create({ identity: checkpoint.identity, guarded: checkpoint.guarded, sessionId, image: checkpoint.image });
      this.held.set(sessionId, { identity: checkpoint.identity, guarded: checkpoint.guarded });
      this.logger.info(`session ${shortId(sessionId)} restored from its checkpoint`);
      return { at: Date.now(), lost: RESTORED_LOST };
    })().finally(() => this.restoring.delete(sessionId));
    this.restoring.set(sessionId, restoring);
    return restoring;
  }

  /** Before shutdown: a final checkpoint of each session, so the next start restores them all. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    for (const timer of this.dirty.values()) clearTimeout(timer);
    this.dirty.clear();
    await Promise.all([...this.held.keys()].map((sessionId) => this.checkpoint(sessionId).catch(() => {})));
  }

  private async checkpoint(sessionId: string): Promise<void> {
    const held = this.held.get(sessionId);
    if (held === undefined || !this.isLocal(sessionId)) return;
    const session = this.manager.get(sessionId);
    const image = await session.run(() => session.image(), { timeout: CAPTURE_TIMEOUT_MS });
    const checkpoint: Checkpoint = { ...held, image };
    await this.store.set(keyOf(sessionId), Buffer.from(JSON.stringify(checkpoint), 'utf8'), { ttlMs: this.manager.sessionTimeout });
  }

  /** Sessions that ended here (idle expiry) take their checkpoints with them. */
  private async forgetEnded(): Promise<void> {
    for (const sessionId of [...this.held.keys()]) {
      if (this.isLocal(sessionId) || this.restoring.has(sessionId)) continue;
      this.closed(sessionId);
    }
  }

  private forget(sessionId: string): void {
    this.held.delete(sessionId);
    const timer = this.dirty.get(sessionId);
    if (timer !== undefined) clearTimeout(timer);
    this.dirty.delete(sessionId);
    this.last.delete(sessionId);
  }

  private isLocal(sessionId: string): boolean {
    try {
      this.manager.get(sessionId);
      return true;
    } catch {
      return false;
    }
  }
}

function keyOf(sessionId: string): string {
  return `checkpoints/${sessionId}`;
}
