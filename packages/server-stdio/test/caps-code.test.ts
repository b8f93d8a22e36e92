// run_code_unsafe, get_config and the PDF tools through real servers in both profiles: what the page saw, files only inside --output-dir, unsafe code over HTTP only with --allow-unsafe-code.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, waitFor, waitForOutput, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectError, expectSuccess, startCli, connectInProcess, type InProcessConnection } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';

const TOKEN = 'a'.repeat(24);
const RETITLE = "async (page) => { await page.evaluate(() => { document.title = 'Set by code'; }); return { title: await page.title(), url: page.url() }; }";

let fixture: FixtureServer;
let dir: string;
let outputDir: string;
let codeRoot: string;
beforeAll(async () => {
  fixture = await startFixtureServer();
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'sessionwright-caps-code-')));
  outputDir = path.join(dir, 'out');
  codeRoot = path.join(dir, 'code');
  await Promise.all([outputDir, codeRoot].map((folder) => import('node:fs/promises').then(({ mkdir }) => mkdir(folder))));
  await writeFile(path.join(codeRoot, 'heading.js'), "async (page) => page.locator('h1').textContent()");
  await writeFile(path.join(dir, 'outside.js'), 'async (page) => 1');
});
afterAll(async () => {
  await fixture?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('browser_run_code_unsafe over stdio (playwright profile)', () => {
  let server: StdioConnection;
  beforeAll(async () => {
    server = await startCli(['--profile', 'playwright', '--file-root', codeRoot]);
  });
  afterAll(async () => server?.close());
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);

  it("is in the core list and runs the code with the connection's own page", async () => {
    const names = (await server.client.listTools()).tools.map((listed) => listed.name);
    expect(names).toContain('browser_run_code_unsafe');
    expect(names).not.toContain('run_code_unsafe');
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const ran = expectSuccess(await tool('browser_run_code_unsafe', { code: RETITLE }));
    expect(ran).toMatchObject({ result: { title: 'Set by code', url: fixture.urlFor('/pages/home') }, type: 'object', title: 'Set by code' });
    // The page itself was changed, not a copy.
    expect(expectSuccess(await tool('browser_evaluate', { function: '() => document.title' })).result).toBe('Set by code');
  });

  it('loads the code from a file inside the allowed directories, and from nowhere else', async () => {
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(expectSuccess(await tool('browser_run_code_unsafe', { filename: path.join(codeRoot, 'heading.js') })).result).toBe('Fixture home');
    expectError(await tool('browser_run_code_unsafe', { filename: path.join(dir, 'outside.js') }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_run_code_unsafe', { filename: '../outside.js' }), 'INVALID_PARAMETERS');
  });

  it('refuses bad code clearly, bounds a long result, and leaves the page usable', async () => {
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(expectError(await tool('browser_run_code_unsafe', {}), 'INVALID_PARAMETERS').message).toMatch(/code/);
    expect(expectError(await tool('browser_run_code_unsafe', { code: 'async (page) => {' }), 'INVALID_PARAMETERS').message).toMatch(/does not parse/);
    expect(expectError(await tool('browser_run_code_unsafe', { code: '42' }), 'INVALID_PARAMETERS').message).toMatch(/must be a function/);
    const threw = expectError(await tool('browser_run_code_unsafe', { code: "async () => { throw new Error('boom'); }" }), 'BROWSER_ERROR');
    expect(threw.details).toMatchObject({ reason: 'script_error', codeMessage: 'boom' });
    expect(expectError(await tool('browser_run_code_unsafe', { code: 'async () => process.pid' }), 'BROWSER_ERROR').message).toMatch(/process is not defined/);
    const long = expectSuccess(await tool('browser_run_code_unsafe', { code: "async () => 'x'.repeat(50000)" }));
    expect(long.truncated).toBe(true);
    expect(long.result.length).toBeLessThanOrEqual(20_000);
    expect(expectSuccess(await tool('browser_run_code_unsafe', { code: 'async (page) => page.url()' })).result).toBe(fixture.urlFor('/pages/home'));
  });

  it('outlives code that leaves a rejected promise or a throwing callback behind', async () => {
    const code = "async () => { Promise.reject(new Error('stray rejection')); setTimeout(() => { throw new Error('late throw'); }, 10); return 1; }";
    expect(expectSuccess(await tool('browser_run_code_unsafe', { code })).result).toBe(1);
    await waitForOutput(server.stderrText, /late throw/);
    expect(server.stderrText()).toMatch(/stray rejection/);
    expect(expectSuccess(await tool('browser_run_code_unsafe', { code: 'async () => 2' })).result).toBe(2);
  });
});

describe('run_code_unsafe, get_config and save_pdf (default profile)', () => {
  let server: InProcessConnection;
  let plain: InProcessConnection;
  beforeAll(async () => {
    [server, plain] = await Promise.all([
      connectInProcess(['--headless', '--caps', 'unsafe,config,pdf', '--output-dir', outputDir]),
      connectInProcess(['--headless']),
    ]);
  });
  afterAll(async () => Promise.all([server?.close(), plain?.close()]));
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);
  const session = async (page: string) => {
    const { sessionId } = expectSuccess(await tool('create_session'));
    expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor(`/pages/${page}`) }));
    return sessionId as string;
  };

  it('are in their groups only', async () => {
    const names = (await plain.client.listTools()).tools.map((listed) => listed.name);
    for (const name of ['run_code_unsafe', 'get_config', 'save_pdf']) expect(names).not.toContain(name);
    const grouped = (await server.client.listTools()).tools.map((listed) => listed.name);
    for (const name of ['run_code_unsafe', 'get_config', 'save_pdf']) expect(grouped).toContain(name);
  });

  it('run_code_unsafe runs the code with the named session’s page', async () => {
    const sessionId = await session('form');
    const code = "async (page) => { await page.fill('#name', 'Ada'); return page.inputValue('#name'); }";
    expect(expectSuccess(await tool('run_code_unsafe', { sessionId, code })).result).toBe('Ada');
    expect(expectSuccess(await tool('evaluate', { sessionId, function: "() => document.querySelector('#name').value" })).result).toBe('Ada');
    expectError(await tool('run_code_unsafe', { code }), 'INVALID_PARAMETERS');
  });

  it('get_config answers the settings and where they came from', async () => {
    const { config } = expectSuccess(await tool('get_config'));
    expect(config.outputDir).toEqual({ value: outputDir, source: 'cli' });
    expect(config.caps).toEqual({ value: ['unsafe', 'config', 'pdf'], source: 'cli' });
  });

  it('save_pdf writes the PDF inside --output-dir with filename, and nowhere else', async () => {
    const sessionId = await session('home');
    const saved = expectSuccess(await tool('save_pdf', { sessionId, filename: 'receipts/home.pdf' }));
    expect(saved.file).toBe(path.join(outputDir, 'receipts', 'home.pdf'));
    const pdf = await readFile(saved.file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(saved.bytes);
    for (const filename of ['../escape.pdf', path.join(dir, 'abs.pdf')]) {
      expect(expectError(await tool('save_pdf', { sessionId, filename }), 'INVALID_PARAMETERS', sessionId).message).toMatch(/output directory/);
    }
    expect((await readdir(dir)).sort()).toEqual(['code', 'out', 'outside.js']);
    // Without filename the PDF comes in the answer.
    const inline = await tool('save_pdf', { sessionId });
    expect(inline.result.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/pdf' } });
  });
});

describe('browser_get_config and browser_pdf_save (playwright profile)', () => {
  let server: InProcessConnection;
  let noOutput: InProcessConnection;
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
    [server, noOutput] = await Promise.all([
      connectInProcess(['--headless', '--profile', 'playwright', '--caps', 'config,pdf', '--output-dir', outputDir, '--config', configFile]),
      connectInProcess(['--headless', '--profile', 'playwright', '--caps', 'pdf']),
    ]);
  });
  afterAll(async () => Promise.all([server?.close(), noOutput?.close()]));
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

  it('browser_pdf_save writes page-<time>.pdf or filename inside --output-dir', async () => {
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const named = expectSuccess(await tool('browser_pdf_save', { filename: 'home.pdf' }));
    expect(named).toMatchObject({ file: path.join(outputDir, 'home.pdf'), url: fixture.urlFor('/pages/home'), title: 'Home' });
    expect((await readFile(named.file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const unnamed = expectSuccess(await tool('browser_pdf_save'));
    expect(path.dirname(unnamed.file)).toBe(outputDir);
    expect(path.basename(unnamed.file)).toMatch(/^page-.*\.pdf$/);
    expectError(await tool('browser_pdf_save', { filename: '../out.pdf' }), 'INVALID_PARAMETERS');
    // Without --output-dir: a filename is refused, and without one the PDF comes in the answer.
    expectError(await call(noOutput.client, 'browser_pdf_save', { filename: 'x.pdf' }), 'INVALID_PARAMETERS');
    expectSuccess(await call(noOutput.client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const inline = await call(noOutput.client, 'browser_pdf_save');
    expect(inline.result.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/pdf' } });
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

describe('browser_tabs {url, isolatedContext} (playwright profile)', () => {
  let server: InProcessConnection;
  beforeAll(async () => {
    server = await connectInProcess(['--headless', '--profile', 'playwright']);
  });
  afterAll(async () => server?.close());
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);
  const stored = async () => expectSuccess(await tool('browser_evaluate', { function: "() => localStorage.getItem('who')" })).result;
  const store = async (who: string) => expectSuccess(await tool('browser_evaluate', { function: `() => localStorage.setItem('who', '${who}')` }));

  it('opens a tab at a URL, and named isolated contexts with their own storage, each a session of the connection', async () => {
    const home = fixture.urlFor('/pages/home');
    expectSuccess(await tool('browser_navigate', { url: home }));
    await store('own');
    const opened = expectSuccess(await tool('browser_tabs', { action: 'new', url: fixture.urlFor('/pages/form') }));
    expect(opened).toMatchObject({ current: 1, url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(opened.tabs).toHaveLength(2);
    expect(await readFile(opened.snapshotFile as string, 'utf8')).toContain('textbox "Email"');
    expect(await stored()).toBe('own');

    const isolated = expectSuccess(await tool('browser_tabs', { action: 'new', url: home, isolatedContext: 'alice' }));
    expect(isolated).toMatchObject({ current: 2, url: home, title: 'Home' });
    expect(isolated.tabs[2]).toMatchObject({ index: 2, url: home, current: true, isolatedContext: 'alice' });
    expect(isolated.tabs[0].isolatedContext).toBeUndefined();
    // The calls that name no session act on the new context's tab: its storage is its own.
    expect(await stored()).toBeNull();
    await store('alice');
    // A second tab in the same context shares its storage.
    const second = expectSuccess(await tool('browser_tabs', { action: 'new', url: home, isolatedContext: 'alice' }));
    expect(second.tabs.map((tab: { isolatedContext?: string }) => tab.isolatedContext)).toEqual([undefined, undefined, 'alice', 'alice']);
    expect(await stored()).toBe('alice');
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(2);

    // Selecting a tab of the connection's own session acts there again.
    expect(expectSuccess(await tool('browser_tabs', { action: 'select', index: 0 }))).toMatchObject({ current: 0, url: home });
    expect(await stored()).toBe('own');
    // "default" is the connection's own context.
    const own = expectSuccess(await tool('browser_tabs', { action: 'new', isolatedContext: 'default' }));
    expect(own.tabs.filter((tab: { isolatedContext?: string }) => tab.isolatedContext === undefined)).toHaveLength(3);

    // Closing the last tabs of a context closes its session.
    expectSuccess(await tool('browser_tabs', { action: 'close', index: 4 }));
    const left = expectSuccess(await tool('browser_tabs', { action: 'close', index: 3 }));
    expect(left.tabs.every((tab: { isolatedContext?: string }) => tab.isolatedContext === undefined)).toBe(true);
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(1);
    expect(expectSuccess(await tool('browser_tabs', { action: 'list' })).tabs).toHaveLength(3);
  });

  it('closes the isolated contexts with browser_close', async () => {
    expectSuccess(await tool('browser_tabs', { action: 'new', isolatedContext: 'bob' }));
    expect(expectSuccess(await tool('list_sessions')).sessions.length).toBeGreaterThanOrEqual(2);
    expectSuccess(await tool('browser_close'));
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(0);
  });

  it('refuses isolatedContext where it means nothing, and an index that is no tab', async () => {
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(expectError(await tool('browser_tabs', { action: 'list', isolatedContext: 'x' }), 'INVALID_PARAMETERS').message).toMatch(
      /isolatedContext is for "new"/,
    );
    const { sessionId } = expectSuccess(await tool('create_session'));
    expectError(await tool('browser_tabs', { action: 'new', isolatedContext: 'x', sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('browser_tabs', { action: 'select', index: 99 }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_tabs', { action: 'new', url: 'not a url', isolatedContext: 'y' }), 'INVALID_PARAMETERS');
    // Nothing was made for the refused calls.
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(2);
    expectSuccess(await tool('close_session', { sessionId }));
  });
});
