// Serves MCP over HTTP: Streamable HTTP at /mcp in both protocol eras (2026-07-28 requests, and 2025 connections opened
// by initialize), legacy HTTP+SSE at /sse and /, over one runtime.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type AuthInfo, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { messageOf, defined } from '@sessionwright/session-core/parts';
import type { HttpOptions } from '../settings/http-options.js';
import { createRequestGuard } from './security.js';
import { LiveViews, liveLinkBase } from '../live-view/live-views.js';
import { ConnectionSlots, defaultPerClient, type SlotHolder, type SlotRefusal } from './connection-slots.js';
import { isLoopback } from '../settings/http-options.js';
import { readIdentities } from '../identity/identities.js';
import { LegacySseTransport } from './legacy-sse.js';
import { sessionIdHeaderMismatch } from '../protocol/session-header.js';
import type { SessionwrightServer } from '../runtime.js';
import { MAX_MESSAGE_BYTES } from '../input/limits.js';
import { DEFAULT_JSON_LIMITS, readJsonBody } from '../input/bounded-read.js';
import { relayedCall } from '../fleet/internal-route.js';
import { RELAY_ENVELOPE_HEADER, RELAY_SIGNATURE_HEADER, type Envelope } from '../fleet/relay-signature.js';
import type { CallerScope } from '../identity/session-access.js';

/**
 * `allowUnauthenticated` is left out: it only lifts a check made before the server starts (checkListening); so is
 * `allowUnsafeCode`, which the runtime's tool list reads.
 * `authTokensFile` and `maxConnections` may be left out by a custom server (no identities; DEFAULT_MAX_CONNECTIONS).
 */
export interface HttpServerOptions
  extends Omit<
    HttpOptions,
    | 'allowUnauthenticated'
    | 'allowUnsafeCode'
    | 'authTokensFile'
    | 'maxConnections'
    | 'maxConnectionsPerClient'
    | 'store'
    | 'storeKey'
    | 'advertiseUrl'
    | 'drainWindow'
  > {
  authTokensFile?: string | undefined;
  /** A fleet's store (--store); the runtime joins the fleet with its own options (createServer's `http`). */
  store?: string | undefined;
  storeKey?: string | undefined;
  /** How other replicas reach this one (default: this machine's host name, or the loopback address it listens on). */
  advertiseUrl?: string | undefined;
  maxConnections?: number | undefined;
  /** Default: a quarter of maxConnections, at least one. */
  maxConnectionsPerClient?: number | undefined;
  /** Milliseconds between SSE keep-alive comments on every open stream (default 15 000; Python's client gives up after 300 s of silence). */
  keepAliveMs?: number;
  /** The largest request body accepted, in bytes (default MAX_MESSAGE_BYTES, 32 MiB); larger bodies get 413, as do deeper or busier ones (input/bounded-read.ts). */
  maxBodyBytes?: number;
  /**
   * A Streamable HTTP connection with no request in flight and no open stream is closed after this long
   * (default: the session timeout, but at least one hour). It holds no slot meanwhile (ConnectionSlots). Its sessions
   * stay until their own idle timeout.
   */
  connectionIdleMs?: number;
}

export interface HttpServerHandle {
  /** Where the server listens, e.g. `http://127.0.0.1:8931` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /**
   * The start of a replica's drain window: /healthz answers 503 from now on (a balancer's check or a Kubernetes
   * endpoint update takes the replica out), while every request that still arrives is served.
   */
  stopAccepting(): void;
  /**
   * Stops listening (a balancer's next connection is refused and goes to another replica), lets the requests in
   * flight finish (a few seconds at most), then ends every stream and MCP connection; sessions and the browser are the
   * runtime's to close.
   */
  close(): Promise<void>;
}

const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** How long closing waits for the requests in flight to be answered before it ends them. */
const IN_FLIGHT_GRACE_MS = 5_000;
/** How long closing waits for a request on a connection accepted just before the listening socket closed. */
const LATE_REQUEST_MS = 250;
const DEFAULT_MAX_BODY_BYTES = MAX_MESSAGE_BYTES;
const DEFAULT_MAX_CONNECTIONS = 100;

