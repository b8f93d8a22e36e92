// What the code and config caps need a server for: browser_run_code_unsafe listed over stdio and outliving stray errors of the code, get_config's settings from the command line and a config file, unsafe code over HTTP only with --allow-unsafe-code (what the tools do: packages/tools/test/run-code.test.ts, pdf.test.ts).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, waitFor, waitForOutput, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectSuccess, startCli, connectInProcess, type InProcessConnection } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';

const TOKEN = 'a'.repeat(24);
const RETITLE = "async (page) => { await page.evaluate(() => { document.title = 'Set by code'; }); return { title: await page.title(), url: page.url() }; }";

let fixture: FixtureServer;
let dir: string;
let outputDir: string;
beforeAll(async () => {
  fixture = await startFixtureServer();
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'sessionwright-caps-code-')));
  outputDir = path.join(dir, 'out');
  await mkdir(outputDir);
});
afterAll(async () => {
  await fixture?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('browser_run_code_unsafe over stdio (playwright profile)', () => {
  let server: StdioConnection;
  beforeAll(async () => {
    server = await startCli(['--profile', 'playwright']);
  });
  afterAll(async () => server?.close());
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);

  it('is in the core list over stdio, under its playwright name only', async () => {
    const names = (await server.client.listTools()).tools.map((listed) => listed.name);
    expect(names).toContain('browser_run_code_unsafe');
    expect(names).not.toContain('run_code_unsafe');
  });

  it('outlives code that leaves a rejected promise or a throwing callback behind', async () => {
    const code = "async () => { Promise.reject(new Error('stray rejection')); setTimeout(() => { throw new Error('late throw'); }, 10); return 1; }";
    expect(expectSuccess(await tool('browser_run_code_unsafe', { code })).result).toBe(1);
    await waitForOutput(server.stderrText, /late throw/);
    expect(server.stderrText()).toMatch(/stray rejection/);
    expect(expectSuccess(await tool('browser_run_code_unsafe', { code: 'async () => 2' })).result).toBe(2);
  });
});

describe('get_config (default profile)', () => {
  let server: InProcessConnection;
  beforeAll(async () => {
    server = await connectInProcess(['--headless', '--caps', 'unsafe,config,pdf', '--output-dir', outputDir]);
  });
  afterAll(async () => server?.close());

  it('answers the settings and where they came from', async () => {
    const { config } = expectSuccess(await call(server.client, 'get_config'));
    expect(config.outputDir).toEqual({ value: outputDir, source: 'cli' });
    expect(config.caps).toEqual({ value: ['unsafe', 'config', 'pdf'], source: 'cli' });
  });
});

describe('browser_get_config (playwright profile)', () => {
  let server: InProcessConnection;
  let configFile: string;
  beforeAll(async () => {
    configFile = path.join(dir, 'pw-config.json');
    await writeFile(
      configFile,
      JSON.stringify({
        browser: {
          contextOptions: {
            viewport: { width: 900, height: 700 },
            extraHTTPHeaders: { 'X-Api-Key': 'header-secret-value' },
            httpCredentials: { username: 'site-user', password: 'site-secret-pw' },
          },
        },
      }),
    );
    server = await connectInProcess(['--headless', '--profile', 'playwright', '--caps', 'config,pdf', '--output-dir', outputDir, '--config', configFile]);
  });
  afterAll(async () => server?.close());
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);

  it('browser_get_config answers the effective config without a secret, and opens no page', async () => {
    const answer = expectSuccess(await tool('browser_get_config'));
    expect(answer).toMatchObject({ url: 'about:blank', title: '' });
    const text = JSON.stringify(answer);
    expect(text).toContain('900');
    for (const secret of ['site-secret-pw', 'header-secret-value']) expect(text).not.toContain(secret);
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(expectSuccess(await tool('browser_get_config'))).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home' });
  });
});

describe('unsafe code over HTTP', () => {
  let without: HttpCli;
  let withFlag: HttpCli;
  beforeAll(async () => {
    const oneIdentity = path.join(dir, 'one-identity');
    await writeFile(oneIdentity, `carol ${TOKEN}\n`);
    [without, withFlag] = await Promise.all([
      startHttpCli(['--profile', 'playwright']),
      startHttpCli(['--profile', 'playwright', '--caps', 'config', '--allow-unsafe-code', '--auth-tokens-file', oneIdentity]),
    ]);
  });
  afterAll(async () => Promise.all([without?.stop(), withFlag?.stop()]));

  it('is not listed, and not run, without --allow-unsafe-code', async () => {
    const { client } = await connectStreamable(without.base);
    try {
      const names = (await client.listTools()).tools.map((listed) => listed.name);
      expect(names).toContain('browser_evaluate');
      expect(names).not.toContain('browser_run_code_unsafe');
      await expect(client.callTool({ name: 'browser_run_code_unsafe', arguments: { code: 'async () => 1' } })).rejects.toThrow(
        /Unknown tool "browser_run_code_unsafe"/,
      );
    } finally {
      await client.close();
    }
  });

  it('runs with --allow-unsafe-code, and get_config shows no token', async () => {
    const { client } = await connectStreamable(withFlag.base, { Authorization: `Bearer ${TOKEN}` });
    try {
      expectSuccess(await call(client as unknown as Client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
      expect(expectSuccess(await call(client as unknown as Client, 'browser_run_code_unsafe', { code: RETITLE })).result.title).toBe('Set by code');
      const config = JSON.stringify(expectSuccess(await call(client as unknown as Client, 'browser_get_config')));
      expect(config).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  });

  it("closes a connection's isolated contexts with it", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const [{ client: first, transport }, { client: watcher }] = await Promise.all([
      connectStreamable(withFlag.base, auth),
      connectStreamable(withFlag.base, auth),
    ]);
    const sessions = async () => expectSuccess(await call(watcher as unknown as Client, 'list_sessions')).sessions.length as number;
    try {
      const before = await sessions();
      expectSuccess(await call(first as unknown as Client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
      expectSuccess(await call(first as unknown as Client, 'browser_tabs', { action: 'new', isolatedContext: 'other' }));
      // One identity: its sessions are listed across its connections.
      expect(await sessions()).toBe(before + 2);
      await transport.terminateSession();
      await waitFor(async () => (await sessions()) === before, { timeout: 10_000 });
    } finally {
      await Promise.all([first.close(), watcher.close()]);
    }
  });

  it('refuses to start with --allow-unsafe-code and several identities, in one line with status 2', async () => {
    const tokens = path.join(dir, 'tokens');
    await writeFile(tokens, `alice ${'b'.repeat(20)}\nbob ${'c'.repeat(20)}\n`);
    const child = spawn(process.execPath, [CLI_PATH, '--headless', '--port', '0', '--allow-unsafe-code', '--auth-tokens-file', tokens], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--allow-unsafe-code with 2 identities/);
    expect(stderr).not.toContain('b'.repeat(20));
  });
});
