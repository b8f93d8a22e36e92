// The default Store: one file per record in a folder of this machine, written atomically.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { browserError, messageOf } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import { RecordTooLarge, type Store } from './store.js';

/** A key segment: what a caller derives (a hash, a fixed word); nothing a user typed. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
/** Each record file starts with these bytes, then its expiry (ms since the epoch, 0 for none) as 8 bytes, then the value. */
const MAGIC = Buffer.from('SWR1');
const HEADER_BYTES = MAGIC.length + 8;
/** Temporary files carry this mark, which no key segment can hold: a write killed half-way is never read as a record. */
const TEMP_MARK = '~tmp';
/** A temporary file older than this is a write that was killed; it is removed when the folder is listed. */
const STALE_TEMP_MS = 3_600_000;

/** Where the server keeps what outlives it by default: `$XDG_STATE_HOME/sessionwright`, or `~/.local/state/sessionwright`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_STATE_HOME'] || path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'sessionwright');
}

export interface FolderStoreOptions {
  /** The folder (made with mode 0700 at the first write). */
  dir: string;
  /** Told of a file that is not a record (reported once per read, then skipped). */
  logger?: Logger;
}

/**
 * A Store in a folder: each key a file (its `/`-separated segments as subfolders), files and folders readable by this
 * user only. A write goes to a temporary file that is flushed to disk, renamed over the record and the folder flushed
 * too, so a crash at any moment leaves the old record or the new, never a broken one. A file that is not a record (cut
 * short, or put there by something else) is reported on the logger and answered as missing; the others are unaffected.
 */
export class FolderStore implements Store {
  readonly dir: string;
  private readonly logger: Logger;
  private closed = false;
  /** setWithin's writes under each prefix, one after another (one process owns a folder). */
  private readonly prefixLocks = new Map<string, Promise<unknown>>();

  constructor(options: FolderStoreOptions) {
    this.dir = path.resolve(options.dir);
    this.logger = options.logger ?? silentLogger;
  }

  async get(key: string, options: { maxBytes?: number } = {}): Promise<Uint8Array | undefined> {
    const file = this.fileOf(key);
    let bytes: Buffer;
    try {
      const handle = await open(file, constants.O_RDONLY);
      try {
        // Its size is looked at first: a record past what the reader takes is never read whole.
        const { size } = await handle.stat();
        if (options.maxBytes !== undefined && size - HEADER_BYTES > options.maxBytes) throw new RecordTooLarge(key, size - HEADER_BYTES, options.maxBytes);
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof RecordTooLarge) throw error;
      if (isMissing(error)) return undefined;
      throw unavailable(error);
    }
    if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
      this.logger.warn(`store: ${file} is not a record of this store; it is skipped`);
      return undefined;
    }
    const expires = Number(bytes.readBigUInt64BE(MAGIC.length));
    if (expires !== 0 && expires <= Date.now()) {
      await unlink(file).catch(() => {});
      return undefined;
    }
    return new Uint8Array(bytes.subarray(HEADER_BYTES));
  }

  async set(key: string, value: Uint8Array, options: { ttlMs?: number } = {}): Promise<void> {
    const file = this.fileOf(key);
    const folder = path.dirname(file);
    const header = Buffer.alloc(HEADER_BYTES);
    MAGIC.copy(header);
    header.writeBigUInt64BE(BigInt(options.ttlMs === undefined ? 0 : Date.now() + Math.max(0, Math.ceil(options.ttlMs))), MAGIC.length);
    const temp = `${file}.${randomBytes(6).toString('hex')}${TEMP_MARK}`;
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      try {
        await handle.writev([header, value]);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
      await syncFolder(folder);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      throw unavailable(error);
    }
  }

  async setWithin(key: string, value: Uint8Array, limit: { prefix: string; max: number }): Promise<boolean> {
    const file = this.fileOf(key);
    const previous = this.prefixLocks.get(limit.prefix) ?? Promise.resolve();
    const writing = previous.then(async () => {
      const exists = await stat(file).then(
        () => true,
        (error: unknown) => {
          if (isMissing(error)) return false;
          throw unavailable(error);
        },
      );
      if (!exists && (await this.keys(limit.prefix)).length >= limit.max) return false;
      await this.set(key, value);
      return true;
    });
    const settled = writing.catch(() => {});
    this.prefixLocks.set(limit.prefix, settled);
    void settled.then(() => {
      if (this.prefixLocks.get(limit.prefix) === settled) this.prefixLocks.delete(limit.prefix);
    });
    return writing;
  }

  async delete(key: string): Promise<boolean> {
    const file = this.fileOf(key);
    try {
      await unlink(file);
      await syncFolder(path.dirname(file));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw unavailable(error);
    }
  }

  async keys(prefix: string): Promise<string[]> {
    this.checkOpen();
    const found: string[] = [];
    const walk = async (folder: string, segments: string[]): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
        throw unavailable(error);
      }
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        if (entry.name.endsWith(TEMP_MARK)) {
          await removeIfStale(full);
          continue;
        }
        if (!SEGMENT.test(entry.name)) continue;
        const key = [...segments, entry.name].join('/');
        if (entry.isDirectory()) {
          // Only folders that can hold a key with the prefix are walked.
          if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix) || key.startsWith(prefix)) await walk(full, [...segments, entry.name]);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          found.push(key);
        }
      }
    };
    await walk(this.dir, []);
    return found;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** The file of a key; a RangeError for a key that is not `/`-separated segments of [A-Za-z0-9_.-] (callers derive keys). */
  private fileOf(key: string): string {
    this.checkOpen();
    const segments = key.split('/');
    if (key.length === 0 || key.length > 1_000 || !segments.every((segment) => SEGMENT.test(segment))) {
      throw new RangeError('a store key is /-separated segments of [A-Za-z0-9_.-], none empty or starting with a dot');
    }
    return path.join(this.dir, ...segments);
  }

  private checkOpen(): void {
    if (this.closed) throw browserError('store_unavailable', 'The store has been closed.');
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot flush a folder; the rename is as durable as they make it.
  } finally {
    await handle.close();
  }
}

async function removeIfStale(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info && Date.now() - info.mtimeMs > STALE_TEMP_MS) await rm(file, { force: true }).catch(() => {});
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function unavailable(error: unknown) {
  return browserError('store_unavailable', `The store could not be used: ${messageOf(error)}`, { details: { browserMessage: messageOf(error) }, cause: error });
}
