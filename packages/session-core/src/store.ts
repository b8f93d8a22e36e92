// The one interface for what outlives a process: saved states, session checkpoints and a fleet's directory.

/**
 * A record store: a folder on one server (the default), Redis in a fleet, or a custom server's own. Values are opaque
 * bytes that callers seal before they hand them over (nothing here is ever a secret in the clear). Keys are
 * `/`-separated segments of `[A-Za-z0-9_.-]`; callers derive them (hash user-given names), never pass raw input.
 * A store that cannot be reached rejects with a SessionError `BROWSER_ERROR`, reason `store_unavailable`.
 */
export interface Store {
  /**
   * The record under `key`, or undefined when there is none (or it expired). With `maxBytes`, a record larger than that
   * is refused with a RecordTooLarge before it is read (its size is looked up first: a file's, a Redis string's length).
   */
  get(key: string, options?: { maxBytes?: number }): Promise<Uint8Array | undefined>;
  /** Writes `value` under `key` atomically, replacing any record there: a reader sees the old value or the new one. `ttlMs` makes it expire. */
  set(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void>;
  /**
   * Writes `value` under `key` unless that makes more than `limit.max` records whose keys begin with `limit.prefix`
   * (replacing a record there always fits); false when it does not fit. Atomic: writers racing each other, in this
   * process or another on the same store, never pass the limit together.
   */
  setWithin(key: string, value: Uint8Array, limit: { prefix: string; max: number }): Promise<boolean>;
  /** Removes the record under `key`; true when there was one. */
  delete(key: string): Promise<boolean>;
  /** The keys that begin with `prefix`, in no particular order. */
  keys(prefix: string): Promise<string[]>;
  /** Lets go of files or connections; the store answers nothing after it. */
  close(): Promise<void>;
}

/** A record larger than the reader would take: refused by its size, without reading it. */
export class RecordTooLarge extends Error {
  constructor(
    readonly key: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`the record ${key} is ${bytes} bytes, more than the ${maxBytes} its reader takes`);
    this.name = 'RecordTooLarge';
  }
}
