// Shared helpers for the server-stdio tests: start the built CLI, run it to completion, and check results against the result contract (README: Results).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { BROWSER_ERROR_REASONS, ERROR_CODES, type ErrorCode } from '@sessionwright/session-core';
import {
  callJson,
  connectStdio,
  startFixtureServer,
  type FixtureServer,
  type FixtureServerOptions,
  type JsonToolResult,
  type StdioConnection,
  resultContract,
} from '@sessionwright/test-kit';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { parseArgs } from '../src/settings/options.js';
import { createServer, type SessionwrightServer } from '../src/runtime.js';

/** The built CLI, as `npx @sessionwright/playwright-mcp` runs it. `pnpm test` builds before testing. */
export const CLI_PATH = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The tools of the default profile the contract specifies; other tools are tested where they are built. */
export const CORE_TOOLS = ['create_session', 'close_session', 'list_sessions', 'navigate', 'click', 'type'] as const;

/** Tools whose first argument is a session. */
export const SESSION_TOOLS = ['close_session', 'navigate', 'click', 'type'] as const;

/**
 * Starts the built CLI over a real stdio pipe and lists its tools, so the SDK client checks every
 * structuredContent against the tool's outputSchema from then on. Headless unless the flags say otherwise.
 */
/** What a host that renders MCP Apps declares: the ui extension, taking the apps' HTML (its app-only tools answer only it). */
export const MCP_APPS_CLIENT: ClientCapabilities = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

export async function startCli(
  flags: string[] = [],
  options: { env?: Record<string, string>; cwd?: string; capabilities?: ClientCapabilities } = {},
): Promise<StdioConnection> {
  const headless = flags.some((flag) => flag.startsWith('--headless')) ? [] : ['--headless'];
  const connection = await connectStdio({ command: process.execPath, args: [CLI_PATH, ...headless, ...flags], ...options });
  await connection.client.listTools();
  return connection;
}

/** Calls a tool and checks the result's shape whatever it is (README: Results); returns it for the caller's own checks. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<JsonToolResult> {
  const result = await callJson(client, name, args);
  expectWellFormed(result, args);
  return result;
}

export { isUuidV4 } from '@sessionwright/test-kit';

/** The result contract (README: Results): expectWellFormed, expectError and expectSuccess against the server's closed sets. */
export const { expectWellFormed, expectError, expectSuccess } = resultContract<ErrorCode>({
  errorCodes: ERROR_CODES,
  browserErrorReasons: BROWSER_ERROR_REASONS,
});

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion with stdin closed; kills it (and fails the caller's checks) after `timeout` ms. */
export function run(command: string, args: string[], options: { cwd?: string; timeout?: number; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 30_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A maker of temporary folders named `prefix…`, each removed once the file's tests have run. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A client connected to a server in this process (see connectInProcess), and that server, for a test to watch its browser. */
export type InProcessConnection = Pick<StdioConnection, 'client' | 'close' | 'stderrText'> & { server: SessionwrightServer };

/**
 * A server built from these flags in this process, reached by the SDK client over its in-memory transport: the tools and
 * the server code run where coverage sees them. The stdio pipe itself is tested by the files that use startCli. The
 * client counts as local, as over stdio; given `roots`, it declares the roots capability and lists those directories.
 * Its tools are listed first, so the client checks every structuredContent against the tool's outputSchema.
 */
export async function connectInProcess(
  flags: string[],
  { roots, capabilities }: { roots?: string[]; capabilities?: ClientCapabilities } = {},
): Promise<InProcessConnection> {
  const command = parseArgs(flags, {});
  if (command.kind !== 'run') throw new Error(`connectInProcess: ${flags.join(' ')} does not start a server`);
  const lines: string[] = [];
  const log = (message: string) => void lines.push(message);
  const server = createServer(command.options, { info: log, warn: log, debug: log });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, { local: true });
  const client = new Client(
    { name: 'sessionwright-in-process-test', version: '0.0.0' },
    { capabilities: { ...capabilities, ...(roots ? { roots: { listChanged: false } } : {}) } },
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) })) }));
  }
  await client.connect(clientSide);
  await client.listTools();
  let closing: Promise<void> | undefined;
  return {
    client,
    server,
    stderrText: () => lines.join('\n'),
    close: () => (closing ??= client.close().then(() => server.close())),
  };
}

/**
 * One headless server (in process) and one fixture server for a whole test file, with helpers that open sessions on fixture pages.
 * Each test's sessions are closed after it, so the tests never run into --max-sessions.
 */
export function useServerWithFixture(flags: string[] = ['--max-sessions', '20'], fixtureOptions: FixtureServerOptions = {}) {
  let fixture: FixtureServer | undefined;
  let conn: InProcessConnection | undefined;
  const opened: string[] = [];
  beforeAll(async () => {
    fixture = await startFixtureServer(fixtureOptions);
    conn = await connectInProcess(['--headless', ...flags]);
  });
  afterAll(async () => {
    await conn?.close();
    await fixture?.close();
  });
  const call = (name: string, args: Record<string, unknown> = {}) => callJson(conn!.client, name, args);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((sessionId) => call('close_session', { sessionId })));
  });
  async function createSession(): Promise<string> {
    const created = await call('create_session');
    expect(created.isError, JSON.stringify(created.json)).toBe(false);
    opened.push(created.json.sessionId);
    return created.json.sessionId as string;
  }
  async function sessionOn(page: string): Promise<string> {
    const sessionId = await createSession();
    const nav = await call('navigate', { sessionId, url: fixture!.urlFor(`/pages/${page}`) });
    expect(nav.isError, JSON.stringify(nav.json)).toBe(false);
    return sessionId;
  }
  return { call, createSession, sessionOn, fixture: () => fixture!, connection: () => conn! };
}
