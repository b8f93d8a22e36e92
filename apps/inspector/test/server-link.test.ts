// The inspector's two ways to reach a server: the built CLI over stdio, and Streamable HTTP (the CLI's own --port listener, and the library behind a bare SDK transport).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer, type SessionwrightServer } from '@sessionwright/playwright-mcp';
import { silentLogger } from '@sessionwright/session-core/parts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpServer, connectStdioServer, serverCliPath, type ServerLink } from '../src/server-link.js';

async function exercise(link: ServerLink): Promise<void> {
  const tools = (await link.listTools()).map((tool) => tool.name);
  expect(tools).toEqual(expect.arrayContaining(['create_session', 'navigate', 'close_session']));
  const created = await link.call('create_session', {});
  expect(created.isError).toBe(false);
  const { sessionId } = created.json as { sessionId: string };
  const page = await link.call('navigate', { sessionId, url: 'data:text/html,<title>linked</title>' });
  expect(page).toMatchObject({ isError: false, json: { title: 'linked' } });
  expect(page.durationMs).toBeGreaterThanOrEqual(0);

  const bad = await link.call('navigate', { sessionId, url: 'nope' });
  expect(bad).toMatchObject({ isError: true, errorCode: 'INVALID_PARAMETERS' });
  expect(bad.errorMessage).toContain('not a valid absolute URL');
  // An unknown tool is a protocol error, not a crash.
  expect(await link.call('no_such_tool', {})).toMatchObject({ isError: true, errorCode: expect.stringMatching(/^JSON-RPC -?\d+$/) });

  expect((await link.call('close_session', { sessionId })).isError).toBe(false);
}

describe('server link', () => {
  it('drives the built CLI over stdio', async () => {
    const link = await connectStdioServer(['--headless']);
    try {
      expect(link.kind).toBe('stdio');
      expect(link.serverName).toMatch(/^sessionwright \d+\.\d+\.\d+/);
      expect(link.target).toMatch(/cli\.js --headless$/);
      await exercise(link);
    } finally {
      await link.close();
    }
  });

  it("drives the built CLI's HTTP listener, which serves the inspector's client (Node's fetch) with no --allowed-origins", async () => {
    const child = spawn(process.execPath, [serverCliPath(), '--headless', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const match = /listening on (http:\/\/\S+\/mcp) /.exec(stderr);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
      });
      const link = await connectHttpServer(url);
      try {
        await exercise(link);
      } finally {
        await link.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });

  describe('over Streamable HTTP', () => {
    let server: SessionwrightServer;
    let http: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer({ headless: true }, silentLogger);
      const transports = new Map<string, StreamableHTTPServerTransport>();
      // The smallest stateful Streamable HTTP endpoint: one transport (and MCP connection) per Mcp-Session-Id.
      http = createHttpServer(async (req, res) => {
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? transports.get(id) : undefined;
        if (!transport) {
          const fresh = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sessionId) => void transports.set(sessionId, fresh),
          });
          await server.connect(fresh);
          transport = fresh;
        }
        await transport.handleRequest(req, res);
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    });
    afterAll(async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await server.close();
    });

    it('creates, navigates and closes a session', async () => {
      const link = await connectHttpServer(url);
      try {
        expect(link.kind).toBe('http');
        expect(link.target).toBe(url);
        await exercise(link);
      } finally {
        await link.close();
      }
    });

    it('says which URL it could not reach', async () => {
      await expect(connectHttpServer('http://127.0.0.1:9/mcp')).rejects.toThrow(/could not connect to http:\/\/127\.0\.0\.1:9\/mcp/);
    });
  });
});
