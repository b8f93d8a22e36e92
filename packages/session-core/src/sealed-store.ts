// Sealing for any Store: values encrypted with AES-256-GCM, names turned into keyed hashes, so the store holds nothing readable.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SessionError, browserError, messageOf } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import type { Store } from './store.js';

/** A sealed value: these bytes, a 12-byte nonce, the 16-byte GCM tag, then the ciphertext. */
const MAGIC = Buffer.from('SWS1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** How many bytes sealing adds to a value. */
const SEAL_OVERHEAD = MAGIC.length + NONCE_BYTES + TAG_BYTES;
/** The key check record: a known text sealed with the key, so a store sealed with another key is told at start. */
const KEY_CHECK_KEY = 'keycheck';
const KEY_CHECK_TEXT = 'sessionwright key check';

/** The two keys a secret gives: one encrypts values, the other hashes names. */
export interface SealingKeys {
  seal: Buffer;
  names: Buffer;
}

/** The keys of a secret (any string: a passphrase, or the random text of a key file), derived with HKDF-SHA256. */
export function sealingKeys(secret: string): SealingKeys {
  if (secret.length === 0) throw new RangeError('a state key must not be empty');
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('sessionwright'), Buffer.from(info), 32));
  return { seal: derive('seal values'), names: derive('hash names') };
}

/**
 * The secret kept in a key file: read if the file is there, else made (32 random bytes, as base64url text) and written
 * with mode 0600, its folder 0700. Two processes that start at once agree on one file (it is created exclusively).
 * A key file others may read is used and reported on the logger.
 */
export async function keyFileSecret(file: string, logger: Logger = silentLogger): Promise<string> {
  try {
    return await readSecret(file, logger);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw keyError(file, error);
  }
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await handle.writeFile(`${randomBytes(32).toString('base64url')}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(file, 0o600);
    logger.info(`state key: created ${file} (mode 0600); keep it with the states, or they cannot be read`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw keyError(file, error);
  }
  return readSecret(file, logger);
}

async function readSecret(file: string, logger: Logger): Promise<string> {
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length === 0) throw new Error('the file is empty');
  const info = await stat(file);
  if ((info.mode & 0o077) !== 0) logger.warn(`state key: ${file} can be read by other users; make it mode 0600`);
  return secret;
}

function keyError(file: string, error: unknown) {
  return browserError('store_unavailable', `The state key file ${file} cannot be used: ${messageOf(error)}`, { cause: error });
}

export interface SealedStoreOptions {
  /** Where the sealed records go: a FolderStore, Redis, anything that keeps bytes. */
  store: Store;
  /** The secret, or how to get it once (a key file made at first use). */
  secret: string | (() => Promise<string>);
  /** Told of a record that cannot be opened with the key (cut short, another key's, moved from another name). */
  logger?: Logger;
  /** How the key was given (`--state-key`, `--store-key`), named when it does not open the store. */
  keyName?: string;
  /** The key the store was sealed with before this one (a rotation): its records are still accepted until they are sealed again. */
  previousSecret?: string;
  /** False for a view that reads with an old key (a rotation's previous key): it checks nothing. Default true. */
  keyCheck?: boolean;
}

/** The SessionError a store sealed with another key answers (`details.key: "mismatch"`), naming how the key was given, never the key. */
export function keyMismatch(keyName: string): SessionError {
  return browserError(
    'store_unavailable',
    `The store's records are sealed with another key than this ${keyName}: start with the key they were sealed with (or give it as the previous key to rotate to a new one).`,
    { details: { key: 'mismatch' } },
  );
}

/** Whether an error is keyMismatch's. */
export function isKeyMismatch(error: unknown): boolean {
  return error instanceof SessionError && (error.details as { key?: unknown } | undefined)?.key === 'mismatch';
}

/**
 * A Store that seals every value before the store below sees it: AES-256-GCM with a fresh nonce, the record's key as
 * associated data (a record copied under another key does not open). `name(text)` turns a name (an identity, a state's
 * name) into a key segment the store may see: an HMAC-SHA256 under a key of its own, so no name can be read back or
 * guessed from the store. A record that does not open is reported (once per read) and answered as missing; the others
 * are unaffected. Keys and their listing pass through as they are.
 *
 * The first use checks the key against the store's key check record (written by the first key that used the store):
 * a store sealed with another key is refused (keyMismatch) rather than answered as empty.
 */
export class SealedStore implements Store {
  readonly inner: Store;
  private readonly logger: Logger;
  private readonly secret: string | (() => Promise<string>);
  private readonly keyName: string;
  private readonly previousSecret: string | undefined;
  private readonly keyCheck: boolean;
  private keys_: Promise<SealingKeys> | undefined;

  constructor(options: SealedStoreOptions) {
    this.inner = options.store;
    this.secret = options.secret;
    this.logger = options.logger ?? silentLogger;
    this.keyName = options.keyName ?? 'key';
    this.previousSecret = options.previousSecret;
    this.keyCheck = options.keyCheck ?? true;
  }

  /** Resolves once the key is known to open this store (the key check); keyMismatch when it does not. */
  async ready(): Promise<void> {
    await this.sealingKeys();
  }

