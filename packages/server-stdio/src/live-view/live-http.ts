// The live page's HTTP side: its own loopback listener (over stdio), the origin check, bounded JSON bodies and the replies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readJsonBody } from '../input/bounded-read.js';
import { livePageHtml } from './page.js';

/** Where live views are served: a base URL, and which Host headers and Origins its requests may carry. */
export interface LiveMount {
  /** e.g. `http://127.0.0.1:8931`, no trailing slash. */
  baseUrl: string;
  /** Whether a request's Host header names this server (the DNS-rebinding check). */
  hostAllowed(host: string | undefined): boolean;
  /** Web origins besides the page's own that may drive a live view (`--allowed-origins`; `*`: any). */
  allowedOrigins: readonly string[];
  /**
   * Takes a connection slot for a live page's stream, counted against the session identity's share (the listener's own
   * connection limits); the release, or why there is none. Without it only the live views' own caps bound streams.
   */
  takeSlot?(identity: string | undefined, req: IncomingMessage): { release(): void } | { refused: string };
}

/** A batch of input events is a list of flat objects: room for 200 of them, nothing deeper. */
const MAX_INPUT_DEPTH = 4;
const MAX_INPUT_TOKENS = 10_000;

/** Opens a listener on 127.0.0.1 at a free port for live views only (stdio has no HTTP listener of its own). */
export async function listenOnLoopback(
  pathPrefix: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; mount: LiveMount }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!path.startsWith(pathPrefix)) return plain(res, 404, 'Not found');
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Live views never keep the process alive: it ends with its MCP connection.
  server.unref();
  const { port } = server.address() as AddressInfo;
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return { server, mount: { baseUrl: `http://127.0.0.1:${port}`, hostAllowed: (host) => host !== undefined && names.has(host), allowedOrigins: [] } };
}

/**
 * Whether a request comes from the live page itself: its Origin (which browsers send with every POST, and with a
 * cross-origin stream) names this server's own host, or is one the server allows; a browser's Sec-Fetch-Site, when
 * sent, agrees. A request without an Origin is refused for POSTs (a browser always sends one) and let through for the
 * stream, which a same-origin page opens without one.
 */
export function fromThePage(req: IncomingMessage, mount: LiveMount): boolean {
  const origin = req.headers.origin;
  const allowed = origin !== undefined && (mount.allowedOrigins.includes('*') || mount.allowedOrigins.includes(origin));
  if (allowed) return true;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  if (origin === undefined) return req.method === 'GET';
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** A page's POST body: its text and its JSON value; empty, with no value, for one too large, too deep or not JSON. */
export interface PageBody {
  text: string;
  value: unknown;
}

/** No body (a GET), or one that could not be read. */
export const NO_BODY: PageBody = { text: '', value: undefined };

/** A page's POST body, read within bounds (input/bounded-read.ts). */
export async function readPageBody(req: IncomingMessage, maxBytes: number): Promise<PageBody> {
  const body = await readJsonBody(req, { maxBytes, maxDepth: MAX_INPUT_DEPTH, maxTokens: MAX_INPUT_TOKENS });
  return body.ok ? { text: body.text, value: body.value } : NO_BODY;
}

export function send(res: ServerResponse, event: string, data: unknown): void {
  if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

export function page(res: ServerResponse, headOnly: boolean): void {
  const html = livePageHtml();
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    // Everything is inline and nothing comes from elsewhere; the page talks only to its own routes. It may be framed
    // (an MCP App, the inspector): its token is the capability, and its requests are checked for their origin.
    'Content-Security-Policy':
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'",
  });
  res.end(headOnly ? undefined : html);
}

export function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
