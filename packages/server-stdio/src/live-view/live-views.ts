// Live views of sessions: the page at /live/<id>/<secret>/ over HTTP (frames as SSE, a person's control and input as POSTs, on the server's listener or a loopback one of its own), and the same view, control and input for the MCP App through its tools.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  type Clock,
  type Logger,
  type Session,
  SessionError,
  type TimerHandle,
  type Timers,
  isSessionError,
  systemClock,
  systemTimers,
} from '@sessionwright/session-core';
import { type ControlLease, type PersonInput, messageOf } from '@sessionwright/session-core/parts';
import {
  type HandOff,
  type GiveBackSource,
  type HandOffEnd,
  type LiveControl,
  type LiveFrame,
  type LiveViewAccess,
  type LiveViewLink,
  MAX_APP_RESULT_CHARS,
  MAX_INPUT_EVENTS,
  personInputSchema,
} from '@sessionwright/tools';
import { validate } from 'uuid';
import { z } from 'zod';
import { type AppViewer, pauseApp, watchApp } from './app-viewer.js';
import { NO_BODY, type PageBody, fromThePage, json, type LiveMount, listenOnLoopback, page, plain, readPageBody, send } from './live-http.js';
import { type LiveToken, LiveTokens } from './tokens.js';

interface LiveViewsOptions {
  logger: Logger;
  /** How long a live-view URL works, at most (default one hour); it stops earlier when its session ends. */
  ttlMs?: number;
  /** The sessions' time sources (the manager's), so a link's expiry and a person's grace follow the same clock. */
  clock?: Clock;
  timers?: Timers;
}

/** How long a live-view URL works by default. */
const LIVE_VIEW_TTL_MS = 3_600_000;
/** The path every live-view route starts with. */
const LIVE_PATH = '/live/';
/**
 * Streams open at once on one session, for one identity (a token's, else a connection) and on the whole server: watching
 * is cheap but not free, and no identity may take every stream the server has.
 */
const MAX_VIEWERS_PER_SESSION = 8;
const MAX_VIEWERS_PER_IDENTITY = 16;
const MAX_VIEWERS = 64;
/** A person who took control and whose page went away (a reload, a closed tab) gets it back if the page returns within this. */
const HOLDER_GRACE_MS = 3_000;
const KEEP_ALIVE_MS = 15_000;
/** The largest body a live page POSTs (a batch of input events), and the largest a control message may be. */
const MAX_INPUT_BODY = 256 * 1024;
const MAX_CONTROL_BODY = 4_096;
/** An MCP App viewer that has not called for this long has gone (its host closed it); a control it held goes back. */
const APP_VIEWER_IDLE_MS = 10_000;
/** Calls of one MCP App viewer are answered at most this often. */
const APP_MIN_POLL_MS = 250;
/** How long a frame call waits for a newer frame before answering without one. */
const APP_POLL_WAIT_MS = 1_000;
/** Room in a frame result for everything but the picture (the JSON, the URL and title). */
const APP_RESULT_ROOM = 12_000;

/**
 * In a fleet, how a live-view link works through any replica (fleet/live-relay.ts): each token is entered where every
 * replica finds it, and a request for a token this replica does not know goes to the replica that issued it.
 */
export interface LiveRelay {
  /** A link was minted here, valid for `ttlMs`. */
  minted(tokenId: string, ttlMs: number): Promise<void>;
  /**
   * Sends the request, with its `body` (already read), on to the replica that issued the token, and its answer back;
   * false when none did (or it is gone).
   */
  relay(tokenId: string, req: IncomingMessage, res: ServerResponse, body: string): Promise<boolean>;
  /** Whether a request with `body` may be served: a direct one, or one relayed by a replica of this fleet (signed with its key, over its body). */
  accepts(req: IncomingMessage, body: string): boolean;
}

/**
 * In a fleet, the base of the live-view links a call mints: the address its client reached (the balancer's), carried
 * along when the call runs on another replica. Unset, a link is on the replica's own base.
 */