  /** The same store under the previous key (a rotation's), or undefined without one. */
  previous(): SealedStore | undefined {
    if (this.previousSecret === undefined) return undefined;
    return new SealedStore({ store: this.inner, secret: this.previousSecret, logger: silentLogger, keyCheck: false });
  }

  /**
   * Seals again with this key every record under `prefix` that the previous key opens (a rotation), keeping its key;
   * `ttlMs` for the records that expire. Answers how many were sealed again.
   */
  async resealFrom(previous: SealedStore, prefix: string, options?: { ttlMs?: number }): Promise<number> {
    const old = await previous.rawKeys();
    let moved = 0;
    for (const key of await this.inner.keys(prefix)) {
      const sealed = await this.inner.get(key);
      const opened = sealed === undefined ? undefined : unseal(old, key, sealed);
      if (opened === undefined) continue;
      await this.set(key, opened, options);
      moved += 1;
    }
    return moved;
  }

  /** A key segment for a name: 43 characters of [A-Za-z0-9_-], the same for the same name and key. */
  async name(text: string): Promise<string> {
    const { names } = await this.sealingKeys();
    return createHmac('sha256', names).update(text, 'utf8').digest('base64url');
  }

  async get(key: string, options: { maxBytes?: number } = {}): Promise<Uint8Array | undefined> {
    const keys = await this.sealingKeys();
    const sealed = await this.inner.get(key, options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes + SEAL_OVERHEAD });
    if (sealed === undefined) return undefined;
    const opened = unseal(keys, key, sealed);
    if (opened === undefined)
      this.logger.warn(`store: the record ${key} cannot be opened with this state key (damaged, or sealed with another key); it is skipped`);
    return opened;
  }

  async set(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void> {
    await this.inner.set(key, seal(await this.sealingKeys(), key, value), options);
  }

  async setWithin(key: string, value: Uint8Array, limit: { prefix: string; max: number }): Promise<boolean> {
    return this.inner.setWithin(key, seal(await this.sealingKeys(), key, value), limit);
  }

  delete(key: string): Promise<boolean> {
    return this.inner.delete(key);
  }

  keys(prefix: string): Promise<string[]> {
    return this.inner.keys(prefix);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** This key's sealing keys, without the key check. */
  private async rawKeys(): Promise<SealingKeys> {
    return sealingKeys(typeof this.secret === 'string' ? this.secret : await this.secret());
  }

  private sealingKeys(): Promise<SealingKeys> {
    this.keys_ ??= (async () => {
      const keys = await this.rawKeys();
      if (this.keyCheck) await this.checkKey(keys);
      return keys;
    })();
    // A key file that could not be read is tried again at the next use.
    this.keys_.catch(() => {
      this.keys_ = undefined;
    });
    return this.keys_;
  }

  /**
   * Opens the key check record with `keys` (or the previous key's, during a rotation, then writes this key's); writes
   * one into a store that has none; keyMismatch when it does not open.
   */
  private async checkKey(keys: SealingKeys): Promise<void> {
    const check = await this.inner.get(KEY_CHECK_KEY, { maxBytes: 1_024 }).catch((error: unknown) => {
      if (error instanceof SessionError) throw error;
      return new Uint8Array(); // Too large to be a key check: not this key's.
    });
    const opens = (with_: SealingKeys) => check !== undefined && isKeyCheck(with_, check);
    if (check !== undefined && opens(keys)) return;
    if (check !== undefined && (this.previousSecret === undefined || !opens(sealingKeys(this.previousSecret)))) throw keyMismatch(this.keyName);
    await this.inner.set(KEY_CHECK_KEY, seal(keys, KEY_CHECK_KEY, Buffer.from(KEY_CHECK_TEXT, 'utf8')));
    // Two first users with different keys may race: the one whose check was overwritten is refused.
    const written = await this.inner.get(KEY_CHECK_KEY, { maxBytes: 1_024 });
    if (written === undefined || !isKeyCheck(keys, written)) throw keyMismatch(this.keyName);
  }
}

/** Whether `sealed` is the key check record sealed with `keys`. */
function isKeyCheck(keys: SealingKeys, sealed: Uint8Array): boolean {
  return Buffer.from(unseal(keys, KEY_CHECK_KEY, sealed) ?? []).toString('utf8') === KEY_CHECK_TEXT;
}

/** The value sealed for `key`. */
export function seal(keys: SealingKeys, key: string, value: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, nonce);
  cipher.setAAD(Buffer.from(key, 'utf8'));
  const body = Buffer.concat([cipher.update(value), cipher.final()]);
  return Buffer.concat([MAGIC, nonce, cipher.getAuthTag(), body]);
}

/** The value sealed for `key`, or undefined when these bytes are not one (damaged, another key's, another record's). */
export function unseal(keys: SealingKeys, key: string, sealed: Uint8Array): Uint8Array | undefined {
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (bytes.length < MAGIC.length + NONCE_BYTES + TAG_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, bytes.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES));
    decipher.setAAD(Buffer.from(key, 'utf8'));
    decipher.setAuthTag(bytes.subarray(MAGIC.length + NONCE_BYTES, MAGIC.length + NONCE_BYTES + TAG_BYTES));
    return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(MAGIC.length + NONCE_BYTES + TAG_BYTES)), decipher.final()]));
  } catch {
    return undefined;
  }
}
