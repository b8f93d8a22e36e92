// The sessionwright command: read its settings (flags, environment, config file), serve MCP over stdio (or HTTP with --port), and shut down cleanly.
import v8 from 'node:v8';
import { BrowserHost } from '@sessionwright/session-core';
import { isKeyMismatch, messageOf, playwrightVersion, resolveHeadless, defined } from '@sessionwright/session-core/parts';
import { isLoopback } from './settings/http-options.js';
import type { HttpServerHandle } from './http/server.js';
import { UsageError, parseArgs, type ServerOptions } from './settings/options.js';
import { createServer } from './runtime.js';
import { serveStdioConnection } from './stdio-server.js';
import { PACKAGE_NAME, VERSION } from './version.js';
import { writeCodeCaches } from './startup/code-cache.js';
import { commandLaunchHook } from './startup/launch-hook.js';

/** How long shutdown may take before the process exits anyway (Playwright kills its browsers on exit). */
const SHUTDOWN_BACKSTOP_MS = 5_000;
/** A fleet's replica also serves its drain window and hands over each of its sessions first: this much beyond the window. */
const FLEET_SHUTDOWN_BACKSTOP_MS = 30_000;

async function main(): Promise<void> {
  let command;
  try {
    command = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One line, whatever the message quotes (a JSON parser's complaint, a value with a line break).
    process.stderr.write(`sessionwright: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exit(2);
  }
  if (command.kind === 'help') {
    process.stdout.write(`${command.text}\n`);
    return;
  }
  // Said once, before anything starts; they do not stop the server (docs/configuration.md).
  for (const warning of command.warnings) process.stderr.write(`sessionwright: ${warning}\n`);
  if (command.kind === 'print-config') {
    process.stdout.write(`${command.text}\n`);
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${PACKAGE_NAME} ${VERSION}\n`);
    if (command.verbose) process.stdout.write(diagnostics(command.options));
    return;
  }

  let server: ReturnType<typeof createServer>;
  try {
    server = createServer(command.options, undefined, { launchHook: commandLaunchHook() });
  } catch (error) {
    // A file a setting names that cannot be used (--secrets): one line, before anything starts.
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`sessionwright: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exit(2);
  }
  // A key that does not open the store is refused before anything is served; a store that is away is checked at its first use.
  const { options } = command;
  if (options.stateKey !== undefined || options.stateKeyPrevious !== undefined || options.dataDir !== undefined || options.http?.store !== undefined) {
    try {
      await server.checkStore();
    } catch (error) {
      if (!isKeyMismatch(error)) server.logger.warn(`the store could not be checked at start: ${messageOf(error)}`);
      else {
        process.stderr.write(`sessionwright: ${messageOf(error)}\n`);
        await server.close().catch(() => {});
        process.exit(1);
      }
    }
  }
  // The first browser up, whichever it is (with a browser per client, the shared one is never started).
  sizeHeapForMemoryOnceUp({ onLaunched: (listener) => server.manager.onBrowserLaunched(listener) });
  let http: HttpServerHandle | undefined;
  let exiting = false;
  /** Only a fleet's replica has one: a server alone has no balancer to tell. */
  const drainWindow = options.http?.store === undefined ? 0 : (options.http.drainWindow ?? 0);
  const shutdown = (why: string) => {
    if (exiting) return;
    exiting = true;
    server.logger.info(`${why}: closing sessions and the browser`);
    setTimeout(
      () => {
        server.logger.warn('shutdown took too long; exiting anyway');
        process.exit(0);
      },
      server.fleet === undefined ? SHUTDOWN_BACKSTOP_MS : drainWindow + FLEET_SHUTDOWN_BACKSTOP_MS,
    ).unref();
    // A fleet's replica says it is stopping (/healthz 503) but serves what still arrives for its drain window, its
    // sessions handed over meanwhile (each request relayed to their new owners); then it stops listening and exits.
    const windowEnds = Date.now() + drainWindow;
    if (server.fleet !== undefined) http?.stopAccepting();
    server
      .drain()
      .then(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, windowEnds - Date.now()))))
      .then(() => http?.close())
      .then(() => server.close())
      .then(
        () => {
          // A run shorter than the caches' delay still leaves them with what it compiled.
          writeCodeCaches();
          process.exit(0);
        },
        (error: unknown) => {
          server.logger.warn(`shutdown failed: ${messageOf(error)}`);
          process.exit(0);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));

  const { http: listen } = command.options;
  if (listen) {
    // HTTP mode serves no stdio: stdin is left alone, so a closed stdin (nohup, a service manager) does not stop the server.
    try {
      // Loaded only here: the HTTP transports cost start-up time that a stdio server should not pay.
      const { startHttpServer } = await import('./http/server.js');
      http = await startHttpServer(server, listen);
    } catch (error) {
      process.stderr.write(`sessionwright: cannot listen on ${listen.host}:${listen.port}: ${messageOf(error)}\n`);
      await server.close().catch(() => {});
      process.exit(1);
    }
    server.logger.info(`${PACKAGE_NAME} ${VERSION} listening on ${http.url}/mcp (Streamable HTTP) and ${http.url}/sse (legacy SSE, also at ${http.url}/)`);
    if (listen.authToken === undefined && listen.authTokensFile === undefined) {
      server.logger.info(
        isLoopback(listen.host)
          ? 'no --auth-token: any local process can use this server'
          : `no --auth-token: anyone who can reach ${listen.host} can use this server (--allow-unauthenticated)`,
      );
    }
    return;
  }
  // Each answer that finds the pipe full waits for it to drain with a listener of its own: with many calls at once, or a
  // client that reads slowly, more than Node's default ten wait at a time, which is expected and not a leak to warn about.
  process.stdout.setMaxListeners(0);
  process.stdin.on('end', () => shutdown('stdin ended'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  serveStdioConnection(server, process.stdin, process.stdout);
  server.logger.info(`${PACKAGE_NAME} ${VERSION} serving MCP on stdio`);
}

/** What `--version --verbose` adds: the runtime and the browser this machine would launch. */
function diagnostics(options: ServerOptions): string {
  const headless = resolveHeadless(options.headless);
  const lines = [`node ${process.version} (${process.platform}-${process.arch})`, `playwright ${playwrightVersion()}`];
  try {
    const executable = new BrowserHost({
      browser: options.browser,
      headless: headless.headless,
      ...defined({ executablePath: options.executablePath }),
    }).resolveExecutable();
    lines.push(`browser: ${executable.description}`);
  } catch (error) {
    lines.push(`browser: none found. ${messageOf(error)}`);
  }
  lines.push(`headless: ${headless.headless}${headless.reason ? ` (${headless.reason})` : ''}`);
  return `${lines.join('\n')}\n`;
}

main().catch((error: unknown) => {
  process.stderr.write(`sessionwright: ${messageOf(error)}\n`);
  process.exit(1);
});

/**
 * Under steady churn V8 lets this process's heap grow to several times what is live; sized for memory
 * (--optimize-for-size) it stays close to it at no throughput cost (docs/performance.md). Set a few seconds after the
 * browser is up, because the flag slows loading Playwright (mostly compiling), and after the code caches, which then
 * hold what the first session and navigation compiled, are written (V8 rejects a cache made under other flags). This
 * process is ours to tune; a program that embeds session-core keeps its own settings.
 */
function sizeHeapForMemoryOnceUp(host: { onLaunched(listener: () => void): () => void }): void {
  let done = false;
  host.onLaunched(() => {
    if (done) return;
    done = true;
    setTimeout(() => {
      writeCodeCaches();
      v8.setFlagsFromString('--optimize-for-size');
    }, SIZE_HEAP_AFTER_MS).unref();
  });
}
/** The client's first steps after the browser is up: its first session and navigation (their code goes into the caches). */
const SIZE_HEAP_AFTER_MS = 3_000;
