// Builds one MCP protocol server (per client connection) over the shared SessionManager and the tool list.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  LoggingLevelSchema,
  SetLevelRequestSchema,
  type LoggingLevel,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger, SessionManager } from '@sessionwright/session-core';
import {
  ImplicitSession,
  allTools,
  annotationsFor,
  runTool,
  sessionsProfile,
  type AllowedRoots,
  type AnyTool,
  type Profile,
  type SessionAccess,
  type ToolContext,
  type ToolOptions,
} from '@sessionwright/tools';
import { z } from 'zod';
import type { LiveViews } from './live-view/live-views.js';
import { appToolMeta, liveViewResource } from './live-view/mcp-app.js';
import { toCallToolResult } from './serialize.js';
import { SERVER_NAME, VERSION } from './version.js';

export interface McpServerDeps {
  /**
   * The sessions this connection's caller may see and use (the runtime passes one scoped to the caller). A custom
   * server may pass its SessionManager instead: then every session is visible to the connection.
   */
  sessions: SessionAccess | SessionManager;
  logger: Logger;
  toolOptions: ToolOptions;
  /** The tools served and the words they use (default: the sessions profile with `tools`). */
  profile?: Profile;
  /** The sessions profile's tools (default: every default tool); ignored with `profile`. */
  tools?: readonly AnyTool[];
  /** The client runs on this machine (stdio): its MCP roots and the working directory are paths here. */
  local?: boolean;
  /**
   * A tool's tools/list entry made ahead of time, if there is one (the runtime passes the build's for its packaged
   * profiles); other tools are described when first listed.
   */
  listed?: (tool: AnyTool) => Tool | undefined;
  /** Live views of sessions (live_view, request_human, and the MCP App resource); without them those tools answer `unsupported`. */
  live?: LiveViews;
}

/** The tools/list entry of a tool: JSON Schemas made from its zod schemas, annotations from its kind. */
export function describeTool(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
    outputSchema: z.toJSONSchema(tool.output, { io: 'output' }) as Tool['outputSchema'],
    annotations: { title: tool.title, ...annotationsFor(tool.kind) },
    ...(tool.meta === undefined ? {} : { _meta: appToolMeta(tool.meta) }),
  };
}

/** One MCP connection: its protocol server and its log channel. */
export interface McpConnection {
  server: Server;
  /** Sends a log message to this client (notifications/message) if it is at or above the level the client set (default info). */
  notify(level: LoggingLevel, message: string): void;
  /** The connection's implicit session (playwright profile); ended when the connection closes. */
  implicitSession: ImplicitSession | undefined;
}

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/**
 * One MCP server for one connection. Tools are served through the SDK's low-level Server rather than
 * McpServer.registerTool, because registerTool validates arguments itself and answers failures in plain text,
 * while every failure here must be the JSON error object of the result contract (README: Results) with INVALID_PARAMETERS.
 */
