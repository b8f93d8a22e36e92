// Saved states: named sign-ins (cookies, every origin's localStorage and IndexedDB) kept sealed in a store, per identity.
import { SessionError } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import { RecordTooLarge } from './store.js';
import type { SealedStore } from './sealed-store.js';
import type { ImageStorageState } from './session-image.js';

/** How big one saved state may be (its JSON, before sealing) and how many one identity may keep. */
export interface StateLimits {
  maxBytes: number;
  maxPerIdentity: number;
}

/** 5 MiB per state, 50 states per identity. */
export const DEFAULT_STATE_LIMITS: StateLimits = { maxBytes: 5 * 1024 * 1024, maxPerIdentity: 50 };

/** A state's name: 1 to 100 letters, digits, spaces and `_ . @ -`, starting with a letter or digit. */
export const STATE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.@-]{0,99}$/;

/** What a saved state is, without any value. */
export interface SavedStateInfo {
  name: string;
  /** When it was saved, ms since the epoch. */
  savedAt: number;
  /** How many cookies it holds. */
  cookies: number;
  /** The origins whose localStorage or IndexedDB it holds. */
  origins: string[];
}

/** A record as it is sealed: its identity and name travel inside, so the store's keys say nothing. */
interface StateRecord {
  v: 1;
  identity: string;
  name: string;
  savedAt: number;
  state: ImageStorageState;
}

const PREFIX = 'states';

/**
 * Named states per identity, in a sealed store: `save` replaces a state of the same name, `load` answers its
 * storage state for a new session, and an identity never reaches another's states: another identity's name answers exactly as
 * a name nobody saved (INVALID_PARAMETERS, `details.state: "not_found"`). Nothing here answers a value.
 */
export class SavedStates {
  readonly limits: StateLimits;
  private readonly store: SealedStore;
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(options: { store: SealedStore; limits?: Partial<StateLimits>; now?: () => number; logger?: Logger }) {
    this.store = options.store;
    this.logger = options.logger ?? silentLogger;
    this.limits = { ...DEFAULT_STATE_LIMITS, ...options.limits };
    for (const key of ['maxBytes', 'maxPerIdentity'] as const) {
      if (!Number.isInteger(this.limits[key]) || this.limits[key] < 1) throw new RangeError(`${key} must be a positive integer`);
    }
    this.now = options.now ?? Date.now;
  }

  /** Saves `state` under `name` for `identity`, replacing one of that name; INVALID_PARAMETERS past a limit or for a bad name. */
  async save(identity: string, name: string, state: ImageStorageState): Promise<SavedStateInfo> {
    checkName(name);
    const record: StateRecord = { v: 1, identity, name, savedAt: this.now(), state };
    const bytes = Buffer.from(JSON.stringify(record), 'utf8');
    if (bytes.length > this.limits.maxBytes) {
      throw new SessionError(
        'INVALID_PARAMETERS',
        `The session's state is ${bytes.length} bytes, more than the ${this.limits.maxBytes} a saved state may hold; nothing was saved. Clear what the sites stored that is not needed to stay signed in, then save again.`,
        { details: { state: 'too_large', bytes: bytes.length, maxBytes: this.limits.maxBytes } },
      );
    }
    // The limit is the store's to keep: racing saves, here or on another replica, never pass it together.
    if (!(await this.store.setWithin(await this.keyOf(identity, name), bytes, { prefix: await this.folderOf(identity), max: this.limits.maxPerIdentity }))) {
      throw new SessionError(
        'INVALID_PARAMETERS',
        `You keep ${this.limits.maxPerIdentity} saved states, the most one client may keep; nothing was saved. Delete one you no longer need, or save under the name of one to replace it.`,
        { details: { state: 'too_many', maxStates: this.limits.maxPerIdentity } },
      );
    }
    return infoOf(record);
  }

