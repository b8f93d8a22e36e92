// The fleet's directory in Redis: which replica owns each session (with a generation number, signed with the store key) and each identity's count.
import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '@sessionwright/session-core';
import type { Redis } from 'ioredis';
import type { FleetKeys } from './fleet-keys.js';
import { KEY_PREFIX, reach } from './redis-store.js';
import { isReplicaUrl } from './replica-url.js';
import type { UntrustedRecords } from './untrusted-records.js';

/** A session's entry. `replica` is the advertise URL of the replica that holds it ('' while handed over, waiting for a replica to take it). */
export interface SessionRecord {
  sessionId: string;
  replica: string;
  /** Who the session belongs to (an identity, a connection, or the one local identity). */
  identity: string;
  /** Only its identity may use it (with identities); else the id alone is the capability. */
  guarded: boolean;
  /** Moves forward every time the session moves to another replica: a replica's update with an older generation changes nothing. */
  generation: number;
  /** 'closed' once released: nothing brings it back. */
  state: 'open' | 'closed';
}

/** How long a released session's entry stays, so a late touch or claim finds it closed rather than absent. */
const CLOSED_RECORD_MS = 600_000;

// Every change of an entry's fields brings the entry's new MAC (recordMac), computed by the replica that makes it.
// KEYS[1] session hash, KEYS[2] identity's sorted set. ARGV: id, replica, identity, guarded, ttl ms, now ms, generation, mac.
const REGISTER = `
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'closed' then return 0 end
redis.call('HSET', KEYS[1], 'replica', ARGV[2], 'identity', ARGV[3], 'guarded', ARGV[4], 'gen', ARGV[7], 'state', 'open', 'mac', ARGV[8])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], tonumber(ARGV[6]) + tonumber(ARGV[5]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1`;

// A touch moves the expiry forward only while the entry is open and still this replica's at this generation.
// ARGV: id, replica, generation, ttl ms, now ms.
const TOUCH = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'replica') ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[3] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], tonumber(ARGV[5]) + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`;

// ARGV: id, replica, generation, closed ttl ms, mac.
const RELEASE = `
if redis.call('HGET', KEYS[1], 'replica') ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'closed', 'mac', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

// Takes an open session from `expected` (a dead replica, or '' for one handed over) at generation `gen`: one claimer wins.
// ARGV: new replica, expected replica, expected generation, mac. Answers the new generation, or 0.
const CLAIM = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'replica') ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[3] then return 0 end
local gen = tonumber(ARGV[3]) + 1
redis.call('HSET', KEYS[1], 'replica', ARGV[1], 'gen', tostring(gen), 'mac', ARGV[4])
return gen`;

// Counts the identity's live sessions (dropping expired ones) and, below `max`, adds `id` at once. ARGV: id, max, expiry ms, now ms.
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) - tonumber(ARGV[4]))
return 1`;

const sessionKey = (id: string) => `${KEY_PREFIX}session:${id}`;
const identityKey = (identity: string) => `${KEY_PREFIX}identity:${createHash('sha256').update(identity).digest('hex').slice(0, 32)}`;

/** The fields of an entry a MAC covers, as stored. */
type Entry = Omit<SessionRecord, 'state'> & { state: SessionRecord['state'] };

/** What a replica needs to write an entry: who it belongs to (the MAC covers it), and the replica and generation now. */
export type EntryOwner = Pick<SessionRecord, 'sessionId' | 'identity' | 'guarded'>;

/**
 * The directory over one Redis connection; every method rejects with BROWSER_ERROR `store_unavailable` when Redis is
 * away. Every entry it reads is checked against its MAC: one that fails is as if it were not there.
 */
export class Directory {
  constructor(
    private readonly init: {
      redis: Redis;
      keys: FleetKeys;
      untrusted: UntrustedRecords;
      /** How long an entry lives without a touch: the session's idle timeout and a margin. */
      ttlMs: number;
      clock?: Clock;
    },
  ) {}

  private get redis(): Redis {
    return this.init.redis;
  }

  private get ttlMs(): number {
    return this.init.ttlMs;
  }

  private now(): number {
    return (this.init.clock ?? systemClock).now();
  }

