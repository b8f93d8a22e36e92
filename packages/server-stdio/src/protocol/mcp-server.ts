// Builds one MCP protocol server (per client connection, or per 2026-07-28 request) over the shared SessionManager and tool surface, and writes every tool outcome as its MCP result.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type LoggingLevel,
  type ProtocolEra,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { SessionError, type Logger, type SessionManager } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import {
  ImplicitSession,
  allTools,
  runTool,
  type ToolOutcome,
  sessionsProfile,
  type AllowedRoots,
  type AnyTool,
  type Profile,
  type SessionAccess,
  type ToolContext,
  type ToolOptions,
} from '@sessionwright/tools';
import type { LiveViews } from '../live-view/live-views.js';
import { appOnlyRefusal, registerLiveViewResource } from '../live-view/mcp-app.js';
import { registerSnapshotResources } from './snapshot-resources.js';
import { USER_ANSWER_MS, type Leg, type ParkedCalls } from './parked-calls.js';
import type { Redactor } from './redaction.js';
import type { CallLegs, Restored, Routed } from '../fleet/restored.js';
import { withRestored } from './restored-result.js';
import { toolSurface, type ToolSurface } from './tool-surface.js';
import { SERVER_NAME, VERSION } from '../version.js';

export interface McpServerDeps {
  /**
   * The sessions this server's caller may see and use (the runtime passes one scoped to the caller). A custom
   * server may pass its SessionManager instead: then every session is visible to the connection.
   */
  sessions: SessionAccess | SessionManager;
  logger: Logger;
  toolOptions: ToolOptions;
  /** omit: results carry no images (a screenshot answers its JSON alone); default allow. */
  images?: 'allow' | 'omit';
  /** Hides secrets and URL parameters in every result (--secrets, --redact-url-params). */
  redactor?: Redactor | undefined;
  /** The tools served and the words they use (default: the sessions profile with `tools`); ignored with `surface`. */
  profile?: Profile;
  /** The sessions profile's tools (default: every default tool); ignored with `profile`. */
  tools?: readonly AnyTool[];
  /** The client runs on this machine (stdio): its MCP roots and the working directory are paths here. */
  local?: boolean;
  /**
   * The tools served, prepared once (the runtime passes its own, shared by all its servers); default: a surface of
   * `profile`, made for this server.
   */
  surface?: ToolSurface;
  /**
   * The protocol era this server serves (default legacy: a 2025 connection opened by initialize). A modern server
   * answers 2026-07-28 requests: it has no connection of its own, so it logs only where a request asks for it.
   */
  era?: ProtocolEra;
  /**
   * The caller's implicit session (playwright profile) when it outlives this server: the identity's, for 2026-07-28
   * requests over HTTP, which have no connection. Without it the server makes one of its own, ended by the runtime
   * when the connection closes.
   */
  implicitSession?: ImplicitSession;
  /** Live views of sessions (live_view, request_human, and the MCP App resource); without them those tools answer `unsupported`. */
  live?: LiveViews;
  /**
   * Where a 2026-07-28 call that asks its user something waits for the client's retry, and whose it is (the caller's
   * identity): the retry is another request, served by another server. Without it such a call gets no elicitUrl.
   */
  parked?: { calls: ParkedCalls; identity: string };
  /**
   * In a fleet, or with --data-dir: where a call runs (the runtime's keeper). A call for a session another replica holds
   * is answered by it, its progress and its questions for the user passed back through `legs`; a session restored here
   * for the call has its result say so (`restored`).
   */
  route?: (tool: string, args: unknown, signal: AbortSignal, legs: CallLegs) => Promise<Routed>;
}

