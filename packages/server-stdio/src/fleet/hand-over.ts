// Sessions changing replica: a session whose replica is gone taken over here (claimed, restored from its checkpoint), and every session handed over when this replica drains.
import { type Clock, type Logger, type SessionManager, shortId } from '@sessionwright/session-core';
import { defined, messageOf } from '@sessionwright/session-core/parts';
import type { CheckpointRecord, Checkpointer } from './checkpointer.js';
import type { Directory, SessionRecord } from './directory.js';
import { labelOf } from './replica-url.js';
import { RESTORED_LOST, type Restored, type Routed } from './restored.js';

/** A session this replica holds, as the directory knows it. */
export interface Held {
  identity: string;
  guarded: boolean;
  generation: number;
}

export interface HandOverInit {
  directory: Directory;
  manager: SessionManager;
  logger: Logger;
  clock: Clock;
  /** The sessions this replica holds (shared with the rest of the fleet's parts). */
  held: Map<string, Held>;
  /** This replica's advertise URL. */
  url: () => string;
  /** The server's checkpointer: a hand-over takes a checkpoint now, a take-over reads it. */
  checkpoints: Pick<Checkpointer, 'now' | 'read'>;
  /** This replica lets go of a session: held no more, no checkpoint pending. */
  forget: (sessionId: string) => void;
}

export class HandOver {
  private readonly restoring = new Map<string, Promise<Restored | undefined>>();
  private readonly leaving = new Map<string, Promise<void>>();
  /** Calls routed to run here and not yet ended, by session: a hand-over waits for them (its checkpoint follows them). */
  private readonly running = new Map<string, { calls: number; ended: (() => void)[] }>();

  constructor(private readonly init: HandOverInit) {}

  /** Whether the session is being restored here or handed over from here. */
  moving(sessionId: string): boolean {
    return this.restoring.has(sessionId) || this.leaving.has(sessionId);
  }

  isLeaving(sessionId: string): boolean {
    return this.leaving.has(sessionId);
  }

  /**
   * Waits for a move of the session under way here; "run it here" when it was just restored here (and stays), else
   * undefined (the caller looks the session up).
   */
  async settled(sessionId: string): Promise<Routed | undefined> {
    const leaving = this.leaving.get(sessionId);
    if (leaving) await leaving;
    const restoring = this.restoring.get(sessionId);
    if (restoring === undefined) return undefined;
    const restored = await restoring;
    return this.init.held.has(sessionId) && !this.leaving.has(sessionId) ? this.runHere(sessionId, restored) : undefined;
  }

  /** "Run it here", counted among the session's running calls until the caller says it ended (`ended`). */
  runHere(sessionId: string, restored: Restored | undefined): Routed {
    const entry = this.running.get(sessionId) ?? { calls: 0, ended: [] };
    entry.calls += 1;
    this.running.set(sessionId, entry);
    let once = false;
    const ended = () => {
      if (once) return;
      once = true;
      entry.calls -= 1;
      if (entry.calls > 0) return;
      this.running.delete(sessionId);
      for (const resolve of entry.ended.splice(0)) resolve();
    };
    return { kind: 'local', ended, ...(restored ? { restored } : {}) };
  }

  /** Claims a session whose replica is gone and restores it here from its checkpoint; undefined when another replica won the claim. */
  takeOver(record: SessionRecord): Promise<Restored | undefined> {
    const running = this.restoring.get(record.sessionId);
    if (running) return running;
    const restoring = this.restore(record).finally(() => this.restoring.delete(record.sessionId));
    this.restoring.set(record.sessionId, restoring);
    return restoring;
  }

  private async restore(record: SessionRecord): Promise<Restored | undefined> {
    const { directory, manager, logger } = this.init;
    const url = this.init.url();
    const generation = await directory.claim(record, url, record.replica, record.generation);
    if (generation === undefined) return undefined;
    let checkpoint: CheckpointRecord | undefined;
    try {
      checkpoint = await this.init.checkpoints.read(record.sessionId);
    } catch (error) {
      logger.warn(`session ${shortId(record.sessionId)}: its checkpoint could not be read (${messageOf(error)}); it starts blank`, {
        sessionId: record.sessionId,
        identity: record.identity,
      });
    }
    try {
      await manager.create({ identity: record.identity, guarded: record.guarded, sessionId: record.sessionId, ...defined({ image: checkpoint?.image }) });
    } catch (error) {
      // Given back, so another replica (or a later call) can take it.
      await directory.claim(record, '', url, generation).catch(() => undefined);
      throw error;
    }
    this.init.held.set(record.sessionId, { identity: record.identity, guarded: record.guarded, generation });
    logger.info(`session ${shortId(record.sessionId)} restored here from ${record.replica === '' ? 'a hand-over' : labelOf(record.replica)}`);
    return { at: this.init.clock.now(), lost: [...RESTORED_LOST, ...(checkpoint?.dropped ?? [])] };
  }

  /** Hands every session this replica holds over to the fleet (a final checkpoint each, after its running calls). */
  async drainAll(): Promise<void> {
    const ids = [...this.init.held.keys()];
    let handed = 0;
    await Promise.all(
      ids.map(async (sessionId) => {
        const leaving = this.handOver(sessionId).then(
          () => void (handed += 1),
          (error: unknown) => this.init.logger.warn(`session ${shortId(sessionId)} could not be handed over: ${messageOf(error)}`, { sessionId }),
        );
        this.leaving.set(sessionId, leaving);
        await leaving;
        this.leaving.delete(sessionId);
      }),
    );
    if (ids.length > 0) this.init.logger.info(`handed ${handed} of ${ids.length} sessions over to the fleet`);
  }

  private async handOver(sessionId: string): Promise<void> {
    // The calls already routed here end first: none finds its session closed, and the checkpoint holds what they did.
    await this.callsEnded(sessionId);
    const held = this.init.held.get(sessionId);
    if (held === undefined || !this.init.manager.has(sessionId)) return;
    await this.init.checkpoints.now(sessionId);
    await this.init.directory.claim({ sessionId, ...held }, '', this.init.url(), held.generation);
    this.init.forget(sessionId);
    await this.init.manager.close(sessionId).catch(() => {});
  }

  /** Resolves once no call routed here for the session is running. */
  private callsEnded(sessionId: string): Promise<void> {
    const entry = this.running.get(sessionId);
    if (entry === undefined) return Promise.resolve();
    return new Promise((resolve) => entry.ended.push(resolve));
  }
}
