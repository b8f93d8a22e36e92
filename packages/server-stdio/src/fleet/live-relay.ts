// A live-view link works through any replica: its token is entered in the store, and a replica that does not know a token relays the request (its body read whole and signed, its answer piped) to the one that issued it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import type { LiveRelay } from '../live-view/live-views.js';
import type { FleetKeys } from './fleet-keys.js';
import type { RedisStore } from './redis-store.js';
import { NOT_RELAYED, send } from './relay.js';
import { RELAY_ENVELOPE_HEADER, RELAY_SIGNATURE_HEADER, type RelaySignature } from './relay-signature.js';
import { isReplicaUrl } from './replica-url.js';
import type { UntrustedRecords } from './untrusted-records.js';

/** A live page's relayed request carries no caller: its token is its own credential. */
const NO_CALLER = { identity: '', guarded: false, hops: 1 };

export class FleetLiveRelay implements LiveRelay {
  constructor(
    private readonly options: {
      store: RedisStore;
      keys: FleetKeys;
      /** Signs the relayed requests, over their bodies (read whole before they are relayed: see docs/decisions.md). */
      signature: RelaySignature;
      untrusted: UntrustedRecords;
      logger: Logger;
      /** This replica's advertise URL. */
      url: () => string;
      /** Whether a replica is alive (in the directory). */
      isLive: (url: string) => Promise<boolean>;
    },
  ) {}

  async minted(tokenId: string, ttlMs: number): Promise<void> {
    const key = tokenKey(tokenId);
    await this.options.store.set(key, Buffer.from(this.options.keys.signRecord(key, this.options.url()), 'utf8'), { ttlMs });
  }

  async relay(tokenId: string, req: IncomingMessage, res: ServerResponse, body: string): Promise<boolean> {
    const path = req.url ?? '/';
    // A request relayed here already is answered here: never sent on twice.
    if (req.headers[RELAY_SIGNATURE_HEADER] !== undefined) return false;
    const key = tokenKey(tokenId);
    let issuer: string | undefined;
    try {
      const entry = await this.options.store.get(key);
      if (entry === undefined) return false;
      // Only a record a replica of this fleet signed names where the link's secret may go.
      issuer = this.options.keys.openRecord(key, Buffer.from(entry).toString('utf8'));
    } catch {
      return false; // The store is away: the link is unknown here.
    }
    if (!isReplicaUrl(issuer)) {
      this.options.untrusted.ignored('live-view link record');
      return false;
    }
    if (issuer === this.options.url() || !(await this.options.isLive(issuer).catch(() => false))) return false;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !NOT_RELAYED.has(name) && name !== 'content-length') headers[name] = value;
    // The Host and Origin stay the person's: the issuing replica checks them as for a request that reached it.
    Object.assign(headers, this.options.signature.sign({ method: req.method ?? 'GET', path, destination: issuer, body }, NO_CALLER));
    const payload = Buffer.from(body, 'utf8');
    if (req.method === 'POST') headers['content-length'] = String(payload.length);
    return new Promise<boolean>((resolve) => {
      const outgoing = send(new URL(path, issuer), req.method ?? 'GET', headers, undefined, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // Piped as it comes: an event stream's frames reach the page one by one.
        res.flushHeaders();
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        resolve(true);
      });
      outgoing.on('error', (error) => {
        this.options.logger.debug(`live view: relay to ${new URL(issuer).host} failed: ${messageOf(error)}`);
        if (!res.headersSent) resolve(false);
        else res.destroy();
      });
      // The page went away: so does the relayed request (its stream).
      res.on('close', () => outgoing.destroy());
      outgoing.end(req.method === 'POST' ? payload : undefined);
    });
  }

  accepts(req: IncomingMessage, body: string): boolean {
    const signature = req.headers[RELAY_SIGNATURE_HEADER];
    if (signature === undefined) return true;
    const envelope = req.headers[RELAY_ENVELOPE_HEADER];
    const request = { method: req.method ?? 'GET', path: req.url ?? '/', destination: this.options.url(), body };
    return (
      this.options.signature.verify(request, typeof signature === 'string' ? signature : undefined, typeof envelope === 'string' ? envelope : undefined) !==
      undefined
    );
  }
}

function tokenKey(tokenId: string): string {
  return `live/${tokenId}`;
}
