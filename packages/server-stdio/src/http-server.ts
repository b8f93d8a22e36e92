// Serves MCP over HTTP: Streamable HTTP at /mcp, legacy HTTP+SSE at /sse and /, one MCP connection per client over one runtime.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CancelledNotificationSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '@sessionwright/session-core';
import type { HttpOptions } from './http-options.js';
import { LiveViews } from './live-view/live-views.js';
import { createRequestGuard } from './http-security.js';
import { readIdentities } from './identities.js';
import type { SessionwrightServer } from './runtime.js';
import { MAX_MESSAGE_BYTES } from './limits.js';

/**
 * `allowUnauthenticated` is left out: it only lifts a check made before the server starts (checkListening).
 * `authTokensFile` and `maxConnections` may be left out by a custom server (no identities; DEFAULT_MAX_CONNECTIONS).
 */
export interface HttpServerOptions extends Omit<HttpOptions, 'allowUnauthenticated' | 'authTokensFile' | 'maxConnections'> {
  authTokensFile?: string | undefined;
  maxConnections?: number | undefined;
  /** Milliseconds between SSE keep-alive comments on every open stream (default 15 000; Python's client gives up after 300 s of silence). */
  keepAliveMs?: number;
  /** The largest request body accepted, in bytes (default MAX_MESSAGE_BYTES, 32 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
  /**
   * A Streamable HTTP connection with no request in flight and no open stream is closed after this long
   * (default: the session timeout, but at least one hour). Its sessions stay until their own idle timeout.
   */
  connectionIdleMs?: number;
}

export interface HttpServerHandle {
  /** Where the server listens, e.g. `http://127.0.0.1:8931` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Ends every stream and MCP connection and stops listening; sessions and the browser are the runtime's to close. */
  close(): Promise<void>;
}

export const DEFAULT_KEEP_ALIVE_MS = 15_000;
export const DEFAULT_MAX_BODY_BYTES = MAX_MESSAGE_BYTES;
export const DEFAULT_MAX_CONNECTIONS = 100;

/** The Streamable HTTP endpoint, and the path legacy SSE clients post their messages to. */
const MCP_PATH = '/mcp';
const MESSAGES_PATH = '/messages';

/** A Streamable HTTP connection and the HTTP responses it has open (requests in flight, the GET stream). */
interface StreamableConnection {
  transport: StreamableHTTPServerTransport;
  /** The client identity that opened it (with --auth-tokens-file); its every request must carry the same one. */
  identity: string | undefined;
  open: number;
  idleTimer: NodeJS.Timeout | undefined;
  ended: boolean;
}

/** Thrown while reading a request whose answer has already been sent (413, parse error). */
class Answered extends Error {}

