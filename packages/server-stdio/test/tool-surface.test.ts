// The tool surface a runtime prepares once: each era's tools/list entries, found by name, and the bytes a server sends.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { BrowserHost, SessionManager } from '@sessionwright/session-core';
import { silentLogger } from '@sessionwright/session-core/parts';
import { playwrightProfile, sessionsProfile, toolsFor } from '@sessionwright/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/protocol/mcp-server.js';
import { describeTool, toolSurface } from '../src/protocol/tool-surface.js';

const manager = new SessionManager({ host: new BrowserHost({ headless: true }), maxSessions: 1 });
afterAll(() => manager.shutdown());

describe('a tool surface', () => {
  for (const profile of [sessionsProfile(toolsFor(['all'])), playwrightProfile(['all'])]) {
    it(`lists the ${profile.name} profile once per era, the 2026-07-28 entries declaring the sessionId header`, () => {
      const surface = toolSurface(profile);
      const legacy = surface.listing('legacy');
      expect(legacy).toEqual(profile.tools.map(describeTool));
      expect(surface.listing('legacy')).toBe(legacy);
      const modern = surface.listing('modern');
      expect(surface.listing('modern')).toBe(modern);
      expect(JSON.stringify(legacy)).not.toContain('x-mcp-header');
      for (const [index, tool] of profile.tools.entries()) {
        const entry = modern[index];
        const sessionId = (entry?.inputSchema.properties as Record<string, Record<string, unknown>> | undefined)?.sessionId;
        expect(surface.tools.get(tool.name)).toBe(tool);
        expect(surface.takesSessionId(tool.name), tool.name).toBe('sessionId' in tool.input.shape);
        if (surface.takesSessionId(tool.name)) {
          expect(sessionId?.['x-mcp-header'], tool.name).toBe('Session-Id');
          // Nothing else differs from the 2025 entry.
          const { 'x-mcp-header': _header, ...rest } = sessionId ?? {};
          expect(rest).toEqual((legacy[index]?.inputSchema.properties as Record<string, unknown> | undefined)?.sessionId);
        } else {
          expect(entry).toBe(legacy[index]);
        }
      }
      expect(surface.names).toEqual(profile.tools.map((tool) => tool.name));
      expect(surface.tools.get('no_such_tool')).toBeUndefined();
      // The live view app's own tools, which only an MCP Apps client may call, are the ones listed for the app alone.
      const forTheApp = legacy.filter((entry) => JSON.stringify((entry._meta?.ui as { visibility?: unknown } | undefined)?.visibility) === '["app"]');
      expect(forTheApp.length).toBeGreaterThan(0);
      expect([...surface.appOnly].sort()).toEqual(forTheApp.map((entry) => entry.name).sort());
      expect(surface.takesSessionId('no_such_tool')).toBe(false);
    });
  }

  it("is what a server sends: each entry's keys in the contract's order, the same surface for every server", async () => {
    const surface = toolSurface(sessionsProfile(toolsFor(['all'])));
    const sent: JSONRPCMessage[] = [];
    const lists = [];
    for (let i = 0; i < 2; i += 1) {
      const connection = createMcpServer({ sessions: manager, logger: silentLogger, toolOptions: { allowFileUrls: false }, surface });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const send = serverSide.send.bind(serverSide);
      serverSide.send = (message, options) => {
        sent.push(JSON.parse(JSON.stringify(message)));
        return send(message, options);
      };
      await connection.server.connect(serverSide);
      const client = new Client({ name: 'tool-surface-test', version: '0.0.0' });
      await client.connect(clientSide);
      lists.push((await client.listTools()).tools);
      await client.close();
    }
    expect(lists[0]).toEqual(lists[1]);
    const answers = sent.filter((message) => 'result' in message && 'tools' in (message.result as object));
    expect(answers).toHaveLength(2);
    for (const answer of answers) {
      const tools = (answer as unknown as { result: { tools: Record<string, unknown>[] } }).result.tools;
      expect(tools.map((tool) => tool.name)).toEqual(surface.names);
      // The order describeTool writes: a model is handed these bytes on every turn, and a client may cache them.
      for (const tool of tools)
        expect(Object.keys(tool).filter((key) => key !== '_meta')).toEqual(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);
    }
  });
});
