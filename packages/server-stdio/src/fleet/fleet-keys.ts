// What a fleet's shared secret (--store-key) becomes here: a MAC key for the fleet's records and replica-to-replica requests (the store's records are sealed by the runtime's SealedStore).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export class FleetKeys {
  private readonly macKey: Buffer;

  constructor(secret: string) {
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `sessionwright fleet ${purpose}`, 32));
    this.macKey = derive('mac');
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
