// Live views of sessions over HTTP: the page at /live/<id>/<secret>/, its frames (SSE) and a person's control and input (POST), on the server's listener or a loopback one of its own.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ControlLease, type Logger, type PersonInput, type Session, isSessionError, messageOf } from '@sessionwright/session-core';
import type { HandOff, HandOffOutcome, LiveViewAccess, LiveViewLink } from '@sessionwright/tools';
import { z } from 'zod';
import { readJsonBody } from '../bounded-read.js';
import { livePageHtml } from './page.js';
import { type LiveToken, LiveTokens } from './tokens.js';

/** Where live views are served: a base URL, and which Host headers and Origins its requests may carry. */
export interface LiveMount {
  /** e.g. `http://127.0.0.1:8931`, no trailing slash. */
  baseUrl: string;
  /** Whether a request's Host header names this server (the DNS-rebinding check). */
  hostAllowed(host: string | undefined): boolean;
  /** Web origins besides the page's own that may drive a live view (`--allowed-origins`; `*`: any). */
  allowedOrigins: readonly string[];
  /**
   * Takes a connection slot for a live page's stream, counted against the session owner's share (the listener's own
   * connection limits); the release, or why there is none. Without it only the live views' own caps bound streams.
   */
  takeSlot?(owner: string | undefined, req: IncomingMessage): { release(): void } | { refused: string };
}

export interface LiveViewsOptions {
  logger: Logger;
  /** How long a live-view URL works, at most (default one hour); it stops earlier when its session ends. */
  ttlMs?: number;
}

/** How long a live-view URL works by default. */
export const LIVE_VIEW_TTL_MS = 3_600_000;
/** The path every live-view route starts with. */
export const LIVE_PATH = '/live/';
/**
 * Streams open at once on one session, for one owner (an identity, else a connection) and on the whole server: watching
 * is cheap but not free, and no owner may take every stream the server has.
 */
const MAX_VIEWERS_PER_SESSION = 8;
export const MAX_VIEWERS_PER_OWNER = 16;
export const MAX_VIEWERS = 64;
/** A person who took control and whose page went away (a reload, a closed tab) gets it back if the page returns within this. */
const HOLDER_GRACE_MS = 3_000;
const KEEP_ALIVE_MS = 15_000;
const MAX_INPUT_BODY = 256 * 1024;
/** A batch of input events is a list of flat objects: room for 200 of them, nothing deeper. */
const MAX_INPUT_DEPTH = 4;
const MAX_INPUT_TOKENS = 10_000;

/** One open live page. */
interface Viewer {
  readonly id: string;
  readonly res: ServerResponse;
  readonly session: Session;
  /** The link it was opened with: the stream ends when that link is retired. */
  readonly tokenId: string;
  /** A frame the stream had no room for yet; the newest replaces it. */
  pendingFrame: string | undefined;
  close(): void;
}

/** What live views keep per session. */
interface LiveSession {
  readonly viewers: Set<Viewer>;
  /** The viewer who pressed "Take control" (a lease taken by a person). */
  holder: string | undefined;
  holderGrace: NodeJS.Timeout | undefined;
  /** A hand-off whose timeout passed while a person was watching: control stays until the last watcher leaves. */
  handOffLingering: boolean;
  stopListening(): void;
}

const point = { x: z.number().finite(), y: z.number().finite() };
const modifiers = z.number().int().min(0).max(15).optional();
const inputSchema: z.ZodType<PersonInput> = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('mouse'),
    type: z.enum(['down', 'up', 'move']),
    ...point,
    button: z.enum(['left', 'middle', 'right', 'none']).optional(),
    clickCount: z.number().int().min(0).max(3).optional(),
    modifiers,
  }),
  z.strictObject({ kind: z.literal('wheel'), ...point, deltaX: z.number().finite(), deltaY: z.number().finite(), modifiers }),
  z.strictObject({
    kind: z.literal('key'),
    type: z.enum(['down', 'up']),
    key: z.string().min(1).max(40),
    code: z.string().max(40),
    keyCode: z.number().int().min(0).max(255).optional(),
    modifiers,
  }),
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(10_000) }),
]);
const inputBody = z.strictObject({ events: z.array(inputSchema).min(1).max(200) });
const controlBody = z.strictObject({ action: z.enum(['take', 'give_back']) });

