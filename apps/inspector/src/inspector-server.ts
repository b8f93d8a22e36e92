// The inspector's backend: serves the page and a small JSON API over one MCP connection, with a call log and thumbnails.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { readBody, send } from '@sessionwright/test-kit/loopback';
import { deviceNames, defined } from '@sessionwright/session-core/parts';
import type { CallRequest, DemoSiteInfo, InfoResponse, JsonSchema, LogEntry, SessionView, SessionsResponse, ToolSummary } from './api.js';
import type { CallOutcome, ServerLink } from './server-link.js';

interface InspectorOptions {
  /** Opens (or re-opens, after the server died) the MCP connection. */
  connect: () => Promise<ServerLink>;
  demoSite?: DemoSiteInfo;
  /** Where index.html, app.js and style.css are (dist/ui). */
  uiDir: URL;
  /** 0 picks a free port. */
  port: number;
}

export interface Inspector {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  close(): Promise<void>;
}

/** Older entries are dropped: each can carry a screenshot, and a long session of clicking should not grow without bound. */
const MAX_LOG_ENTRIES = 200;
const MAX_BODY_BYTES = 1024 * 1024;
const STATIC: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/style.css': 'style.css',
};
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
/** These end a session, so its thumbnail goes too. */
const GONE = new Set(['SESSION_NOT_FOUND', 'SESSION_EXPIRED']);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  let link = await options.connect();
  let tools: Tool[] = await link.listTools();
  let connected = true;
  let disconnectReason: string | undefined;
  const watch = (current: ServerLink) => {
    current.onDisconnect = (reason) => {
      if (current !== link) return;
      connected = false;
      disconnectReason = reason;
    };
  };
  watch(link);

  const log: LogEntry[] = [];
  let nextId = 1;
  const thumbnails = new Map<string, { dataUrl: string; at: number }>();
  const hasScreenshot = () => tools.some((tool) => tool.name === 'screenshot');
  const takesDevice = () =>
    tools.some((tool) => tool.name === 'create_session' && isRecord(tool.inputSchema.properties) && 'device' in tool.inputSchema.properties);
  const dressed = new Map<string, Record<string, unknown>>();
  /** Sessions recording a trace, and the last trace each wrote (only files a stop_trace answer named are ever served). */
  const tracing = new Set<string>();
  const traces = new Map<string, { path: string; bytes: number }>();

  /** Arguments for a small, cheap thumbnail: JPEG when the screenshot tool offers it. */
  function thumbnailArgs(sessionId: string): Record<string, unknown> {
    const schema = tools.find((tool) => tool.name === 'screenshot')?.inputSchema as { properties?: Record<string, { enum?: unknown[] }> } | undefined;
    const formats = schema?.properties?.['format']?.enum ?? [];
    return formats.includes('jpeg') ? { sessionId, format: 'jpeg', ...(schema?.properties?.['quality'] ? { quality: 60 } : {}) } : { sessionId };
  }

  async function refreshThumbnail(sessionId: string, outcome: CallOutcome | undefined): Promise<void> {
    if (!hasScreenshot()) return;
    // A screenshot the user asked for is already the freshest picture; no need to take another.
    const shot = outcome?.images[0] ? outcome : await link.call('screenshot', thumbnailArgs(sessionId));
    const image = shot.images[0];
    if (!shot.isError && image) thumbnails.set(sessionId, { dataUrl: `data:${image.mimeType};base64,${image.data}`, at: Date.now() });
    else if (shot.errorCode && GONE.has(shot.errorCode)) thumbnails.delete(sessionId);
  }

  async function call(request: CallRequest): Promise<LogEntry> {
    if (!connected) throw new HttpError(503, `the server is not connected: ${disconnectReason ?? 'unknown reason'}. Use Reconnect.`);
    const at = Date.now();
    const outcome = await link.call(request.tool, request.arguments);
    const named = typeof request.arguments['sessionId'] === 'string' ? request.arguments['sessionId'] : undefined;
    const created = request.tool === 'create_session' && !outcome.isError ? (outcome.json as { sessionId?: unknown } | undefined)?.sessionId : undefined;
    const sessionId = named ?? (typeof created === 'string' ? created : undefined);
    const entry: LogEntry = {
      id: nextId++,
      tool: request.tool,
      arguments: request.arguments,
      at,
      durationMs: outcome.durationMs,
      isError: outcome.isError,
      ...defined({ errorCode: outcome.errorCode, errorMessage: outcome.errorMessage }),
      response: outcome.json,
      images: outcome.images.map((image) => `data:${image.mimeType};base64,${image.data}`),
      ...defined({ sessionId }),
    };
    log.push(entry);
    if (log.length > MAX_LOG_ENTRIES) log.splice(0, log.length - MAX_LOG_ENTRIES);
    // What each session was dressed as, for its card; only what the server echoed, so no secret is kept.
    const echoed = (outcome.json as { options?: unknown } | undefined)?.options;
    if (request.tool === 'create_session' && sessionId !== undefined && isRecord(echoed) && Object.keys(echoed).length > 0) dressed.set(sessionId, echoed);
    if (sessionId !== undefined && !outcome.isError) noteTrace(sessionId, request.tool, outcome.json);
    if (sessionId !== undefined) {
      if (request.tool === 'close_session' || (outcome.errorCode && GONE.has(outcome.errorCode))) thumbnails.delete(sessionId);
      // Taken before answering, so the page shows the new picture together with the new log entry.
      else await refreshThumbnail(sessionId, request.tool === 'screenshot' ? outcome : undefined);
    }
    return entry;
  }

  /** Follows start_trace / stop_trace (and a trace close_session wrote) so the session's card can offer the file. */
  function noteTrace(sessionId: string, tool: string, answer: unknown): void {
    const written = (answer as { trace?: unknown; traces?: unknown[] } | undefined) ?? {};
    const file = tool === 'stop_trace' ? written.trace : tool === 'close_session' ? written.traces?.[0] : undefined;
    if (tool === 'start_trace') tracing.add(sessionId);
    if (tool === 'stop_trace' || tool === 'close_session') tracing.delete(sessionId);
    if (isRecord(file) && typeof file['path'] === 'string' && typeof file['bytes'] === 'number')
      traces.set(sessionId, { path: file['path'], bytes: file['bytes'] });
  }

  /** The trace a session's card offers, as a download; 404 for any other file. */
  async function sendTrace(res: ServerResponse, sessionId: string): Promise<void> {
    const trace = traces.get(sessionId);
    if (!trace) throw new HttpError(404, 'no trace was written for this session');
    // A server reached over HTTP may run on another machine: its path names a file there.
    const found = await stat(trace.path).catch(() => undefined);
    if (!found?.isFile()) throw new HttpError(404, `the trace is not on this machine: ${trace.path}`);
    res.writeHead(200, {
      'Content-Type': 'application/zip',
      'Content-Length': String(found.size),
      'Content-Disposition': `attachment; filename="trace-${sessionId.slice(0, 8)}.zip"`,
      'Cache-Control': 'no-store',
    });
    createReadStream(trace.path).pipe(res);
  }

  async function sessions(): Promise<SessionsResponse> {
    if (!connected) return { sessions: [], maxSessions: 0, now: Date.now() };
    const outcome = await link.call('list_sessions', {});
    if (outcome.isError) throw new HttpError(502, `list_sessions answered ${outcome.errorCode}: ${outcome.errorMessage ?? ''}`);
    const listed = outcome.json as { sessions: Omit<SessionView, 'thumbnail' | 'thumbnailAt'>[]; maxSessions: number };
    const open = new Set(listed.sessions.map((session) => session.sessionId));
    for (const id of thumbnails.keys()) if (!open.has(id)) thumbnails.delete(id);
    for (const id of dressed.keys()) if (!open.has(id)) dressed.delete(id);
    for (const id of tracing) if (!open.has(id)) tracing.delete(id);
    return {
      sessions: listed.sessions.map((session) => {
        const thumb = thumbnails.get(session.sessionId);
        const options = dressed.get(session.sessionId);
        const trace = traces.get(session.sessionId);
        return {
          ...session,
          ...(options ? { options } : {}),
          ...(thumb ? { thumbnail: thumb.dataUrl, thumbnailAt: thumb.at } : {}),
          ...(tracing.has(session.sessionId) ? { tracing: true } : {}),
          ...(trace ? { trace: { ...trace, download: `/api/trace/${session.sessionId}` } } : {}),
        };
      }),
      maxSessions: listed.maxSessions,
      now: Date.now(),
    };
  }

  function info(): InfoResponse {
    return {
      server: link.serverName,
      kind: link.kind,
      target: link.target,
      connected,
      ...defined({ disconnectReason }),
      tools: tools.map(summarize),
      thumbnails: hasScreenshot(),
      ...(options.demoSite ? { demoSite: options.demoSite } : {}),
      devices: takesDevice() ? deviceNames() : [],
    };
  }

  async function reconnect(): Promise<InfoResponse> {
    await link.close().catch(() => {});
    link = await options.connect();
    watch(link);
    tools = await link.listTools();
    connected = true;
    disconnectReason = undefined;
    thumbnails.clear();
    dressed.clear();
    return info();
  }

  async function route(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    checkRequest(req, origin);
    const path = new URL(req.url ?? '/', origin).pathname;
    const method = req.method ?? 'GET';
    const file = STATIC[path];
    if (method === 'GET' && file !== undefined) {
      const body = await readFile(new URL(file, options.uiDir));
      res.writeHead(200, { 'Content-Type': CONTENT_TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(body);
      return;
    }
    if (method === 'GET' && path === '/api/info') return json(res, 200, info());
    if (method === 'GET' && path === '/api/log') return json(res, 200, log);
    if (method === 'GET' && path === '/api/sessions') return json(res, 200, await sessions());
    if (method === 'POST' && path === '/api/call') return json(res, 200, await call(parseCall(await readJson(req))));
    if (method === 'POST' && path === '/api/reconnect') return json(res, 200, await reconnect());
    if (method === 'GET' && path.startsWith('/api/trace/')) return sendTrace(res, decodeURIComponent(path.slice('/api/trace/'.length)));
    if (method === 'DELETE' && path === '/api/log') {
      log.length = 0;
      return json(res, 200, log);
    }
    throw new HttpError(404, `no route for ${method} ${path}`);
  }

  const sockets = new Set<Socket>();
  let origin = '';
  const server: Server = createServer((req, res) => {
    route(req, res, origin).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!res.headersSent) json(res, status, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server, options.port);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}/`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      await link.close().catch(() => {});
    },
  };
}

/** Listens on 127.0.0.1; a taken default port falls back to any free one rather than failing. */
async function listen(server: Server, port: number): Promise<void> {
  const attempt = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await attempt(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
    await attempt(0);
  }
}

/**
 * The API drives a real browser, so only this page may call it: the Host must be a loopback name (against DNS
 * rebinding), a cross-site Origin is refused, and POST bodies must be JSON (which a cross-site form cannot send).
 */
function checkRequest(req: IncomingMessage, origin: string): void {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) throw new HttpError(403, `Host "${req.headers.host ?? ''}" is not allowed`);
  const from = req.headers.origin;
  if (from !== undefined && from !== origin && from !== origin.replace('127.0.0.1', 'localhost')) {
    throw new HttpError(403, `Origin "${from}" is not allowed`);
  }
  if (req.method === 'POST' && !(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'POST bodies must be application/json');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function summarize(tool: Tool): ToolSummary {
  return {
    name: tool.name,
    ...defined({ title: tool.title, description: tool.description }),
    inputSchema: tool.inputSchema as JsonSchema,
    ...defined({ annotations: tool.annotations }),
  };
}

function parseCall(body: unknown): CallRequest {
  const { tool, arguments: args } = (body ?? {}) as { tool?: unknown; arguments?: unknown };
  if (typeof tool !== 'string' || tool === '') throw new HttpError(400, 'body.tool must be a tool name');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new HttpError(400, 'body.arguments must be an object');
  }
  return { tool, arguments: (args ?? {}) as Record<string, unknown> };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, MAX_BODY_BYTES);
  if (body === undefined) throw new HttpError(413, 'request body too large');
  try {
    return JSON.parse(body);
  } catch {
    throw new HttpError(400, 'request body is not JSON');
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, JSON.stringify(body), 'application/json; charset=utf-8');
}
