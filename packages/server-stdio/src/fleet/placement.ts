// Where a call runs in a fleet: here, on the live replica that holds its session (relayed), on a replica with room (create_session), or here after a take-over; list_sessions on every replica.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type Clock, type Logger, type SessionManager, type Timers, browserError, isSessionError } from '@sessionwright/session-core';
import type { CallerScope } from '../identity/session-access.js';
import type { Directory, SessionRecord } from './directory.js';
import type { FleetKeys } from './fleet-keys.js';
import type { HandOver, Held } from './hand-over.js';
import { relayedCall } from './internal-route.js';
import type { Membership, ReplicaInfo } from './membership.js';
import { type RemoteCall, type Relay, envelopeOf } from './relay.js';
import { isReplicaUrl, labelOf } from './replica-url.js';
import type { CallLegs, Routed } from './restored.js';

/** How many times a call is sent on before it gives up (its session moved to another replica while it travelled). */
export const MAX_HOPS = 3;
/** How long a call waits for the replica that holds its session to be known dead or alive before it gives up. */
const ROUTE_DEADLINE_MS = 15_000;
/** A call on a session held here confirms with the directory at most this often that it still is (the reconcile does too). */
const CONFIRM_EVERY_MS = 1_000;
/** How long a session's owner, as read from the directory, serves the calls that follow (a wrong one costs a hop, never a wrong answer). */
const OWNER_FRESH_MS = 1_000;
const MAX_OWNERS_KEPT = 10_000;

/** Runs a tool on this replica for a caller, as a call that reached it would run (no forwarding). */
export type RunLocally = (scope: CallerScope, tool: string, args: unknown, signal: AbortSignal) => Promise<CallToolResult>;

/** A call to place, as it reached this replica. */
interface Call {
  scope: CallerScope;
  tool: string;
  args: unknown;
  signal: AbortSignal;
  /** How many replicas it has passed through. */
  hops: number;
  /** Its progress and its questions for the user, passed back to its client when it runs elsewhere. */
  legs: CallLegs;
}

export interface PlacementInit {
  directory: Directory;
  /** Signs the ids of the 2025 connections opened here. */
  keys: FleetKeys;
  membership: Membership;
  relay: Relay;
  handOver: HandOver;
  manager: SessionManager;
  logger: Logger;
  clock: Clock;
  timers: Timers;
  held: Map<string, Held>;
  url: () => string;
  draining: () => boolean;
  /** Whether the store answers: while it is away, nothing read from it before is relied on. */
  storeUp: () => boolean;
  /** Tools that take a sessionId (they run where their session is). */
  takesSessionId: (tool: string) => boolean;
  /** list_sessions here. */
  runLocally: RunLocally;
  /** This replica's copy of a session that moved on: closed here. */
  dropMoved: (sessionId: string) => Promise<void>;
}

export class Placement {
  private readonly confirmed = new Map<string, number>();
  private readonly owners = new Map<string, { record: SessionRecord; at: number }>();

  constructor(private readonly init: PlacementInit) {}

  /**
   * Where a call runs. A call naming a session another live replica holds runs there; a session whose replica died (or
   * handed it over) is restored here first; create_session at a full replica is placed on one with room; list_sessions
   * lists every replica's. BROWSER_ERROR `store_unavailable` when that needs the store and it is away.
   */
  async route(scope: CallerScope, tool: string, args: unknown, signal: AbortSignal, legs: CallLegs = {}): Promise<Routed> {
    const relayed = relayedCall.getStore();
    const hops = relayed?.hops ?? 0;
    try {
      if (tool === 'list_sessions') return relayed?.localOnly ? { kind: 'local' } : { kind: 'result', result: await this.listEverywhere(scope, args, signal) };
      const call: Call = { scope, tool, args, signal, hops, legs };
      if (tool === 'create_session') return await this.place(call);
      const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
      if (!this.init.takesSessionId(tool) || typeof sessionId !== 'string') return { kind: 'local' };
      return await this.routeSession(call, sessionId);
    } catch (error) {
      if (isSessionError(error)) return { kind: 'error', error };
      throw error;
    }
  }

