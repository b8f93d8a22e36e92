// --secrets and --redact-url-params, in both profiles: secret values and the named URL parameters never shown in a result, a snapshot, a console message, a written file or a log; a secret typed by its name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, parseArgs } from '../src/index.js';
import { createRedactor, readSecretsFile } from '../src/redaction.js';
import { CLI_PATH, call, connectInProcess, expectSuccess, run, type InProcessConnection } from './helpers.js';

const SECRET = 's3cr3t-Value-42';
const CODE = 'abc123code';
const TOKEN = 'tok999token';
const PAGE = `<title>Sign in</title><p>Your key is ${SECRET}</p><a href="/pages/next?code=${CODE}&amp;x=1">next</a><input id="pw" aria-label="Password"><script>console.log('key=${SECRET}')</script>`;

let dir: string;
let secretsFile: string;
let fixture: FixtureServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-secrets-'));
  secretsFile = path.join(dir, 'secrets.env');
  writeFileSync(secretsFile, `# the sign-in\nexport API_KEY="${SECRET}"\nEMPTY=\n`);
  fixture = await startFixtureServer({ pages: { signin: PAGE, next: '<title>Next</title>' } });
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reading secrets and hiding them', () => {
  it('reads a dotenv file and refuses a line that is not NAME=value without quoting it', () => {
    expect(readSecretsFile(secretsFile)).toEqual({ API_KEY: SECRET, EMPTY: '' });
    const bad = path.join(dir, 'bad.env');
    writeFileSync(bad, `A=1\nnot a pair ${SECRET}\n`);
    expect(() => readSecretsFile(bad)).toThrow(/line 2 of the secrets file is not NAME=value/);
    expect(() => readSecretsFile(bad)).not.toThrow(new RegExp(SECRET));
  });

  it('shows each value as its name, longest first, and masks the named parameters in any URL', () => {
    const redactor = createRedactor({ SHORT: 'abc', LONG: 'abcdef', EMPTY: '' }, ['code', 'access_token']);
    expect(redactor?.text('x abcdef y abc')).toBe('x <secret>LONG</secret> y <secret>SHORT</secret>');
    expect(redactor?.text('https://a.test/cb?code=1&state=2#access_token=3 and /next?x=1&code=9')).toBe(
      'https://a.test/cb?code=<redacted>&state=2#access_token=<redacted> and /next?x=1&code=<redacted>',
    );
    expect(redactor?.value({ list: ['abc', 1, null], nested: { url: '?code=5' } })).toEqual({
      list: ['<secret>SHORT</secret>', 1, null],
      nested: { url: '?code=<redacted>' },
    });
    expect(createRedactor({ EMPTY: '' }, [])).toBeUndefined();
  });

  it('refuses to start with a secrets file it cannot use, saying which line', () => {
    const bad = path.join(dir, 'bad-start.env');
    writeFileSync(bad, `A=1\n${SECRET}\n`);
    const command = parseArgs(['--secrets', bad], {});
    if (command.kind !== 'run') throw new Error('not a run');
    expect(() => createServer(command.options)).toThrow(/line 2 of the secrets file/);
    const missing = parseArgs(['--secrets', path.join(dir, 'missing.env')], {});
    if (missing.kind !== 'run') throw new Error('not a run');
    expect(() => createServer(missing.options)).toThrow(/cannot read the secrets file/);
  });

  it('exits 2 with one line for such a file, in either spelling, never quoting it', async () => {
    const bad = path.join(dir, 'bad-cli.env');
    writeFileSync(bad, `${SECRET}\n`);
    for (const args of [
      ['--secrets', bad],
      ['--profile', 'playwright', '--secrets', bad],
    ]) {
      const result = await run(process.execPath, [CLI_PATH, '--headless', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/line 1 of the secrets file/);
      expect(result.stderr).not.toContain(SECRET);
    }
  });

  it('never prints the values in --print-config', () => {
    const command = parseArgs(['--secrets', secretsFile, '--print-config'], {});
    expect(command.kind).toBe('print-config');
    if (command.kind === 'print-config') expect(command.text).not.toContain(SECRET);
  });
});

describe.each([
  ['the sessions profile', [] as string[]],
  ['the playwright profile', ['--profile', 'playwright']],
])('--secrets and --redact-url-params in %s', (_name, profile) => {
  let server: InProcessConnection;
  beforeAll(async () => {
    server = await connectInProcess([...profile, '--headless', '--secrets', secretsFile, '--redact-url-params', 'code,access_token', '--output-dir', dir]);
  });
  afterAll(async () => {
    await server?.close();
  });
  const playwright = profile.length > 0;
  const name = (ours: string, theirs: string) => (playwright ? theirs : ours);

  it('hides them in results, snapshots, console messages, written files and logs, and types a secret by its name', async () => {
    const sessionId = playwright ? undefined : (expectSuccess(await call(server.client, 'create_session')).sessionId as string);
    const withSession = (args: Record<string, unknown>) => (sessionId === undefined ? args : { sessionId, ...args });
    const url = fixture.urlFor(`/pages/signin?code=${CODE}#access_token=${TOKEN}`);
    const shown: string[] = [];
    const tool = async (ours: string, theirs: string, args: Record<string, unknown>) => {
      const outcome = await call(server.client, name(ours, theirs), withSession(args));
      shown.push(JSON.stringify(outcome.result));
      return outcome;
    };
    await tool('navigate', 'browser_navigate', { url });
    const snapshot = expectSuccess(await tool('snapshot', 'browser_snapshot', {}));
    const snapshotText = JSON.stringify(snapshot);
    expect(snapshotText).toContain('<secret>API_KEY</secret>');
    expect(snapshotText).toContain('code=<redacted>');
    await tool('console_messages', 'browser_console_messages', {});
    expect(shown.at(-1)).toContain('key=<secret>API_KEY</secret>');
    // The agent types the secret by its name; the page gets the value, and the answer names the secret.
    const target = playwright ? { ref: /textbox "Password" \[ref=([^\]]+)\]/.exec(snapshot.snapshot)?.[1], element: 'Password' } : { selector: '#pw' };
    await tool('type', 'browser_type', { ...target, text: 'API_KEY' });
    const check = expectSuccess(
      await tool('evaluate', 'browser_evaluate', { function: `() => document.querySelector('#pw').value === ${JSON.stringify(SECRET)}` }),
    );
    expect(JSON.stringify(check)).toContain('true');
    if (playwright) {
      // A snapshot saved to a file is hidden as the answer is.
      const saved = expectSuccess(await tool('snapshot', 'browser_snapshot', { filename: 'page.md' }));
      const written = readFileSync(String(saved.file ?? path.join(dir, 'page.md')), 'utf8');
      expect(written).toContain('<secret>API_KEY</secret>');
      expect(written).not.toContain(SECRET);
    }
    server.server.logger.warn(`a line that names ${SECRET} and ${url}`);
    for (const text of [...shown, server.stderrText()]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(CODE);
      expect(text).not.toContain(TOKEN);
    }
    if (sessionId) await call(server.client, 'close_session', { sessionId });
  });
});
