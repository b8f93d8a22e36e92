// run_code_unsafe and browser_run_code_unsafe in process (runTool over a real SessionManager, Chromium and the fixture server): the code runs with the session's own page, loads only from the allowed directories, and is refused clearly when it is bad.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const RETITLE = "async (page) => { await page.evaluate(() => { document.title = 'Set by code'; }); return { title: await page.title(), url: page.url() }; }";

// As a server started with --file-root <codeRoot>: code files are read there, and nowhere else (outside.js lies beside it).
const dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-run-code-'));
const codeRoot = path.join(dir, 'code');
mkdirSync(codeRoot);
writeFileSync(path.join(codeRoot, 'heading.js'), "async (page) => page.locator('h1').textContent()");
writeFileSync(path.join(dir, 'outside.js'), 'async (page) => 1');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('browser_run_code_unsafe (playwright profile)', () => {
  const harness = useTools({ profile: playwrightProfile(), toolOptions: { fileRoots: [codeRoot] }, roots: { directories: [codeRoot], source: 'file-root' } });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  const home = () => harness.fixture().urlFor('/pages/home');

  it("is in the profile's core list and runs the code with the connection's own page", async () => {
    const names = playwrightProfile().tools.map((listed) => listed.name);
    expect(names).toContain('browser_run_code_unsafe');
    expect(names).not.toContain('run_code_unsafe');
    expectSuccess(await tool('browser_navigate', { url: home() }));
    const ran = expectSuccess(await tool('browser_run_code_unsafe', { code: RETITLE }));
    expect(ran).toMatchObject({ result: { title: 'Set by code', url: home() }, type: 'object', title: 'Set by code' });
    // The page itself was changed, not a copy.
    expect(expectSuccess(await tool('browser_evaluate', { function: '() => document.title' })).result).toBe('Set by code');
  });

  it('loads the code from a file inside the allowed directories, and from nowhere else', async () => {
    expectSuccess(await tool('browser_navigate', { url: home() }));
    expect(expectSuccess(await tool('browser_run_code_unsafe', { filename: path.join(codeRoot, 'heading.js') })).result).toBe('Fixture home');
    expectError(await tool('browser_run_code_unsafe', { filename: path.join(dir, 'outside.js') }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_run_code_unsafe', { filename: '../outside.js' }), 'INVALID_PARAMETERS');
  });

  it('refuses bad code clearly, bounds a long result, and leaves the page usable', async () => {
    expectSuccess(await tool('browser_navigate', { url: home() }));
    expect(expectError(await tool('browser_run_code_unsafe', {}), 'INVALID_PARAMETERS').message).toMatch(/code/);
    expect(expectError(await tool('browser_run_code_unsafe', { code: 'async (page) => {' }), 'INVALID_PARAMETERS').message).toMatch(/does not parse/);
    expect(expectError(await tool('browser_run_code_unsafe', { code: '42' }), 'INVALID_PARAMETERS').message).toMatch(/must be a function/);
    const threw = expectError(await tool('browser_run_code_unsafe', { code: "async () => { throw new Error('boom'); }" }), 'BROWSER_ERROR');
    expect(threw.details).toMatchObject({ reason: 'script_error', codeMessage: 'boom' });
    expect(expectError(await tool('browser_run_code_unsafe', { code: 'async () => process.pid' }), 'BROWSER_ERROR').message).toMatch(/process is not defined/);
    const long = expectSuccess(await tool('browser_run_code_unsafe', { code: "async () => 'x'.repeat(50000)" }));
    expect(long.truncated).toBe(true);
    expect(long.result.length).toBeLessThanOrEqual(20_000);
    expect(expectSuccess(await tool('browser_run_code_unsafe', { code: 'async (page) => page.url()' })).result).toBe(home());
  });
});

describe('run_code_unsafe (default profile)', () => {
  const harness = useTools();
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);

  it('runs the code with the named session’s page', async () => {
    const sessionId = await harness.sessionOn('form');
    const code = "async (page) => { await page.fill('#name', 'Ada'); return page.inputValue('#name'); }";
    expect(expectSuccess(await tool('run_code_unsafe', { sessionId, code })).result).toBe('Ada');
    expect(expectSuccess(await tool('evaluate', { sessionId, function: "() => document.querySelector('#name').value" })).result).toBe('Ada');
    expectError(await tool('run_code_unsafe', { code }), 'INVALID_PARAMETERS');
  });
});
