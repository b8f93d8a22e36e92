// The credentials of a replica-to-replica request: a signed envelope (who calls, and what the owner needs to serve it) bound to the request's method, path, destination, body, time and a nonce; each nonce is accepted once.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '@sessionwright/session-core';
import type { FleetKeys } from './fleet-keys.js';

/** The header that carries a relayed request's signature: `<time>.<nonce>.<MAC>`. */
export const RELAY_SIGNATURE_HEADER = 'x-sessionwright-relay';
/** The header that carries a relayed request's envelope (base64url JSON), covered by its signature. */
export const RELAY_ENVELOPE_HEADER = 'x-sessionwright-envelope';

/** How far a relayed request's time may be from the receiver's clock; its nonce is remembered at least this long after. */
const WINDOW_MS = 30_000;

/** What a relayed request brings in place of the client's credentials: the caller, as the replica the client reached knew it. */
export interface Envelope {
  identity: string;
  guarded: boolean;
  /** Whose saved states the caller reaches (see CallerScope). */
  stateIdentity?: string;
  /** The base of live-view links for the caller: the address its client reached. */
  liveBase?: string;
  /** How many replicas the call has passed through (a call moves on at most a few times). */
  hops: number;
  /** list_sessions: this replica's sessions only. */
  localOnly?: boolean;
}

/** The parts of a request its signature covers; `destination` is the advertise URL of the replica it is sent to. */
export interface SignedRequest {
  method: string;
  path: string;
  destination: string;
  body: string;
}

export class RelaySignature {
  /** Nonces seen, in the order they were accepted, with when each may be forgotten. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly init: { keys: FleetKeys; clock: Clock }) {}

  /** The headers that authenticate `request` as sent by a replica of this fleet, carrying `envelope`. */
  sign(request: SignedRequest, envelope: Envelope): Record<string, string> {
    const encoded = Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url');
    const time = String(this.init.clock.now());
    const nonce = randomBytes(16).toString('hex');
    return {
      [RELAY_SIGNATURE_HEADER]: `${time}.${nonce}.${this.mac(request, time, nonce, encoded)}`,
      [RELAY_ENVELOPE_HEADER]: encoded,
    };
  }

  /**
   * The envelope of a request signed for this replica (`request.destination`), within the window, with a nonce never
   * seen; undefined for anything else (unsigned, another key, another replica, body, method or path, too old, replayed).
   */
  verify(request: SignedRequest, signature: string | undefined, envelope: string | undefined): Envelope | undefined {
    if (signature === undefined || envelope === undefined) return undefined;
    const [time = '', nonce = '', mac] = signature.split('.');
    const at = Number(time);
    const now = this.init.clock.now();
    if (!/^\d{1,16}$/.test(time) || Math.abs(now - at) > WINDOW_MS || !/^[0-9a-f]{32}$/.test(nonce)) return undefined;
    if (!this.init.keys.macMatches(mac, ...this.parts(request, time, nonce, envelope))) return undefined;
    this.forgetOld(now);
    if (this.seen.has(nonce)) return undefined;
    this.seen.set(nonce, now + 2 * WINDOW_MS);
    return parseEnvelope(envelope);
  }

  private mac(request: SignedRequest, time: string, nonce: string, envelope: string): string {
    return this.init.keys.mac(...this.parts(request, time, nonce, envelope));
  }

  private parts(request: SignedRequest, time: string, nonce: string, envelope: string): string[] {
    const bodyHash = createHash('sha256').update(request.body, 'utf8').digest('hex');
    return ['relay', request.method.toUpperCase(), request.path, request.destination, bodyHash, time, nonce, envelope];
  }

  /** Nonces are accepted in time order, so the expired ones are at the front. */
  private forgetOld(now: number): void {
    for (const [nonce, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(nonce);
    }
  }
}

/** An envelope's fields, checked one by one: a signed envelope is ours, but its shape is still checked before use. */
function parseEnvelope(encoded: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { identity, guarded, stateIdentity, liveBase, hops, localOnly } = value as Record<string, unknown>;
  if (typeof identity !== 'string' || typeof guarded !== 'boolean' || typeof hops !== 'number' || !Number.isSafeInteger(hops)) return undefined;
  return {
    identity,
    guarded,
    hops,
    ...(typeof stateIdentity === 'string' ? { stateIdentity } : {}),
    ...(typeof liveBase === 'string' ? { liveBase } : {}),
    ...(localOnly === true ? { localOnly } : {}),
  };
}
