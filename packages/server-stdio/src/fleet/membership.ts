// Which replicas are alive: each says so in a signed heartbeat, listed in one sorted set by when it expires (no scan of the keyspace).
import type { Clock, Logger, TimerHandle, Timers } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import type { Redis } from 'ioredis';
import type { FleetKeys } from './fleet-keys.js';
import { KEY_PREFIX, reach } from './redis-store.js';
import { isReplicaUrl } from './replica-url.js';
import type { UntrustedRecords } from './untrusted-records.js';

/** What a replica says of itself every heartbeat. */
export interface ReplicaInfo {
  url: string;
  sessions: number;
  maxSessions: number;
  /** Stopping: it takes no new session and hands its sessions over. */
  draining: boolean;
}

/** How often a replica says it is alive, and how long that lasts: a replica silent for HEARTBEAT_TTL_MS is dead. */
export const HEARTBEAT_MS = 1_000;
export const HEARTBEAT_TTL_MS = 3_500;
/** How long a read of the live replicas serves the calls that follow it. */
const FRESH_MS = 500;

/** The sorted set of replica URLs, by when their heartbeat expires. */
const REPLICAS_KEY = `${KEY_PREFIX}replicas`;
const heartbeatKey = (url: string) => `${KEY_PREFIX}replica:${url}`;

// Drops the expired members, then answers each live member with its heartbeat ('' when none): one round trip.
// KEYS[1] the sorted set. ARGV: now ms, the heartbeat keys' prefix.
const LIVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local answer = {}
for _, url in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  answer[#answer + 1] = url
  answer[#answer + 1] = redis.call('GET', ARGV[2] .. url) or ''
end
return answer`;

export interface MembershipInit {
  redis: Redis;
  keys: FleetKeys;
  untrusted: UntrustedRecords;
  logger: Logger;
  clock: Clock;
  timers: Timers;
  /** What this replica says of itself, read at each heartbeat. */
  info: () => Omit<ReplicaInfo, 'url'>;
}

export class Membership {
  private url = '';
  private timer: TimerHandle | undefined;
  private read: { at: number; replicas: ReplicaInfo[] } | undefined;

  constructor(private readonly init: MembershipInit) {}

  /** Beats every HEARTBEAT_MS as the replica reached at `url` until stop(). */
  start(url: string): void {
    this.url = url;
    const loop = () => {
      this.timer = this.init.timers.setTimeout(() => {
        void this.beat().finally(loop);
      }, HEARTBEAT_MS);
    };
    void this.beat();
    loop();
  }

  /** Says this replica is alive (and how full, and whether it drains) now; a store that is away is tried again next beat. */
  async beat(): Promise<void> {
    if (this.url === '') return;
    const info: ReplicaInfo = { url: this.url, ...this.init.info() };
    const key = heartbeatKey(this.url);
    const expires = this.init.clock.now() + HEARTBEAT_TTL_MS;
    await reach(() =>
      this.init.redis
        .multi()
        .set(key, this.init.keys.signRecord(key, JSON.stringify(info)), 'PX', HEARTBEAT_TTL_MS)
        .zadd(REPLICAS_KEY, expires, this.url)
        .exec(),
    ).catch((error: unknown) => this.init.logger.debug(`heartbeat not written: ${messageOf(error)}`));
  }

  /** Stops beating and leaves the fleet at once (the other replicas stop counting on this one). */
  async leave(): Promise<void> {
    this.stop();
    if (this.url === '') return;
    await reach(() => this.init.redis.multi().del(heartbeatKey(this.url)).zrem(REPLICAS_KEY, this.url).exec()).catch(() => {});
  }

  stop(): void {
    this.init.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The replicas alive, as read at most FRESH_MS ago (`fresh`: read now): a forwarded call then costs one round trip
   * to Redis fewer. Only heartbeats signed with the store key count; a replica that died since is found out by its
   * refused connection.
   */
  async live(fresh = false): Promise<ReplicaInfo[]> {
    const now = this.init.clock.now();
    if (!fresh && this.read !== undefined && now - this.read.at < FRESH_MS) return this.read.replicas;
    const answer = (await reach(() => this.init.redis.eval(LIVE, 1, REPLICAS_KEY, String(now), `${KEY_PREFIX}replica:`))) as unknown;
    const replicas: ReplicaInfo[] = [];
    const flat = Array.isArray(answer) ? answer : [];
    for (let index = 0; index + 1 < flat.length; index += 2) {
      const replica = this.parse(flat[index], flat[index + 1]);
      if (replica !== undefined) replicas.push(replica);
    }
    this.read = { at: now, replicas };
    return replicas;
  }

  /** Whether `url` is a live replica's (by a read at most FRESH_MS old, or a fresh one when that does not list it). */
  async isLive(url: string): Promise<boolean> {
    if ((await this.live()).some((replica) => replica.url === url)) return true;
    return (await this.live(true)).some((replica) => replica.url === url);
  }

  /** A member's heartbeat, if it is signed for this member's key and well formed. */
  private parse(url: unknown, value: unknown): ReplicaInfo | undefined {
    if (!isReplicaUrl(url)) return this.untrusted();
    if (value === '') return undefined; // Its heartbeat just expired.
    const content = this.init.keys.openRecord(heartbeatKey(url), value);
    if (content === undefined) return this.untrusted();
    let info: unknown;
    try {
      info = JSON.parse(content);
    } catch {
      return this.untrusted();
    }
    const { url: said, sessions, maxSessions, draining } = (info ?? {}) as Partial<Record<keyof ReplicaInfo, unknown>>;
    if (said !== url || !isCount(sessions) || !isCount(maxSessions) || typeof draining !== 'boolean') return this.untrusted();
    return { url, sessions, maxSessions, draining };
  }

  private untrusted(): undefined {
    this.init.untrusted.ignored('heartbeat');
    return undefined;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
