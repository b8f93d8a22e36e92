// The Store (packages/session-core/src/store.ts) on Redis, for a fleet: one connection per replica, failing fast when Redis is away.
import { browserError, type Store } from '@sessionwright/session-core';
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

/** Runs a Redis command; a failure to reach Redis becomes BROWSER_ERROR `store_unavailable`. */
export async function reach<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw browserError('store_unavailable', 'The shared store (Redis) cannot be reached; try again in a moment.', { cause: error });
  }
}

/** A Store whose records are Redis strings under `sessionwright:<key>`. */
export class RedisStore implements Store {
  constructor(private readonly redis: Redis) {}

  async get(key: string): Promise<Uint8Array | undefined> {
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
