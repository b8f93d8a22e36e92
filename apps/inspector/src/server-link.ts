// One MCP client connection to a sessionwright server: the built CLI over stdio, or a running server over Streamable HTTP.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectStdio } from '@sessionwright/test-kit/loopback';

/** What came back from one tools/call, in the shape the demo and the inspector both read. */
export interface CallOutcome {
  isError: boolean;
  /** content[0].text parsed as JSON, or the raw text when it is not JSON, or undefined on a protocol error. */
  json: unknown;
  /** The `errorCode` of an isError result, or `JSON-RPC <code>` for a protocol-level error. */
  errorCode: string | undefined;
  /** The error's message (from the result JSON or the JSON-RPC error). */
  errorMessage: string | undefined;
  /** Image items after content[0], base64 as the server sent them. */
  images: { mimeType: string; data: string }[];
  durationMs: number;
}

export interface ServerLink {
  /** `sessionwright 0.1.0`, from the initialize answer. */
  readonly serverName: string;
  /** How the server was reached, for humans: `stdio: node packages/server-stdio/dist/cli.js --headless` or the URL. */
  readonly target: string;
  readonly kind: 'stdio' | 'http';
  listTools(): Promise<Tool[]>;
  call(name: string, args: Record<string, unknown>): Promise<CallOutcome>;
  /** What the server wrote on stderr (stdio only; '' for HTTP). */
  stderrText(): string;
  /** Called once when the connection ends for any reason other than close(). */
  onDisconnect: ((reason: string) => void) | undefined;
  close(): Promise<void>;
}

/** Long enough for navigate's own 300 s maximum; the SDK's 60 s default would cut such calls short. */
const CALL_TIMEOUT_MS = 330_000;

/** The built CLI of @sessionwright/playwright-mcp, found through the package (its `exports` has dist/index.js beside cli.js). */
export function serverCliPath(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
}

/** Starts the built server as a child process and connects to it over stdio; `echoStderr` copies its log lines to ours. */
export async function connectStdioServer(serverArgs: readonly string[], { echoStderr = false } = {}): Promise<ServerLink> {
  const cli = serverCliPath();
  // The SDK passes only a safe default environment; Playwright's own variables decide where its browsers are.
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('PLAYWRIGHT_') && entry[1] !== undefined),
  );
  const connection = await connectStdio({ command: process.execPath, args: [cli, ...serverArgs], env });
  if (echoStderr) {
    // What arrived during start-up first, then the rest as it comes: nothing is lost or doubled between the two.
    process.stderr.write(connection.stderrText());
    connection.transport.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  }
  // Relative to where the user ran pnpm (INIT_CWD), since `pnpm --filter` runs this inside apps/inspector.
  const shown = relative(process.env['INIT_CWD'] ?? process.cwd(), cli);
  const target = `stdio: node ${shown.startsWith('..') ? cli : shown} ${serverArgs.join(' ')}`.trim();
  return linkOver(connection.client, 'stdio', target, connection.stderrText, connection.close);
}

/** Connects to a server already listening for Streamable HTTP, e.g. `http://127.0.0.1:8931/mcp`. */
export async function connectHttpServer(url: string): Promise<ServerLink> {
  const client = new Client({ name: 'sessionwright-inspector', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => {});
    throw new Error(`could not connect to ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return linkOver(
    client,
    'http',
    url,
    () => '',
    async () => {
      // Ends the MCP session on the server too, so its sessions are not left waiting for their idle timeout.
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  );
}

function linkOver(client: Client, kind: 'stdio' | 'http', target: string, stderrText: () => string, closeClient: () => Promise<void>): ServerLink {
  const info = client.getServerVersion();
  let closing = false;
  const link: ServerLink = {
    serverName: info ? `${info.name} ${info.version}` : 'unknown server',
    target,
    kind,
    onDisconnect: undefined,
    async listTools() {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return tools;
    },
    async call(name, args) {
      const started = performance.now();
      try {
        const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS })) as CallToolResult;
        return { ...readResult(result), durationMs: Math.round(performance.now() - started) };
      } catch (error) {
        const durationMs = Math.round(performance.now() - started);
        const code = error instanceof McpError ? `JSON-RPC ${error.code}` : 'CLIENT_ERROR';
        const message = error instanceof Error ? error.message : String(error);
        return { isError: true, json: undefined, errorCode: code, errorMessage: message, images: [], durationMs };
      }
    },
    stderrText,
    async close() {
      closing = true;
      await closeClient();
    },
  };
  client.onclose = () => {
    if (!closing) link.onDisconnect?.(kind === 'stdio' ? lastLines(stderrText(), 5) || 'the server process exited' : 'the HTTP connection closed');
  };
  return link;
}

function readResult(result: CallToolResult): Omit<CallOutcome, 'durationMs'> {
  const [first, ...rest] = result.content;
  let json: unknown;
  if (first?.type === 'text') {
    try {
      json = JSON.parse(first.text);
    } catch {
      json = first.text;
    }
  }
  const images = rest.flatMap((item) => (item.type === 'image' ? [{ mimeType: item.mimeType, data: item.data }] : []));
  const isError = result.isError === true;
  const error = isError && typeof json === 'object' && json !== null ? (json as { errorCode?: unknown; message?: unknown }) : undefined;
  return {
    isError,
    json,
    errorCode: isError ? (typeof error?.errorCode === 'string' ? error.errorCode : 'UNKNOWN') : undefined,
    errorMessage: isError ? (typeof error?.message === 'string' ? error.message : typeof json === 'string' ? json : undefined) : undefined,
    images,
  };
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}
