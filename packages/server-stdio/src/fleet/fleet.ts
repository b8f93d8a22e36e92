// One replica's part in a fleet, wired from small parts: membership (heartbeats), the directory, placement (where a call runs), hand-over (take-over, drain), the relay; and the checkpoints of the sessions it holds.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SessionError,
  messageOf,
  shortId,
  systemClock,
  systemTimers,
  type Clock,
  type Logger,
  type Session,
  type SessionImage,
  type SessionManager,
  type TimerHandle,
  type Timers,
} from '@sessionwright/session-core';
import type { Redis } from 'ioredis';
import type { CallerScope } from '../session-access.js';
import { Directory } from './directory.js';
import type { FleetKeys } from './fleet-keys.js';
import { HandOver, type Held } from './hand-over.js';
import { FleetLiveRelay } from './live-relay.js';
import { Membership } from './membership.js';
import { Placement, type RunLocally } from './placement.js';
import { RedisStore } from './redis-store.js';
import { type OnProgress, Relay, envelopeOf, type RelayOutcome } from './relay.js';
import { type Envelope, RelaySignature, type SignedRequest } from './relay-signature.js';
import { labelOf } from './replica-url.js';
import type { Routed } from './restored.js';
import { UntrustedRecords } from './untrusted-records.js';

/** How often a replica compares what it holds with the directory (sessions that expired, moved, or that Redis lost). */
const RECONCILE_MS = 2_000;
/** A checkpoint follows a session's call by about this much, and a session is checkpointed at most once per interval. */
const CHECKPOINT_DELAY_MS = 300;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** How many checkpoints are captured at once, so checkpoints never crowd out calls. */
const CHECKPOINT_CONCURRENCY = 2;
/** How long capturing a checkpoint may take in the session's queue. */
const CAPTURE_TIMEOUT_MS = 15_000;

interface FleetOptions {
  redis: Redis;
  keys: FleetKeys;
  manager: SessionManager;
  logger: Logger;
  maxSessionsPerClient: number | undefined;
  /** Tools that take a sessionId (they run where their session is). */
  takesSessionId: (tool: string) => boolean;
  /** Runs list_sessions here for a caller. */
  runLocally: RunLocally;
  clock?: Clock;
  timers?: Timers;
}

export class Fleet {
  readonly store: RedisStore;
  /** Live-view links through any replica. */
  readonly liveRelay: FleetLiveRelay;
  private readonly directory: Directory;
  private readonly membership: Membership;
  private readonly handOver: HandOver;
  private readonly placement: Placement;
  private readonly relay: Relay;
  private readonly signature: RelaySignature;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly held = new Map<string, Held>();
  private readonly dirty = new Map<string, NodeJS.Timeout>();
  private readonly lastCheckpoint = new Map<string, number>();
  private readonly checkpointQueue: (() => Promise<void>)[] = [];
  private checkpointsRunning = 0;
  private url = '';
  private reconciler: TimerHandle | undefined;
  private draining = false;
  private storeUp = true;

  constructor(private readonly options: FleetOptions) {
    const { redis, keys, manager, logger } = options;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    const untrusted = new UntrustedRecords({ logger, clock: this.clock });
    this.store = new RedisStore(redis);
    // A directory entry outlives its session's idle timeout by a margin: a replica refreshes it on calls.
    this.directory = new Directory({ redis, keys, untrusted, ttlMs: manager.sessionTimeout + 60_000, clock: this.clock });
    this.membership = new Membership({
      redis,
      keys,
      untrusted,
      logger,
      clock: this.clock,
      timers: this.timers,
      info: () => ({ sessions: manager.size, maxSessions: manager.maxSessions, draining: this.draining }),
    });
    this.signature = new RelaySignature({ keys, clock: this.clock });
    this.relay = new Relay({ signature: this.signature, logger });
    this.handOver = new HandOver({
      directory: this.directory,
      manager,
      logger,
      clock: this.clock,
      held: this.held,
      url: () => this.url,
      checkpoint: (sessionId) => {
        const timer = this.dirty.get(sessionId);
        if (timer !== undefined) clearTimeout(timer);
        this.dirty.delete(sessionId);
        return this.checkpoint(sessionId);
      },
      readCheckpoint: (sessionId) => this.readCheckpoint(sessionId),
      forget: (sessionId) => this.forget(sessionId),
    });
    this.placement = new Placement({
      directory: this.directory,
      keys,
      membership: this.membership,
      relay: this.relay,
      handOver: this.handOver,
      manager,
      logger,
      clock: this.clock,
      timers: this.timers,
      held: this.held,
      url: () => this.url,
      draining: () => this.draining,
      storeUp: () => redis.status === 'ready',
      takesSessionId: options.takesSessionId,
      runLocally: options.runLocally,
      dropMoved: (sessionId) => this.dropMoved(sessionId),
    });
    this.liveRelay = new FleetLiveRelay({
      store: this.store,
      keys,
      signature: this.signature,
      untrusted,
      logger,
      url: () => this.url,
      isLive: (url) => this.membership.isLive(url),
    });
    redis.on('ready', () => {
      if (!this.storeUp) logger.info('the store is reachable again');
      this.storeUp = true;
      // The heartbeat first: a Redis that restarted empty must know this replica alive before it finds its sessions again.
      void this.membership.beat().then(() => this.reconcile());
    });
    redis.on('error', () => {});
    redis.on('close', () => {
      if (this.storeUp) logger.warn('the store (Redis) cannot be reached; this replica keeps serving the sessions it holds');
      this.storeUp = false;
    });
  }