  /** The entry's MAC: its key and every field, so no field can be changed or moved to another session's entry. */
  private mac(entry: Entry): string {
    return this.init.keys.mac(
      'session',
      sessionKey(entry.sessionId),
      entry.replica,
      entry.identity,
      entry.guarded ? '1' : '0',
      String(entry.generation),
      entry.state,
    );
  }

  /** The session's entry, or undefined when there is none or it is not one a replica of this fleet wrote (that is logged). */
  async lookup(sessionId: string): Promise<SessionRecord | undefined> {
    const fields = await reach(() => this.redis.hgetall(sessionKey(sessionId)));
    if (Object.keys(fields).length === 0) return undefined;
    const { replica, identity, guarded, gen, state, mac } = fields;
    const generation = Number(gen);
    const entry: Entry | undefined =
      replica !== undefined &&
      (replica === '' || isReplicaUrl(replica)) &&
      identity !== undefined &&
      (guarded === '0' || guarded === '1') &&
      gen !== undefined &&
      /^\d{1,15}$/.test(gen) &&
      (state === 'open' || state === 'closed')
        ? { sessionId, replica, identity, guarded: guarded === '1', generation, state }
        : undefined;
    if (entry === undefined || mac !== this.mac(entry)) {
      this.init.untrusted.ignored('session entry');
      return undefined;
    }
    return entry;
  }

  /** Records a session this replica holds; false when it was released meanwhile (it must not come back). */
  async register(record: Omit<SessionRecord, 'state'>): Promise<boolean> {
    const result = await reach(() =>
      this.redis.eval(
        REGISTER,
        2,
        sessionKey(record.sessionId),
        identityKey(record.identity),
        record.sessionId,
        record.replica,
        record.identity,
        record.guarded ? '1' : '0',
        String(this.ttlMs),
        String(this.now()),
        String(record.generation),
        this.mac({ ...record, state: 'open' }),
      ),
    );
    return result === 1;
  }

  async touch(record: Pick<SessionRecord, 'sessionId' | 'replica' | 'identity' | 'generation'>): Promise<boolean> {
    const result = await reach(() =>
      this.redis.eval(
        TOUCH,
        2,
        sessionKey(record.sessionId),
        identityKey(record.identity),
        record.sessionId,
        record.replica,
        String(record.generation),
        String(this.ttlMs),
        String(this.now()),
      ),
    );
    return result === 1;
  }

  async release(record: Omit<SessionRecord, 'state'>): Promise<boolean> {
    const result = await reach(() =>
      this.redis.eval(
        RELEASE,
        2,
        sessionKey(record.sessionId),
        identityKey(record.identity),
        record.sessionId,
        record.replica,
        String(record.generation),
        String(CLOSED_RECORD_MS),
        this.mac({ ...record, state: 'closed' }),
      ),
    );
    return result === 1;
  }

  /** Takes the session for `replica` if it is still `expected`'s at `generation`; the new generation, or undefined when another replica won. */
  async claim(owner: EntryOwner, replica: string, expected: string, generation: number): Promise<number | undefined> {
    const mac = this.mac({ ...owner, replica, generation: generation + 1, state: 'open' });
    const result = await reach(() => this.redis.eval(CLAIM, 1, sessionKey(owner.sessionId), replica, expected, String(generation), mac));
    return typeof result === 'number' && result > 0 ? result : undefined;
  }

  /** Reserves a place for a new session of `identity` below `max` sessions across the fleet; false when the identity holds `max`. */
  async reserve(identity: string, placeholder: string, max: number): Promise<boolean> {
    const now = this.now();
    const result = await reach(() => this.redis.eval(RESERVE, 1, identityKey(identity), placeholder, String(max), String(now + this.ttlMs), String(now)));
    return result === 1;
  }

  /** Gives back a reservation (or a session's place). */
  async unreserve(identity: string, member: string): Promise<void> {
    await reach(() => this.redis.zrem(identityKey(identity), member));
  }

  /** The identity's sessions across the fleet. */
  async sessionsOf(identity: string): Promise<string[]> {
    const key = identityKey(identity);
    await reach(() => this.redis.zremrangebyscore(key, '-inf', String(this.now())));
    return reach(() => this.redis.zrange(key, 0, -1));
  }
}