/**
 * Serves every session's live view. A URL carries a token for one session (LiveTokens); a wrong or foreign token gets
 * 403, an unknown, expired or ended one 404, and neither shows anything. The page's own requests must come from its
 * own origin (or one in --allowed-origins): another web page cannot drive it even when it knows the URL's form.
 */
export class LiveViews implements LiveViewAccess {
  private readonly tokens = new LiveTokens();
  private readonly live = new Map<Session, LiveSession>();
  private readonly logger: Logger;
  private readonly ttlMs: number;
  private mount: LiveMount | undefined;
  private own: Promise<{ server: Server; mount: LiveMount }> | undefined;
  private viewerCount = 0;
  /** Streams open per session owner ('' for sessions without one). */
  private readonly viewersOf = new Map<string, number>();
  private closed = false;

  constructor(options: LiveViewsOptions) {
    this.logger = options.logger;
    this.ttlMs = options.ttlMs ?? LIVE_VIEW_TTL_MS;
  }

  /** Whether a request path is a live-view route. */
  static matches(pathname: string): boolean {
    return pathname.startsWith(LIVE_PATH);
  }

  /** Serves live views on an existing listener (the HTTP server), which routes LIVE_PATH requests to handle(). */
  serveOn(mount: LiveMount): void {
    this.mount = mount;
  }

  /** A new URL showing the session live, with its expiry (over stdio, the first one opens the loopback listener). */
  async open(session: Session): Promise<LiveViewLink> {
    const mount = await this.mounted();
    this.track(session);
    const { token, secret, retired } = this.tokens.mint(session, this.ttlMs);
    const live = this.live.get(session);
    for (const viewer of live ? [...live.viewers] : []) {
      if (!retired.includes(viewer.tokenId)) continue;
      send(viewer.res, 'end', { message: 'This live-view link was replaced by newer ones. Ask for a new one.' });
      viewer.close();
    }
    return { url: `${mount.baseUrl}${LIVE_PATH}${token.id}/${secret}/`, expiresAt: token.expiresAt };
  }

  /** The origin live pages are served from (for an MCP App's frame allowance); opens the loopback listener if needed. */
  async origin(): Promise<string> {
    return new URL((await this.mounted()).baseUrl).origin;
  }

  /**
   * Hands the session to a person: their control enters its queue at once, so the agent's calls wait. Ends when they
   * give it back; at `timeout` it is taken back if nobody has the live page open, else it stays with the person until
   * they give it back or leave. cancel() takes it back at once.
   */
  handOff(session: Session, request: { message: string; timeout: number }): HandOff {
    const lease = session.takeControl({ message: request.message, by: 'agent' });
    const live = this.track(session);
    let settle!: (outcome: HandOffOutcome) => void;
    const outcome = new Promise<HandOffOutcome>((resolve) => {
      settle = resolve;
    });
    let cancelled = false;
    const timer = setTimeout(() => {
      if (lease.state === 'released') return;
      if (live.viewers.size === 0) {
        lease.release();
        settle('timeout');
      } else {
        live.handOffLingering = true;
        settle('with_person');
      }
    }, request.timeout);
    timer.unref();
    void lease.released.then(() => {
      clearTimeout(timer);
      live.handOffLingering = false;
      settle(cancelled ? 'cancelled' : session.hasEnded ? 'session_ended' : 'returned');
    });
    return {
      outcome,
      cancel() {
        cancelled = true;
        lease.release();
      },
    };
  }