  /** The identity's saved states, by name, without values; a record that cannot be opened is left out (and reported by the store). */
  async list(identity: string): Promise<SavedStateInfo[]> {
    const keys = await this.store.keys(await this.folderOf(identity));
    const records = await Promise.all(keys.map((key) => this.read(key, identity)));
    return records
      .filter((record): record is StateRecord => record !== undefined)
      .map(infoOf)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The storage state saved under `name`; INVALID_PARAMETERS `details.state: "not_found"` when the identity has none of that name. */
  async load(identity: string, name: string): Promise<ImageStorageState> {
    return (await this.find(identity, name)).state;
  }

  /** Removes the state saved under `name`, answering what it was; not_found as load. */
  async delete(identity: string, name: string): Promise<SavedStateInfo> {
    const record = await this.find(identity, name);
    await this.store.delete(await this.keyOf(identity, name));
    return infoOf(record);
  }

  /**
   * Re-seals with this store's key every state that `previous` (the same records under the key they were sealed
   * with) can open, and removes the old records: how a state key is rotated. Answers how many states moved.
   */
  async adoptFrom(previous: SealedStore): Promise<number> {
    let moved = 0;
    for (const key of await previous.keys(`${PREFIX}/`)) {
      const bytes = await this.readBounded(previous, key);
      const record = bytes === undefined ? undefined : parseRecord(bytes);
      if (record === undefined) continue;
      const target = await this.keyOf(record.identity, record.name);
      // Counted like any save, so the store's count of the identity's states stays whole; a rotation never drops one.
      await this.store.setWithin(target, Buffer.from(JSON.stringify(record), 'utf8'), {
        prefix: await this.folderOf(record.identity),
        max: Number.MAX_SAFE_INTEGER,
      });
      if (target !== key) await previous.delete(key);
      moved += 1;
    }
    return moved;
  }

  private async find(identity: string, name: string): Promise<StateRecord> {
    checkName(name);
    const record = await this.read(await this.keyOf(identity, name), identity);
    if (record === undefined || record.name !== name) throw notFound(name);
    return record;
  }

  private async read(key: string, identity: string): Promise<StateRecord | undefined> {
    const bytes = await this.readBounded(this.store, key);
    const record = bytes === undefined ? undefined : parseRecord(bytes);
    // A record sealed for another identity (copied between folders) is not this identity's.
    return record?.identity === identity ? record : undefined;
  }

  /** A record's bytes, unless it is larger than a state may be: then it is skipped unread (and reported). */
  private async readBounded(store: SealedStore, key: string): Promise<Uint8Array | undefined> {
    try {
      return await store.get(key, { maxBytes: this.limits.maxBytes });
    } catch (error) {
      if (!(error instanceof RecordTooLarge)) throw error;
      this.logger.warn(`saved states: ${error.message}, more than a state may be; it is skipped`);
      return undefined;
    }
  }

  private async folderOf(identity: string): Promise<string> {
    return `${PREFIX}/${await this.store.name(`identity\0${identity}`)}/`;
  }

  private async keyOf(identity: string, name: string): Promise<string> {
    return `${await this.folderOf(identity)}${await this.store.name(`state\0${identity}\0${name}`)}`;
  }
}

/** INVALID_PARAMETERS `details.option: "name"` unless `name` is a state name (STATE_NAME_PATTERN). */
function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !STATE_NAME_PATTERN.test(name)) {
    throw new SessionError('INVALID_PARAMETERS', 'A state name is 1 to 100 letters, digits, spaces and _ . @ -, starting with a letter or digit.', {
      details: { option: 'name' },
    });
  }
}

function notFound(name: string): SessionError {
  return new SessionError('INVALID_PARAMETERS', `There is no saved state named "${name}". List the saved states to see their names.`, {
    details: { state: 'not_found' },
  });
}

function infoOf(record: StateRecord): SavedStateInfo {
  const origins = new Set<string>();
  for (const origin of record.state.origins) origins.add(origin.origin);
  return { name: record.name, savedAt: record.savedAt, cookies: record.state.cookies.length, origins: [...origins].sort() };
}

function parseRecord(bytes: Uint8Array): StateRecord | undefined {
  try {
    const record = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<StateRecord>;
    if (record.v !== 1 || typeof record.identity !== 'string' || typeof record.name !== 'string' || typeof record.savedAt !== 'number') return undefined;
    if (!record.state || !Array.isArray(record.state.cookies) || !Array.isArray(record.state.origins)) return undefined;
    return record as StateRecord;
  } catch {
    return undefined;
  }
}
