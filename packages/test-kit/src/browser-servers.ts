// Browsers served to remote clients, for tests of browser endpoints: Playwright browser servers and a CDP Chromium, each killable like a lost host.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { descendants, isAlive, waitFor } from './processes.js';

export interface BrowserServerOptions {
  /**
   * The playwright package the server runs, as `createRequire(import.meta.url).resolve('playwright')` gives it in the
   * caller: client and server must be the same Playwright version, and the test kit has no Playwright of its own.
   */
  playwright: string;
  /** The browser binary (default: Playwright's own). */
  executablePath?: string;
  /** 0 or undefined: a free port. Give the port and wsPath of a killed server to bring it back at the same address. */
  port?: number;
  /** The secret path of the endpoint (default: a random one, as Playwright makes it). */
  wsPath?: string;
}

export interface BrowserServer {
  /** ws://127.0.0.1:<port>/<wsPath> */
  wsEndpoint: string;
  port: number;
  wsPath: string;
  /** The node process serving it; the browser is its child. */
  pid: number;
  /** Kills the server and its browser at once (SIGKILL), as a host that goes away; resolves once every process is gone. */
  kill(): Promise<void>;
}

/** What the child process runs: `chromium.launchServer()` and one JSON line with its address on stdout. */
const SERVER_SCRIPT = `
const config = JSON.parse(process.argv[1]);
// The test process holds our stdin: when it goes (even killed), we go too, and Playwright closes the browser on exit.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
const { chromium } = require(config.playwright);
chromium.launchServer({
  headless: true,
  port: config.port,
  ...(config.wsPath ? { wsPath: config.wsPath } : {}),
  ...(config.executablePath ? { executablePath: config.executablePath } : {}),
}).then(
  (server) => process.stdout.write(JSON.stringify({ wsEndpoint: server.wsEndpoint() }) + '\\n'),
  (error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); },
);
`;

/** Starts `chromium.launchServer()` in a child process of its own (its own browser process too), as a separate host would. */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const config = { playwright: options.playwright, executablePath: options.executablePath, port: options.port ?? 0, wsPath: options.wsPath };
  const child = spawn(process.execPath, ['-e', SERVER_SCRIPT, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const line = await firstLine(child, 30_000);
  const wsEndpoint = (JSON.parse(line) as { wsEndpoint: string }).wsEndpoint;
  const url = new URL(wsEndpoint);
  const pid = child.pid ?? 0;
  return {
    wsEndpoint,
    port: Number(url.port),
    wsPath: url.pathname.replace(/^\//, ''),
    pid,
    kill: () => killTree(child),
  };
}

export interface CdpBrowser {
  /** http://127.0.0.1:<port>, what `connectOverCDP` and --cdp-endpoint take. */
  endpoint: string;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsEndpoint: string;
  pid: number;
  /** Kills the browser and its children; resolves once they are gone. */
  kill(): Promise<void>;
}

/** Starts a Chromium with --remote-debugging-port=0 and reads the port it chose from DevToolsActivePort. */
export async function startCdpBrowser(options: { executablePath: string }): Promise<CdpBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'sessionwright-cdp-'));
  const child = spawn(
    options.executablePath,
    // --no-sandbox as Playwright launches it: a sandbox needs privileges a test machine (or root in a container) may lack.
    ['--headless', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const portFile = path.join(profile, 'DevToolsActivePort');
  let lines: string[] = [];
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the browser exited with status ${child.exitCode} before serving CDP: ${stderr}`);
      try {
        lines = readFileSync(portFile, 'utf8').split('\n');
      } catch {
        return false;
      }
      return lines.length >= 2 && lines[1] !== '';
    },
    { timeout: 30_000 },
  );
  const [port, browserPath] = lines;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    wsEndpoint: `ws://127.0.0.1:${port}${browserPath}`,
    pid: child.pid ?? 0,
    async kill() {
      await killTree(child);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface VersionMismatchServer {
  /** ws://127.0.0.1:<port>/ */
  url: string;
  close(): Promise<void>;
}

/**
 * An endpoint that refuses every client as a Playwright server of `serverVersion` refuses a client of another version:
 * HTTP 428 with Playwright's text naming both versions.
 */
export async function startVersionMismatchServer(serverVersion = '1.99'): Promise<VersionMismatchServer> {
  const server: Server = createServer((_request, response) => response.end('Running'));
  server.on('upgrade', (request, socket) => {
    const client = /^Playwright\/(\d+\.\d+)/.exec(request.headers['user-agent'] ?? '')?.[1] ?? 'unknown';
    const text = [
      'Playwright version mismatch:',
      `  - server version: v${serverVersion}`,
      `  - client version: v${client}`,
      '',
      'If you are connecting to a remote service,',
      'keep your local Playwright version in sync',
      'with the remote service version.',
    ]
      .map((row) => `║ ${row.padEnd(44)} ║`)
      .join('\n');
    socket.end(`HTTP/${request.httpVersion} 428 Precondition Required\r\n\r\n${text}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first line the child writes on stdout; rejects with its stderr if it exits or takes too long first. */
function firstLine(child: ChildProcess, timeout: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`no answer within ${timeout} ms: ${err}`)), timeout);
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end < 0 || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(out.slice(0, end));
    });
    child.on('exit', (code) => fail(new Error(`the browser server exited with status ${code}: ${err}`)));
  });
}

/** SIGKILLs a process and every descendant (a launched browser sits in a process group of its own), then waits until all are gone. */
async function killTree(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !isAlive(pid)) return;
  const pids = [pid, ...(await descendants(pid)).map((process) => process.pid)];
  for (const each of pids) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await waitFor(() => pids.every((each) => !isAlive(each)), { timeout: 10_000 });
}
