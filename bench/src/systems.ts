// How the bench starts each system under test: sessionwright and @playwright/mcp over stdio or HTTP, with the same browser binary.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectStdio as connectTestKitStdio, descendants, isAlive, waitFor } from '@sessionwright/test-kit';

/** The sessionwright CLI, next to the package's entry point. */
export const SESSIONWRIGHT_CLI = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
/** @playwright/mcp's CLI. */
export const PLAYWRIGHT_MCP_CLI = path.join(path.dirname(fileURLToPath(import.meta.resolve('@playwright/mcp/package.json'))), 'cli.js');

/** @playwright/mcp writes snapshot files into its working directory; keep them out of the repository. */
export const scratchDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-bench-'));
export function removeScratch(): void {
  rmSync(scratchDir, { recursive: true, force: true });
}

export function sessionwrightArgs(executable: string, extra: string[] = []): string[] {
  return [SESSIONWRIGHT_CLI, '--headless', '--executable-path', executable, '--max-sessions', '60', ...extra];
}

export function playwrightMcpArgs(executable: string, extra: string[] = []): string[] {
  return [PLAYWRIGHT_MCP_CLI, '--headless', '--isolated', '--no-sandbox', '--executable-path', executable, ...extra];
}

export interface Connection {
  client: Client;
  /** The server process (for /proc PSS); undefined for an HTTP client (the server is measured on its own). */
  pid: number | undefined;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns a stdio server and completes initialize; `initMs` is spawn → initialize answered. */
export async function connectStdio(args: string[], name = 'bench'): Promise<{ connection: Connection; initMs: number }> {
  const started = performance.now();
  const stdio = await connectTestKitStdio({ command: process.execPath, args, cwd: scratchDir, name });
  const initMs = performance.now() - started;
  return {
    initMs,
    connection: { client: stdio.client, pid: stdio.pid, stderr: stdio.stderrText, close: () => closeAndReap(stdio.client, stdio.pid) },
  };
}

/** Connects one MCP client over Streamable HTTP. */
export async function connectHttp(url: string, name = 'bench'): Promise<Connection> {
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, pid: undefined, stderr: () => '', close: () => client.close() };
}

/** Closes the client (the server then exits) and waits until the server and every process it started are gone. */
async function closeAndReap(client: Client, pid: number | undefined): Promise<void> {
  const tree = pid === undefined ? [] : [pid, ...(await descendants(pid)).map((proc) => proc.pid)];
  await client.close().catch(() => {});
  await waitForExit(tree);
}

export async function waitForExit(pids: number[], timeout = 15_000): Promise<void> {
  try {
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { timeout, interval: 50 });
  } catch {
    for (const pid of pids.filter(isAlive)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

/** A free TCP port on 127.0.0.1 (the server that asks for it binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface HttpServer {
  url: string;
  process: ChildProcess;
  pid: number;
  close(): Promise<void>;
}

/** Starts @playwright/mcp as one HTTP server and waits until it answers. */
export async function startPlaywrightMcpHttp(executable: string): Promise<HttpServer> {
  const port = await freePort();
  // Its default host, localhost: it only answers requests whose Host header names the host it is bound to.
  const child = spawn(process.execPath, playwrightMcpArgs(executable, ['--port', String(port)]), {
    cwd: scratchDir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const url = `http://localhost:${port}/mcp`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`@playwright/mcp HTTP server exited: ${stderr}`);
        return fetch(url, { method: 'GET' }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 20_000, interval: 50 },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const pid = child.pid ?? 0;
  return {
    url,
    process: child,
    pid,
    async close() {
      const tree = [pid, ...(await descendants(pid)).map((proc) => proc.pid)];
      child.kill('SIGTERM');
      await waitForExit(tree);
    },
  };
}

/** A tool call that failed (isError or a protocol error). */
export class ToolCallError extends Error {
  override readonly name = 'ToolCallError';
}

export interface Timed {
  ms: number;
  /** All text content items joined with newlines: what a model reads. */
  text: string;
  result: CallToolResult;
}

/**
 * How long one call may take, on the client and (for the burst) as the server's --call-timeout: long enough for the burst,
 * where a thousand queued calls share two cores and the last of them wait many minutes for their turn.
 */
export const CALL_LIMIT_MS = 1_800_000;

/** Calls a tool and times it; throws ToolCallError on isError. */
export async function timedCall(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Timed> {
  const started = performance.now();
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_LIMIT_MS })) as CallToolResult;
  const ms = performance.now() - started;
  const text = result.content
    .filter((item): item is { type: 'text'; text: string } => item.type === 'text')
    .map((item) => item.text)
    .join('\n');
  if (result.isError) throw new ToolCallError(`${name} failed: ${text.slice(0, 500)}`);
  return { ms, text, result };
}

/** The sessionwright result object (content[0] is its JSON). */
export function jsonOf(timed: Timed): Record<string, unknown> {
  const first = timed.result.content[0];
  return first?.type === 'text' ? (JSON.parse(first.text) as Record<string, unknown>) : {};
}
