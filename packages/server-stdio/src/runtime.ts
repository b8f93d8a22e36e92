// One server process: the shared browser and session manager, and any number of MCP connections over them.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ProtocolEra, Transport } from '@modelcontextprotocol/server';
import {
  BrowserHost,
  RemoteBrowser,
  SessionManager,
  browserError,
  imageOfStorageState,
  stderrLogger,
  type BrowserSource,
  type Logger,
  type Store,
} from '@sessionwright/session-core';
import {
  FolderStore,
  SavedStates,
  SealedStore,
  defaultDataDir,
  keyFileSecret,
  defaultWarmSessions,
  parseEndpoint,
  uniqueLabels,
  type LaunchHook,
  defined,
} from '@sessionwright/session-core/parts';
import {
  ImplicitSession,
  playwrightProfile,
  readsRequestList,
  sessionsProfile,
  toolsFor,
  UNSAFE_CODE_TOOLS,
  type Profile,
  type SessionAccess,
  type ToolOptions,
} from '@sessionwright/tools';
import { builtToolEntry } from './protocol/tool-listing.js';
import { LiveViews } from './live-view/live-views.js';
import { IdentityFolders } from './identity/folders.js';
import { checkSecretLengths, createRedactor, readSecretsFile } from './protocol/redaction.js';
import { createMcpServer, type McpConnection } from './protocol/mcp-server.js';
import { toolSurface, type ToolSurface } from './protocol/tool-surface.js';
import { DEFAULT_OPTIONS, checkCombinations, type ServerOptions } from './settings/options.js';
import { ParkedCalls } from './protocol/parked-calls.js';
import { scopedAccess, type CallerScope } from './identity/session-access.js';
import type { Fleet } from './fleet/fleet.js';
import type { CallLegs, Keeper } from './fleet/restored.js';
import { LocalCheckpoints } from './fleet/local-checkpoints.js';
import { isReplicaUrl } from './fleet/replica-url.js';
import { DeferredStore } from './fleet/deferred-store.js';
import type { RedisStore } from './fleet/redis-store.js';
import { UsageError } from './input/usage-error.js';

/** How long after start-up the browser launch begins if no client has initialized by then. */
const BROWSER_START_GRACE_MS = 250;
/** How long no session must be open before the launched browser is replaced by a fresh one, giving its memory back. */
const RECYCLE_IDLE_BROWSER_MS = 10_000;
/**
 * How many sessions the launched browser serves before new ones open in a fresh one (the old one closes with its last
 * session): a server that is never idle keeps its memory bounded, since Chromium keeps some memory of every closed
 * session, and a launch in the background is nothing a session waits for (docs/performance.md).
 */
const ROTATE_BROWSER_AFTER_SESSIONS = 500;

/** How many callers' servers for forwarded calls a replica keeps (see runLocally). */
const MAX_FORWARDED_SERVERS = 256;

/** Who opens a connection: the token's identity (HTTP with --auth-tokens-file), and whether it runs on this machine. */
interface Caller {
  identity?: string | undefined;
  local?: boolean;
}

/** The identity of the sessions that 2026-07-28 requests without an identity create: everyone is one client there. */
const LOCAL_IDENTITY = 'local';