/** One MCP connection (or, in the 2026-07-28 era over HTTP, one request): its protocol server and its log channel. */
export interface McpConnection {
  server: Server;
  /** Sends a log message to this client (notifications/message) if it is at or above the level the client set (default info). */
  notify(level: LoggingLevel, message: string): void;
  /** The caller's implicit session (playwright profile). */
  implicitSession: ImplicitSession | undefined;
  /** Runs a tool here as a call with no client behind it (no progress, logs or questions): a fleet's forwarded call. */
  call(name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult>;
}

const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const SEVERITY = new Map(LEVELS.map((level, index) => [level, index]));

/**
 * How long a client may keep the tools/list answer (2026-07-28 `ttlMs`). The list is fixed for the server's life and
 * the same for every caller (`public`); an hour lets a client skip relisting on every request, and a restarted server
 * with other --caps is seen within the hour.
 */
const TOOLS_LIST_TTL_MS = 3_600_000;

/**
 * One MCP server for one connection or one 2026-07-28 request (the SDK's HTTP entry takes a server per request and
 * refuses one that serves another). The tools are the runtime's ToolSurface, served through two handlers on the SDK's
 * Server rather than McpServer.registerTool, whose answers differ from the contract's (docs/decisions.md): its
 * tools/list writes an entry's keys in another order, its unknown-tool error names no available tool, a throw becomes a
 * plain-text result, and with registered tools the HTTP entry's Mcp-Param-* refusal quotes the sessionId.
 * The McpServer around it serves the live view's MCP App resource, registered with ext-apps' helper.
 */
export function createMcpServer(deps: McpServerDeps): McpConnection {
  const surface = deps.surface ?? toolSurface(deps.profile ?? sessionsProfile(deps.tools ?? allTools));
  const { profile } = surface;
  const modern = deps.era === 'modern';
  const implicitSession = deps.implicitSession ?? (profile.implicitSession ? new ImplicitSession(deps.sessions) : undefined);
  const { live } = deps;
  const hint = { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'public' } as const;
  // No `tools` capability here: McpServer would install its own tools handlers; this server's are set below.
  const mcp = new McpServer(
    { name: SERVER_NAME, version: VERSION, title: 'sessionwright: many isolated browser sessions' },
    {
      capabilities: { logging: {} },
      instructions: profile.instructions,
      cacheHints: { 'tools/list': hint, 'server/discover': hint, 'resources/list': hint },
    },
  );
  const server = mcp.server;
  server.registerCapabilities({ tools: { listChanged: false } });
  // The MCP App resource exists where a listed tool shows it (live_view) and live views are served.
  if (live !== undefined && profile.tools.some((tool) => tool.meta !== undefined)) {
    server.registerCapabilities({ resources: { listChanged: false } });
    registerLiveViewResource(mcp);
  }
  // The playwright profile's actions write their snapshots to files, which a client reads as resources.
  if (profile.name === 'playwright') {
    server.registerCapabilities({ resources: { listChanged: false } });
    registerSnapshotResources(mcp, { options: deps.toolOptions, sessions: deps.sessions });
  }
  // The SDK's own setLevel handler keeps the level for sendLoggingMessage but sends everything until a level is set;
  // this one starts at info, so a client that never asks gets no per-call debug lines. (2026-07-28 has no setLevel:
  // each request names its level in _meta, and a request that names none gets no log messages.)
  let minimumLevel: LoggingLevel = 'info';
  server.setRequestHandler('logging/setLevel', (request) => {
    minimumLevel = request.params.level;
    return {};
  });
  const notify = (level: LoggingLevel, message: string) => {
    if (modern || below(level, minimumLevel) || server.getClientVersion() === undefined) return;
    server.sendLoggingMessage({ level, logger: SERVER_NAME, data: message }).catch(() => {});
  };
  // A client on this machine (stdio) reads the files results name; one over HTTP reads them through their resource links.
  const serialize: SerializeOptions = { images: deps.images ?? 'allow', redactor: deps.redactor, links: deps.local !== true };
  /** What a tool sees of a call: this server's sessions and options, and the call's leg (its signal, progress and logs). */
  const contextOf = (leg: Leg): ToolContext => ({
    sessions: deps.sessions,
    ...leg,
    options: deps.toolOptions,
    vocabulary: profile.vocabulary,
    ...defined({ implicitSession, live }),
    roots: () => allowedRoots(server, deps, leg.signal),
  });
  // Described once per runtime (ToolSurface), on the first tools/list, so the JSON Schema work does not delay initialize.
  server.setRequestHandler('tools/list', () => ({ tools: surface.listing(modern ? 'modern' : 'legacy') }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = surface.tools.get(request.params.name);
    if (!tool) {
      // A plain error with a code: ProtocolError would prefix its message, and the client prefixes it again.
      throw Object.assign(new Error(`Unknown tool "${request.params.name}". Available: ${surface.names.join(', ')}.`), {
        code: ProtocolErrorCode.InvalidParams,
      });
    }
    const log = (level: LoggingLevel, message: string) => (modern ? void ctx.mcpReq.log(level, message, SERVER_NAME).catch(() => {}) : notify(level, message));
    const leg: Leg = { signal: ctx.mcpReq.signal, progress: progressReporter(ctx), logger: callLogger(deps.logger, log) };
    const base = contextOf(leg);
    const args = request.params.arguments;
    const capabilities = modern
      ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
      : server.getClientCapabilities();
    // Checked where the client's request arrives: a call another replica forwards was checked there (see `call`).
    const refused = surface.appOnly.has(tool.name) ? appOnlyRefusal(tool.name, capabilities, namedSession(args)) : undefined;
    if (refused !== undefined) return toCallToolResult({ ok: false, error: refused }, serialize);
    // 2026-07-28: a question to the user is an input_required answer, and the call waits for the client's retry.
    const { parked } = deps;
    const state = modern ? ctx.mcpReq.requestState() : undefined;
    if (parked !== undefined && typeof state === 'string') {
      const resumed = parked.calls.resume(parked.identity, tool.name, state, ctx.mcpReq.inputResponses, leg);
      return resumed ?? toCallToolResult({ ok: false, error: staleAnswer(tool.name, args) }, serialize);
    }
    let restored: Restored | undefined;
    let ended: (() => void) | undefined;
    // A 2025 connection's client is asked through this server, wherever its call runs.
    const asks = modern ? {} : legacyElicitUrl(server, ctx);
    if (deps.route !== undefined) {
      // A call run at another replica passes its progress on, when the client asked for it, and its question for the
      // user (request_human) when this connection's client can be asked. A 2026-07-28 request is relayed whole where it
      // can be (its question and its retry then reach the replica that asks); one run elsewhere from here is not asked.
      const onProgress = ctx.mcpReq._meta?.progressToken === undefined ? undefined : leg.progress;
      const routed = await deps.route(tool.name, args, ctx.mcpReq.signal, { onProgress, ask: asks.elicitUrl });
      if (routed.kind === 'result') return routed.result;
      if (routed.kind === 'error') return toCallToolResult({ ok: false, error: routed.error });
      restored = routed.restored;
      ended = routed.ended;
    }
    try {
      const answer = !modern
        ? await callTool(tool, args, { ...base, ...asks }, serialize)
        : parked === undefined || capabilities?.elicitation?.url === undefined
          ? await callTool(tool, args, base, serialize)
          : await parked.calls.start(parked.identity, tool.name, leg, (flow) => callTool(tool, args, { ...base, ...flow }, serialize));
      return restored === undefined ? answer : withRestored(answer, restored);
    } finally {
      ended?.();
    }
  });
  const call = async (name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> => {
    const tool = surface.tools.get(name);
    if (!tool) return toCallToolResult({ ok: false, error: new SessionError('INVALID_PARAMETERS', `Unknown tool "${name}".`) }, serialize);
    return callTool(tool, args, contextOf({ signal, progress: () => {}, logger: deps.logger }), serialize);
  };
  return { server, notify, implicitSession, call };
}

/**
 * URL-mode elicitation on a 2025 connection whose client declared it: an elicitation/create request related to the
 * call, and, once the person is done, the completion notification. Nothing when the client cannot be asked.
 */
function legacyElicitUrl(server: Server, ctx: ServerContext): Pick<ToolContext, 'elicitUrl'> {
  if (server.getClientCapabilities()?.elicitation?.url === undefined) return {};
  return {
    async elicitUrl({ message, url }) {
      const elicitationId = randomUUID();
      const answer = await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId }, { signal: ctx.mcpReq.signal, timeout: USER_ANSWER_MS });
      return {
        action: answer.action,
        complete: () =>
          void Promise.resolve()
            .then(() => server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: ctx.mcpReq.id })())
            .catch(() => {}),
      };
    },
  };
}

