// One replica's part in a fleet: its directory entries, the forwarder (a call runs on the replica that holds its session), checkpoints and the restorer.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  SessionError,
  browserError,
  isSessionError,
  messageOf,
  shortId,
  type Logger,
  type Session,
  type SessionManager,
  type Store,
  defined,
} from '@sessionwright/session-core';
import type { Redis } from 'ioredis';
import { toCallToolResult } from '../mcp-server.js';
import type { CallerScope } from '../session-access.js';
import { Checkpointer, captureSession, type CheckpointRecord } from './checkpointer.js';
import { Directory, type ReplicaInfo, type SessionRecord } from './directory.js';
import type { FleetKeys } from './fleet-keys.js';
import { INTERNAL_CALL_PATH, SIGNATURE_HEADER, liveLinkBase } from './internal-route.js';
import { FleetLiveRelay } from './live-relay.js';
import { RedisStore, whenReady } from './redis-store.js';
import { RESTORED_LOST, withRestored, type Restored, type Routed } from './restored.js';

/** How often a replica says it is alive, and how long that lasts: a replica silent for HEARTBEAT_TTL_MS is dead. */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_TTL_MS = 3_500;
/** How often a replica compares what it holds with the directory (sessions that expired, moved, or that Redis lost). */
const RECONCILE_MS = 2_000;
/** How long a read of the live replicas serves the calls that follow it. */
const REPLICAS_FRESH_MS = 500;
/** How many times a call is sent on before it gives up (its session moved to another replica while it travelled). */
const MAX_HOPS = 3;
/** How long a call waits for the replica that holds its session to be known dead or alive before it gives up. */
const ROUTE_DEADLINE_MS = 15_000;

/** Runs a tool on this replica for a caller, as a call that reached it would run (no forwarding). */
type RunLocally = (scope: CallerScope, tool: string, args: unknown, signal: AbortSignal) => Promise<CallToolResult>;

/** A replica-to-replica call's body. */
interface InternalCall {
  scope: CallerScope;
  tool: string;
  arguments: unknown;
  hops: number;
  /** list_sessions: this replica's sessions only. */
  localOnly?: boolean;
  /** The base of live-view links for the caller (liveLinkBase). */
  liveBase?: string;
}

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
  /** Runs a call here: what a call forwarded to this replica comes to. */
  runLocally: RunLocally;
}

/** A session this replica holds, as the directory knows it. */
interface Held {
  identity: string;
  guarded: boolean;
  generation: number;
}

export class Fleet {
  readonly store: RedisStore;
  /** Live-view links through any replica. */
  readonly liveRelay: FleetLiveRelay;
  private readonly directory: Directory;
  private readonly held = new Map<string, Held>();
  private readonly restoring = new Map<string, Promise<Restored | undefined>>();
  private readonly leaving = new Map<string, Promise<void>>();
  /** Calls routed to run here and not yet ended, by session: a hand-over waits for them (its checkpoint follows them). */
  private readonly running = new Map<string, { calls: number; ended: (() => void)[] }>();
  private readonly checkpoints: Checkpointer;
  private url = '';
  private timers: NodeJS.Timeout[] = [];
  private draining = false;
  private storeUp = true;
  private replicasRead: { at: number; replicas: ReplicaInfo[] } | undefined;

  constructor(private readonly options: FleetOptions) {
    this.store = new RedisStore(options.redis);
    this.checkpoints = new Checkpointer({
      store: options.store,
      ttlMs: options.manager.sessionTimeout + 60_000,
      logger: options.logger,
      capture: async (sessionId) => {
        const held = this.held.get(sessionId);
        if (held === undefined || !this.isLocal(sessionId)) return undefined;
        return { identity: held.identity, guarded: held.guarded, image: await captureSession(options.manager, sessionId) };
      },
    });
    // A directory entry outlives its session's idle timeout by a margin: a replica refreshes it on every call.
    this.directory = new Directory(options.redis, options.manager.sessionTimeout + 60_000);
    this.liveRelay = new FleetLiveRelay({
      store: this.store,
      keys: options.keys,
      logger: options.logger,
      url: () => this.url,
      isLive: async (url) => (await this.liveReplicas()).some((replica) => replica.url === url),
    });
    options.redis.on('ready', () => {
      if (!this.storeUp) options.logger.info('the store is reachable again');
      this.storeUp = true;
      // The heartbeat first: a Redis that restarted empty must know this replica alive before it finds its sessions again.
      void this.beat().then(() => this.reconcile());
    });
    options.redis.on('error', () => {});
    options.redis.on('close', () => {
      if (this.storeUp) options.logger.warn('the store (Redis) cannot be reached; this replica keeps serving the sessions it holds');
      this.storeUp = false;
    });
  }

