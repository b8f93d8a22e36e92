// A live-view link works through any replica: its token is entered in the store, and a replica that does not know a token relays the request (streams piped) to the one that issued it.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core';
import type { LiveRelay } from '../live-view/live-views.js';
import type { FleetKeys } from './fleet-keys.js';
import { SIGNATURE_HEADER } from './internal-route.js';
import type { RedisStore } from './redis-store.js';

/** Headers not passed on: the hop's own, and the fleet's (a client cannot present them). */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', SIGNATURE_HEADER]);

export class FleetLiveRelay implements LiveRelay {
  constructor(
    private readonly options: {
      store: RedisStore;
      keys: FleetKeys;
      logger: Logger;
      /** This replica's advertise URL. */
      url: () => string;
      /** Whether a replica is alive (in the directory). */
      isLive: (url: string) => Promise<boolean>;
    },
  ) {}

  async minted(tokenId: string, ttlMs: number): Promise<void> {
    await this.options.store.set(tokenKey(tokenId), Buffer.from(this.options.url(), 'utf8'), { ttlMs });
  }

  async relay(tokenId: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = req.url ?? '/';
    // A request relayed here already is answered here: never sent on twice.
    const signature = req.headers[SIGNATURE_HEADER];
    if (signature !== undefined) return false;
    let issuer: string | undefined;
    try {
      const entry = await this.options.store.get(tokenKey(tokenId));
      issuer = entry === undefined ? undefined : Buffer.from(entry).toString('utf8');
    } catch {
      return false; // The store is away: the link is unknown here.
    }
    if (issuer === undefined || issuer === this.options.url() || !(await this.options.isLive(issuer).catch(() => false))) return false;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
    // The Host and Origin stay the person's: the issuing replica checks them as for a request that reached it.
    headers[SIGNATURE_HEADER] = this.options.keys.sign(relaySubject(req.method ?? 'GET'), path);
    return new Promise<boolean>((resolve) => {
      const outgoing = httpRequest(new URL(path, issuer), { method: req.method, headers, agent: false }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // Piped as it comes: an event stream's frames reach the page one by one.
        res.flushHeaders();
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        resolve(true);
      });
      outgoing.on('error', (error) => {
        this.options.logger.debug(`live view: relay to ${issuer} failed: ${messageOf(error)}`);
        if (!res.headersSent) resolve(false);
        else res.destroy();
      });
      // The page went away: so does the relayed request (its stream).
      res.on('close', () => outgoing.destroy());
      req.pipe(outgoing);
    });
  }

  accepts(req: IncomingMessage): boolean {
    const signature = req.headers[SIGNATURE_HEADER];
    if (signature === undefined) return true;
    return this.options.keys.verify(typeof signature === 'string' ? signature : undefined, relaySubject(req.method ?? 'GET'), req.url ?? '/');
  }
}

function relaySubject(method: string): string {
  return `live ${method}`;
}

function tokenKey(tokenId: string): string {
  return `live/${tokenId}`;
}
