// `pnpm inspector`: starts the demo site, connects to a sessionwright server and serves the inspector page on 127.0.0.1.
import { parseArgs } from 'node:util';
import { cliArgs } from './cli-args.js';
import { messageOf } from '@sessionwright/session-core/parts';
import type { DemoSiteInfo } from './api.js';
import { DEMO_USERS } from './demo-site/pages.js';
import { startDemoSite } from './demo-site/server.js';
import { startInspector } from './inspector-server.js';
import { connectHttpServer, connectStdioServer } from './server-link.js';

const USAGE = `Usage: pnpm inspector [--port <n>] [--url <http://host:port/mcp>] [--headed] [--executable-path <path>]

  --port <n>                the inspector page's port on 127.0.0.1 (default 4870, or any free port if taken; 0 = any)
  --url <url>               connect to a running sessionwright HTTP server (Streamable HTTP) instead of starting one
  --headed                  start the server with a visible browser window (default: headless)
  --executable-path <path>  the browser binary the started server should launch`;

const DEFAULT_PORT = 4870;

async function main(): Promise<void> {
  let flags;
  try {
    flags = parseArgs({
      args: cliArgs(),
      options: {
        port: { type: 'string' },
        url: { type: 'string' },
        headed: { type: 'boolean' },
        'executable-path': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`inspector: ${messageOf(error)}\n${USAGE}\n`);
    process.exit(2);
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = flags.port === undefined ? DEFAULT_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`inspector: --port must be a port number (got "${flags.port}")\n`);
    process.exit(2);
  }
  // Live views and traces are what a person inspecting sessions wants, so the inspector's server offers them.
  const serverArgs = [
    '--headless',
    flags.headed ? 'false' : 'true',
    '--caps',
    'live,devtools',
    ...(flags['executable-path'] ? ['--executable-path', flags['executable-path']] : []),
  ];
  const url = flags.url;

  const site = await startDemoSite();
  const demoSite: DemoSiteInfo = {
    url: site.url,
    links: [
      { label: 'Home', url: site.urlFor('/') },
      { label: 'Sign in', url: site.urlFor('/login') },
      { label: 'My page', url: site.urlFor('/welcome') },
      { label: 'Teas', url: site.urlFor('/teas') },
      { label: 'Slow report (2 s)', url: site.urlFor('/slow') },
    ],
    users: DEMO_USERS.map(({ username, password }) => ({ username, password })),
  };
  const inspector = await startInspector({
    connect: () => (url === undefined ? connectStdioServer(serverArgs, { echoStderr: true }) : connectHttpServer(url)),
    demoSite,
    uiDir: new URL('./ui/', import.meta.url),
    port,
  });
  process.stdout.write(
    `sessionwright inspector\n\n  inspector  ${inspector.url}\n  demo site  ${site.url}/\n  server     ${url ?? 'started over stdio'}\n\nCtrl+C to stop\n`,
  );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // The SDK gives the server process a few seconds to close its browser; never wait longer than that.
    setTimeout(() => process.exit(0), 8_000).unref();
    void Promise.allSettled([inspector.close(), site.close()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`inspector failed: ${messageOf(error)}\n`);
  process.exit(1);
});
