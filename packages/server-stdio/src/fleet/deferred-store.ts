// A Store that is made in the background (a fleet's Redis connection): each use waits for it, so the server starts at once.
import type { Store } from '@sessionwright/session-core';

export class DeferredStore<T extends Store = Store> implements Store {
  constructor(readonly made: Promise<T>) {}

  async get(key: string, options?: { maxBytes?: number }): Promise<Uint8Array | undefined> {
    return (await this.made).get(key, options);
  }

  async set(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void> {
    return (await this.made).set(key, value, options);
  }

  async setWithin(key: string, value: Uint8Array, limit: { prefix: string; max: number }): Promise<boolean> {
    return (await this.made).setWithin(key, value, limit);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.made).delete(key);
  }

  async keys(prefix: string): Promise<string[]> {
    return (await this.made).keys(prefix);
  }

  async close(): Promise<void> {
    return (await this.made).close();
  }
}
