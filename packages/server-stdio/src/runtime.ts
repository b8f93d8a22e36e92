// One server process: the shared browser and session manager, and any number of MCP connections over them.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { BrowserHost, SessionManager, messageOf, stderrLogger, type Logger } from '@sessionwright/session-core';
import { createMcpServer } from './mcp-server.js';
import { DEFAULT_OPTIONS, type ServerOptions } from './options.js';

export interface SessionwrightServer {
  readonly manager: SessionManager;
  readonly host: BrowserHost;
  readonly logger: Logger;
  /** Serves one MCP connection on the transport; its sessions are listed only to it. */
  connect(transport: Transport): Promise<{ server: Server; owner: string }>;
  /** Closes every connection, every session, then the browser. Safe to call twice. */
  close(): Promise<void>;
}

/** Starts the browser in the background at once: initialize and tools/list never wait for it. */
export function createServer(partial: Partial<ServerOptions> = {}, logger: Logger = stderrLogger('sessionwright', partial.verbose ?? false)): SessionwrightServer {
  const options = { ...DEFAULT_OPTIONS, ...partial };
  const host = new BrowserHost({
    browser: options.browser,
    ...(options.headless === undefined ? {} : { headless: options.headless }),
    ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
    logger,
  });
  try {
    const executable = host.resolveExecutable();
    logger.info(`using ${executable.description}, ${host.headless ? 'headless' : 'headed'}; max ${options.maxSessions} sessions, ${options.sessionTimeout} ms idle timeout`);
  } catch (error) {
    // Keep serving: create_session will answer BROWSER_ERROR with the same advice.
    logger.warn(messageOf(error));
  }
  host.start();
  const manager = new SessionManager({ host, sessionTimeout: options.sessionTimeout, maxSessions: options.maxSessions, logger });
  const servers = new Set<Server>();
  let closing: Promise<void> | undefined;

  return {
    manager,
    host,
    logger,
    async connect(transport) {
      const connection = createMcpServer({ manager, logger, toolOptions: { allowFileUrls: options.allowFileUrls } });
      servers.add(connection.server);
      connection.server.onclose = () => servers.delete(connection.server);
      await connection.server.connect(transport);
      return connection;
    },
    close() {
      closing ??= (async () => {
        await Promise.all([...servers].map((server) => server.close().catch(() => {})));
        await manager.shutdown();
      })();
      return closing;
    },
  };
}
