// The core tools over a real stdio pipe: tools/list and a protocol error; their success paths are tested in process in packages/tools (core-tools.test.ts).
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { allTools } from '@sessionwright/tools';
import type { StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_TOOLS, startCli } from './helpers.js';

let server: StdioConnection;

beforeAll(async () => {
  server = await startCli();
});
afterAll(async () => {
  await server?.close();
});

describe('tools/list', () => {
  it('lists the six tools with titles, descriptions, schemas and annotations', async () => {
    const { tools } = await server.client.listTools();
    const listed = new Map(tools.map((entry) => [entry.name, entry]));
    expect(tools.map((entry) => entry.name)).toEqual(allTools.map((entry) => entry.name));
    for (const name of CORE_TOOLS) {
      const entry = listed.get(name);
      expect(entry, name).toBeDefined();
      expect(entry!.title).toBeTruthy();
      expect(entry!.inputSchema.type).toBe('object');
      expect(entry!.inputSchema.additionalProperties).toBe(false);
      expect(entry!.outputSchema?.type).toBe('object');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof entry!.annotations?.[hint], `${name}.${hint}`).toBe('boolean');
      }
    }
  });
});

describe('protocol errors', () => {
  it('answers an unknown tool name with a JSON-RPC error, not a tool result', async () => {
    const failure = await server.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32602);
    expect((failure as McpError).message).toContain('no_such_tool');
    // The server is still there.
    await server.client.ping();
  });
});
