// Sealing for any Store: values encrypted with AES-256-GCM, names turned into keyed hashes, so the store holds nothing readable.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { browserError, messageOf } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import type { Store } from './store.js';

/** A sealed value: these bytes, a 12-byte nonce, the 16-byte GCM tag, then the ciphertext. */
const MAGIC = Buffer.from('SWS1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

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
}

/**
 * A Store that seals every value before the store below sees it: AES-256-GCM with a fresh nonce, the record's key as
 * associated data (a record copied under another key does not open). `name(text)` turns a name (an identity, a state's
 * name) into a key segment the store may see: an HMAC-SHA256 under a key of its own, so no name can be read back or
 * guessed from the store. A record that does not open is reported (once per read) and answered as missing; the others
 * are unaffected. Keys and their listing pass through as they are.
 */
export class SealedStore implements Store {
  readonly inner: Store;
  private readonly logger: Logger;
  private readonly secret: string | (() => Promise<string>);
  private keys_: Promise<SealingKeys> | undefined;

  constructor(options: SealedStoreOptions) {
    this.inner = options.store;
    this.secret = options.secret;
    this.logger = options.logger ?? silentLogger;
  }

  /** A key segment for a name: 43 characters of [A-Za-z0-9_-], the same for the same name and key. */
  async name(text: string): Promise<string> {
    const { names } = await this.sealingKeys();
    return createHmac('sha256', names).update(text, 'utf8').digest('base64url');
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const sealed = await this.inner.get(key);
    if (sealed === undefined) return undefined;
    const opened = unseal(await this.sealingKeys(), key, sealed);
    if (opened === undefined)
      this.logger.warn(`store: the record ${key} cannot be opened with this state key (damaged, or sealed with another key); it is skipped`);
    return opened;
  }

  async set(key: string, value: Uint8Array, options?: { ttlMs?: number }): Promise<void> {
    await this.inner.set(key, seal(await this.sealingKeys(), key, value), options);
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

  private sealingKeys(): Promise<SealingKeys> {
    this.keys_ ??= (async () => sealingKeys(typeof this.secret === 'string' ? this.secret : await this.secret()))();
    // A key file that could not be read is tried again at the next use.
    this.keys_.catch(() => {
      this.keys_ = undefined;
    });
    return this.keys_;
  }
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