  /** Ends every live page and stops the loopback listener, if one was opened. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [session, live] of this.live) this.endSession(session, live, 'The server is shutting down.');
    const own = await this.own?.catch(() => undefined);
    if (own) {
      await new Promise<void>((resolve) => {
        own.server.close(() => resolve());
        own.server.closeAllConnections();
      });
    }
  }

  /** Answers one request under LIVE_PATH. Never throws. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (error) {
      this.logger.info(`live view: ${req.method} failed: ${messageOf(error)}`);
      if (!res.headersSent) plain(res, 500, 'Internal error');
      else res.destroy();
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const mount = this.mount ?? (await this.own)?.mount;
    if (mount === undefined || !mount.hostAllowed(req.headers.host)) return plain(res, 403, 'Forbidden');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const parts = url.pathname.slice(LIVE_PATH.length).split('/');
    const [id = '', secret = '', action = '', ...rest] = parts;
    if (rest.length > 0 || id === '' || secret === '') return plain(res, 404, 'Not found');
    const checked = this.tokens.check(id, secret);
    if (!checked.ok) return plain(res, checked.status, checked.status === 403 ? 'Forbidden' : 'Not found');
    const { session } = checked.token;
    // The page itself may be opened from anywhere (a link in a chat); everything it then asks for must come from it.
    if (action === '' || action === 'index.html') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed', { Allow: 'GET' });
      return page(res, req.method === 'HEAD');
    }
    if (!fromThePage(req, mount)) return json(res, 403, { message: 'Forbidden: this request did not come from the live page.' });
    switch (action) {
      case 'events':
        if (req.method !== 'GET') return plain(res, 405, 'Method not allowed', { Allow: 'GET' });
        return this.stream(req, res, checked.token, url.searchParams.get('viewer'), mount);
      case 'control':
        if (req.method !== 'POST') return json(res, 405, { message: 'Method not allowed.' }, { Allow: 'POST' });
        return this.control(req, res, session);
      case 'input':
        if (req.method !== 'POST') return json(res, 405, { message: 'Method not allowed.' }, { Allow: 'POST' });
        return this.input(req, res, session);
      default:
        return plain(res, 404, 'Not found');
    }
  }

  private async mounted(): Promise<LiveMount> {
    if (this.mount) return this.mount;
    if (this.closed) throw new Error('live views are closed');
    this.own ??= listenOnLoopback((req, res) => void this.handle(req, res));
    return (await this.own).mount;
  }

  /** The session's live state, made on first use; dropped (every page told) when the session ends. */
  private track(session: Session): LiveSession {
    let live = this.live.get(session);
    if (live) return live;
    const stopEnd = session.onEnd(() => {
      const ended = this.live.get(session);
      if (ended) this.endSession(session, ended, 'The session has ended.');
    });
    const stopControl = session.onControl((lease) => this.controlChanged(session, lease));
    live = {
      viewers: new Set(),
      holder: undefined,
      holderGrace: undefined,
      handOffLingering: false,
      stopListening() {
        stopEnd();
        stopControl();
      },
    };
    this.live.set(session, live);
    return live;
  }

  private endSession(session: Session, live: LiveSession, message: string): void {
    this.live.delete(session);
    live.stopListening();
    clearTimeout(live.holderGrace);
    this.tokens.dropSession(session);
    for (const viewer of [...live.viewers]) {
      send(viewer.res, 'end', { message });
      viewer.close();
    }
  }

