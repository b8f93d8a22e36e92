// Each command-line flag changes what the server does (docs/configuration.md), and bad values stop it before anything starts.
import { readFileSync } from 'node:fs';
import { browserProcesses, connectStdio, waitFor, type ProcInfo, type StdioConnection } from '@sessionwright/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectError, expectSuccess, run, sleep, startCli } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Servers a test started; closed after it whatever happened. */
const started: StdioConnection[] = [];
const start = async (flags: string[]) => {
  const server = await startCli(flags);
  started.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

/** it.each rows named by their flags joined with spaces. */
const named = (rows: string[][]) => rows.map((flags): [string, string[]] => [flags.join(' '), flags]);

/** The browser's main process: the browser process whose parent is not one (zygotes, renderers, GPU and helpers descend from it). */
async function mainBrowserProcess(pid: number): Promise<ProcInfo> {
  const browser = await browserProcesses(pid);
  const pids = new Set(browser.map((p) => p.pid));
  const main = browser.filter((p) => !pids.has(p.ppid));
  expect(main, 'one main browser process').toHaveLength(1);
  return main[0]!;
}

const switches = (info: ProcInfo) => info.cmdline.split(' ').filter((arg) => arg.startsWith('--'));

describe('--max-sessions', () => {
  it.each(named([['--max-sessions', '2'], ['--maxSessions', '2'], ['--max-sessions=2']]))(
    '%s: the third create_session answers MAX_SESSIONS_REACHED with details.maxSessions 2',
    async (_, flags) => {
      const server = await start(flags);
      const ids = [];
      for (let i = 0; i < 2; i++) ids.push(expectSuccess(await call(server.client, 'create_session')).sessionId);
      const full = expectError(await call(server.client, 'create_session'), 'MAX_SESSIONS_REACHED');
      expect(full.details).toMatchObject({ maxSessions: 2 });
      expect(expectSuccess(await call(server.client, 'list_sessions')).maxSessions).toBe(2);
      // A closed session frees its slot.
      expectSuccess(await call(server.client, 'close_session', { sessionId: ids[0] }));
      expectSuccess(await call(server.client, 'create_session'));
    },
  );

  it('defaults to 10', async () => {
    const server = await start([]);
    expect(expectSuccess(await call(server.client, 'list_sessions')).maxSessions).toBe(10);
  });
});

describe('--session-timeout', () => {
  it('--session-timeout 1000: a session left idle answers SESSION_EXPIRED after about a second', async () => {
    const server = await start(['--session-timeout', '1000']);
    const created = expectSuccess(await call(server.client, 'create_session'));
    expect(created.expiresAt - created.createdAt).toBe(1000);
    // Polling list_sessions does not count as use; polling the session itself would keep it alive. Expired within 10 s:
    await waitFor(async () => expectSuccess(await call(server.client, 'list_sessions')).sessions.length === 0, { timeout: 10_000, interval: 100 });
    // It did not go before its idle time was up.
    expect(Date.now()).toBeGreaterThanOrEqual(created.expiresAt);
    const expired = expectError(
      await call(server.client, 'navigate', { sessionId: created.sessionId, url: 'about:blank' }),
      'SESSION_EXPIRED',
      created.sessionId,
    );
    expect(expired.details).toMatchObject({ reason: 'expired', sessionTimeout: 1000 });
  });

  it('--session-timeout 2000: a session in use outlives its timeout, each call moving expiresAt 2 s past its end', async () => {
    const server = await start(['--session-timeout', '2000']);
    const { sessionId, createdAt } = expectSuccess(await call(server.client, 'create_session'));
    while (Date.now() - createdAt < 3_500) {
      // Idle for a while between calls, as an agent is, but never for the whole timeout.
      await sleep(300);
      const before = Date.now();
      const result = expectSuccess(await call(server.client, 'navigate', { sessionId, url: 'about:blank' }));
      expect(result.expiresAt).toBeGreaterThanOrEqual(before + 2000);
      expect(result.expiresAt).toBeLessThanOrEqual(Date.now() + 2000);
    }
  });

  it.each(named([['--sessionTimeout', '1500'], ['--session-timeout=1500']]))('%s sets the idle timeout', async (_, flags) => {
    const server = await start(flags);
    const created = expectSuccess(await call(server.client, 'create_session'));
    expect(created.expiresAt - created.createdAt).toBe(1500);
  });

  it('defaults to 300 000 ms', async () => {
    const server = await start([]);
    const created = expectSuccess(await call(server.client, 'create_session'));
    expect(created.expiresAt - created.createdAt).toBe(300_000);
  });
});

describe('--headless', () => {
  it('--headless (no value) runs the headless shell with --headless', async () => {
    const server = await start(['--headless']);
    expectSuccess(await call(server.client, 'create_session'));
    const browser = await mainBrowserProcess(server.pid!);
    expect(switches(browser).some((arg) => arg.startsWith('--headless'))).toBe(true);
    expect(browser.cmdline.split(' ')[0]).toMatch(/headless[-_]shell/);
    expect(server.stderrText()).toMatch(/headless shell .*, headless/);
  });

  it('--headless false under xvfb-run gives a headed, full Chromium', async () => {
    const server = await connectStdio({ command: 'xvfb-run', args: ['-a', process.execPath, CLI_PATH, '--headless', 'false'] });
    started.push(server);
    expectSuccess(await call(server.client, 'create_session'));
    const browser = await mainBrowserProcess(server.pid!);
    expect(switches(browser).filter((arg) => arg.startsWith('--headless'))).toEqual([]);
    const executable = browser.cmdline.split(' ')[0]!;
    expect(executable).not.toMatch(/headless[-_]shell/);
    expect(executable).toMatch(/chrom(e|ium)$/);
    expect(browser.comm).not.toBe('headless_shell');
    expect(server.stderrText()).toMatch(/, headed/);
  });

  it('--headless=false without a display fails to launch with BROWSER_ERROR, not a hang', async () => {
    const server = await start(['--headless=false']);
    const failed = expectError(await call(server.client, 'create_session'), 'BROWSER_ERROR');
    expect(failed.message.length).toBeGreaterThan(0);
    expect(await browserProcesses(server.pid!)).toEqual([]);
  });

  it('no --headless and no DISPLAY: headless, said once on stderr', async () => {
    const server = await connectStdio({ command: process.execPath, args: [CLI_PATH] });
    started.push(server);
    expectSuccess(await call(server.client, 'create_session'));
    expect(switches(await mainBrowserProcess(server.pid!)).some((arg) => arg.startsWith('--headless'))).toBe(true);
    expect(server.stderrText().match(/no DISPLAY or WAYLAND_DISPLAY/g)).toHaveLength(1);
  });
});

describe('--browser', () => {
  it.each(['firefox', 'webkit'])('--browser %s selects that browser type: BROWSER_ERROR naming it and its install command', async (name) => {
    const server = await start(['--browser', name]);
    const failed = expectError(await call(server.client, 'create_session'), 'BROWSER_ERROR');
    expect(failed.message).toContain(name);
    expect(failed.message).toContain(`npx playwright install ${name}`);
    expect(failed.details.hint).toBe(`npx playwright install ${name}`);
    expect(failed.details.tried.join(' ')).toContain(name === 'firefox' ? 'firefox' : 'webkit');
    expect(server.stderrText()).toContain(`npx playwright install ${name}`);
    // Nothing was launched: the choice was made and reported before any process started.
    expect(await browserProcesses(server.pid!)).toEqual([]);
  });

  it('--browser chromium (the default) launches Chromium', async () => {
    const server = await start(['--browser', 'chromium']);
    expectSuccess(await call(server.client, 'create_session'));
    expect((await mainBrowserProcess(server.pid!)).cmdline.split(' ')[0]).toMatch(/chrom/);
  });
});

describe('--executable-path', () => {
  it('launches the given binary', async () => {
    const server = await start(['--executable-path', '/usr/lib/chromium/chromium']);
    expectSuccess(await call(server.client, 'create_session'));
    expect((await mainBrowserProcess(server.pid!)).cmdline.split(' ')[0]).toBe('/usr/lib/chromium/chromium');
  });
});

// These start no browser, so they run side by side.
describe.concurrent('bad values', () => {
  it.for(
    named([
      ['--max-sessions', '0'],
      ['--max-sessions', 'abc'],
      ['--max-sessions', '1.5'],
      ['--maxSessions', '0'],
      ['--session-timeout', 'abc'],
      ['--session-timeout', '0'],
      ['--sessionTimeout', 'soon'],
      ['--browser', 'safari'],
      ['--headless', 'maybe'],
      ['--executable-path'],
      ['--no-such-flag'],
      ['--max-sessions', '2', '--max-sessions', '3'],
      ['stray-argument'],
      ['--caps', 'network,bogus'],
      ['--max-tabs', '0'],
      ['--output-dir'],
    ]),
  )('%s exits 2 with one line on stderr and nothing on stdout', async ([, args], { expect }) => {
    const result = await run(process.execPath, [CLI_PATH, ...args], { timeout: 15_000 });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines, result.stderr).toHaveLength(1);
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(lines[0]).toMatch(/^sessionwright: .*\S/);
  });
});

