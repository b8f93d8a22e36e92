// An MCP client for a server started as a child process, over its stdio pipe (SDK v1), keeping what the server writes on stderr.
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

export interface ConnectStdioOptions {
  command: string;
  args: string[];
  /** Added on top of the SDK's safe default environment (HOME, PATH, ...), not the whole process.env. */
  env?: Record<string, string>;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /** The client's name in initialize (default sessionwright-loopback). */
  name?: string;
  /** Default 'pipe', so server logs stay out of test output but are available through stderrText(). */
  stderr?: 'pipe' | 'inherit' | 'ignore';
  /** What the client declares in initialize (default none). */
  capabilities?: ClientCapabilities;
}

export interface StdioConnection {
  client: Client;
  transport: StdioClientTransport;
  /** The server's pid, captured at connect (the transport forgets it once the process exits). */
  pid: number | undefined;
  /** Everything the server wrote to stderr so far ('' unless stderr is 'pipe'). */
  stderrText(): string;
  /** Closes the client; the SDK ends stdin, then sends SIGTERM and SIGKILL after 2 s each. */
  close(): Promise<void>;
}

export async function connectStdio(options: ConnectStdioOptions): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: options.stderr ?? 'pipe',
  });
  let stderr = '';
  // The SDK hands out the stderr stream before start(), so early crash output is not lost.
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });

  const client = new Client({ name: options.name ?? 'sessionwright-loopback', version: '0.0.0' }, { capabilities: options.capabilities ?? {} });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    // A server that dies during startup usually says why on stderr; put it in the failure.
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`connectStdio: could not initialize ${options.command}: ${message}\n--- server stderr ---\n${stderr}`, {
      cause: error,
    });
  }

  // The SDK waits for a full pipe to drain with one listener per message, so more than ten calls at once (a burst)
  // set off Node's leak warning for what is only a queue. The SDK keeps the child process in a private field;
  // should that move, only the warning comes back.
  (transport as unknown as { _process?: ChildProcess })._process?.stdin?.setMaxListeners(0);
  const pid = transport.pid ?? undefined;
  let closing: Promise<void> | undefined;
  return {
    client,
    transport,
    pid,
    stderrText: () => stderr,
    close: () => (closing ??= client.close()),
  };
}