/** A retry whose requestState names no waiting call: the wait ended (USER_ANSWER_MS) or the state was never this server's. */
function staleAnswer(toolName: string, args: unknown): SessionError {
  const sessionId = namedSession(args);
  return new SessionError(
    'INVALID_PARAMETERS',
    `This answer is to a ${toolName} call that no longer waits for one (it gave up waiting, or never asked). Call ${toolName} again.`,
    {
      ...(sessionId === undefined ? {} : { sessionId }),
    },
  );
}

/** The sessionId a call's arguments name, if they name one: an error about the call carries it. */
function namedSession(args: unknown): string | undefined {
  const sessionId = (args as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof sessionId === 'string' ? sessionId : undefined;
}

/** The one place a tool call runs: the handler sees the ToolContext, the client gets the serialized outcome. */
async function callTool(tool: AnyTool, args: unknown, ctx: ToolContext, serialize: SerializeOptions): Promise<CallToolResult> {
  const started = Date.now();
  const outcome = await runTool(tool, args, ctx);
  ctx.logger.debug(`${tool.name} ${outcome.ok ? 'ok' : outcome.error.code} in ${Date.now() - started} ms`);
  return toCallToolResult(outcome, serialize);
}

/** A call's logger: stderr as the server's, and the client that made the call as MCP log messages. */
function callLogger(stderr: Logger, log: (level: LoggingLevel, message: string) => void): Logger {
  return {
    info(message) {
      stderr.info(message);
      log('info', message);
    },
    warn(message) {
      stderr.warn(message);
      log('warning', message);
    },
    debug(message) {
      stderr.debug(message);
      log('debug', message);
    },
  };
}

/** Progress notifications for a call whose client asked for them (a progressToken), related to its request. */
function progressReporter(ctx: ServerContext): ToolContext['progress'] {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return (progress, total, message) => {
    if (progressToken === undefined) return;
    void ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken, progress, ...defined({ total }), ...defined({ message }) },
      })
      .catch(() => {});
  };
}

