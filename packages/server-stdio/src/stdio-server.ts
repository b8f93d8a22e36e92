// Serves MCP over stdio in both protocol eras: the client's first message (initialize, or a 2026-07-28 request) picks one.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { messageOf } from '@sessionwright/session-core/parts';
import { MAX_MESSAGE_BYTES } from './input/limits.js';
import type { SessionwrightServer } from './runtime.js';

/** One connection over the pipes; the client runs on this machine, so its roots and the working directory are paths here. */
export function serveStdioConnection(runtime: SessionwrightServer, stdin: Readable, stdout: Writable): StdioServerHandle {
  return serveStdio(({ era }) => runtime.open({ local: true, era }).server, {
    transport: new StdioServerTransport(stdin, stdout, { maxBufferSize: MAX_MESSAGE_BYTES }),
    onerror: (error) => runtime.logger.debug(`stdio: ${messageOf(error)}`),
  });
}