/** How a client identity's scope is named (runtime.ts): `identity:<name>`. */
const IDENTITY_PREFIX = 'identity:';

/** The JSON-RPC error code of a 2026-07-28 request whose headers disagree with its body (HeaderMismatch). */
const HEADER_MISMATCH = -32020;

/** The Streamable HTTP endpoint, and the path legacy SSE clients post their messages to. */
const MCP_PATH = '/mcp';
const MESSAGES_PATH = '/messages';
/** Where a load balancer checks that this server takes requests (200, or 503 while it stops). */
const HEALTH_PATH = '/healthz';

/** A Streamable HTTP connection and the HTTP responses it has open (requests in flight, the GET stream). */
interface StreamableConnection extends SlotHolder {
  transport: NodeStreamableHTTPServerTransport;
  /** The client identity that opened it (with --auth-tokens-file); its every request must carry the same one. */
  identity: string | undefined;
  open: number;
  idleTimer: NodeJS.Timeout | undefined;
  ended: boolean;
}

/** A legacy SSE connection: its stream is the connection, so it is never dormant. */
interface LegacyConnection extends SlotHolder {
  transport: LegacySseTransport;
  identity: string | undefined;
}

/** Serves an admitted request at one path; `envelope` is a relayed request's caller. */
type Route = (req: IncomingMessage, res: ServerResponse, url: URL, envelope: Envelope | undefined) => Promise<void>;

/** Thrown while reading a request whose answer has already been sent (413, parse error). */
class Answered extends Error {}

