// Each client identity's own folder of --output-dir: a stable name that tells nothing of the identity's token, nor lets one identity guess another's.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file in --output-dir holding the key the folder names are made with (made on first start, kept across restarts). */
export const FOLDER_KEY_FILE = '.sessionwright-folder-key';

/**
 * Names the folders: `identity-<32 hex>`, an HMAC of the identity's name under a key kept in the output directory (a
 * random key of this process without one, or where it cannot be kept). Sessions owned by a connection or the one local
 * identity use the output directory itself, as a server without identities always has.
 */
export class IdentityFolders {
  /** Read (or made) when the first identity's folder is named: a server without identities leaves no key file. */
  private key: Buffer | undefined;

  constructor(private readonly outputDir: string | undefined) {}

  /** The folder name of an identity; '' for no identity (the output directory itself). */
  nameOf(identity: string | undefined): string {
    if (identity === undefined) return '';
    this.key ??= this.outputDir === undefined ? randomBytes(32) : keptKey(path.resolve(this.outputDir));
    return `identity-${createHmac('sha256', this.key).update(`sessionwright identity folder\0${identity}`).digest('hex').slice(0, 32)}`;
  }

  /** The folder name for a session identity: the identity's for `identity:<name>`, '' for any other identity. */
  ofIdentity(identity: string | undefined): string {
    return identity?.startsWith('identity:') ? this.nameOf(identity.slice('identity:'.length)) : '';
  }
}

/** The key in `outputDir`, made there when missing; a random one of this process when it cannot be read or kept. */
function keptKey(outputDir: string): Buffer {
  const file = path.join(outputDir, FOLDER_KEY_FILE);
  const read = () => {
    const text = readFileSync(file, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  };
  try {
    const existing = read();
    if (existing) return existing;
  } catch {
    // Not there yet: made below.
  }
  const key = randomBytes(32);
  try {
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(file, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return key;
  } catch {
    // Another process made it first, or the folder cannot be written: its key if it has one, else this process's own.
    try {
      return read() ?? key;
    } catch {
      return key;
    }
  }
}
