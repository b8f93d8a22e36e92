// One server process: the shared browser and session manager, and any number of MCP connections over them.
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  BrowserHost,
  RemoteBrowser,
  SessionManager,
  defaultWarmSessions,
  parseEndpoint,
  stderrLogger,
  uniqueLabels,
  type BrowserSource,
  type Logger,
} from '@sessionwright/session-core';
import { playwrightProfile, readsRequestList, sessionsProfile, toolsFor } from '@sessionwright/tools';
import { builtToolEntry } from './tool-listing.js';
import { createMcpServer, type McpConnection } from './mcp-server.js';
import { DEFAULT_OPTIONS, checkCombinations, type ServerOptions } from './options.js';
import { scopedAccess, type CallerScope } from './session-access.js';

/** How long after start-up the browser launch begins if no client has initialized by then. */
const BROWSER_START_GRACE_MS = 250;
/** How long no session must be open before the launched browser is replaced by a fresh one, giving its memory back. */
const RECYCLE_IDLE_BROWSER_MS = 10_000;
/**
 * How many sessions the launched browser serves before new ones open in a fresh one (the old one closes with its last
 * session): a server that is never idle keeps its memory bounded. In the soak, Chromium grew ~1 MiB a minute at ~150
 * sessions a minute, and a launch costs ~100 ms of CPU, nothing a session waits for.
 */
const ROTATE_BROWSER_AFTER_SESSIONS = 500;

