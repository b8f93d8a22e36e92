// One small HTTP server on 127.0.0.1 for the fixture site, the proxy and the demo site: a free port, a close() that never waits on a socket.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LocalServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** The Node server, for protocol events a handler does not see (a proxy's CONNECT). */
  server: Server;
  /** `urlFor('/pages/form')` → `http://127.0.0.1:PORT/pages/form`. */
  urlFor(path: string): string;
  /** Stops listening and destroys every open socket (keep-alive, a request left unanswered on purpose). */
  close(): Promise<void>;
}

/**
 * Serves `handle` on 127.0.0.1 (`port` 0 picks a free one). A handler that throws answers 500, or drops the connection
 * when it already started answering.
 */
export async function startLocalServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void, port = 0): Promise<LocalServer> {
  // Tracked by hand because server.close() waits for keep-alive and hanging sockets for ever.
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handle(req, res))
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else send(res, 500, `<!doctype html><title>Server Error</title><pre>${String(error).replaceAll('<', '&lt;')}</pre>`);
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${bound}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port: bound,
    server,
    urlFor: (path) => `${url}${path.startsWith('/') ? '' : '/'}${path}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

/** A request's body as text; undefined once it grows past `maxBytes` (the rest is not read into memory). */
export async function readBody(req: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Escapes text for use inside HTML element content or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** Answers with a body that is never cached: a page reloaded in a test or the demo must reach the server again. */
export function send(res: ServerResponse, status: number, body: string | Buffer, contentType = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}
