// The stdio contract byte by byte: only JSON-RPC lines on stdout, answers before the browser is up, and a clean exit on EOF or a signal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import {
  browserProcesses,
  callJson,
  connectStdio,
  descendants,
  holdsFor,
  isAlive,
  startFixtureServer,
  waitFor,
  type FixtureServer,
} from '@sessionwright/test-kit';
import { allTools } from '@sessionwright/tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from './helpers.js';

interface JsonRpcMessage {
  jsonrpc: string;
  id?: number;
  method?: string;
  result?: any;
  error?: { code: number; message: string };
}

/** The CLI on raw pipes: newline-delimited JSON written by hand, every stdout line kept for inspection. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  stdout = '';
  stderr = '';
  private nextId = 1;
  private readonly waiting = new Map<number, (message: JsonRpcMessage) => void>();

  constructor(flags: string[]) {
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    this.child = spawn(process.execPath, [CLI_PATH, ...flags], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    let pending = '';
    this.child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stdout += text;
      pending += text;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        // A line that is not JSON is caught by the callers' check of every line; here only answers are routed.
        let message: JsonRpcMessage | undefined;
        try {
          message = JSON.parse(line) as JsonRpcMessage;
        } catch {
          continue;
        }
        if (typeof message.id === 'number') this.waiting.get(message.id)?.(message);
      }
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  request(method: string, params: Record<string, unknown> = {}, timeout = 30_000): Promise<JsonRpcMessage> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${timeout} ms; stderr:\n${this.stderr}`)), timeout);
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  async initialize(): Promise<JsonRpcMessage> {
    const answer = await this.request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'raw-stdio-test', version: '0.0.0' },
    });
    this.notify('notifications/initialized');
    return answer;
  }

  /** Calls a tool and returns content[0].text parsed. */
  async tool(name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; json: any }> {
    const answer = await this.request('tools/call', { name, arguments: args });
    expect(answer.error).toBeUndefined();
    return { isError: answer.result.isError === true, json: JSON.parse(answer.result.content[0].text) };
  }

  /** Every stdout line must be one JSON-RPC 2.0 message, and the stream must end on a line break. */
  expectOnlyJsonRpcOnStdout(): JsonRpcMessage[] {
    expect(this.stdout.length).toBeGreaterThan(0);
    expect(this.stdout.endsWith('\n'), 'stdout ends with a newline').toBe(true);
    return this.stdout
      .slice(0, -1)
      .split('\n')
      .map((line) => {
        let message: JsonRpcMessage;
        try {
          message = JSON.parse(line) as JsonRpcMessage;
        } catch {
          throw new Error(`stdout line is not JSON: ${line.slice(0, 300)}`);
        }
        expect(message.jsonrpc, line.slice(0, 300)).toBe('2.0');
        expect('result' in message || 'error' in message || typeof message.method === 'string', line.slice(0, 300)).toBe(true);
        return message;
      });
  }
}

let fx: FixtureServer;
const servers: RawServer[] = [];
const startRaw = (flags: string[]) => {
  const server = new RawServer(flags);
  servers.push(server);
  return server;
};

beforeAll(async () => {
  fx = await startFixtureServer();
});
afterEach(async () => {
  // A test that failed half-way must not leave a server (and its browser) behind.
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
});
afterAll(async () => {
  await fx?.close();
});

/** initialize, tools/list, create_session and navigate by hand, each answered. */
async function session(server: RawServer): Promise<string> {
  const init = await server.initialize();
  expect(init.result.serverInfo.name).toBe('sessionwright');
  expect(init.result.capabilities.tools).toBeDefined();
  const list = await server.request('tools/list');
  expect(list.result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['create_session', 'navigate', 'click', 'type']));
  const created = await server.tool('create_session');
  expect(created.isError).toBe(false);
  const navigated = await server.tool('navigate', { sessionId: created.json.sessionId, url: fx.urlFor('/pages/form') });
  expect(navigated.json).toMatchObject({ success: true, title: 'Form', status: 200 });
  return created.json.sessionId;
}