  /** This replica's advertise URL's host and port: its label in list_sessions. */
  get label(): string {
    return labelOf(this.url);
  }

  /** Resolves once Redis answers (or after `timeoutMs`, the store then being away): a replica takes calls from then on. */
  connected(timeoutMs = 30_000): Promise<void> {
    return whenReady(this.options.redis, timeoutMs);
  }

  /** Starts the heartbeat once the replica listens at `url` (its advertise URL). */
  start(url: string): void {
    this.url = url;
    void this.beat();
    this.timers.push(
      setInterval(() => void this.beat(), HEARTBEAT_MS),
      setInterval(() => void this.reconcile(), RECONCILE_MS),
    );
    for (const timer of this.timers) timer.unref();
  }

  /**
   * Where a call runs. A call naming a session another live replica holds runs there; a session whose replica died (or
   * handed it over) is restored here first; create_session at a full replica is placed on one with room; list_sessions
   * lists every replica's. BROWSER_ERROR `store_unavailable` when that needs the store and it is away.
   */
  async route(scope: CallerScope, tool: string, args: unknown, signal: AbortSignal, hops = 0): Promise<Routed> {
    try {
      if (tool === 'list_sessions') return { kind: 'result', result: await this.listEverywhere(scope, args, signal) };
      if (tool === 'create_session') return await this.place(scope, tool, args, signal, hops);
      const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
      if (!this.options.takesSessionId(tool) || typeof sessionId !== 'string') return { kind: 'local' };
      return await this.routeSession(scope, tool, args, sessionId, signal, hops);
    } catch (error) {
      if (isSessionError(error)) return { kind: 'result', result: toCallToolResult({ ok: false, error }) };
      throw error;
    }
  }

  private async routeSession(scope: CallerScope, tool: string, args: unknown, sessionId: string, signal: AbortSignal, hops: number): Promise<Routed> {
    const deadline = Date.now() + ROUTE_DEADLINE_MS;
    for (;;) {
      const leaving = this.leaving.get(sessionId);
      if (leaving) await leaving;
      const restoring = this.restoring.get(sessionId);
      if (restoring) {
        const restored = await restoring;
        if (this.held.has(sessionId) && !this.leaving.has(sessionId)) return this.runHere(sessionId, restored);
      }
      const held = this.held.get(sessionId);
      if (held !== undefined && this.isLocal(sessionId)) {
        // Still ours? A replica that was cut off may find its session moved meanwhile: then this copy is closed, never served twice.
        const ours = await this.directory
          .touch({ sessionId, replica: this.url, identity: held.identity, generation: held.generation })
          .catch((error: unknown) => {
            if (isSessionError(error)) return true; // The store is away: keep serving what this replica holds.
            throw error;
          });
        // A hand-over that began meanwhile: the call waits for it and follows the session.
        if (this.leaving.has(sessionId)) continue;
        if (ours) return this.runHere(sessionId, undefined);
        await this.dropMoved(sessionId);
      }
      const record = await this.directory.lookup(sessionId);
      // Unknown, closed, or another identity's: the local manager answers exactly as for an id it never issued.
      if (record === undefined || record.state === 'closed' || (record.guarded && record.identity !== scope.identity)) return { kind: 'local' };
      if (record.replica !== '' && record.replica !== this.url) {
        // Its replica is taken for dead only on a fresh read of the heartbeats (a cached one may predate its return).
        const cached = await this.liveReplicas();
        const replicas = cached.some((replica) => replica.url === record.replica) ? cached : await this.liveReplicas(true);
        if (replicas.some((replica) => replica.url === record.replica)) {
          const answer = await this.forward(record.replica, { scope, tool, arguments: args, hops: hops + 1 }, signal);
          if (answer !== undefined) return { kind: 'result', result: answer };
          // Its replica is gone (the connection was refused): the session is taken over here.
        }
      }
      if (this.draining) {
        // A stopping replica restores nothing: the call goes to one that stays.
        const other = await this.pickReplica((replica) => replica.url !== this.url && !replica.draining);
        if (other === undefined) throw browserError('shutting_down', 'The server is shutting down and no other replica is up. Try again in a moment.');
        const answer = await this.forward(other.url, { scope, tool, arguments: args, hops: hops + 1 }, signal);
        if (answer !== undefined) return { kind: 'result', result: answer };
      } else {
        const restored = await this.takeOver(record);
        if (restored !== undefined && !this.leaving.has(sessionId)) return this.runHere(sessionId, restored);
      }
      if (Date.now() > deadline || hops >= MAX_HOPS || signal.aborted)
        throw browserError('unknown', "The session's replica could not be reached. Try again in a moment.", { sessionId });
      await delay(100);
    }
  }