  private stream(req: IncomingMessage, res: ServerResponse, token: LiveToken, askedId: string | null, mount: LiveMount): void {
    const { session, expiresAt } = token;
    const live = this.track(session);
    const owner = session.owner ?? '';
    if (live.viewers.size >= MAX_VIEWERS_PER_SESSION || (this.viewersOf.get(owner) ?? 0) >= MAX_VIEWERS_PER_OWNER || this.viewerCount >= MAX_VIEWERS) {
      plain(res, 429, 'Too many live pages are open; close one and reload.', { 'Retry-After': '10' });
      return;
    }
    const slot = mount.takeSlot?.(session.owner, req);
    if (slot !== undefined && 'refused' in slot) {
      plain(res, 429, `${slot.refused} Close a live page or a connection, and reload.`, { 'Retry-After': '10' });
      return;
    }
    // A page that reloads keeps its viewer id (and so the control it held); a new page gets a new one.
    const id = askedId !== null && /^[0-9a-f-]{36}$/.test(askedId) && askedId === live.holder ? askedId : randomUUID();
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    let closed = false;
    const viewer: Viewer = {
      id,
      res,
      session,
      tokenId: token.id,
      pendingFrame: undefined,
      close: () => {
        if (closed) return;
        closed = true;
        res.end();
      },
    };
    live.viewers.add(viewer);
    this.viewerCount += 1;
    this.viewersOf.set(owner, (this.viewersOf.get(owner) ?? 0) + 1);
    if (live.holder === id) clearTimeout(live.holderGrace);
    send(res, 'hello', { viewer: id });
    send(res, 'control', this.controlFor(session, live, id));
    const stopWatching = session.screencast.watch({
      frame: (frame) => {
        const data = JSON.stringify({ jpeg: frame.jpeg.toString('base64'), width: frame.viewport.width, height: frame.viewport.height });
        // A stream that cannot keep up skips frames: only the newest waits for room.
        if (res.writableNeedDrain) viewer.pendingFrame = data;
        else res.write(`event: frame\ndata: ${data}\n\n`);
      },
      tab: (state) => send(res, 'tab', state),
      failed: (message) => send(res, 'failed', { message }),
    });
    res.on('drain', () => {
      const data = viewer.pendingFrame;
      viewer.pendingFrame = undefined;
      if (data !== undefined) res.write(`event: frame\ndata: ${data}\n\n`);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    // The URL stops working at its expiry: the page is told and its stream ends.
    const expiry = setTimeout(
      () => {
        send(res, 'end', { message: 'This live-view link has expired. Ask for a new one.' });
        viewer.close();
      },
      Math.max(0, expiresAt - Date.now()),
    );
    expiry.unref();
    const done = () => {
      clearInterval(keepAlive);
      clearTimeout(expiry);
      stopWatching();
      if (!live.viewers.delete(viewer)) return;
      this.viewerCount -= 1;
      const left = (this.viewersOf.get(owner) ?? 1) - 1;
      if (left > 0) this.viewersOf.set(owner, left);
      else this.viewersOf.delete(owner);
      if (slot !== undefined && 'release' in slot) slot.release();
      this.viewerLeft(session, live, viewer);
    };
    res.on('close', done);
    req.on('close', done);
  }

  /** A page went away: a person's control waits a moment for it to come back; a lingering hand-off ends with its last watcher. */
  private viewerLeft(session: Session, live: LiveSession, viewer: Viewer): void {
    const lease = session.control;
    if (!lease || session.hasEnded) return;
    if (lease.by === 'person' && live.holder === viewer.id && ![...live.viewers].some((other) => other.id === viewer.id)) {
      clearTimeout(live.holderGrace);
      live.holderGrace = setTimeout(() => {
        if (session.control === lease && live.holder === viewer.id) lease.release();
      }, HOLDER_GRACE_MS);
      live.holderGrace.unref();
    }
    if (lease.by === 'agent' && live.handOffLingering && live.viewers.size === 0) lease.release();
  }

  private async control(req: IncomingMessage, res: ServerResponse, session: Session): Promise<void> {
    const body = controlBody.safeParse(await readJson(req, 4_096));
    if (!body.success) return json(res, 400, { message: 'Send {"action": "take"} or {"action": "give_back"}.' });
    const live = this.track(session);
    const viewerId = viewerOf(req, live);
    if (viewerId === undefined) return json(res, 409, { message: 'This page is not connected to the session; reload it.' });
    const lease = session.control;
    if (body.data.action === 'take') {
      if (lease && !this.mayAct(live, lease, viewerId)) return json(res, 409, { message: 'Someone else has control of this session.' });
      if (!lease) {
        try {
          live.holder = viewerId;
          session.takeControl({ by: 'person' });
        } catch (error) {
          live.holder = undefined;
          return json(res, 409, { message: isSessionError(error) ? error.message : 'The session cannot be taken over now.' });
        }
      }
    } else {
      if (!lease) return json(res, 200, { control: this.controlFor(session, live, viewerId) });
      if (!this.mayAct(live, lease, viewerId)) return json(res, 409, { message: 'Someone else has control of this session.' });
      lease.release();
    }
    return json(res, 200, { control: this.controlFor(session, live, viewerId) });
  }

  private async input(req: IncomingMessage, res: ServerResponse, session: Session): Promise<void> {
    const raw = await readJson(req, MAX_INPUT_BODY);
    const body = inputBody.safeParse(raw);
    if (!body.success) return json(res, 400, { message: `Bad input events: ${body.error.issues[0]?.message ?? 'invalid'}.` });
    const live = this.track(session);
    const viewerId = viewerOf(req, live);
    const lease = session.control;
    if (viewerId === undefined || !lease || lease.state !== 'held' || !this.mayAct(live, lease, viewerId)) {
      return json(res, 409, { message: 'Take control first: input reaches the page only while you have control.' });
    }
    let failed = 0;
    for (const event of body.data.events) {
      // A tab that closes under the person's hands drops the rest of that event, not the session.
      await lease.input(event).catch(() => {
        failed += 1;
      });
    }
    return json(res, 200, { delivered: body.data.events.length - failed, failed });
  }

  /** Whether this page may act with the session's control: it took it, or the agent handed the session to whoever opens the link. */
  private mayAct(live: LiveSession, lease: ControlLease, viewerId: string): boolean {
    return lease.by === 'agent' || live.holder === viewerId;
  }

  private controlFor(session: Session, live: LiveSession, viewerId: string) {
    const lease = session.control;
    if (!lease) return { state: 'free', mine: false, by: 'person', message: '' };
    return { state: lease.state === 'released' ? 'free' : lease.state, mine: this.mayAct(live, lease, viewerId), by: lease.by, message: lease.message ?? '' };
  }

  private controlChanged(session: Session, lease: ControlLease): void {
    const live = this.live.get(session);
    if (!live) return;
    if (lease.state === 'released' && live.holder !== undefined && session.control === undefined) {
      live.holder = undefined;
      clearTimeout(live.holderGrace);
    }
    for (const viewer of live.viewers) send(viewer.res, 'control', this.controlFor(session, live, viewer.id));
  }
}

/** Opens a listener on 127.0.0.1 at a free port for live views only (stdio has no HTTP listener of its own). */
async function listenOnLoopback(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; mount: LiveMount }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!LiveViews.matches(path)) return plain(res, 404, 'Not found');
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
function fromThePage(req: IncomingMessage, mount: LiveMount): boolean {
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

/** The viewer id a page sends with its POSTs, if a page with that id is connected to the session. */
function viewerOf(req: IncomingMessage, live: LiveSession): string | undefined {
  const id = req.headers['x-live-viewer'];
  return typeof id === 'string' && [...live.viewers].some((viewer) => viewer.id === id) ? id : undefined;
}

/** A page's POST body as JSON, read within bounds (bounded-read.ts); undefined for one that is too large, too deep or not JSON. */
async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const body = await readJsonBody(req, { maxBytes, maxDepth: MAX_INPUT_DEPTH, maxTokens: MAX_INPUT_TOKENS });
  return body.ok ? body.value : undefined;
}

function send(res: ServerResponse, event: string, data: unknown): void {
  if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

function page(res: ServerResponse, headOnly: boolean): void {
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

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
