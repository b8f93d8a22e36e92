// The Store (packages/session-core/src/store.ts) on Redis, for a fleet: one connection per replica, failing fast when Redis is away.
import { RecordTooLarge, browserError, systemTimers, type Store, type Timers } from '@sessionwright/session-core';
import { Redis } from 'ioredis';

/** Every key a fleet writes begins with this, so one Redis can hold other data beside it. */
export const KEY_PREFIX = 'sessionwright:';

/**
 * A Redis connection as a fleet uses it: commands fail at once while Redis is away (no offline queue, no retries of a
 * command) and the client reconnects in the background, so a replica keeps serving what it holds and notices Redis's
 * return ('ready').
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 5_000,
    // A Redis that accepts a command and never answers counts as away; a busy machine still answers well within this.
    commandTimeout: 10_000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
}

/** Resolves once Redis answers, or after `timeoutMs` (the store then being away). */
export async function whenReady(redis: Redis, timeoutMs: number, timers: Timers = systemTimers): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = timers.setTimeout(done, timeoutMs);
    function done() {
      timers.clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
    redis.on('ready', done);
  });
}

/** Runs a Redis command; a failure to reach Redis becomes BROWSER_ERROR `store_unavailable`. */
export async function reach<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw browserError('store_unavailable', 'The shared store (Redis) cannot be reached; try again in a moment.', { cause: error });
  }
}

/**
 * setWithin in one step: KEYS are the record and its prefix's index (a set of the keys written through setWithin),
 * ARGV the value and the limit. Index members whose record is gone (deleted, expired) are dropped before a refusal.
 */
const SET_WITHIN = `
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then
  for _, member in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    if redis.call('EXISTS', member) == 0 then redis.call('SREM', KEYS[2], member) end
  end
  if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], KEYS[1])
return 1
`;

/** A Store whose records are Redis strings under `sessionwright:<key>`. */
export class RedisStore implements Store {
  constructor(readonly redis: Redis) {}

  async get(key: string, options: { maxBytes?: number } = {}): Promise<Uint8Array | undefined> {
    const { maxBytes } = options;
    if (maxBytes !== undefined) {
      // Its length first: a record past what the reader takes never crosses the network.
      const bytes = await reach(() => this.redis.strlen(KEY_PREFIX + key));
      if (bytes > maxBytes) throw new RecordTooLarge(key, bytes, maxBytes);
    }
    const value = await reach(() => this.redis.getBuffer(KEY_PREFIX + key));
    return value === null ? undefined : new Uint8Array(value);
  }

  async set(key: string, value: Uint8Array, options: { ttlMs?: number } = {}): Promise<void> {
    const buffer = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    await reach(() =>
      options.ttlMs === undefined
        ? this.redis.set(KEY_PREFIX + key, buffer)
        : this.redis.set(KEY_PREFIX + key, buffer, 'PX', Math.max(1, Math.ceil(options.ttlMs))),
    );
  }

  async setWithin(key: string, value: Uint8Array, limit: { prefix: string; max: number }): Promise<boolean> {
    const buffer = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    const index = `${KEY_PREFIX}index:${limit.prefix}`;
    return (await reach(() => this.redis.eval(SET_WITHIN, 2, KEY_PREFIX + key, index, buffer, String(limit.max)))) === 1;
  }

  async delete(key: string): Promise<boolean> {
    return (await reach(() => this.redis.del(KEY_PREFIX + key))) > 0;
  }

  async keys(prefix: string): Promise<string[]> {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await reach(() => this.redis.scan(cursor, 'MATCH', `${escapeGlob(KEY_PREFIX + prefix)}*`, 'COUNT', 500));
      cursor = next;
      for (const key of batch) found.add(key.slice(KEY_PREFIX.length));
    } while (cursor !== '0');
    return [...found];
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