describe('--help and --version', () => {
  it('--help prints every flag on stdout and exits 0', async () => {
    const result = await run(process.execPath, [CLI_PATH, '--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const flag of ['--browser', '--headless', '--session-timeout', '--max-sessions', '--executable-path', '--help', '--version']) {
      expect(result.stdout).toContain(flag);
    }
  });

  it.each([['--version'], ['-v']])('%s prints the package name and version and exits 0', async (flag) => {
    const result = await run(process.execPath, [CLI_PATH, flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`@sessionwright/playwright-mcp ${VERSION}\n`);
  });

  it('--version --verbose also names the browser executable it would use', async () => {
    const result = await run(process.execPath, [CLI_PATH, '--version', '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^browser: .*chromium/m);
    expect(result.stdout).toMatch(/^playwright \d+\.\d+\.\d+/m);
  });

  it('--version --verbose reports the choice the other flags make (--browser, --executable-path, --headless)', async () => {
    const firefox = await run(process.execPath, [CLI_PATH, '--version', '--verbose', '--browser', 'firefox', '--headless', 'false']);
    expect(firefox.code).toBe(0);
    expect(firefox.stdout).toMatch(/^browser: none found\..*npx playwright install firefox/m);
    expect(firefox.stdout).toMatch(/^headless: false$/m);
    const missing = await run(process.execPath, [CLI_PATH, '--version', '--verbose', '--executable-path', '/nonexistent/chrome']);
    expect(missing.stdout).toMatch(/^browser: none found\..*\/nonexistent\/chrome/m);
  });
});