describe('stdout', () => {
  it('carries only newline-delimited JSON-RPC messages, one per line, answering every request', async () => {
    const server = startRaw(['--headless', '--verbose']);
    const sessionId = await session(server);
    // A failure and an unknown method are JSON-RPC on stdout too; logs (verbose) stay on stderr.
    expect((await server.tool('click', { sessionId, selector: '#missing', timeout: 200 })).json.errorCode).toBe('ELEMENT_NOT_FOUND');
    expect((await server.request('no/such/method')).error?.code).toBe(-32601);
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
    const messages = server.expectOnlyJsonRpcOnStdout();
    expect(messages.filter((message) => message.id !== undefined).map((message) => message.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(server.stderr).toMatch(/serving MCP on stdio/);
  });
});

describe('a client that reads slowly', () => {
  it('gets every answer once it reads, and the server logs no warning about the answers waiting for it', async () => {
    const server = startRaw(['--headless']);
    await server.initialize();
    // Forty tool listings (~200 KB each) while the client reads nothing: the pipe fills and the answers queue up.
    server.child.stdout.pause();
    let answered = 0;
    const answers = Array.from({ length: 40 }, () => server.request('tools/list').finally(() => answered++));
    // Our side of the pipe fills with what the server could write; the answers after it wait in the server, and none
    // arrives while the client reads nothing.
    await waitFor(() => server.child.stdout.readableLength >= server.child.stdout.readableHighWaterMark, { timeout: 30_000 });
    await holdsFor(() => answered === 0, 1_000, { what: 'no answer reaching a client that reads nothing' });
    server.child.stdout.resume();
    for (const answer of await Promise.all(answers)) expect(answer.result.tools.length).toBeGreaterThan(20);
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
    expect(server.stderr).not.toMatch(/Warning|MaxListeners/);
  });
});

describe('a client that sends many large calls at once', () => {
  it('gets every answer, and the test-kit client (the bench uses it) warns about no listeners waiting for its pipe', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const stdio = await connectStdio({ command: process.execPath, args: [CLI_PATH, '--headless'] });
    try {
      // Thirty calls of ~100 KB written in one turn: the pipe to the server fills after the first and the rest wait to drain.
      const sessionId = 'x'.repeat(100_000);
      const answers = await Promise.all(Array.from({ length: 30 }, () => callJson(stdio.client, 'close_session', { sessionId })));
      // Longer than any session id may be: refused by its length, never looked up.
      for (const answer of answers) expect(answer.json.errorCode).toBe('INVALID_PARAMETERS');
    } finally {
      await stdio.close();
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});

describe('initialize does not wait for the browser', () => {
  it('answers initialize and tools/list with a missing executable; create_session then answers BROWSER_ERROR naming it', async () => {
    const server = startRaw(['--headless', '--executable-path', '/nonexistent/chrome']);
    await server.initialize();
    expect((await server.request('tools/list')).result.tools.length).toBe(allTools.length);
    const failed = await server.tool('create_session');
    expect(failed.isError).toBe(true);
    expect(failed.json.errorCode).toBe('BROWSER_ERROR');
    expect(failed.json.message).toContain('/nonexistent/chrome');
    expect(server.stderr).toContain('/nonexistent/chrome');
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
    server.expectOnlyJsonRpcOnStdout();
  });

  describe('with a browser that never comes up', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-fake-browser-'));
      const fake = path.join(dir, 'never-ready-browser');
      writeFileSync(fake, '#!/bin/sh\nexec sleep 120\n');
      chmodSync(fake, 0o755);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('answers initialize and tools/list while the launch hangs, and the backstop still exits 0 leaving nothing behind', async () => {
      const server = startRaw(['--headless', '--executable-path', path.join(dir, 'never-ready-browser')]);
      await server.initialize();
      expect((await server.request('tools/list')).result.tools.length).toBe(allTools.length);
      // The fake browser was started (so the launch really is in flight) …
      await waitFor(async () => (await descendants(server.pid)).some((p) => p.comm === 'sleep'), { timeout: 10_000 });
      const fakes = (await descendants(server.pid)).filter((p) => p.comm === 'sleep').map((p) => p.pid);
      const closedAt = Date.now();
      server.child.stdin.end();
      const exit = await server.exited;
      expect(exit.code).toBe(0);
      // … and shutdown did not wait for the 30 s launch timeout: the 5 s backstop, with a wide margin.
      expect(exit.at - closedAt).toBeLessThan(15_000);
      await waitFor(() => fakes.every((pid) => !isAlive(pid)), { timeout: 10_000 });
      server.expectOnlyJsonRpcOnStdout();
    });
  });
});

describe('shutdown', () => {
  const triggers = {
    'stdin closes': (server: RawServer) => server.child.stdin.end(),
    SIGTERM: (server: RawServer) => server.child.kill('SIGTERM'),
    SIGINT: (server: RawServer) => server.child.kill('SIGINT'),
  };

  it.each(Object.keys(triggers) as (keyof typeof triggers)[])('when %s: exit 0 within a few seconds, no browser process left', async (trigger) => {
    const server = startRaw(['--headless']);
    const sessionId = await session(server);
    // A second session and a call still in flight must not hold shutdown up.
    expect((await server.tool('create_session')).isError).toBe(false);
    void server.request('tools/call', { name: 'navigate', arguments: { sessionId, url: fx.urlFor('/hang') } }).catch(() => {});
    const browser = await browserProcesses(server.pid);
    expect(browser.length).toBeGreaterThan(0);
    const triggeredAt = Date.now();
    triggers[trigger](server);
    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - triggeredAt).toBeLessThan(10_000);
    await waitFor(() => browser.every((p) => !isAlive(p.pid)), { timeout: 10_000 });
    server.expectOnlyJsonRpcOnStdout();
    expect(server.stderr).toMatch(new RegExp(`${trigger === 'stdin closes' ? 'stdin (ended|closed)' : trigger}: closing sessions and the browser`));
  });
});