export const liveLinkBase = new AsyncLocalStorage<string | undefined>();

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
  readonly apps: Map<string, AppViewer>;
  /** The viewer who pressed "Take control" (a lease taken by a person). */
  holder: string | undefined;
  holderGrace: TimerHandle | undefined;
  /** A hand-off whose timeout passed while a person was watching: control stays until the last watcher leaves. */
  handOffLingering: boolean;
  /** Through what the control was last given back, read by the hand-off it ends. */
  givenBackBy: GiveBackSource | undefined;
  stopListening(): void;
}

const inputBody = z.strictObject({ events: z.array(personInputSchema).min(1).max(MAX_INPUT_EVENTS) });
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
  private readonly clock: Clock;
  private readonly timers: Timers;
  private mount: LiveMount | undefined;
  private own: Promise<{ server: Server; mount: LiveMount }> | undefined;
  private viewerCount = 0;
  /** Streams open per session identity ('' for sessions without one). */
  private readonly viewersOf = new Map<string, number>();
  private closed = false;
  private relay: LiveRelay | undefined;

  constructor(options: LiveViewsOptions) {
    this.logger = options.logger;
    this.ttlMs = options.ttlMs ?? LIVE_VIEW_TTL_MS;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
  }

  /** Whether a request path is a live-view route. */
  static matches(pathname: string): boolean {
    return pathname.startsWith(LIVE_PATH);
  }

  /** Serves live views on an existing listener (the HTTP server), which routes LIVE_PATH requests to handle(). */
  serveOn(mount: LiveMount): void {
    this.mount = mount;
  }

  /** In a fleet: links work through any replica of it. */
  relayVia(relay: LiveRelay): void {
    this.relay = relay;
  }

  /**
   * A new URL showing the session live, with its expiry (over stdio, the first one opens the loopback listener). In a
   * fleet it is on the address the caller reached (liveLinkBase), through which any replica serves it.
   */
  async open(session: Session): Promise<LiveViewLink> {
    const mount = await this.mounted();
    this.track(session);
    const { token, secret, retired } = this.tokens.mint(session, this.ttlMs);
    if (this.relay !== undefined) {
      try {
        await this.relay.minted(token.id, this.ttlMs);
      } catch (error) {
        // The link still works through this replica; not through the others until the store is back.
        this.logger.info(`live view: the link could not be entered in the store: ${messageOf(error)}`);
      }
    }
    const base = (this.relay !== undefined ? liveLinkBase.getStore() : undefined) ?? mount.baseUrl;
    const live = this.live.get(session);
    for (const viewer of live ? [...live.viewers] : []) {
      if (!retired.includes(viewer.tokenId)) continue;
      send(viewer.res, 'end', { message: 'This live-view link was replaced by newer ones. Ask for a new one.' });
      viewer.close();
    }
    return { url: `${base}${LIVE_PATH}${token.id}/${secret}/`, expiresAt: token.expiresAt };
  }

  /**
   * Hands the session to a person: their control enters its queue at once, so the agent's calls wait. Ends when they
   * give it back; at `timeout` it is taken back if nobody has the live page open, else it stays with the person until
   * they give it back or leave. cancel() takes it back at once.
   */
  handOff(session: Session, request: { message: string; timeout: number }): HandOff {
    let settle!: (end: HandOffEnd) => void;
    const ended = new Promise<HandOffEnd>((resolve) => {
      settle = resolve;
    });
    const lease = session.control.take(
      { message: request.message, by: 'agent' },
      {
        afterMs: request.timeout,
        onExpiry: () => {
          if (lease.state === 'released') return;
          if (watchers(live) === 0) {
            lease.release();
            settle({ outcome: 'timeout' });
          } else {
            live.handOffLingering = true;
            settle({ outcome: 'with_person' });
          }
        },
      },
    );
    const live = this.track(session);
    live.givenBackBy = undefined;
    let cancelled = false;
    void lease.released.then(() => {
      live.handOffLingering = false;
      const returnedBy = live.givenBackBy;
      live.givenBackBy = undefined;
      if (cancelled) settle({ outcome: 'cancelled' });
      else if (session.hasEnded) settle({ outcome: 'session_ended' });
      else settle({ outcome: 'returned', ...(returnedBy === undefined ? {} : { returnedBy }) });
    });
    return {
      ended,
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
    // A POST's body (a person's control or input) is read once, first, within the bounds of the largest the page sends:
    // a relayed request's signature covers it, and a request relayed on from here carries it.
    const body = req.method === 'POST' ? await readPageBody(req, MAX_INPUT_BODY) : NO_BODY;
    if (this.relay !== undefined && !this.relay.accepts(req, body.text)) return plain(res, 403, 'Forbidden');
    const checked = this.tokens.check(id, secret);
    if (!checked.ok && checked.status === 404 && this.relay !== undefined && (await this.relay.relay(id, req, res, body.text))) return;
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
        return this.controlRoute(req, res, session, body);
      case 'input':
        if (req.method !== 'POST') return json(res, 405, { message: 'Method not allowed.' }, { Allow: 'POST' });
        return this.inputRoute(req, res, session, body);
      default:
        return plain(res, 404, 'Not found');
    }
  }

  private async mounted(): Promise<LiveMount> {
    if (this.mount) return this.mount;
    if (this.closed) throw new Error('live views are closed');
    this.own ??= listenOnLoopback(LIVE_PATH, (req, res) => void this.handle(req, res));
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
    const stopControl = session.control.onChange((lease) => this.controlChanged(session, lease));
    live = {
      viewers: new Set(),
      apps: new Map(),
      holder: undefined,
      holderGrace: undefined,
      handOffLingering: false,
      givenBackBy: undefined,
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
    this.timers.clearTimeout(live.holderGrace);
    this.tokens.dropSession(session);
    for (const viewer of [...live.viewers]) {
      send(viewer.res, 'end', { message });
      viewer.close();
    }
    for (const app of [...live.apps.values()]) this.dropApp(live, app);
  }

  private stream(req: IncomingMessage, res: ServerResponse, token: LiveToken, askedId: string | null, mount: LiveMount): void {
    const { session, expiresAt } = token;
    const live = this.track(session);
    const identity = session.identity ?? '';
    if (this.full(live, identity)) {
      plain(res, 429, 'Too many live pages are open; close one and reload.', { 'Retry-After': '10' });
      return;
    }
    const slot = mount.takeSlot?.(session.identity, req);
    if (slot !== undefined && 'refused' in slot) {
      plain(res, 429, `${slot.refused} Close a live page or a connection, and reload.`, { 'Retry-After': '10' });
      return;
    }
    // A page that reloads keeps its viewer id (and so the control it held); a new page gets a new one.
    const id = askedId !== null && validate(askedId) && askedId === live.holder ? askedId : randomUUID();
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
    this.joined(identity);
    if (live.holder === id) this.timers.clearTimeout(live.holderGrace);
    send(res, 'hello', { viewer: id });
    send(res, 'control', this.controlFor(session, live, id));
    const stopWatching = session.control.screencast.watch({
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
    const timers = this.timers;
    let keepAlive: TimerHandle = timers.setTimeout(function keepAliveBeat() {
      res.write(': keep-alive\n\n');
      keepAlive = timers.setTimeout(keepAliveBeat, KEEP_ALIVE_MS);
    }, KEEP_ALIVE_MS);
    // The URL stops working at its expiry: the page is told and its stream ends.
    const expiry = this.timers.setTimeout(
      () => {
        send(res, 'end', { message: 'This live-view link has expired. Ask for a new one.' });
        viewer.close();
      },
      Math.max(0, expiresAt - this.clock.now()),
    );
    const done = () => {
      this.timers.clearTimeout(keepAlive);
      this.timers.clearTimeout(expiry);
      stopWatching();
      if (!live.viewers.delete(viewer)) return;
      this.left(identity);
      if (slot !== undefined && 'release' in slot) slot.release();
      this.viewerLeft(session, live, viewer);
    };
    res.on('close', done);
    req.on('close', done);
  }

  /**
   * A page or an MCP App went away: a person's control waits a moment for a page to come back (an app that stopped
   * calling has waited already); a lingering hand-off ends with its last watcher.
   */
  private viewerLeft(session: Session, live: LiveSession, viewer: { id: string }, graceMs = HOLDER_GRACE_MS): void {
    const lease = session.control.lease;
    if (!lease || session.hasEnded) return;
    if (lease.by === 'person' && live.holder === viewer.id && ![...live.viewers].some((other) => other.id === viewer.id) && !live.apps.has(viewer.id)) {
      this.timers.clearTimeout(live.holderGrace);
      live.holderGrace = this.timers.setTimeout(() => {
        if (session.control.lease === lease && live.holder === viewer.id) lease.release();
      }, graceMs);
    }
    if (lease.by === 'agent' && live.handOffLingering && watchers(live) === 0) lease.release();
  }

  private async controlRoute(req: IncomingMessage, res: ServerResponse, session: Session, sent: PageBody): Promise<void> {
    const body = controlBody.safeParse(Buffer.byteLength(sent.text) <= MAX_CONTROL_BODY ? sent.value : undefined);
    if (!body.success) return json(res, 400, { message: 'Send {"action": "take"} or {"action": "give_back"}.' });
    const live = this.track(session);
    const viewerId = viewerOf(req, live);
    if (viewerId === undefined) return json(res, 409, { message: 'This page is not connected to the session; reload it.' });
    const outcome = this.applyControl(session, live, viewerId, body.data.action, 'live_page');
    return outcome.ok ? json(res, 200, { control: outcome.control }) : json(res, 409, { message: outcome.message });
  }

  private async inputRoute(req: IncomingMessage, res: ServerResponse, session: Session, sent: PageBody): Promise<void> {
    const body = inputBody.safeParse(sent.value);
    if (!body.success) return json(res, 400, { message: `Bad input events: ${body.error.issues[0]?.message ?? 'invalid'}.` });
    const live = this.track(session);
    const outcome = await this.applyInput(session, live, viewerOf(req, live), body.data.events);
    return outcome.ok ? json(res, 200, { delivered: outcome.delivered, failed: outcome.failed }) : json(res, 409, { message: outcome.message });
  }

  /** Take control or give it back for one viewer (a page or an MCP App, `via`): the one rule for both. */
  private applyControl(
    session: Session,
    live: LiveSession,
    viewerId: string,
    action: 'take' | 'give_back',
    via: GiveBackSource,
  ): { ok: true; control: LiveControl } | { ok: false; message: string } {
    const lease = session.control.lease;
    if (action === 'take') {
      if (lease && !this.mayAct(live, lease, viewerId)) return { ok: false, message: 'Someone else has control of this session.' };
      if (!lease) {
        try {
          live.holder = viewerId;
          session.control.take({ by: 'person' });
        } catch (error) {
          live.holder = undefined;
          return { ok: false, message: isSessionError(error) ? error.message : 'The session cannot be taken over now.' };
        }
      }
    } else if (lease) {
      if (!this.mayAct(live, lease, viewerId)) return { ok: false, message: 'Someone else has control of this session.' };
      live.givenBackBy = via;
      lease.release();
    }
    return { ok: true, control: this.controlFor(session, live, viewerId) };
  }

  /** A person's input from one viewer, which must have control: the one rule for pages and MCP Apps. */
  private async applyInput(
    session: Session,
    live: LiveSession,
    viewerId: string | undefined,
    events: readonly PersonInput[],
  ): Promise<{ ok: true; delivered: number; failed: number } | { ok: false; message: string }> {
    const lease = session.control.lease;
    if (viewerId === undefined || !lease || lease.state !== 'held' || !this.mayAct(live, lease, viewerId)) {
      return { ok: false, message: 'Take control first: input reaches the page only while you have control.' };
    }
    let failed = 0;
    for (const event of events) {
      // A tab that closes under the person's hands drops the rest of that event, not the session.
      await lease.input(event).catch(() => {
        failed += 1;
      });
    }
    return { ok: true, delivered: events.length - failed, failed };
  }

  // The MCP App's view, through its tools --------------------------------------------------------------------------

  async frame(session: Session, request: { viewer?: string | undefined; cursor?: number | undefined; signal: AbortSignal }): Promise<LiveFrame> {
    // A session that ended just after the tool found it keeps no live state.
    if (session.hasEnded) throw new SessionError('SESSION_NOT_FOUND', 'The session has ended.', { sessionId: session.id });
    const live = this.track(session);
    const app = this.appViewer(session, live, request.viewer);
    // Watching is a use of the session, a bounded one (Session.watched): a session only watched still expires.
    session.watched(this.clock.now());
    const early = app.answeredAt + APP_MIN_POLL_MS - this.clock.now();
    if (early > 0) await pauseApp(app, early, request.signal, false);
    // Nothing newer than what the app has (or no picture yet): wait a moment for one, so polling is cheap.
    if ((request.cursor === app.cursor || app.jpeg === undefined) && app.failure === undefined) await pauseApp(app, APP_POLL_WAIT_MS, request.signal, true);
    this.keepApp(session, live, app);
    app.answeredAt = this.clock.now();
    const base = { viewer: app.id, cursor: app.cursor, width: app.width, height: app.height, url: app.url, title: app.title };
    const answer: LiveFrame = { ...base, control: this.controlFor(session, live, app.id) };
    if (app.failure !== undefined) answer.note = app.failure;
    if (app.jpeg !== undefined && request.cursor !== app.cursor) {
      const jpeg = app.jpeg.toString('base64');
      if (jpeg.length + APP_RESULT_ROOM <= MAX_APP_RESULT_CHARS) answer.jpeg = jpeg;
      else answer.note = `This frame is over the ${MAX_APP_RESULT_CHARS} character cap of a result; the next one may fit.`;
    }
    return answer;
  }

  control(session: Session, request: { viewer: string; action: 'take' | 'give_back' }): LiveControl {
    const live = this.track(session);
    const app = this.knownApp(session, live, request.viewer);
    const outcome = this.applyControl(session, live, app.id, request.action, 'live_view_app');
    if (!outcome.ok) throw new SessionError('INVALID_PARAMETERS', outcome.message, { details: { reason: 'control_taken' } });
    // A person taking or giving back control is using the session.
    session.touch(this.clock.now());
    return outcome.control;
  }

  async input(session: Session, request: { viewer: string; events: readonly PersonInput[] }): Promise<{ delivered: number; failed: number }> {
    const live = this.track(session);
    const app = this.knownApp(session, live, request.viewer);
    const outcome = await this.applyInput(session, live, app.id, request.events);
    if (!outcome.ok) throw new SessionError('INVALID_PARAMETERS', outcome.message, { details: { reason: 'not_in_control' } });
    return { delivered: outcome.delivered, failed: outcome.failed };
  }

  /** Whether a new viewer of `live` for `identity` would pass a bound: per session, per identity, or the server's. */
  private full(live: LiveSession, identity: string): boolean {
    return watchers(live) >= MAX_VIEWERS_PER_SESSION || (this.viewersOf.get(identity) ?? 0) >= MAX_VIEWERS_PER_IDENTITY || this.viewerCount >= MAX_VIEWERS;
  }

  private joined(identity: string): void {
    this.viewerCount += 1;
    this.viewersOf.set(identity, (this.viewersOf.get(identity) ?? 0) + 1);
  }

  private left(identity: string): void {
    this.viewerCount -= 1;
    const left = (this.viewersOf.get(identity) ?? 1) - 1;
    if (left > 0) this.viewersOf.set(identity, left);
    else this.viewersOf.delete(identity);
  }

  /** The app viewer a call names, or a new one (a page that reloads within the grace keeps the control it held). */
  private appViewer(session: Session, live: LiveSession, asked: string | undefined): AppViewer {
    const known = asked === undefined ? undefined : live.apps.get(asked);
    if (known) return known;
    const identity = session.identity ?? '';
    if (this.full(live, identity)) {
      throw new SessionError('INVALID_PARAMETERS', 'Too many live views of this session are open; close one and try again.', {
        details: { reason: 'too_many_viewers' },
      });
    }
    const id = asked !== undefined && asked === live.holder ? asked : randomUUID();
    if (live.holder === id) this.timers.clearTimeout(live.holderGrace);
    const app = watchApp(session, id, identity);
    live.apps.set(id, app);
    this.joined(identity);
    this.keepApp(session, live, app);
    return app;
  }

  /** The app viewer a control or input call names; INVALID_PARAMETERS (reason viewer_gone) for one that is not there. */
  private knownApp(session: Session, live: LiveSession, viewer: string): AppViewer {
    const app = live.apps.get(viewer);
    if (!app) {
      throw new SessionError('INVALID_PARAMETERS', 'This live view is no longer connected to the session; call live_view_frame without a viewer.', {
        details: { reason: 'viewer_gone' },
      });
    }
    this.keepApp(session, live, app);
    return app;
  }

  /** Keeps an app viewer while it calls: one silent for APP_VIEWER_IDLE_MS has gone. */
  private keepApp(session: Session, live: LiveSession, app: AppViewer): void {
    this.timers.clearTimeout(app.idle);
    app.idle = this.timers.setTimeout(() => {
      if (live.apps.get(app.id) !== app) return;
      this.dropApp(live, app);
      this.viewerLeft(session, live, app, 0);
    }, APP_VIEWER_IDLE_MS);
  }

  private dropApp(live: LiveSession, app: AppViewer): void {
    if (!live.apps.delete(app.id)) return;
    this.left(app.identity);
    this.timers.clearTimeout(app.idle);
    app.stopWatching();
    app.wake?.();
  }

  /** Whether this page may act with the session's control: it took it, or the agent handed the session to whoever opens the link. */
  private mayAct(live: LiveSession, lease: ControlLease, viewerId: string): boolean {
    return lease.by === 'agent' || live.holder === viewerId;
  }

  private controlFor(session: Session, live: LiveSession, viewerId: string): LiveControl {
    const lease = session.control.lease;
    if (!lease) return { state: 'free', mine: false, by: 'person', message: '' };
    return { state: lease.state === 'released' ? 'free' : lease.state, mine: this.mayAct(live, lease, viewerId), by: lease.by, message: lease.message ?? '' };
  }

  private controlChanged(session: Session, lease: ControlLease): void {
    const live = this.live.get(session);
    if (!live) return;
    if (lease.state === 'released' && live.holder !== undefined && session.control.lease === undefined) {
      live.holder = undefined;
      this.timers.clearTimeout(live.holderGrace);
    }
    for (const viewer of live.viewers) send(viewer.res, 'control', this.controlFor(session, live, viewer.id));
    for (const app of live.apps.values()) app.wake?.();
  }
}

/** How many watch the session: open live pages and MCP Apps. */
function watchers(live: LiveSession): number {
  return live.viewers.size + live.apps.size;
}

/** The viewer id a page sends with its POSTs, if a page with that id is connected to the session. */
function viewerOf(req: IncomingMessage, live: LiveSession): string | undefined {
  const id = req.headers['x-live-viewer'];
  return typeof id === 'string' && [...live.viewers].some((viewer) => viewer.id === id) ? id : undefined;
}