/** Listens on `options.host:options.port` and serves every MCP client through `runtime.connect`. */
export async function startHttpServer(runtime: SessionwrightServer, options: HttpServerOptions): Promise<HttpServerHandle> {
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const bodyLimits = { ...DEFAULT_JSON_LIMITS, maxBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
  const connectionIdleMs = options.connectionIdleMs ?? Math.max(runtime.manager.sessionTimeout, 3_600_000);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const identities = options.authTokensFile === undefined ? undefined : readIdentities(options.authTokensFile);
  const guard = createRequestGuard({ ...options, identities });
  const logger = runtime.logger;
  const streamable = new Map<string, StreamableConnection>();
  const legacy = new Map<string, LegacyConnection>();
  const slots = new ConnectionSlots(maxConnections, options.maxConnectionsPerClient ?? defaultPerClient(maxConnections));
  // 2026-07-28 requests: the SDK's handler answers each one with a server of its own (validation, server/discover,
  // subscriptions/listen); 2025 traffic never reaches it (legacy: 'reject'), it is routed to the connections below.
  // A request relayed by another replica brings its caller's scope in its envelope (authInfo.extra.scope).
  const modern = createMcpHandler(({ authInfo }) => runtime.forRequest({ identity: authInfo?.clientId, scope: relayedScope(authInfo) }).server, {
    legacy: 'reject',
    keepAliveMs,
    // A subscriptions/listen stream is held open like a connection's: as many as connections at most.
    maxSubscriptions: maxConnections,
    onerror: (error) => logger.debug(`2026-07-28 request: ${messageOf(error)}`),
  });
  const serveModern = toNodeHandler(modern, { onerror: (error) => logger.info(`2026-07-28 request failed: ${messageOf(error)}`) });
  let closing = false;
  /** The bodies of relayed requests, read (and hashed for their signature) before they are served. */
  const relayedBodies = new WeakMap<IncomingMessage, unknown>();
  /** False from a replica's SIGTERM on: /healthz says it is stopping; requests are still served. */
  let healthy = true;
  /** Requests being answered other than streams (a GET stream stays open until it is closed). */
  let inFlight = 0;
  let lastAnswered: (() => void) | undefined;
  /** Resolves once a fleet's replica is in its fleet: a request that arrives before waits for it. */
  let joined: Promise<void> = Promise.resolve();
  let inFleet = true;

  /**
   * Whose share of the connections a request's connection counts against: its identity; without identities, its remote
   * address, except this machine's (loopback), which is one client bounded only by maxConnections.
   */
  const clientOf = (req: IncomingMessage, envelope?: Envelope): string | undefined => {
    const identity = identityOf(req, envelope);
    if (identity !== undefined) return `identity:${identity}`;
    const address = req.socket.remoteAddress;
    return address === undefined || isLoopback(address) ? undefined : `address:${address}`;
  };
  /** A new connection refused, so no client (or many) can exhaust the server: 503 when every slot is live, 429 past a client's share. */
  const refuse = (res: ServerResponse, refusal: SlotRefusal) =>
    refusal === 'full'
      ? sendError(res, 503, -32000, `Too many open MCP connections (at most ${slots.max}). Close one, or try again later.`, { 'Retry-After': '5' })
      : sendError(res, 429, -32000, `Too many open MCP connections for this client (at most ${slots.perClient}). Close one of yours, or try again later.`, {
          'Retry-After': '5',
        });

  const server = createServer((req, res) => {
    if (req.method !== 'GET') {
      inFlight += 1;
      res.once('close', () => {
        inFlight -= 1;
        if (inFlight === 0) lastAnswered?.();
      });
    }
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Answered) return;
      // On stderr only (info): a warning would go to every connected client, and this concerns one request.
      logger.info(`HTTP ${req.method} ${req.url?.split('?')[0]} failed: ${messageOf(error)}`);
      if (!res.headersSent) sendError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  });

  /**
   * In a fleet, a request's live-view links are on the address its client reached (a balancer's), also when its call
   * runs on another replica: a relayed request brings that address along in its envelope. A relayed request's signature
   * is checked here, once, over its body too; one that fails is refused before anything reads it.
   */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fleet = runtime.fleet;
    if (fleet === undefined) return serve(req, res, undefined);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (LiveViews.matches(path) || header(req, RELAY_SIGNATURE_HEADER) === undefined)
      return liveLinkBase.run(reachedBase(req), () => serve(req, res, undefined));
    let text = '';
    if (req.method === 'POST') {
      const body = await readJsonBody(req, bodyLimits);
      if (!body.ok) return sendError(res, body.status, body.code, body.message);
      relayedBodies.set(req, body.value);
      text = body.text;
    }
    const envelope = fleet.acceptRelayed(
      { method: req.method ?? '', path: req.url ?? '/', body: text },
      header(req, RELAY_SIGNATURE_HEADER),
      header(req, RELAY_ENVELOPE_HEADER),
    );
    if (envelope === undefined) {
      logger.debug(`refused a replica-to-replica request not signed for this replica (${req.method} ${path})`);
      return sendError(res, 403, -32000, 'Forbidden: not a request of this fleet signed for this replica, or one already served.');
    }
    return liveLinkBase.run(envelope.liveBase, () => relayedCall.run(envelope, () => serve(req, res, envelope)));
  }

  /** Who calls: the relaying replica's word for a relayed request (its envelope), else the request's token's name. */
  function identityOf(req: IncomingMessage, envelope: Envelope | undefined): string | undefined {
    if (envelope === undefined) return guard.identify(req.headers);
    return envelope.guarded && envelope.identity.startsWith(IDENTITY_PREFIX) ? envelope.identity.slice(IDENTITY_PREFIX.length) : undefined;
  }

  /** The scope a request is relayed for: its identity's, or without identities the one local identity. */
  function scopeOf(req: IncomingMessage): CallerScope {
    const identity = guard.identify(req.headers);
    return identity === undefined ? { identity: 'local', guarded: false } : { identity: `${IDENTITY_PREFIX}${identity}`, guarded: true };
  }

  async function serve(req: IncomingMessage, res: ServerResponse, envelope: Envelope | undefined): Promise<void> {
    // A live view is a page a person opens from a link (a navigation from anywhere, no bearer token): it carries a token
    // of its own, is checked here for its Host only (DNS rebinding), and checks its page's own requests itself
    // (live-view/live-views.ts). Its streams are no MCP connection and hold no connection slot.
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (LiveViews.matches(path)) return runtime.live.handle(req, res);
    // A balancer's health check: no token, nothing but whether this replica takes requests.
    if (path === HEALTH_PATH && req.method === 'GET') {
      const up = !closing && healthy && inFleet;
      res.writeHead(up ? 200 : 503, { 'Content-Type': 'text/plain' });
      res.end(up ? 'ok\n' : 'stopping\n');
      return;
    }
    // A request relayed by another replica of the fleet: its Host, Origin and token were checked there, and its
    // envelope (checked in handle) says who calls.
    const relayed = envelope !== undefined;
    const refusal = relayed ? undefined : guard.checkSource(req.headers);
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
        'Access-Control-Allow-Headers':
          'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-Session-Id, Last-Event-ID',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const unauthorized = relayed ? undefined : guard.checkToken(req.headers);
    if (unauthorized) return sendError(res, unauthorized.status, -32000, unauthorized.message, unauthorized.headers);
    if (closing) return sendError(res, 503, -32000, 'The server is shutting down.', { Connection: 'close', 'Retry-After': '1' });
    // A replica that listens before it is in its fleet (a balancer that checks only the port) serves once it is.
    await joined;

    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = routes.get(url.pathname);
    if (route === undefined) return sendError(res, 404, -32000, `Not found. MCP is served at ${MCP_PATH} (Streamable HTTP) and /sse (legacy SSE).`);
    return route(req, res, url, envelope);
  }

  /** A GET opens a legacy SSE stream (at /sse, and at the bare URL: clients such as Python's sse_client are given only http://host:port). */
  async function serveLegacyStream(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'GET') return openLegacyStream(req, res);
    return sendError(res, 405, -32000, `Method not allowed: GET ${url.pathname} opens a legacy SSE stream; Streamable HTTP is at ${MCP_PATH}.`, {
      Allow: 'GET',
    });
  }

  /** A legacy SSE client's message, posted for the stream its `sessionId` names. */
  async function serveLegacyMessage(req: IncomingMessage, res: ServerResponse, url: URL, envelope: Envelope | undefined): Promise<void> {
    if (req.method === 'POST') return postLegacyMessage(req, res, url.searchParams.get('sessionId'), envelope);
    return sendError(res, 405, -32000, `Method not allowed: POST to ${MESSAGES_PATH}.`, { Allow: 'POST' });
  }

  /**
   * Where an admitted request goes by its path (its Host, Origin and token checked, or, relayed by another replica,
   * its signature): a client's request and a relayed one take the same routes.
   */
  const routes = new Map<string, Route>([
    [MCP_PATH, (req, res, _url, envelope) => serveStreamable(req, res, envelope)],
    ['/sse', serveLegacyStream],
    ['/', serveLegacyStream],
    [MESSAGES_PATH, serveLegacyMessage],
  ]);

  async function serveStreamable(req: IncomingMessage, res: ServerResponse, envelope: Envelope | undefined): Promise<void> {
    const id = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readJson(req, res);
      if (id !== undefined) return forward(id, req, res, envelope, body);
      if (!(await isLegacyRequest(new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers: webHeaders(req) }), body))) {
        return serveModernRequest(req, res, body, envelope);
      }
      const initializing = Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
      if (!initializing)
        return sendError(res, 400, -32000, 'Bad Request: send initialize first; every later request needs the Mcp-Session-Id header it returned.');
      return openStreamable(req, res, body, envelope);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (id === undefined) return sendError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required.');
      return forward(id, req, res, envelope);
    }
    return sendError(res, 405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' });
  }

  /** A 2026-07-28 request: no connection, the caller's identity comes with it (validated here, passed on as authInfo). */
  async function serveModernRequest(req: IncomingMessage, res: ServerResponse, body: unknown, envelope: Envelope | undefined): Promise<void> {
    const mismatch = sessionIdHeaderMismatch(body, req.headers, runtime.tools.takesSessionId);
    if (mismatch !== undefined)
      return sendError(res, 400, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${mismatch}.`, {}, requestId(body));
    // In a fleet, a call for a session another replica holds is relayed to it whole (once: a relayed request is served).
    const fleet = runtime.fleet;
    const call = toolCall(body);
    if (fleet !== undefined && call !== undefined && envelope === undefined) {
      const scope = scopeOf(req);
      const replica = await fleet.requestReplica(scope, call.name, call.arguments);
      if (replica !== undefined && (await fleet.relayRequest(replica, MCP_PATH, req, res, JSON.stringify(body), scope, true)).kind === 'answered') return;
    }
    const identity = identityOf(req, envelope);
    const extra = envelope === undefined ? {} : { extra: { scope: scopeOfEnvelope(envelope) } };
    const auth: AuthInfo | undefined =
      identity === undefined && envelope === undefined ? undefined : { token: '', clientId: identity ?? '', scopes: [], ...extra };
    await serveModern(Object.assign(req, { auth }), res, body);
  }

  /** A request of a known connection; an unknown or ended id answers 404 so the client initializes again. */
  async function forward(id: string, req: IncomingMessage, res: ServerResponse, envelope: Envelope | undefined, body?: unknown): Promise<void> {
    const connection = streamable.get(id);
    // In a fleet, a connection opened at another replica (a balancer without stickiness) is served there.
    if (!connection && runtime.fleet !== undefined && envelope === undefined) {
      const replica = await runtime.fleet.connectionReplica(id);
      if (replica !== undefined) {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        if ((await runtime.fleet.relayRequest(replica, MCP_PATH, req, res, payload, scopeOf(req), false)).kind !== 'answered')
          sendError(res, 404, -32001, 'Session not found: this MCP session ended or never existed. Initialize a new one.');
        return;
      }
    }
    // Another identity presenting this connection's id is answered as for an unknown one.
    if (!connection || connection.identity !== identityOf(req, envelope)) {
      return sendError(res, 404, -32001, 'Session not found: this MCP session ended or never existed. Initialize a new one.');
    }
    track(connection, res);
    await connection.transport.handleRequest(req, res, body);
  }

  async function openStreamable(req: IncomingMessage, res: ServerResponse, body: unknown, envelope: Envelope | undefined): Promise<void> {
    const identity = identityOf(req, envelope);
    const fleet = runtime.fleet;
    const connection: StreamableConnection = {
      identity,
      client: clientOf(req, envelope),
      transport: new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: fleet === undefined ? randomUUID : () => fleet.connectionId(),
        keepAliveMs,
        onsessioninitialized: (id) => void streamable.set(id, connection),
      }),
      open: 0,
      idleTimer: undefined,
      ended: false,
      dormantSince: undefined,
      evict() {
        logger.debug('closing the longest-dormant Streamable HTTP connection to make room for a new one');
        void connection.transport.close();
      },
    };
    const refusal = slots.take(connection);
    if (refusal !== undefined) return refuse(res, refusal);
    const { transport } = connection;
    // Set before connect, which chains the protocol's own handler after this one.
    transport.onclose = () => {
      connection.ended = true;
      clearTimeout(connection.idleTimer);
      slots.release(connection);
      if (transport.sessionId !== undefined) streamable.delete(transport.sessionId);
    };
    try {
      await runtime.connect(transport, { identity });
    } catch (error) {
      slots.release(connection);
      throw error;
    }
    // A cancelled call sends no response, so its POST stream would stay open; end it once the cancellation is delivered.
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      deliver?.(message, extra);
      const cancelled = cancelledRequest(message);
      if (cancelled !== undefined) transport.closeSSEStream(cancelled);
    };
    track(connection, res);
    await transport.handleRequest(req, res, body);
    // initialize was refused (a bad batch, an unsupported request): nothing will ever reach this connection.
    if (transport.sessionId === undefined || !streamable.has(transport.sessionId)) await transport.close();
    else logger.debug(`MCP connection opened over Streamable HTTP (${runtime.connections} open)`);
  }

  /**
   * Counts the connection's open responses. With none open it is dormant: its slot is free (a client that closed its
   * stream without DELETE gives it back), and once dormant for connectionIdleMs the client has gone away.
   */
  function track(connection: StreamableConnection, res: ServerResponse): void {
    connection.open += 1;
    connection.dormantSince = undefined;
    clearTimeout(connection.idleTimer);
    res.on('close', () => {
      connection.open -= 1;
      if (connection.open > 0 || connection.ended || closing) return;
      connection.dormantSince = Date.now();
      connection.idleTimer = setTimeout(() => {
        logger.debug(`closing a Streamable HTTP connection idle for ${connectionIdleMs} ms`);
        void connection.transport.close();
      }, connectionIdleMs);
      connection.idleTimer.unref();
    });
  }

  async function openLegacyStream(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // In a fleet its id names this replica, so a message a balancer sends to another replica is relayed here.
    const fleetId = runtime.fleet?.connectionId();
    const transport = new LegacySseTransport(MESSAGES_PATH, res, { keepAliveMs, ...defined({ sessionId: fleetId }) });
    const entry: LegacyConnection = {
      transport,
      identity: guard.identify(req.headers),
      client: clientOf(req),
      dormantSince: undefined,
      evict: () => void transport.close(),
    };
    const refusal = slots.take(entry);
    if (refusal !== undefined) return refuse(res, refusal);
    legacy.set(transport.sessionId, entry);
    transport.onclose = () => {
      slots.release(entry);
      legacy.delete(transport.sessionId);
    };
    await runtime.connect(transport, { identity: entry.identity });
    logger.debug(`MCP connection opened over legacy SSE (${runtime.connections} open)`);
  }

  async function postLegacyMessage(req: IncomingMessage, res: ServerResponse, id: string | null, envelope: Envelope | undefined): Promise<void> {
    const entry = id === null ? undefined : legacy.get(id);
    // In a fleet, a stream opened at another replica (a balancer without stickiness) takes its messages there.
    if (!entry && id !== null && runtime.fleet !== undefined && envelope === undefined) {
      const replica = await runtime.fleet.connectionReplica(id);
      if (replica !== undefined) {
        const body = JSON.stringify(await readJson(req, res));
        const path = `${MESSAGES_PATH}?sessionId=${encodeURIComponent(id)}`;
        if ((await runtime.fleet.relayRequest(replica, path, req, res, body, scopeOf(req), false)).kind !== 'answered')
          sendError(res, 404, -32001, 'Session not found: the SSE stream for this sessionId is closed or never existed. Open a new one with GET /sse.');
        return;
      }
    }
    if (!entry || entry.identity !== identityOf(req, envelope)) {
      return sendError(res, 404, -32001, 'Session not found: the SSE stream for this sessionId is closed or never existed. Open a new one with GET /sse.');
    }
    const body = await readJson(req, res);
    entry.transport.handlePost(req, res, body);
  }

  /** The body as JSON, read within bodyLimits; a body it cannot be is answered here (413, or a JSON-RPC parse error). */
  async function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    if (relayedBodies.has(req)) return relayedBodies.get(req);
    const body = await readJsonBody(req, bodyLimits);
    if (body.ok) return body.value;
    sendError(res, body.status, body.code, body.message);
    throw new Answered();
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
  // A replica takes client requests once it is in its fleet (its store answers); until then /healthz answers 503.
  inFleet = false;
  joined = runtime.joinFleet(options.advertiseUrl ?? advertisedUrl(options, url, port));
  try {
    await joined;
  } catch (error) {
    server.close();
    throw error;
  }
  inFleet = true;
  runtime.live.serveOn({
    baseUrl: publicBaseUrl(options, url, port),
    hostAllowed: (host) => guard.checkHost({ host }) === undefined,
    allowedOrigins: options.allowedOrigins,
    // A live page's stream holds a connection like an MCP stream does: counted against the session's identity (its
    // identity), else against the page's own address, as connections are.
    takeSlot: (identity, req) => {
      const holder: SlotHolder = { client: identity?.startsWith('identity:') ? identity : clientOf(req), dormantSince: undefined, evict() {} };
      const refusal = slots.take(holder);
      if (refusal === 'full') return { refused: `Too many open connections (at most ${slots.max}).` };
      if (refusal === 'client') return { refused: `Too many open connections and live pages for this client (at most ${slots.perClient}).` };
      return { release: () => slots.release(holder) };
    },
  });

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    stopAccepting() {
      healthy = false;
    },
    close() {
      closed ??= (async () => {
        healthy = false;
        // No new connection from here on; the requests already here are answered before anything closes. The listening
        // socket is closed right after the event loop has accepted what waited (setImmediate runs just after it polls),
        // so as few connections as can be are queued in the kernel, where closing it would reset them.
        await new Promise((resolve) => setImmediate(resolve));
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // A connection accepted just before the socket closed may not have sent its request yet: it is given a moment
        // to, so that closing the connections below never cuts off a request a balancer has already handed over.
        await new Promise((resolve) => setTimeout(resolve, LATE_REQUEST_MS).unref());
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            lastAnswered = resolve;
            setTimeout(resolve, IN_FLIGHT_GRACE_MS).unref();
          });
        }
        closing = true;
        const transports = [...[...streamable.values()].map((connection) => connection.transport), ...[...legacy.values()].map((entry) => entry.transport)];
        await Promise.all([...transports.map((transport) => transport.close().catch(() => {})), modern.close().catch(() => {})]);
        server.closeAllConnections();
        await stopped;
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

/** How other replicas reach this one when --advertise-url does not say: this machine's host name, or the loopback address it listens on. */
function advertisedUrl(options: HttpServerOptions, url: string, port: number): string {
  if (options.host !== '0.0.0.0' && options.host !== '::') return url;
  return `http://${hostname()}:${port}`;
}

/** The address a request reached, as its client named it (Host, and X-Forwarded-Proto from a balancer that ends TLS). */
function reachedBase(req: IncomingMessage): string | undefined {
  const host = header(req, 'host');
  if (host === undefined || !/^[A-Za-z0-9.:[\]-]{1,300}$/.test(host)) return undefined;
  return `${header(req, 'x-forwarded-proto') === 'https' ? 'https' : 'http'}://${host}`;
}

/** The scope a relayed request's envelope names, as the runtime takes it. */
function scopeOfEnvelope(envelope: Envelope): CallerScope {
  return {
    identity: envelope.identity,
    guarded: envelope.guarded,
    ...(envelope.stateIdentity === undefined ? {} : { stateIdentity: envelope.stateIdentity }),
  };
}

/** The scope a relayed request's auth info carries (set in serveModernRequest, for the runtime's forRequest). */
function relayedScope(authInfo: AuthInfo | undefined): CallerScope | undefined {
  return (authInfo?.extra as { scope?: CallerScope } | undefined)?.scope;
}

/** The tool and arguments of a single tools/call request body. */
function toolCall(body: unknown): { name: string; arguments: unknown } | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? { name: params.name, arguments: params.arguments } : undefined;
}

/** The request's headers as a fetch Headers (for the SDK's era classification). */
function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** The id of the request a notifications/cancelled names, if the message is one. */
function cancelledRequest(message: JSONRPCMessage): string | number | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The id of a single JSON-RPC request body, echoed in an error answer to it. */
function requestId(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Answers with a JSON-RPC error object, as the SDK's transports do for their own refusals. */
function sendError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}