export interface SessionwrightServer {
  readonly manager: SessionManager;
  /** The saved states (save_state, create_session {state}), sealed in the server's store. */
  readonly states: SavedStates;
  /**
   * The server's one store, sealed once: the folder of --data-dir, Redis with --store, or the store given to
   * createServer. Saved states and checkpoints both go through it.
   */
  readonly store: SealedStore;
  /**
   * Checks the store's key (its key check record) and, with --state-key-previous, seals again with the new key what
   * the previous one sealed. Rejects when the key does not open the store (isKeyMismatch), naming the flag, never the key.
   */
  checkStore(): Promise<void>;
  /** The first browser source: the local browser, or the first endpoint when endpoints are given. */
  readonly host: BrowserSource;
  /** Logs to stderr; warnings also go to connected clients as MCP log messages (a session's only to its identity's). */
  readonly logger: Logger;
  /** The tools served and the words they use. */
  readonly profile: Profile;
  /** The profile's tools as every protocol server of this runtime serves them: described once, found by name. */
  readonly tools: ToolSurface;
  /** MCP connections open now. */
  readonly connections: number;
  /** The sessions' live views: served by the HTTP server when there is one, else on a loopback listener of their own. */
  readonly live: LiveViews;
  /**
   * Serves one 2025-era MCP connection on the transport (initialize first). With a client `identity` (HTTP with
   * --auth-tokens-file) its sessions belong to that identity, across its connections; without one they are listed only
   * to this connection. `local`: the client runs on this machine (stdio), so its MCP roots and the working directory
   * name this machine's files for upload_file.
   */
  connect(transport: Transport, caller?: Caller): Promise<McpConnection>;
  /**
   * The server for one connection of either era, not yet connected: whoever connects it (the SDK's stdio entry, which
   * picks the era from the client's first message) owns its transport. Its sessions and implicit session are the
   * connection's, as with connect.
   */
  open(caller?: Caller & { era?: ProtocolEra }): McpConnection;
  /**
   * The server for one 2026-07-28 request over HTTP, which has no connection: its sessions and the playwright profile's
   * implicit session belong to the caller's identity (the token's), or, without identities, to the one local identity.
   * A request relayed by another replica of a fleet names its caller's `scope` (its signed envelope) instead.
   */
  forRequest(caller?: { identity?: string | undefined; scope?: CallerScope | undefined }): McpConnection;
  /** This replica's part in a fleet (--store), once it has joined one. */
  readonly fleet: Fleet | undefined;
  /**
   * With --store: joins the fleet as the replica reached at `advertiseUrl` (connects to the store, starts the
   * heartbeat). Without --store it does nothing.
   */
  joinFleet(advertiseUrl: string): Promise<void>;
  /**
   * Hands the sessions over: in a fleet each is checkpointed and released to the other replicas; with local
   * checkpoints (--data-dir) each gets a final checkpoint for the next start. Safe to call twice; close() calls it.
   */
  drain(): Promise<void>;
  /** Drains, then closes every connection, every session, then the browser. Safe to call twice. */
  close(): Promise<void>;
}

/** What the command adds to a server that a program embedding it does without. */
export interface ServerHooks {
  /** The command's part in each browser launch (see LaunchHook). */
  launchHook?: LaunchHook;
}

/**
 * Starts the browser in the background right after start-up: initialize and tools/list never wait for it. Settings
 * that mean nothing together are refused with a UsageError, as the command line refuses them.
 */