export interface SessionwrightServer {
  readonly manager: SessionManager;
  /** The first browser source: the local browser, or the first endpoint when endpoints are given. */
  readonly host: BrowserSource;
  /** Logs to stderr; warnings also go to every connected client as MCP log messages. */
  readonly logger: Logger;
  /** MCP connections open now. */
  readonly connections: number;
  /**
   * Serves one MCP connection on the transport. With a client `identity` (HTTP with --auth-tokens-file) its sessions
   * belong to that identity, across its connections; without one they are listed only to this connection. `local`: the
   * client runs on this machine (stdio), so its MCP roots and the working directory name this machine's files for upload_file.
   */
  connect(transport: Transport, caller?: { identity?: string | undefined; local?: boolean }): Promise<McpConnection>;
  /** Closes every connection, every session, then the browser. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the browser in the background right after start-up: initialize and tools/list never wait for it. Settings
 * that mean nothing together are refused with a UsageError, as the command line refuses them.
 */
export function createServer(
  partial: Partial<ServerOptions> = {},
  stderr: Logger = stderrLogger('sessionwright', partial.verbose ?? false),
): SessionwrightServer {
  const options = { ...DEFAULT_OPTIONS, ...partial };
  checkCombinations(options);
  const connections = new Set<McpConnection>();
  // What goes wrong with the shared browser (a launch failure, a crash) concerns every client, so they hear of it too.
  const logger: Logger = {
    info: (message) => stderr.info(message),
    debug: (message) => stderr.debug(message),
    warn(message) {
      stderr.warn(message);
      for (const connection of connections) connection.notify('warning', message);
    },
  };
  const sources = remoteSources(options, logger);
  const launchLocal = (headless = options.headless) =>
    new BrowserHost({
      browser: options.browser,
      ...(headless === undefined ? {} : { headless }),
      ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
      logger,
    });
  const local = sources.length > 0 ? undefined : launchLocal();
  // A client's own browser (--browser-per-client): by default where there are identities, which are tenants.
  const perClient = local !== undefined && (options.browserPerClient ?? options.http?.authTokensFile !== undefined);
  if (local) sources.push(local);
  else logger.info(`browsers: ${sources.map((source) => source.label).join(', ')} (nothing is launched locally)`);
  const [host] = sources as [BrowserSource, ...BrowserSource[]];
  // The executable is reported when the browser is up ("browser ready: …"), or its absence as a warning; either way
  // the server keeps serving, and create_session answers BROWSER_ERROR with the same advice.
  logger.info(`max ${options.maxSessions} sessions, ${options.sessionTimeout} ms idle timeout`);
  // The browser starts in the background as soon as a client has initialized, or BROWSER_START_GRACE_MS after start
  // at the latest: loading Playwright blocks the event loop for about half a second, which would delay the handshake.
  const startBrowser = () => {
    clearTimeout(grace);
    // With a browser per client the shared one serves nobody: each client's starts with its first session.
    if (!perClient) for (const source of sources) source.start();
  };
  const grace = setTimeout(startBrowser, BROWSER_START_GRACE_MS);
  grace.unref();
  const profile = options.profile === 'playwright' ? playwrightProfile() : sessionsProfile(toolsFor(options.caps));
  const manager = new SessionManager({
    host: sources,
    sessionTimeout: options.sessionTimeout,
    maxSessions: options.maxSessions,
    callTimeout: options.callTimeout,
    ...(options.maxSessionsPerClient === undefined ? {} : { maxSessionsPerOwner: options.maxSessionsPerClient }),
    // Headed, every pooled context would open a window nobody asked for: none unless --warm-sessions says so.
    // A remote browser's pool costs this machine nothing: one ready context per endpoint unless --warm-sessions says otherwise.
    warmSessions: options.warmSessions ?? defaultWarmSessions(local?.headless ?? true),
    ...(perClient ? { browserPerOwner: { launch: () => launchLocal(local?.headless) } } : {}),
    // A browser this process launched keeps memory after its sessions close; it is replaced once idle, or after many
    // sessions (BrowserRecycler).
    recycleIdleBrowser: RECYCLE_IDLE_BROWSER_MS,
    rotateBrowserAfter: ROTATE_BROWSER_AFTER_SESSIONS,
    maxTabs: options.maxTabs,
    ...(options.outputDir === undefined ? {} : { outputDir: options.outputDir }),
    downloads: { maxBytes: options.maxDownloadBytes, maxCount: options.maxDownloads, keep: options.keepDownloads },
    // Playwright makes a response object, timings and a failure report for each request a session lists: only when a tool reads the list.
    collectNetwork: readsRequestList(profile.tools),
    logger,
  });
  let closing: Promise<void> | undefined;

  /** --close-sessions-on-disconnect: a connection that ends takes the sessions it created with it. */
  const closeSessions = async (created: Set<string>) => {
    const ids = [...created];
    const results = await Promise.allSettled(ids.map((id) => manager.close(id)));
    const closed = results.filter((result) => result.status === 'fulfilled').length;
    if (closed > 0) stderr.info(`a connection ended; closed its ${closed} session${closed === 1 ? '' : 's'}`);
  };

  return {
    manager,
    host,
    logger,
    get connections() {
      return connections.size;
    },
    async connect(transport, caller = {}) {
      const scope: CallerScope =
        caller.identity === undefined ? { owner: `connection:${randomUUID()}`, guarded: false } : { owner: `identity:${caller.identity}`, guarded: true };
      const created = new Set<string>();
      const sessions = scopedAccess(manager, scope, created);
      const connection = createMcpServer({
        sessions,
        logger: stderr,
        toolOptions: { allowFileUrls: options.allowFileUrls, fileRoots: options.fileRoot ?? [] },
        profile,
        local: caller.local ?? false,
        // The profile is one of the packaged ones, so the build's listing describes its tools.
        listed: (tool) => builtToolEntry(profile.name, tool.name),
      });
      connections.add(connection);
      connection.server.oninitialized = startBrowser;
      connection.server.onclose = () => {
        connections.delete(connection);
        // A connection's implicit page is its own: it ends with it, whatever --close-sessions-on-disconnect says.
        if (closing === undefined) void connection.implicitSession?.end();
        // Otherwise the sessions outlive the connection until their idle timeout, so a client that reconnects keeps them.
        if (options.closeSessionsOnDisconnect && closing === undefined) void closeSessions(created);
      };
      await connection.server.connect(transport);
      return connection;
    },
    close() {
      clearTimeout(grace);
      closing ??= (async () => {
        await Promise.all([...connections].map((connection) => connection.server.close().catch(() => {})));
        await manager.shutdown();
      })();
      return closing;
    },
  };
}

/** --browser-endpoint and --cdp-endpoint as sources, labelled uniquely (two endpoints on one host:port differ only by a secret). */
function remoteSources(options: ServerOptions, logger: Logger): BrowserSource[] {
  const endpoints = [
    ...options.browserEndpoint.map((endpoint) => ({ kind: 'connect' as const, endpoint })),
    ...options.cdpEndpoint.map((endpoint) => ({ kind: 'cdp' as const, endpoint })),
  ];
  const labels = uniqueLabels(endpoints.map(({ endpoint }) => parseEndpoint(endpoint).label));
  return endpoints.map(({ kind, endpoint }, index) => new RemoteBrowser({ kind, endpoint, browser: options.browser, label: labels[index], logger }));
}
