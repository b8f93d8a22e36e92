// What a fleet's shared secret (--store-key) becomes for replica-to-replica requests: a MAC key (the store's records are sealed by the runtime's SealedStore).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** How far a replica-to-replica request's time may be from the receiver's clock. */
const MAC_WINDOW_MS = 60_000;

export class FleetKeys {
  private readonly macKey: Buffer;

  constructor(secret: string) {
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `sessionwright fleet ${purpose}`, 32));
    this.macKey = derive('mac');
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
