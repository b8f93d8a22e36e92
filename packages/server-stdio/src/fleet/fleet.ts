// One replica's part in a fleet, wired from small parts: membership (heartbeats), the directory, placement (where a call runs), hand-over (take-over, drain), the relay; and the checkpoints of the sessions it holds.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SessionError,
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
import type { Redis } from 'ioredis';
import type { CallerScope } from '../identity/session-access.js';
import { Checkpointer, captureSession } from './checkpointer.js';
import { Directory } from './directory.js';
import type { FleetKeys } from './fleet-keys.js';
import { HandOver, type Held } from './hand-over.js';
import { FleetLiveRelay } from './live-relay.js';
import { Membership } from './membership.js';
import { Placement, type RunLocally } from './placement.js';
import { RedisStore, whenReady } from './redis-store.js';
import { Relay, envelopeOf, type RelayOutcome } from './relay.js';
import { type Envelope, RelaySignature, type SignedRequest } from './relay-signature.js';
import { labelOf } from './replica-url.js';
import type { CallLegs, Keeper, Routed } from './restored.js';
import { UntrustedRecords } from './untrusted-records.js';

/** How often a replica compares what it holds with the directory (sessions that expired, moved, or that Redis lost). */
const RECONCILE_MS = 2_000;

interface FleetOptions {
  redis: Redis;
  /** The server's one store, sealed with the store key: checkpoints go there. */
  store: Store;
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

export class Fleet implements Keeper {
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
  private readonly checkpoints: Checkpointer;
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
    this.checkpoints = new Checkpointer({
      store: options.store,
      ttlMs: manager.sessionTimeout + 60_000,
      logger,
      clock: this.clock,
      timers: this.timers,
      capture: async (sessionId) => {
        const held = this.held.get(sessionId);
        if (held === undefined || !manager.has(sessionId)) return undefined;
        return { identity: held.identity, guarded: held.guarded, image: await captureSession(manager, sessionId) };
      },
    });
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
      checkpoints: this.checkpoints,
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
  connected(timeoutMs = 30_000): Promise<void> {
    return whenReady(this.options.redis, timeoutMs, this.timers);
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
  route(scope: CallerScope, tool: string, args: unknown, signal: AbortSignal, legs?: CallLegs): Promise<Routed> {
    return this.placement.route(scope, tool, args, signal, legs);
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
    this.checkpoints.remove(sessionId);
  }

  /** A call on a session of this replica ended: its checkpoint follows within about a second. */
  used(sessionId: string): void {
    if (this.held.has(sessionId)) this.checkpoints.used(sessionId);
  }

  /**
   * SIGTERM: takes no new session, checkpoints each session after its running calls and hands it over (the next call
   * for it, at any replica, restores it); the replica leaves the fleet at close().
   */
  async drain(): Promise<void> {
    this.draining = true;
    await this.membership.beat();
    await this.handOver.drainAll();
    this.timers.clearTimeout(this.reconciler);
  }

  /**
   * Leaves the fleet and lets go of the heartbeat and the connection. A drained replica stays listed (as draining)
   * until then, so the requests of its 2025 connections are still relayed to it during its drain window.
   */
  async close(): Promise<void> {
    this.timers.clearTimeout(this.reconciler);
    await this.membership.leave();
    this.checkpoints.stop();
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
          this.checkpoints.forget(sessionId);
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
    this.checkpoints.forget(sessionId);
  }
}