function below(level: LoggingLevel, minimum: LoggingLevel): boolean {
  return (SEVERITY.get(level) ?? 0) < (SEVERITY.get(minimum) ?? 0);
}

/**
 * Where upload_file may read files: --file-root when given; else, for a local client, its MCP roots (when it declared
 * the capability and lists any) or the working directory. A remote (HTTP) client's roots name directories on its own
 * machine, not this one, so without --file-root it gets none and sends contents inline. A 2026-07-28 server has no
 * request of its own to send a client, so a local client of that era gets the working directory.
 */
async function allowedRoots(server: Server, deps: McpServerDeps, signal: AbortSignal): Promise<AllowedRoots> {
  const { outputRoot, outputDir } = deps.toolOptions;
  const fenced = outputRoot === undefined || outputDir === undefined ? undefined : { folder: outputRoot, own: outputDir };
  // The server's own files stay out of reach whichever directories a caller may read.
  const refused = deps.toolOptions.serverFiles;
  const fileRoots = deps.toolOptions.fileRoots ?? [];
  if (fileRoots.length > 0) return { directories: fileRoots, source: 'file-root', fenced, refused };
  if (!deps.local) return { directories: [], source: 'none', refused };
  if (deps.era !== 'modern' && server.getClientCapabilities()?.roots) {
    const listed = await server.listRoots(undefined, { signal, timeout: 10_000 }).catch(() => ({ roots: [] }));
    const directories = listed.roots.filter((root) => root.uri.startsWith('file://')).map((root) => fileURLToPath(root.uri));
    if (directories.length > 0) return { directories, source: 'client-roots', refused };
  }
  return { directories: [process.cwd()], source: 'working-directory', refused };
}

// The one place a tool outcome becomes an MCP CallToolResult (README: Results) -------------------------------------

/**
 * How results are written for one server: `images: 'omit'` leaves images out (a screenshot answers its JSON alone);
 * `redactor` hides secrets and URL parameters in every string of the result, and in embedded text files; `links`
 * sends resource links (to files the result names) after the JSON.
 */
interface SerializeOptions {
  images?: 'allow' | 'omit';
  redactor?: Redactor | undefined;
  links?: boolean;
}

/**
 * Success: structuredContent plus the same object as JSON text first, attachments (images, embedded files, resource
 * links) after; with `images: 'omit'` images are left out, without `links` resource links. Failure: isError plus the error JSON.
 */
export function toCallToolResult(outcome: ToolOutcome, { images = 'allow', redactor, links = false }: SerializeOptions = {}): CallToolResult {
  if (!outcome.ok) {
    const error = outcome.error.toJSON();
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(redactor ? redactor.value(error) : error) }] };
  }
  const data = redactor ? redactor.value(outcome.data) : outcome.data;
  const blob = (attachment: { mimeType: string; blob: string }) =>
    redactor && isText(attachment.mimeType)
      ? Buffer.from(redactor.text(Buffer.from(attachment.blob, 'base64').toString('utf8')), 'utf8').toString('base64')
      : attachment.blob;
  return {
    structuredContent: data,
    content: [
      { type: 'text', text: JSON.stringify(data) },
      ...outcome.attachments
        .filter((attachment) => (attachment.type === 'image' ? images === 'allow' : attachment.type === 'resource' || links))
        .map((attachment) =>
          attachment.type === 'image'
            ? { type: 'image' as const, data: attachment.data, mimeType: attachment.mimeType }
            : attachment.type === 'resource_link'
              ? attachment
              : { type: 'resource' as const, resource: { uri: attachment.uri, mimeType: attachment.mimeType, blob: blob(attachment) } },
        ),
    ],
  };
}

/** A file an agent reads as text (a snapshot, a console dump, JSON): secrets in it are hidden too. */
function isText(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /\b(?:json|yaml|xml|javascript)\b/.test(mimeType);
}
