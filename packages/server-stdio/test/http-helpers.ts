// Helpers for the HTTP-mode tests: start the built CLI with --port 0, connect SDK clients over HTTP, send raw requests.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { CLI_PATH } from './helpers.js';

export interface HttpCli {
  /** `http://127.0.0.1:PORT`, parsed from the "listening on" line on stderr. */
  base: string;
  process: ChildProcess;
  pid: number;
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after 10 s; resolves when it has exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `cli.js --port 0 --headless …` and waits for the URL it prints on stderr. `onlyFlags`: start `cli.js …` with
 * just the flags given (for a server configured through the environment or a file).
 */
export async function startHttpCli(
  flags: string[] = [],
  options: { env?: NodeJS.ProcessEnv; stdin?: 'pipe' | 'ignore'; onlyFlags?: boolean } = {},
): Promise<HttpCli> {
  const child = spawn(process.execPath, [CLI_PATH, ...(options.onlyFlags ? [] : ['--port', '0', '--headless']), ...flags], {
    env: options.env ?? process.env,
    stdio: [options.stdin ?? 'ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within 30 s:\n${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)\/mcp /.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${stderr}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    }
    return exited;
  };
  return { base, process: child, pid: child.pid!, stderr: () => stderr, exited, stop };
}

export type Headers = Record<string, string>;

/** An SDK client over Streamable HTTP at `${base}/mcp`. */
export async function connectStreamable(
  base: string,
  headers: Headers = {},
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'http-test-streamable', version: '0.0.0' }, { capabilities });
  await client.connect(transport);
  return { client, transport };
}

/** An SDK client over legacy SSE at `url` (`${base}/sse`, or the bare `${base}/`). */
export async function connectSse(url: string, headers: Headers = {}): Promise<{ client: Client; transport: SSEClientTransport }> {
  // requestInit's headers go on the POSTs and on the EventSource's GET alike.
  const transport = new SSEClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'http-test-sse', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
}

/**
 * One HTTP request with full control of the headers (fetch may not set Host; `Host: ''` sends none). `readFor` ends a streaming response
 * after that many ms and returns what arrived so far.
 */
export function rawRequest(
  base: string,
  options: { method?: string; path?: string; headers?: Headers; body?: string | Buffer; readFor?: number },
): Promise<RawResponse> {
  const url = new URL(options.path ?? '/mcp', base);
  // Host: '' means no Host header at all (Node would otherwise put in the default).
  const { Host: host, ...rest } = options.headers ?? {};
  const headers = host === '' ? rest : { ...rest, ...(host === undefined ? {} : { Host: host }) };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers, setHost: host !== '' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      const finish = () => {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      };
      if (options.readFor !== undefined) {
        setTimeout(() => {
          finish();
          req.destroy();
        }, options.readFor);
      } else res.on('end', finish);
    });
    req.on('error', (error) => (options.readFor === undefined ? reject(error) : undefined));
    req.end(options.body);
  });
}

/** Headers a Streamable HTTP POST needs. */
export const JSON_POST: Headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

export interface RawStream {
  status: number;
  /** The `endpoint` event's data (legacy SSE), once it has arrived. */
  endpoint: Promise<string>;
  /** Everything received so far. */
  text(): string;
  close(): void;
}

/** Opens an SSE stream with a plain GET and keeps it open until close(). */
export function openRawStream(base: string, path: string, headers: Headers = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method: 'GET', headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      let found: (endpoint: string) => void = () => {};
      const endpoint = new Promise<string>((resolveEndpoint) => (found = resolveEndpoint));
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const match = /event: endpoint\ndata: (\S+)/.exec(text);
        if (match?.[1]) found(match[1]);
      });
      res.on('error', () => {});
      resolve({ status: res.statusCode ?? 0, endpoint, text: () => text, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}