export function createMcpServer(deps: McpServerDeps): McpConnection {
  const profile = deps.profile ?? sessionsProfile(deps.tools ?? allTools);
  const tools = profile.tools;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // Made on the first tools/list, not at connect, so the JSON Schema work does not delay initialize.
  let listing: Tool[] | undefined;
  const implicitSession = profile.implicitSession ? new ImplicitSession(deps.sessions) : undefined;
  const { live } = deps;
  // The MCP App resource exists where a listed tool shows it (live_view) and live views are served.
  const appResources = live !== undefined && tools.some((tool) => tool.meta !== undefined) ? [liveViewResource(() => live.origin())] : [];
  const server = new Server(
    { name: SERVER_NAME, version: VERSION, title: 'sessionwright: many isolated browser sessions' },
    {
      capabilities: { tools: { listChanged: false }, logging: {}, ...(appResources.length > 0 ? { resources: {} } : {}) },
      instructions: profile.instructions,
    },
  );
  if (appResources.length > 0) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: appResources.map(({ read: _read, ...resource }) => resource),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const resource = appResources.find((candidate) => candidate.uri === request.params.uri);
      if (!resource) throw Object.assign(new Error(`Unknown resource ${request.params.uri}.`), { code: -32002 });
      return resource.read();
    });
  }
  // The SDK's own setLevel handler keeps the level for sendLoggingMessage but sends everything until a level is set;
  // this one starts at info, so a client that never asks gets no per-call debug lines.
  let minimumLevel: LoggingLevel = 'info';
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minimumLevel = request.params.level;
    return {};
  });
  const notify = (level: LoggingLevel, message: string) => {
    if ((SEVERITY.get(level) ?? 0) < (SEVERITY.get(minimumLevel) ?? 0) || server.getClientVersion() === undefined) return;
    server.sendLoggingMessage({ level, logger: SERVER_NAME, data: message }).catch(() => {});
  };
  // Tool calls log to stderr as before and to the client that made them.
  const logger: Logger = {
    info(message) {
      deps.logger.info(message);
      notify('info', message);
    },
    warn(message) {
      deps.logger.warn(message);
      notify('warning', message);
    },
    debug(message) {
      deps.logger.debug(message);
      notify('debug', message);
    },
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: (listing ??= tools.map((tool) => deps.listed?.(tool) ?? describeTool(tool))) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      // A plain error with a code: McpError would prefix its message, and the client prefixes it again.
      throw Object.assign(new Error(`Unknown tool "${request.params.name}". Available: ${[...byName.keys()].join(', ')}.`), {
        code: ErrorCode.InvalidParams,
      });
    }
    const progressToken = request.params._meta?.progressToken;
    const ctx: ToolContext = {
      sessions: deps.sessions,
      logger,
      signal: extra.signal,
      options: deps.toolOptions,
      vocabulary: profile.vocabulary,
      ...(implicitSession === undefined ? {} : { implicitSession }),
      roots: () => allowedRoots(server, deps, extra.signal),
      ...(live === undefined ? {} : { live }),
      ...(server.getClientCapabilities()?.elicitation?.url === undefined
        ? {}
        : {
            async elicitUrl({ message, url }: { message: string; url: string }) {
              const elicitationId = randomUUID();
              const answer = await server.elicitInput(
                { mode: 'url', message, url, elicitationId },
                { relatedRequestId: extra.requestId, signal: extra.signal, timeout: ELICIT_TIMEOUT_MS },
              );
              return {
                action: answer.action,
                complete: () =>
                  void server
                    .createElicitationCompletionNotifier(elicitationId, { relatedRequestId: extra.requestId })()
                    .catch(() => {}),
              };
            },
          }),
      progress(progress, total, message) {
        if (progressToken === undefined) return;
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
          })
          .catch(() => {});
      },
    };
    const started = Date.now();
    const outcome = await runTool(tool, request.params.arguments, ctx);
    logger.debug(`${tool.name} ${outcome.ok ? 'ok' : outcome.error.code} in ${Date.now() - started} ms`);
    return toCallToolResult(outcome);
  });
  return { server, notify, implicitSession };
}

/** How long a client may take to ask its user whether to open a link (URL-mode elicitation) before the link goes in the result instead. */
const ELICIT_TIMEOUT_MS = 120_000;

/**
 * Where upload_file may read files: --file-root when given; else, for a local client, its MCP roots (when it declared
 * the capability and lists any) or the working directory. A remote (HTTP) client's roots name directories on its own
 * machine, not this one, so without --file-root it gets none and sends contents inline.
 */
async function allowedRoots(server: Server, deps: McpServerDeps, signal: AbortSignal): Promise<AllowedRoots> {
  const fileRoots = deps.toolOptions.fileRoots ?? [];
  if (fileRoots.length > 0) return { directories: fileRoots, source: 'file-root' };
  if (!deps.local) return { directories: [], source: 'none' };
  if (server.getClientCapabilities()?.roots) {
    const listed = await server.listRoots(undefined, { signal, timeout: 10_000 }).catch(() => ({ roots: [] }));
    const directories = listed.roots.filter((root) => root.uri.startsWith('file://')).map((root) => fileURLToPath(root.uri));
    if (directories.length > 0) return { directories, source: 'client-roots' };
  }
  return { directories: [process.cwd()], source: 'working-directory' };
}