  /** This replica's advertise URL's host and port: its label in list_sessions. */
  get label(): string {
    return labelOf(this.url);
  }

  /** Resolves once Redis answers (or after `timeoutMs`, the store then being away): a replica takes calls from then on. */
  async connected(timeoutMs = 30_000): Promise<void> {
    const { redis } = this.options;
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = this.timers.setTimeout(done, timeoutMs);
      const timers = this.timers;
      function done() {
        timers.clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      }
      redis.on('ready', done);
    });
  }

  /** Starts the heartbeat and the reconcile once the replica listens at `url` (its advertise URL). */
  start(url: string): void {
    this.url = url;
    this.membership.start(url);
    const loop = () => {
      this.reconciler = this.timers.setTimeout(() => void this.reconcile().finally(loop), RECONCILE_MS);
    };
    loop();
  }

  /** Where a call runs (fleet/placement.ts). */
  route(scope: CallerScope, tool: string, args: unknown, signal: AbortSignal, onProgress?: OnProgress): Promise<Routed> {
    return this.placement.route(scope, tool, args, signal, onProgress);
  }

  /** The id of a new 2025 connection opened here (it names this replica). */
  connectionId(): string {
    return this.placement.connectionId();
  }

  /** The live replica (another one) that holds a 2025 connection by its id, or undefined. */
  connectionReplica(connectionId: string): Promise<string | undefined> {
    return this.placement.connectionReplica(connectionId);
  }

  /** The live replica (another one) a 2026-07-28 tools/call is relayed to whole, or undefined. */
  requestReplica(scope: CallerScope, tool: string, args: unknown): Promise<string | undefined> {
    return this.placement.relayTarget(scope, tool, args);
  }

  /** Relays a client's request whole to `replica`, as the caller `scope` (the client's credentials stay here). */
  relayRequest(
    replica: string,
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: string | undefined,
    scope: CallerScope,
    whole: boolean,
  ): Promise<RelayOutcome> {
    return this.relay.pass(replica, path, req, res, body, envelopeOf(scope, 1), whole);
  }

  /** The envelope of a request another replica relayed here, or undefined when its signature is not good for this replica, now, once. */
  acceptRelayed(request: Omit<SignedRequest, 'destination'>, signature: string | undefined, envelope: string | undefined): Envelope | undefined {
    return this.signature.verify({ ...request, destination: this.url }, signature, envelope);
  }

  /** A session was created here: it is entered in the directory (the caller's place across the fleet was reserved by reserve()). */
  async opened(session: Session, scope: CallerScope): Promise<void> {
    const held = { identity: scope.identity, guarded: scope.guarded, generation: 1 };
    this.held.set(session.id, held);
    await this.directory.register({ sessionId: session.id, replica: this.url, ...held });
    this.used(session.id);
  }

  /**
   * A new session's id and its place among the caller's sessions across the fleet (--max-sessions-per-client);
   * MAX_SESSIONS_REACHED when the caller holds them all.
   */
  async reserve(scope: CallerScope): Promise<{ sessionId: string; release(): void }> {
    const sessionId = randomUUID();
    const max = this.options.maxSessionsPerClient;
    if (max === undefined) {
      await this.membership.live(true); // A session is entered in the store: it must be there.
      return { sessionId, release() {} };
    }
    if (!(await this.directory.reserve(scope.identity, sessionId, max))) {
      throw new SessionError('MAX_SESSIONS_REACHED', `This client already holds ${max} sessions, the most one client may have open.`, {
        details: { scope: 'client', maxSessionsPerClient: max, maxSessions: this.options.manager.maxSessions, next: 'free_session' },
      });
    }
    return { sessionId, release: () => void this.directory.unreserve(scope.identity, sessionId).catch(() => {}) };
  }

  /** A session of this replica was closed by its caller: released for good. */
  closed(sessionId: string): void {
    const held = this.held.get(sessionId);
    if (held === undefined) return;
    this.forget(sessionId);
    void this.directory.release({ sessionId, replica: this.url, ...held }).catch(() => {});
    void this.store.delete(checkpointKey(sessionId)).catch(() => {});
  }

  /** A call on a session of this replica ended: its checkpoint follows within about a second. */
  used(sessionId: string): void {
    if (!this.held.has(sessionId) || this.dirty.has(sessionId)) return;
    const since = Date.now() - (this.lastCheckpoint.get(sessionId) ?? 0);
    const timer = setTimeout(
      () => {
        this.enqueueCheckpoint(sessionId);
      },
      Math.max(CHECKPOINT_DELAY_MS, CHECKPOINT_INTERVAL_MS - since),
    );
    timer.unref();
    this.dirty.set(sessionId, timer);
  }

  private enqueueCheckpoint(sessionId: string): void {
    this.checkpointQueue.push(async () => {
      this.dirty.delete(sessionId);
      this.lastCheckpoint.set(sessionId, Date.now());
      await this.checkpoint(sessionId).catch((error: unknown) => this.options.logger.debug(`checkpoint of ${shortId(sessionId)} failed: ${messageOf(error)}`));
    });
    this.pumpCheckpoints();
  }

  private pumpCheckpoints(): void {
    while (this.checkpointsRunning < CHECKPOINT_CONCURRENCY && this.checkpointQueue.length > 0) {
      const next = this.checkpointQueue.shift();
      if (next === undefined) break;
      this.checkpointsRunning += 1;
      void next().finally(() => {
        this.checkpointsRunning -= 1;
        this.pumpCheckpoints();
      });
    }
  }

  /** Captures the session's image in its queue (after the calls before it) and stores it sealed. */
  private async checkpoint(sessionId: string): Promise<void> {
    if (!this.held.has(sessionId) || !this.options.manager.has(sessionId)) return;
    const session = this.options.manager.get(sessionId);
    const image = await session.run(() => session.image(), { timeout: CAPTURE_TIMEOUT_MS });
    const sealed = this.options.keys.seal(Buffer.from(JSON.stringify(image), 'utf8'), checkpointKey(sessionId));
    await this.store.set(checkpointKey(sessionId), sealed, { ttlMs: this.options.manager.sessionTimeout + 60_000 });
  }

  private async readCheckpoint(sessionId: string): Promise<SessionImage | undefined> {
    const sealed = await this.store.get(checkpointKey(sessionId));
    if (sealed === undefined) return undefined;
    const plain = this.options.keys.unseal(sealed, checkpointKey(sessionId));
    if (plain === undefined) throw new Error("the checkpoint is not sealed with this fleet's store key");
    return JSON.parse(Buffer.from(plain).toString('utf8')) as SessionImage;
  }

  /**
   * SIGTERM: takes no new session, checkpoints each session after its running calls and hands it over (the next call
   * for it, at any replica, restores it), then leaves the fleet.
   */
  async drain(): Promise<void> {
    this.draining = true;
    await this.membership.beat();
    await this.handOver.drainAll();
    this.timers.clearTimeout(this.reconciler);
    await this.membership.leave();
  }

  /** Lets go of the heartbeat and the connection. */
  async close(): Promise<void> {
    this.membership.stop();
    this.timers.clearTimeout(this.reconciler);
    for (const timer of this.dirty.values()) clearTimeout(timer);
    this.relay.close();
    await this.store.close();
  }

  /**
   * Compares the sessions this replica holds with the directory: one that ended here (idle expiry) is released; one the
   * directory lost (Redis restarted empty, or an entry nobody of the fleet wrote) is entered again and checkpointed
   * anew; one that moved to another replica while this one was cut off is closed here.
   */
  private async reconcile(): Promise<void> {
    if (this.url === '' || this.draining) return;
    for (const [sessionId, held] of [...this.held]) {
      if (this.handOver.moving(sessionId)) continue;
      try {
        if (!this.options.manager.has(sessionId)) {
          this.forget(sessionId);
          await this.directory.release({ sessionId, replica: this.url, ...held });
          continue;
        }
        const record = await this.directory.lookup(sessionId);
        if (record === undefined) {
          await this.directory.register({ sessionId, replica: this.url, ...held });
          this.lastCheckpoint.delete(sessionId);
          this.used(sessionId);
        } else if (record.state === 'closed' || record.replica !== this.url || record.generation !== held.generation) {
          await this.dropMoved(sessionId);
        }
      } catch {
        return; // The store is away: try again on the next round.
      }
    }
  }

  /** This replica's copy of a session that moved to another replica (or was closed there): closed without touching the directory. */
  private async dropMoved(sessionId: string): Promise<void> {
    this.options.logger.info(`session ${shortId(sessionId)} is held by another replica now; closing this replica's copy`);
    this.forget(sessionId);
    await this.options.manager.close(sessionId).catch(() => {});
  }

  private forget(sessionId: string): void {
    this.held.delete(sessionId);
    this.placement.forget(sessionId);
    const timer = this.dirty.get(sessionId);
    if (timer !== undefined) clearTimeout(timer);
    this.dirty.delete(sessionId);
    this.lastCheckpoint.delete(sessionId);
  }
}

function checkpointKey(sessionId: string): string {
  return `checkpoint/${sessionId}`;
}