/** Listens on `options.host:options.port` and serves every MCP client through `runtime.connect`. */
export async function startHttpServer(runtime: SessionwrightServer, options: HttpServerOptions): Promise<HttpServerHandle> {
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const connectionIdleMs = options.connectionIdleMs ?? Math.max(runtime.manager.sessionTimeout, 3_600_000);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const identities = options.authTokensFile === undefined ? undefined : readIdentities(options.authTokensFile);
  const guard = createRequestGuard({ ...options, identities });
  const logger = runtime.logger;
  const streamable = new Map<string, StreamableConnection>();
  const legacy = new Map<string, { transport: SSEServerTransport; identity: string | undefined }>();
  /** Connections being opened (initialize in flight), counted against maxConnections too. */
  let opening = 0;
  let closing = false;

  /** A new connection would pass maxConnections: answered 503, so a client (or many) cannot exhaust the server. */
  const full = () => streamable.size + legacy.size + opening >= maxConnections;
  const refuseFull = (res: ServerResponse) =>
    sendError(res, 503, -32000, `Too many open MCP connections (at most ${maxConnections}). Close one, or try again later.`, { 'Retry-After': '5' });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Answered) return;
      // On stderr only (info): a warning would go to every connected client, and this concerns one request.
      logger.info(`HTTP ${req.method} ${req.url?.split('?')[0]} failed: ${messageOf(error)}`);
      if (!res.headersSent) sendError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A live view is opened from a link (no bearer token, any referring page) and carries its own token; it checks the
    // Host header and the origin of its page's requests itself (live-view/live-views.ts).
    if (LiveViews.matches((req.url ?? '/').split('?')[0] ?? '/')) return runtime.live.handle(req, res);
    const refusal = guard.checkSource(req.headers);
    if (refusal) return sendError(res, refusal.status, -32000, refusal.message, refusal.headers);
    const origin = guard.allowedOrigin(req.headers);
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
      res.setHeader('Vary', 'Origin');
    }
    // A browser's preflight carries no credentials, so it is answered before the token check.
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const unauthorized = guard.checkToken(req.headers);
    if (unauthorized) return sendError(res, unauthorized.status, -32000, unauthorized.message, unauthorized.headers);
    if (closing) return sendError(res, 503, -32000, 'The server is shutting down.', { Connection: 'close' });

    const url = new URL(req.url ?? '/', 'http://localhost');
    switch (url.pathname) {
      case MCP_PATH:
        return serveStreamable(req, res);
      case '/sse':
      case '/':
        // The bare URL serves legacy SSE too: clients such as Python's sse_client are given only http://host:port.
        if (req.method === 'GET') return full() ? refuseFull(res) : openLegacyStream(req, res);
        return sendError(res, 405, -32000, `Method not allowed: GET ${url.pathname} opens a legacy SSE stream; Streamable HTTP is at ${MCP_PATH}.`, {
          Allow: 'GET',
        });
      case MESSAGES_PATH:
        if (req.method === 'POST') return postLegacyMessage(req, res, url.searchParams.get('sessionId'));
        return sendError(res, 405, -32000, `Method not allowed: POST to ${MESSAGES_PATH}.`, { Allow: 'POST' });
      default:
        return sendError(res, 404, -32000, `Not found. MCP is served at ${MCP_PATH} (Streamable HTTP) and /sse (legacy SSE).`);
    }
  }

  async function serveStreamable(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readJson(req, res);
      if (id !== undefined) return forward(id, req, res, body);
      const initializing = Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
      if (!initializing)
        return sendError(res, 400, -32000, 'Bad Request: send initialize first; every later request needs the Mcp-Session-Id header it returned.');
      if (full()) return refuseFull(res);
      opening += 1;
      try {
        return await openStreamable(req, res, body);
      } finally {
        opening -= 1;
      }
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (id === undefined) return sendError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required.');
      return forward(id, req, res);
    }
    return sendError(res, 405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' });
  }

  /** A request of a known connection; an unknown or ended id answers 404 so the client initializes again. */
  async function forward(id: string, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const connection = streamable.get(id);
    // Another identity presenting this connection's id is answered as for an unknown one.
    if (!connection || connection.identity !== guard.identify(req.headers)) {
      return sendError(res, 404, -32001, 'Session not found: this MCP session ended or never existed. Initialize a new one.');
    }
    track(connection, res);
    await connection.transport.handleRequest(req, res, body);
  }

  async function openStreamable(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const identity = guard.identify(req.headers);
    const connection: StreamableConnection = {
      identity,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        keepAliveMs,
        onsessioninitialized: (id) => void streamable.set(id, connection),
      }),
      open: 0,
      idleTimer: undefined,
      ended: false,
    };
    const { transport } = connection;
    // Set before connect, which chains the protocol's own handler after this one.
    transport.onclose = () => {
      connection.ended = true;
      clearTimeout(connection.idleTimer);
      if (transport.sessionId !== undefined) streamable.delete(transport.sessionId);
    };
    await runtime.connect(transport, { identity });
    // A cancelled call sends no response, so its POST stream would stay open; end it once the cancellation is delivered.
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      deliver?.(message, extra);
      const cancelled = CancelledNotificationSchema.safeParse(message);
      if (cancelled.success && cancelled.data.params.requestId !== undefined) transport.closeSSEStream(cancelled.data.params.requestId);
    };
    track(connection, res);
    await transport.handleRequest(req, res, body);
    // initialize was refused (a bad batch, an unsupported request): nothing will ever reach this connection.
    if (transport.sessionId === undefined || !streamable.has(transport.sessionId)) await transport.close();
    else logger.debug(`MCP connection opened over Streamable HTTP (${runtime.connections} open)`);
  }

  /** Counts the connection's open responses; once none is left for connectionIdleMs, the client has gone away. */
  function track(connection: StreamableConnection, res: ServerResponse): void {
    connection.open += 1;
    clearTimeout(connection.idleTimer);
    res.on('close', () => {
      connection.open -= 1;
      if (connection.open > 0 || connection.ended || closing) return;
      connection.idleTimer = setTimeout(() => {
        logger.debug(`closing a Streamable HTTP connection idle for ${connectionIdleMs} ms`);
        void connection.transport.close();
      }, connectionIdleMs);
      connection.idleTimer.unref();
    });
  }

  async function openLegacyStream(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Accel-Buffering', 'no');
    const transport = new SSEServerTransport(MESSAGES_PATH, res);
    let keepAlive: NodeJS.Timeout | undefined;
    const entry = { transport, identity: guard.identify(req.headers) };
    legacy.set(transport.sessionId, entry);
    transport.onclose = () => {
      clearInterval(keepAlive);
      legacy.delete(transport.sessionId);
    };
    await runtime.connect(transport, { identity: entry.identity });
    if (res.closed) return;
    // A comment line every keepAliveMs: proxies and clients see traffic on a quiet stream and keep it open.
    keepAlive = setInterval(() => res.write(': keepalive\n\n'), keepAliveMs);
    keepAlive.unref();
    logger.debug(`MCP connection opened over legacy SSE (${runtime.connections} open)`);
  }

  async function postLegacyMessage(req: IncomingMessage, res: ServerResponse, id: string | null): Promise<void> {
    const entry = id === null ? undefined : legacy.get(id);
    if (!entry || entry.identity !== guard.identify(req.headers)) {
      return sendError(res, 404, -32001, 'Session not found: the SSE stream for this sessionId is closed or never existed. Open a new one with GET /sse.');
    }
    const body = await readJson(req, res);
    await entry.transport.handlePostMessage(req, res, body);
  }

  /** The body as JSON; a body over the limit answers 413, one that is not JSON a JSON-RPC parse error. */
  async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) {
      // The rest of the body is read and dropped (Node does that for an answered request), so the client gets to read the 413.
      sendError(res, 413, -32000, `Payload Too Large: a request body may be at most ${maxBodyBytes} bytes.`);
      throw new Answered();
    }
    try {
      return JSON.parse(body.toString('utf8')) as unknown;
    } catch (error) {
      sendError(res, 400, -32700, `Parse error: the request body is not valid JSON (${messageOf(error)}).`);
      throw new Answered();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.warn(`HTTP server error: ${messageOf(error)}`));
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  runtime.live.serveOn({
    baseUrl: publicBaseUrl(options, url, port),
    hostAllowed: (host) => host !== undefined && guard.checkSource({ host }) === undefined,
    allowedOrigins: options.allowedOrigins,
  });

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closed ??= (async () => {
        closing = true;
        const transports = [...[...streamable.values()].map((connection) => connection.transport), ...[...legacy.values()].map((entry) => entry.transport)];
        await Promise.all(transports.map((transport) => transport.close().catch(() => {})));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}

/**
 * The base of live-view links: the address the server listens on, or, bound to every interface, the first name
 * --allowed-hosts gives (else this machine's host name), which a person's browser can reach.
 */
function publicBaseUrl(options: HttpServerOptions, url: string, port: number): string {
  if (options.host !== '0.0.0.0' && options.host !== '::') return url;
  const name = options.allowedHosts.find((host) => host !== '*') ?? hostname();
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
}

/** The request body, or undefined as soon as it is known to be over `limit` bytes (by Content-Length, or as it arrives). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      if (size > limit) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Answers with a JSON-RPC error object, as the SDK's transports do for their own refusals. */
function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