  /** "Run it here", counted among the session's running calls until the caller says it ended (`ended`). */
  private runHere(sessionId: string, restored: Restored | undefined): Routed {
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

  /** Resolves once no call routed here for the session is running. */
  private callsEnded(sessionId: string): Promise<void> {
    const entry = this.running.get(sessionId);
    if (entry === undefined) return Promise.resolve();
    return new Promise((resolve) => entry.ended.push(resolve));
  }

  /** Claims a session whose replica is gone and restores it here from its checkpoint; undefined when another replica won the claim. */
  private takeOver(record: SessionRecord): Promise<Restored | undefined> {
    const running = this.restoring.get(record.sessionId);
    if (running) return running;
    const restoring = (async () => {
      const generation = await this.directory.claim(record.sessionId, this.url, record.replica, record.generation);
      if (generation === undefined) return undefined;
      let checkpoint: CheckpointRecord | undefined;
      try {
        checkpoint = await this.checkpoints.read(record.sessionId);
      } catch (error) {
        this.options.logger.warn(`session ${shortId(record.sessionId)}: its checkpoint could not be read (${messageOf(error)}); it starts blank`);
      }
      try {
        await this.options.manager.create({
          identity: record.identity,
          guarded: record.guarded,
          sessionId: record.sessionId,
          ...defined({ image: checkpoint?.image }),
        });
      } catch (error) {
        // Given back, so another replica (or a later call) can take it.
        await this.directory.claim(record.sessionId, '', this.url, generation).catch(() => undefined);
        throw error;
      }
      this.held.set(record.sessionId, { identity: record.identity, guarded: record.guarded, generation });
      this.options.logger.info(`session ${shortId(record.sessionId)} restored here from ${record.replica === '' ? 'a hand-over' : labelOf(record.replica)}`);
      return { at: Date.now(), lost: [...RESTORED_LOST, ...(checkpoint?.dropped ?? [])] };
    })().finally(() => this.restoring.delete(record.sessionId));
    this.restoring.set(record.sessionId, restoring);
    return restoring;
  }

  /** create_session: here when this replica has room, else on a replica that has. */
  private async place(scope: CallerScope, tool: string, args: unknown, signal: AbortSignal, hops: number): Promise<Routed> {
    const { manager } = this.options;
    if (!this.draining && (manager.size < manager.maxSessions || hops >= MAX_HOPS)) return { kind: 'local' };
    const other = await this.pickReplica((replica) => replica.url !== this.url && !replica.draining && replica.sessions < replica.maxSessions);
    if (other === undefined) return { kind: 'local' };
    const answer = await this.forward(other.url, { scope, tool, arguments: args, hops: hops + 1 }, signal);
    return answer === undefined ? { kind: 'local' } : { kind: 'result', result: answer };
  }

  /** list_sessions on every live replica, each entry labelled with its replica. */
  private async listEverywhere(scope: CallerScope, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const run = this.runner();
    const local = await run(scope, 'list_sessions', args, signal);
    if (local.isError) return local;
    const replicas = await this.directory.replicas().catch(() => [] as ReplicaInfo[]);
    const others = replicas.filter((replica) => replica.url !== this.url);
    const remote = await Promise.all(
      others.map(async (replica) => ({
        replica,
        result: await this.forward(replica.url, { scope, tool: 'list_sessions', arguments: args, hops: MAX_HOPS, localOnly: true }, signal).catch(
          () => undefined,
        ),
      })),
    );
    const label = (result: CallToolResult | undefined, url: string) =>
      ((result?.structuredContent as { sessions?: Record<string, unknown>[] } | undefined)?.sessions ?? []).map((session) => ({
        ...session,
        replica: labelOf(url),
      }));
    const sessions = [
      ...label(local, this.url),
      ...remote.flatMap(({ replica, result }) => (result === undefined || result.isError ? [] : label(result, replica.url))),
    ];
    const maxSessions = Math.max(
      this.options.manager.maxSessions,
      replicas.reduce((sum, replica) => sum + replica.maxSessions, 0),
    );
    const data = { sessions, maxSessions };
    return { structuredContent: data, content: [{ type: 'text', text: JSON.stringify(data) }] };
  }

  /**
   * Sends a call to another replica; its answer, or undefined when that replica is gone (connection refused) or sent
   * it back. BROWSER_ERROR `cancelled` when the caller gave up.
   */
  private async forward(url: string, call: InternalCall, signal: AbortSignal): Promise<CallToolResult | undefined> {
    const liveBase = liveLinkBase.getStore();
    const body = JSON.stringify(liveBase === undefined ? call : { ...call, liveBase });
    let response: Response;
    try {
      response = await fetch(`${url}${INTERNAL_CALL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: this.options.keys.sign(INTERNAL_CALL_PATH, body) },
        body,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw browserError('cancelled', 'The call was cancelled.');
      this.options.logger.debug(`replica ${labelOf(url)} unreachable: ${messageOf(error)}`);
      return undefined;
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    return (await response.json()) as CallToolResult;
  }

  /**
   * The id of a new 2025 connection (Mcp-Session-Id) opened at this replica: a random part and this replica's advertise
   * URL, so a request of the connection that a balancer sends to another replica is relayed here (connectionReplica).
   */
  connectionId(): string {
    return `${randomUUID()}.${Buffer.from(this.url, 'utf8').toString('base64url')}`;
  }

  /** The live replica (another one) that holds a 2025 connection by its id, or undefined (this one's, unknown, or gone). */
  async connectionReplica(connectionId: string): Promise<string | undefined> {
    const encoded = connectionId.split('.')[1];
    if (encoded === undefined || !/^[A-Za-z0-9_-]{1,400}$/.test(encoded)) return undefined;
    const url = Buffer.from(encoded, 'base64url').toString('utf8');
    if (url === this.url) return undefined;
    // Only to a replica the directory knows: an id never names an address of the client's choosing.
    const replicas = await this.liveReplicas().catch(() => [] as ReplicaInfo[]);
    return replicas.some((replica) => replica.url === url) ? url : undefined;
  }

  /**
   * The live replica (another one) that holds the session a 2026-07-28 tools/call names, or undefined: the call is
   * relayed there whole (its question and retry, progress and cancellation included) rather than run through route().
   */
  async requestReplica(scope: CallerScope, tool: string, args: unknown): Promise<string | undefined> {
    const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
    if (!this.options.takesSessionId(tool) || typeof sessionId !== 'string' || this.draining) return undefined;
    if (this.isLocal(sessionId) || this.restoring.has(sessionId) || this.leaving.has(sessionId)) return undefined;
    try {
      const record = await this.directory.lookup(sessionId);
      if (record === undefined || record.state === 'closed' || record.replica === '' || record.replica === this.url) return undefined;
      if (record.guarded && record.identity !== scope.identity) return undefined;
      const replicas = await this.liveReplicas();
      return replicas.some((replica) => replica.url === record.replica && !replica.draining) ? record.replica : undefined;
    } catch {
      return undefined;
    }
  }

  /** The signature a relayed connection request carries (its method and connection id, signed with the store key). */
  relaySignature(method: string, connectionId: string): string {
    return this.options.keys.sign(`relay ${method}`, connectionId);
  }

  /** Whether a request is a connection request relayed by another replica of this fleet. */
  isRelayed(signature: string | undefined, method: string, connectionId: string | undefined): boolean {
    return connectionId !== undefined && this.options.keys.verify(signature, `relay ${method}`, connectionId);
  }

  /** Serves a replica-to-replica call: signed with the store key, or refused. */
  async serveInternal(body: string, signature: string | undefined, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
    if (!this.options.keys.verify(signature, INTERNAL_CALL_PATH, body)) return { status: 403, body: { error: 'not signed with the store key' } };
    let call: InternalCall;
    try {
      call = JSON.parse(body) as InternalCall;
    } catch {
      return { status: 400, body: { error: 'not JSON' } };
    }
    const liveBase = typeof call.liveBase === 'string' ? call.liveBase : undefined;
    return liveLinkBase.run(liveBase, () => this.serveCall(call, signal));
  }

  private async serveCall(call: InternalCall, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
    const run = this.runner();
    if (call.localOnly) return { status: 200, body: await run(call.scope, call.tool, call.arguments, signal) };
    const routed = await this.route(call.scope, call.tool, call.arguments, signal, call.hops);
    if (routed.kind === 'result') return { status: 200, body: routed.result };
    try {
      return { status: 200, body: withRestored(await run(call.scope, call.tool, call.arguments, signal), routed.restored) };
    } finally {
      routed.ended?.();
    }
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
      await this.directory.replicas(); // A session is entered in the store: it must be there.
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
    void this.directory.release({ sessionId, replica: this.url, identity: held.identity, generation: held.generation }).catch(() => {});
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
    await this.beat();
    const ids = [...this.held.keys()];
    let handed = 0;
    await Promise.all(
      ids.map(async (sessionId) => {
        const leaving = this.handOver(sessionId).then(
          () => void (handed += 1),
          (error: unknown) => this.options.logger.warn(`session ${shortId(sessionId)} could not be handed over: ${messageOf(error)}`),
        );
        this.leaving.set(sessionId, leaving);
        await leaving;
        this.leaving.delete(sessionId);
      }),
    );
    if (ids.length > 0) this.options.logger.info(`handed ${handed} of ${ids.length} sessions over to the fleet`);
  }

  private async handOver(sessionId: string): Promise<void> {
    // The calls already routed here end first: none finds its session closed, and the checkpoint holds what they did.
    await this.callsEnded(sessionId);
    const held = this.held.get(sessionId);
    if (held === undefined || !this.isLocal(sessionId)) return;
    await this.checkpoints.now(sessionId);
    await this.directory.claim(sessionId, '', this.url, held.generation);
    this.forget(sessionId);
    await this.options.manager.close(sessionId).catch(() => {});
  }

  /**
   * Leaves the fleet and lets go of the heartbeat and the connection. A drained replica stays listed (as draining)
   * until then, so the requests of its 2025 connections are still relayed to it during its drain window.
   */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.directory.leave(this.url).catch(() => {});
    this.checkpoints.stop();
    await this.store.close();
  }

  private async beat(): Promise<void> {
    if (this.url === '') return;
    const { manager } = this.options;
    await this.directory
      .heartbeat({ url: this.url, sessions: manager.size, maxSessions: manager.maxSessions, draining: this.draining }, HEARTBEAT_TTL_MS)
      .catch(() => {});
  }

  /**
   * Compares the sessions this replica holds with the directory: one that ended here (idle expiry) is released; one the
   * directory lost (Redis restarted empty) is entered again and checkpointed anew; one that moved to another replica
   * while this one was cut off is closed here.
   */
  private async reconcile(): Promise<void> {
    if (this.url === '' || this.draining) return;
    for (const [sessionId, held] of [...this.held]) {
      if (this.restoring.has(sessionId) || this.leaving.has(sessionId)) continue;
      try {
        if (!this.isLocal(sessionId)) {
          this.forget(sessionId);
          await this.directory.release({ sessionId, replica: this.url, identity: held.identity, generation: held.generation });
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
    this.checkpoints.forget(sessionId);
  }

  private isLocal(sessionId: string): boolean {
    try {
      this.options.manager.get(sessionId);
      return true;
    } catch {
      return false;
    }
  }

  private async pickReplica(fits: (replica: ReplicaInfo) => boolean): Promise<ReplicaInfo | undefined> {
    const candidates = (await this.liveReplicas()).filter(fits);
    // The emptiest first, so placed sessions spread.
    return candidates.sort((a, b) => a.sessions / a.maxSessions - b.sessions / b.maxSessions)[0];
  }

  /**
   * The replicas alive, as read at most REPLICAS_FRESH_MS ago: a forwarded call then costs one round trip to Redis
   * fewer. A replica that died since is found out by its refused connection.
   */
  private async liveReplicas(fresh = false): Promise<ReplicaInfo[]> {
    const now = Date.now();
    if (!fresh && this.replicasRead !== undefined && now - this.replicasRead.at < REPLICAS_FRESH_MS) return this.replicasRead.replicas;
    const replicas = await this.directory.replicas();
    this.replicasRead = { at: now, replicas };
    return replicas;
  }

  private runner(): RunLocally {
    return this.options.runLocally;
  }
}

/** A replica's label: the host and port of its advertise URL. */
export function labelOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