export function createServer(
  partial: Partial<ServerOptions> & {
    /** A store of the program's own, in place of the folder (or Redis with --store); sealed like them (docs/library.md). */
    store?: Store;
  } = {},
  plainStderr: Logger = stderrLogger('sessionwright', partial.verbose ?? false),
  hooks: ServerHooks = {},
): SessionwrightServer {
  const { store: givenStore, ...settings } = partial;
  const options = { ...DEFAULT_OPTIONS, ...settings };
  checkCombinations(options);
  // Secret values and the named URL parameters are hidden in results, written files and every log line alike.
  // The file is read here, as --auth-tokens-file is, so --print-config and --help never need it.
  const secrets = { ...options.setup.secrets, ...(options.secrets === undefined ? {} : readSecretsFile(options.secrets)) };
  checkSecretLengths(secrets);
  const redactor = createRedactor(secrets, options.redactUrlParams ?? []);
  const stderr: Logger = redactor
    ? {
        info: (message) => plainStderr.info(redactor.text(message)),
        debug: (message) => plainStderr.debug(redactor.text(message)),
        warn: (message) => plainStderr.warn(redactor.text(message)),
      }
    : plainStderr;
  // The default profile has no implicit session for --state to start: said once rather than ignored.
  if (options.profile !== 'playwright' && options.state !== undefined) {
    stderr.warn('--state starts the implicit session of --profile playwright; this profile has none, so it is not used: pass {state} to create_session');
  }
  const { setup } = options;
  /** Each open connection and whose it is. */
  const connections = new Map<McpConnection, CallerScope>();
  /**
   * What goes wrong with the shared browser (a launch failure, a crash) concerns every client, so they hear of it too;
   * a warning about one session goes only to its identity's connections (without identities, everyone is one client),
   * and to none when its owner is not known, so no client learns of another's sessions (docs/http.md).
   */
  const logger: Logger = {
    info: (message) => stderr.info(message),
    debug: (message) => stderr.debug(message),
    warn(message, about) {
      stderr.warn(message);
      const shown = redactor ? redactor.text(message) : message;
      const owner = about === undefined ? undefined : (about.identity ?? identityOf(about.sessionId));
      if (about !== undefined && owner === undefined) return;
      for (const [connection, scope] of connections) {
        if (owner === undefined || !scope.guarded || scope.identity === owner) connection.notify('warning', shown);
      }
    },
  };
  /** The identity a session of this process belongs to; undefined once it is gone. */
  const identityOf = (sessionId: string): string | undefined => {
    try {
      return manager.get(sessionId).identity;
    } catch {
      return undefined;
    }
  };
  const { launchHook } = hooks;
  const sources = remoteSources(options, logger, launchHook);
  const launchLocal = (headless = options.headless) =>
    new BrowserHost({
      browser: options.browser,
      ...defined({
        headless,
        executablePath: options.executablePath,
        chromiumSandbox: setup.launch.chromiumSandbox,
        args: setup.launch.args,
        launchTimeout: setup.launch.timeout,
      }),
      logger,
      launchHook,
    });
  const local = sources.length > 0 ? undefined : launchLocal();
  // A client's own browser (--browser-per-client): by default where there are identities, which do not trust each other.
  const perClient = local !== undefined && (options.browserPerClient ?? options.http?.authTokensFile !== undefined);
  if (local) sources.push(local);
  else logger.info(`browsers: ${sources.map((source) => source.label).join(', ')} (nothing is launched locally)`);
  const [host] = sources as [BrowserSource, ...BrowserSource[]];
  // The executable is reported when the browser is up ("browser ready: …"), or its absence as a warning; either way
  // the server keeps serving, and create_session answers BROWSER_ERROR with the same advice.
  logger.info(`max ${options.maxSessions} sessions, ${options.sessionTimeout} ms idle timeout`);
  // The browser starts in the background as soon as a client has initialized, or BROWSER_START_GRACE_MS after start
  // at the latest: loading Playwright blocks the event loop, which would delay the handshake.
  const startBrowser = () => {
    clearTimeout(grace);
    // With a browser per client the shared one serves nobody: each client's starts with its first session.
    if (!perClient) for (const source of sources) source.start();
  };
  const grace = setTimeout(startBrowser, BROWSER_START_GRACE_MS);
  grace.unref();
  // Each client identity's files (downloads, recordings, filename outputs) lie in a folder of its own.
  const folders = new IdentityFolders(options.outputDir);
  const profile = servedOverTransport(options.profile === 'playwright' ? playwrightProfile(options.caps) : sessionsProfile(toolsFor(options.caps)), options);
  const manager = new SessionManager({
    host: sources,
    sessionTimeout: options.sessionTimeout,
    maxSessions: options.maxSessions,
    callTimeout: options.callTimeout,
    ...defined({ maxSessionsPerIdentity: options.maxSessionsPerClient }),
    // Headed, every pooled context would open a window nobody asked for: none unless --warm-sessions says so.
    // A remote browser's pool costs this machine nothing: one ready context per endpoint unless --warm-sessions says otherwise.
    warmSessions: options.warmSessions ?? defaultWarmSessions(local?.headless ?? true),
    ...(perClient ? { browserPerIdentity: { launch: () => launchLocal(local?.headless) } } : {}),
    // A browser this process launched keeps memory after its sessions close; it is replaced once idle, or after many
    // sessions (BrowserRecycler).
    recycleIdleBrowser: RECYCLE_IDLE_BROWSER_MS,
    rotateBrowserAfter: ROTATE_BROWSER_AFTER_SESSIONS,
    maxTabs: options.maxTabs,
    ...defined({ sessionDefaults: setup.sessionDefaults, outputDir: options.outputDir }),
    identityFolder: (identity) => folders.ofIdentity(identity),
    downloads: { maxBytes: options.maxDownloadBytes, maxCount: options.maxDownloads, keep: options.keepDownloads, maxFolderBytes: options.outputMaxSize },
    runaway: { heapBytes: options.maxPageMemory },
    // Playwright makes a response object, timings and a failure report for each request a session lists: only when a tool reads the list.
    collectNetwork: readsRequestList(profile.tools),
    logger,
  });
  const { sealed: store, redis } = serverStore(options, givenStore, stderr);
  const states = new SavedStates({ store, logger: stderr });
  let storeChecked: Promise<void> | undefined;
  const checkStore = () => {
    storeChecked ??= (async () => {
      await store.ready();
      const previous = store.previous();
      if (previous !== undefined) await rotate(previous);
    })();
    storeChecked.catch(() => {
      storeChecked = undefined;
    });
    return storeChecked;
  };
  /** --state-key-previous: what the previous key sealed (states and checkpoints) is sealed again with the new key. */
  const rotate = async (previous: SealedStore) => {
    const moved = await states.adoptFrom(previous);
    const checkpoints = await store.resealFrom(previous, 'checkpoints/', { ttlMs: manager.sessionTimeout + 60_000 });
    stderr.info(
      `state key: ${moved} saved state${moved === 1 ? '' : 's'} and ${checkpoints} checkpoint${checkpoints === 1 ? '' : 's'} sealed again with the new key`,
    );
  };
  if (options.stateKeyPrevious !== undefined) {
    void checkStore().catch((error: unknown) =>
      stderr.warn(`state key: the store could not be sealed again: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  let closing: Promise<void> | undefined;
  const live = new LiveViews({ logger });
  /** 2026-07-28 calls that asked their user something and wait for the client's retry. */
  const parked = new ParkedCalls(stderr);

  /** --close-sessions-on-disconnect: a connection that ends takes the sessions it created with it. */
  const closeSessions = async (created: Set<string>) => {
    const ids = [...created];
    const results = await Promise.allSettled(ids.map((id) => manager.close(id)));
    const closed = results.filter((result) => result.status === 'fulfilled').length;
    if (closed > 0) stderr.info(`a connection ended; closed its ${closed} session${closed === 1 ? '' : 's'}`);
  };

  const toolOptions: ToolOptions = {
    allowFileUrls: options.allowFileUrls,
    fileRoots: options.fileRoot ?? [],
    serverFiles: serverFiles(options),
    defaultTimeouts: setup.timeouts,
    snapshotMode: setup.snapshotMode,
    ...defined({ consoleLevel: setup.consoleLevel, outputDir: options.outputDir, outputMaxSize: options.outputMaxSize, config: options.readOut }),
    ...(Object.keys(secrets).length === 0 ? {} : { secrets }),
    ...(redactor === undefined ? {} : { redact: redactor.text, hideTyped: redactor.hide }),
  };
  /** The tool options of a caller: its files are read and written in its identity's folder of --output-dir. */
  const toolOptionsOf = (scope: CallerScope): ToolOptions => {
    const folder = folders.ofIdentity(scope.guarded ? scope.identity : undefined);
    if (options.outputDir === undefined || folder === '') return toolOptions;
    const outputRoot = path.resolve(options.outputDir);
    return { ...toolOptions, outputDir: path.join(outputRoot, folder), outputRoot };
  };
  // The profile is one of the packaged ones, so the build's listing describes its tools.
  const surface = toolSurface(profile, (tool) => builtToolEntry(profile.name, tool.name));
  /** Each identity's implicit session (playwright profile), for the 2026-07-28 requests that have no connection to own one. */
  const implicitSessions = new Map<string, ImplicitSession>();
  let fleet: Fleet | undefined;
  const { takesSessionId } = surface;
  /**
   * What keeps the sessions beyond this process, the one keeper every server of this runtime tells of its sessions and
   * asks where a call runs; close() drains it. Checkpoints in --data-dir (or the store given to createServer) for a
   * server alone, chosen here; with --store the fleet, from joinFleet on (it needs the address the replica is reached
   * at, known once it listens, and no request is served before); else none, and every call runs here.
   */
  let keeper: Keeper | undefined =
    (options.dataDir !== undefined || givenStore !== undefined) && redis === undefined
      ? new LocalCheckpoints(store, manager, stderr, takesSessionId)
      : undefined;
  /** Where a caller's calls run, when there is a keeper to ask (fleet/placement.ts, fleet/local-checkpoints.ts). */
  const routeFor = (scope: CallerScope) => {
    const routing = keeper;
    return routing === undefined
      ? {}
      : { route: (tool: string, args: unknown, signal: AbortSignal, legs?: CallLegs) => routing.route(scope, tool, args, signal, legs) };
  };
  /** A call forwarded to this replica by another, run as a 2026-07-28 request of the caller would run here. */
  const forwardedServers = new Map<string, McpConnection>();
  const runLocally = (scope: CallerScope, tool: string, args: unknown, signal: AbortSignal) => {
    const key = `${scope.guarded ? 'guarded' : 'open'}:${scope.identity}`;
    let server = forwardedServers.get(key);
    if (server === undefined) {
      server = serverFor(scope, { era: 'modern', forwarded: true });
      // Kept for the caller's next forwarded call; the oldest goes once there are many callers.
      if (forwardedServers.size >= MAX_FORWARDED_SERVERS) forwardedServers.delete(forwardedServers.keys().next().value ?? '');
      forwardedServers.set(key, server);
    }
    return server.call(tool, args, signal);
  };
  /** The implicit session an identity's (or the local identity's) 2026-07-28 requests share. */
  const sharedImplicitSession = (scope: CallerScope) => {
    let implicitSession = implicitSessions.get(scope.identity);
    if (implicitSession === undefined) {
      implicitSession = implicitSessionOf(scopedAccess(manager, scope, undefined, states, keeper));
      implicitSessions.set(scope.identity, implicitSession);
    }
    return implicitSession;
  };

  /** The playwright profile's implicit session of a caller: with --state, each new one starts from that saved state. */
  const implicitSessionOf = (sessions: SessionAccess) => {
    const { state } = options;
    if (state === undefined) return new ImplicitSession(sessions);
    return new ImplicitSession(sessions, async () => sessions.create({ image: imageOfStorageState(await (sessions.states ?? noStates()).load(state)) }));
  };

  /**
   * The one way this runtime makes a protocol server for a caller. A server of a `connection` keeps the connection's
   * own record of the sessions it created (--close-sessions-on-disconnect) and its own implicit session; one without
   * (a 2026-07-28 request, a call another replica forwarded) shares the implicit session of the caller's identity. A
   * `forwarded` call's server runs the call here, as the caller's own: with the identity's folder and the redactor, and
   * without a route or parked calls (the replica the caller reached keeps those).
   */
  const serverFor = (
    scope: CallerScope,
    served: { era: ProtocolEra; connection?: { created: Set<string>; local: boolean }; forwarded?: boolean },
  ): McpConnection => {
    const sessions = scopedAccess(manager, scope, served.connection?.created, states, keeper);
    const implicitSession = !profile.implicitSession ? undefined : served.connection ? implicitSessionOf(sessions) : sharedImplicitSession(scope);
    return createMcpServer({
      sessions,
      ...defined({ implicitSession }),
      logger: stderr,
      toolOptions: toolOptionsOf(scope),
      images: setup.imageResponses,
      surface,
      ...(served.connection === undefined ? {} : { local: served.connection.local }),
      era: served.era,
      live,
      redactor,
      ...(served.forwarded ? {} : { parked: { calls: parked, identity: scope.identity }, ...routeFor(scope) }),
    });
  };

  const open = (caller: Caller & { era?: ProtocolEra } = {}): McpConnection => {
    const scope: CallerScope =
      caller.identity === undefined
        ? { identity: `connection:${randomUUID()}`, guarded: false, stateIdentity: LOCAL_IDENTITY }
        : { identity: `identity:${caller.identity}`, guarded: true };
    const created = new Set<string>();
    const connection = serverFor(scope, { era: caller.era ?? 'legacy', connection: { created, local: caller.local ?? false } });
    connections.set(connection, scope);
    connection.server.oninitialized = startBrowser;
    // A 2026-07-28 connection has no initialize: its first request is the client's first step.
    if (caller.era === 'modern') startBrowser();
    connection.server.onclose = () => {
      connections.delete(connection);
      // A connection's implicit page is its own: it ends with it, whatever --close-sessions-on-disconnect says.
      if (closing === undefined) void connection.implicitSession?.end();
      // Otherwise the sessions outlive the connection until their idle timeout, so a client that reconnects keeps them.
      if (options.closeSessionsOnDisconnect && closing === undefined) void closeSessions(created);
    };
    return connection;
  };

  let drained: Promise<void> | undefined;
  const drain = () => {
    drained ??= keeper?.drain() ?? Promise.resolve();
    return drained;
  };

  return {
    manager,
    states,
    store,
    checkStore,
    drain,
    host,
    logger,
    live,
    profile,
    tools: surface,
    get connections() {
      return connections.size;
    },
    open,
    async connect(transport, caller = {}) {
      const connection = open(caller);
      await connection.server.connect(transport);
      return connection;
    },
    forRequest(caller = {}) {
      startBrowser();
      const scope: CallerScope =
        caller.scope ??
        (caller.identity === undefined ? { identity: LOCAL_IDENTITY, guarded: false } : { identity: `identity:${caller.identity}`, guarded: true });
      return serverFor(scope, { era: 'modern' });
    },
    get fleet() {
      return fleet;
    },
    async joinFleet(advertiseUrl) {
      const key = options.http?.storeKey;
      if (redis === undefined || key === undefined || fleet !== undefined) return;
      // Other replicas send requests to it: an address and nothing more (checked at start for --advertise-url too).
      if (!isReplicaUrl(advertiseUrl)) throw new Error(`The advertise URL must be http(s)://host:port and nothing more, not ${JSON.stringify(advertiseUrl)}.`);
      // Loaded only in a fleet: one process alone needs no Redis client.
      const [{ Fleet }, { FleetKeys }] = await Promise.all([import('./fleet/fleet.js'), import('./fleet/fleet-keys.js')]);
      fleet = new Fleet({
        redis: (await redis.made).redis,
        store,
        keys: new FleetKeys(key),
        manager,
        logger,
        maxSessionsPerClient: options.maxSessionsPerClient,
        takesSessionId,
        runLocally,
      });
      keeper = fleet;
      live.relayVia(fleet.liveRelay);
      await fleet.connected();
      fleet.start(advertiseUrl);
      logger.info(`replica ${fleet.label} of the fleet on the store`);
    },
    close() {
      clearTimeout(grace);
      closing ??= (async () => {
        await drain().catch((error: unknown) =>
          stderr.warn(`the sessions could not be handed over: ${error instanceof Error ? error.message : String(error)}`),
        );
        await Promise.all([...connections.keys()].map((connection) => connection.server.close().catch(() => {})));
        await live.close();
        await manager.shutdown();
        await fleet?.close();
        if (fleet === undefined) await store.close().catch(() => {});
      })();
      return closing;
    },
  };
}

/**
 * The files and folders that are the server's own (docs/agent-tools.md): the data folder with its key file and sealed
 * records, the tokens file, the secrets file and the config file. No tool reads them, whatever --file-root says.
 */
function serverFiles(options: ServerOptions): string[] {
  const files = [options.dataDir ?? defaultDataDir(), options.http?.authTokensFile, options.secrets, options.configFile];
  return files.filter((file): file is string => file !== undefined && file !== '').map((file) => path.resolve(file));
}

function noStates(): never {
  throw browserError('store_unavailable', 'This server keeps no saved states.');
}

/**
 * The server's one store, wrapped once in the sealing layer: the given store, or Redis with --store (sealed with
 * --store-key), or the folder of --data-dir (sealed with --state-key or the key file state.key beside the records).
 */
function serverStore(options: ServerOptions, given: Store | undefined, logger: Logger): { sealed: SealedStore; redis?: DeferredStore<RedisStore> } {
  const previousSecret = options.stateKeyPrevious;
  const url = options.http?.store;
  const storeKey = options.http?.storeKey;
  if (given === undefined && url !== undefined && storeKey !== undefined) {
    if (options.stateKey !== undefined) {
      throw new UsageError('--state-key does not apply with --store: in a fleet, saved states and checkpoints are sealed with --store-key (docs/deploy.md)');
    }
    const redis = new DeferredStore(connectStore(url));
    return { redis, sealed: new SealedStore({ store: redis, secret: storeKey, keyName: '--store-key', logger, ...defined({ previousSecret }) }) };
  }
  const dir = options.dataDir ?? defaultDataDir();
  const keyFile = path.join(dir, 'state.key');
  const inner = given ?? new FolderStore({ dir, logger });
  const secret = options.stateKey ?? storeKey;
  return {
    sealed: new SealedStore({
      store: inner,
      secret: secret ?? (() => keyFileSecret(keyFile, logger)),
      keyName: options.stateKey !== undefined ? '--state-key' : secret !== undefined ? '--store-key' : `key file ${keyFile}`,
      logger,
      ...defined({ previousSecret }),
    }),
  };
}

/** A fleet's Redis store, connected in the background: its first use waits until Redis answers (30 s at most, then it is away). */
async function connectStore(url: string): Promise<RedisStore> {
  // Loaded only in a fleet: one process alone needs no Redis client.
  const { RedisStore, connectRedis, whenReady } = await import('./fleet/redis-store.js');
  const redis = connectRedis(url);
  redis.on('error', () => {});
  await whenReady(redis, 30_000);
  return new RedisStore(redis);
}

/**
 * The profile as this transport serves it: over HTTP the tools that run a client's code in this process only with
 * --allow-unsafe-code; over stdio the client already runs the process, so they are served.
 */
function servedOverTransport(profile: Profile, options: ServerOptions): Profile {
  if (options.http === undefined || options.http.allowUnsafeCode) return profile;
  return { ...profile, tools: profile.tools.filter((tool) => !UNSAFE_CODE_TOOLS.has(tool.name)) };
}

/** --browser-endpoint and --cdp-endpoint as sources, labelled uniquely (two endpoints on one host:port differ only by a secret). */
function remoteSources(options: ServerOptions, logger: Logger, launchHook: LaunchHook | undefined): BrowserSource[] {
  const endpoints = [
    ...options.browserEndpoint.map((endpoint) => ({ kind: 'connect' as const, endpoint })),
    ...options.cdpEndpoint.map((endpoint) => ({ kind: 'cdp' as const, endpoint })),
  ];
  const labels = uniqueLabels(endpoints.map(({ endpoint }) => parseEndpoint(endpoint).label));
  const { cdpHeaders, cdpTimeout, connectHeaders, connectTimeout } = options.setup.endpoints;
  const loadPlaywright = launchHook?.loadPlaywright;
  return endpoints.map(({ kind, endpoint }, index) => {
    const headers = kind === 'cdp' ? cdpHeaders : connectHeaders;
    const timeout = kind === 'cdp' ? cdpTimeout : connectTimeout;
    return new RemoteBrowser({
      kind,
      endpoint,
      browser: options.browser,
      label: labels[index],
      logger,
      loadPlaywright,
      ...defined({ headers, connectTimeout: timeout }),
    });
  });
}
