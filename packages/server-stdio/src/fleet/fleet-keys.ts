// What a fleet's shared secret (--store-key) becomes: a key that seals records for the store, and a MAC key for replica-to-replica requests.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export class FleetKeys {
  private readonly sealKey: Buffer;
  private readonly macKey: Buffer;

  constructor(secret: string) {
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `sessionwright fleet ${purpose}`, 32));
    this.sealKey = derive('seal');
    this.macKey = derive('mac');
  }

  /** AES-256-GCM: a version byte, a 12-byte nonce, the ciphertext, the 16-byte tag. `label` binds it to its key in the store. */
  seal(plain: Uint8Array, label: string): Uint8Array {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, nonce);
    cipher.setAAD(Buffer.from(label, 'utf8'));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([1]), nonce, body, cipher.getAuthTag()]);
  }

  /** The plain bytes, or undefined for a record that is not sealed with this key under this label. */
  unseal(sealed: Uint8Array, label: string): Uint8Array | undefined {
    const data = Buffer.from(sealed);
    if (data.length < 29 || data[0] !== 1) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, data.subarray(1, 13));
      decipher.setAAD(Buffer.from(label, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(13, data.length - 16)), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  /** The hex MAC of `parts` (each length-prefixed, so no two lists of parts share a MAC input). */
  mac(...parts: string[]): string {
    const hmac = createHmac('sha256', this.macKey);
    for (const part of parts) hmac.update(`${Buffer.byteLength(part, 'utf8')}:${part}\n`);
    return hmac.digest('hex');
  }

  /** Whether `mac` (hex, as a record or a request carries it) is the MAC of `parts`. */
  macMatches(mac: unknown, ...parts: string[]): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(this.mac(...parts), 'hex'));
  }

  /** A record's value for the store: its content with the MAC of its key and content, so no writer without the key can forge it. */
  signRecord(key: string, content: string): string {
    return `${this.mac('record', key, content)}.${content}`;
  }

  /** The content of a record `signRecord` made for this key, or undefined for anything else (forged, moved, malformed). */
  openRecord(key: string, value: unknown): string | undefined {
    if (typeof value !== 'string') return undefined;
    const dot = value.indexOf('.');
    const content = value.slice(dot + 1);
    return dot === 64 && this.macMatches(value.slice(0, dot), 'record', key, content) ? content : undefined;
  }
}