  /**
   * The live replica (another one) that holds the session a 2026-07-28 tools/call names, or undefined: the call is
   * relayed there whole (its question and retry, progress and cancellation included) rather than run through route().
   */
  async relayTarget(scope: CallerScope, tool: string, args: unknown): Promise<string | undefined> {
    const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
    if (!this.init.takesSessionId(tool) || typeof sessionId !== 'string' || this.init.draining()) return undefined;
    if (this.init.manager.has(sessionId) || this.init.handOver.moving(sessionId)) return undefined;
    try {
      const record = await this.owner(sessionId);
      if (record === undefined || record.state === 'closed' || record.replica === '' || record.replica === this.init.url()) return undefined;
      if (record.guarded && record.identity !== scope.identity) return undefined;
      const replicas = await this.init.membership.live();
      return replicas.some((replica) => replica.url === record.replica && !replica.draining) ? record.replica : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The id of a new 2025 connection (Mcp-Session-Id) opened at this replica: a random part, this replica's advertise
   * URL and their MAC under the store key, so a request of the connection that a balancer sends to another replica is
   * relayed here (connectionReplica), and no id made elsewhere names a replica.
   */
  connectionId(): string {
    const random = randomUUID();
    const encoded = Buffer.from(this.init.url(), 'utf8').toString('base64url');
    return `${random}.${encoded}.${this.init.keys.mac('connection', random, encoded)}`;
  }

  /** The live replica (another one) that holds a 2025 connection by its id, or undefined (this one's, unknown, forged, or gone). */
  async connectionReplica(connectionId: string): Promise<string | undefined> {
    const [random = '', encoded = '', mac] = connectionId.split('.');
    if (!/^[A-Za-z0-9_-]{1,400}$/.test(encoded) || !this.init.keys.macMatches(mac, 'connection', random, encoded)) return undefined;
    const url = Buffer.from(encoded, 'base64url').toString('utf8');
    if (url === this.init.url() || !isReplicaUrl(url)) return undefined;
    // Only to a replica with a signed heartbeat: an id never names an address of the client's choosing.
    return (await this.init.membership.isLive(url).catch(() => false)) ? url : undefined;
  }

  /** A session of this replica was let go of: nothing about it is kept. */
  forget(sessionId: string): void {
    this.confirmed.delete(sessionId);
    this.owners.delete(sessionId);
  }

  private async routeSession(call: Call, sessionId: string): Promise<Routed> {
    const { scope, signal, hops } = call;
    const { handOver, held, manager } = this.init;
    const deadline = this.init.clock.now() + ROUTE_DEADLINE_MS;
    for (;;) {
      const settled = await handOver.settled(sessionId);
      if (settled !== undefined) return settled;
      const ours = held.get(sessionId);
      if (ours !== undefined && manager.has(sessionId)) {
        const still = await this.stillOurs(sessionId, ours);
        // A hand-over that began meanwhile: the call waits for it and follows the session.
        if (handOver.isLeaving(sessionId)) continue;
        if (still) return handOver.runHere(sessionId, undefined);
        await this.init.dropMoved(sessionId);
      }
      const record = await this.owner(sessionId);
      // Unknown, closed, or another identity's: the local manager answers exactly as for an id it never issued.
      if (record === undefined || record.state === 'closed' || (record.guarded && record.identity !== scope.identity)) return { kind: 'local' };
      const url = this.init.url();
      let busy = false;
      if (record.replica !== '' && record.replica !== url && (await this.init.membership.isLive(record.replica))) {
        const answer = await this.send(record.replica, call);
        if (answer.kind === 'result') return answer;
        this.owners.delete(sessionId);
        // An answer of any kind means its replica is alive: its session is never claimed from it. A refusal (another
        // store key) is final; any other answer (stopping, busy) is asked again once its entry is read again.
        if (answer.kind === 'refused') {
          if (answer.status === 403) throw refusedBy(record.replica, answer.status, sessionId);
          busy = true;
        }
      }
      if (!busy && this.init.draining()) {
        // A stopping replica restores nothing: the call goes to one that stays.
        const other = await this.pick((replica) => replica.url !== url && !replica.draining);
        if (other === undefined) throw browserError('shutting_down', 'The server is shutting down and no other replica is up. Try again in a moment.');
        const answer = await this.send(other.url, call);
        if (answer.kind === 'result') return answer;
      } else if (!busy) {
        const restored = await handOver.takeOver(record);
        if (restored !== undefined && !handOver.isLeaving(sessionId)) return handOver.runHere(sessionId, restored);
        this.owners.delete(sessionId);
      }
      if (this.init.clock.now() > deadline || hops >= MAX_HOPS || signal.aborted)
        throw browserError('unknown', "The session's replica could not be reached. Try again in a moment.", {
          sessionId,
          details: { browserMessage: `no answer from the replica that holds it after ${hops + 1} hop(s)` },
        });
      await new Promise<void>((resolve) => this.init.timers.setTimeout(resolve, 100));
    }
  }

  /**
   * Whether a session held here is still this replica's: a replica that was cut off may find its session moved
   * meanwhile, and then its copy is closed, never served twice. Asked of the directory at most every CONFIRM_EVERY_MS.
   */
  private async stillOurs(sessionId: string, held: Held): Promise<boolean> {
    const now = this.init.clock.now();
    if (now - (this.confirmed.get(sessionId) ?? Number.NEGATIVE_INFINITY) < CONFIRM_EVERY_MS) return true;
    const { directory } = this.init;
    const entry = { sessionId, replica: this.init.url(), ...held };
    try {
      if (!(await directory.touch(entry))) {
        // Moved, or an entry nobody of the fleet wrote (ignored: this replica writes its own again and keeps serving).
        const record = await directory.lookup(sessionId);
        if (record !== undefined) return false;
        await directory.register(entry);
      }
    } catch (error) {
      if (!isSessionError(error)) throw error;
      // The store is away: keep serving what this replica holds.
    }
    this.confirmed.set(sessionId, now);
    return true;
  }

  /** The session's entry, as read at most OWNER_FRESH_MS ago. */
  private async owner(sessionId: string): Promise<SessionRecord | undefined> {
    const now = this.init.clock.now();
    const known = this.owners.get(sessionId);
    if (known !== undefined && now - known.at < OWNER_FRESH_MS && this.init.storeUp()) return known.record;
    const record = await this.init.directory.lookup(sessionId);
    this.owners.delete(sessionId);
    if (record !== undefined && record.state === 'open' && record.replica !== '') {
      if (this.owners.size >= MAX_OWNERS_KEPT) this.owners.delete(this.owners.keys().next().value ?? '');
      this.owners.set(sessionId, { record, at: now });
    }
    return record;
  }

  /** create_session: here when this replica has room, else on a replica that has. */
  private async place(call: Call): Promise<Routed> {
    const { manager } = this.init;
    if (!this.init.draining() && (manager.size < manager.maxSessions || call.hops >= MAX_HOPS)) return { kind: 'local' };
    const url = this.init.url();
    const other = await this.pick((replica) => replica.url !== url && !replica.draining && replica.sessions < replica.maxSessions);
    if (other === undefined) return { kind: 'local' };
    const answer = await this.send(other.url, call);
    return answer.kind === 'result' ? answer : { kind: 'local' };
  }

  /** list_sessions on every live replica, each entry labelled with its replica. */
  private async listEverywhere(scope: CallerScope, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const local = await this.init.runLocally(scope, 'list_sessions', args, signal);
    if (local.isError) return local;
    const url = this.init.url();
    const replicas = await this.init.membership.live().catch(() => [] as ReplicaInfo[]);
    const remote = await Promise.all(
      replicas
        .filter((replica) => replica.url !== url)
        .map(async (replica) => ({
          replica,
          answer: await this.init.relay
            .call(replica.url, envelopeOf(scope, MAX_HOPS, true), 'list_sessions', args, signal)
            .catch((): RemoteCall => ({ kind: 'gone' })),
        })),
    );
    const label = (result: CallToolResult, from: string) => {
      const listed = (result.structuredContent as { sessions?: unknown } | undefined)?.sessions;
      if (!Array.isArray(listed)) return [];
      return listed
        .filter((session): session is object => typeof session === 'object' && session !== null)
        .map((session) => ({ ...session, replica: labelOf(from) }));
    };
    const sessions = [
      ...label(local, url),
      ...remote.flatMap(({ replica, answer }) => (answer.kind !== 'result' || answer.result.isError ? [] : label(answer.result, replica.url))),
    ];
    const maxSessions = Math.max(
      this.init.manager.maxSessions,
      replicas.reduce((sum, replica) => sum + replica.maxSessions, 0),
    );
    const data = { sessions, maxSessions };
    return { structuredContent: data, content: [{ type: 'text', text: JSON.stringify(data) }] };
  }

  /** Runs the call at another replica; its answer as a route, or why there is none. BROWSER_ERROR `cancelled` when the caller gave up. */
  private async send(url: string, call: Call): Promise<RemoteCall> {
    try {
      return await this.init.relay.call(url, envelopeOf(call.scope, call.hops + 1), call.tool, call.args, call.signal, call.legs);
    } catch (error) {
      if (call.signal.aborted) throw browserError('cancelled', 'The call was cancelled.');
      throw error;
    }
  }

  private async pick(fits: (replica: ReplicaInfo) => boolean): Promise<ReplicaInfo | undefined> {
    const candidates = (await this.init.membership.live()).filter(fits);
    // The emptiest first, so placed sessions spread.
    return candidates.sort((a, b) => a.sessions / a.maxSessions - b.sessions / b.maxSessions)[0];
  }
}

/** A live replica answered, but not with the call's result (another store key, most likely): the session stays with it. */
function refusedBy(url: string, status: number, sessionId: string) {
  return browserError(
    'unknown',
    `The replica that holds this session (${labelOf(url)}) refused the relayed call (HTTP ${status}); the session stays there. Check that every replica has the same --store-key.`,
    { sessionId, details: { browserMessage: `HTTP ${status} from ${labelOf(url)}` } },
  );
}
