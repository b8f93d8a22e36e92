// What a fleet's shared secret (--store-key) becomes: a key that seals records for the store, and a MAC key for replica-to-replica requests.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** How far a replica-to-replica request's time may be from the receiver's clock. */
const MAC_WINDOW_MS = 60_000;

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

  /** The value of the header that authenticates a replica-to-replica request: `<time>.<hex MAC of time, path and body>`. */
  sign(path: string, body: string, now = Date.now()): string {
    return `${now}.${this.mac(now, path, body)}`;
  }

  /** Whether `header` authenticates this request (made within MAC_WINDOW_MS of now). */
  verify(header: string | undefined, path: string, body: string, now = Date.now()): boolean {
    if (header === undefined) return false;
    const [time, mac] = header.split('.');
    const at = Number(time);
    if (!Number.isSafeInteger(at) || Math.abs(now - at) > MAC_WINDOW_MS || mac === undefined || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(this.mac(at, path, body), 'hex'));
  }

  private mac(at: number, path: string, body: string): string {
    return createHmac('sha256', this.macKey).update(`${at}\n${path}\n${body}`).digest('hex');
  }
}
