// The one interface for what outlives a process: saved states, session checkpoints and a fleet's directory.

/**
 * A record store: a folder on one server (the default), Redis in a fleet, or a custom server's own. Values are opaque
 * bytes that callers seal before they hand them over (nothing here is ever a secret in the clear). Keys are
 * `/`-separated segments of `[A-Za-z0-9_.-]`; callers derive them (hash user-given names), never pass raw input.
 * A store that cannot be reached rejects with a SessionError `BROWSER_ERROR`, reason `store_unavailable`.
 */
export interface Store {
  /** The record under `key`, or undefined when there is none (or it expired). */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Writes `value` under `key` atomically, replacing any record there: a reader sees the old value or the new one. `ttlMs` makes it expire. */
  set(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void>;
  /** Removes the record under `key`; true when there was one. */
  delete(key: string): Promise<boolean>;
  /** The keys that begin with `prefix`, in no particular order. */
  keys(prefix: string): Promise<string[]>;
  /** Lets go of files or connections; the store answers nothing after it. */
  close(): Promise<void>;
}
