// --secrets and --redact-url-params, in both profiles: secret values and the named URL parameters never shown in a result, a snapshot, a console message, a network body, a written file or a log, in any form a page gives them; a secret typed by its name; no trace or video while secrets are set.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, parseArgs } from '../src/index.js';
import { createRedactor, readSecretsFile } from '../src/protocol/redaction.js';
import { CLI_PATH, call, connectInProcess, expectError, expectSuccess, run, sleep, type InProcessConnection } from './helpers.js';

const SECRET = 's3cr3t-Value-42';
/** A secret with the characters JSON, URLs and HTML each write differently. */
const PASS = 'p@ss w"o\\rd&+/9';
const CODE = 'abc123code';
const TOKEN = 'tok999token';
const PAGE = `<title>Sign in</title><p>Your key is ${SECRET}</p><a href="/pages/next?code=${CODE}&amp;x=1">next</a><input id="pw" aria-label="Password"><script>console.log('key=${SECRET}')</script>`;

/**
 * A sign-in form that posts the password (urlencoded, and as JSON by fetch), a field that keeps only 6 characters, and
 * a button that logs the password base64-, base64url- and lowercase-URL-encoded, as pages do.
 */
const LOGIN = [
  '<title>Log in</title>',
  '<form method="POST" action="/submit"><input id="pw" name="password" aria-label="Password"></form>',
  '<input id="short" maxlength="6" aria-label="Short">',
  '<button id="leak" onclick="leak()">Leak</button>',
  '<script>',
  'function leak() {',
  "  const v = document.querySelector('#pw').value;",
  "  console.log('basic ' + btoa('user:' + v));",
  "  console.log('url ' + btoa('xy' + v).replace(/[+]/g, '-').replace(/[/]/g, '_'));",
  "  console.log('lower ' + encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));",
  "  console.log('json ' + JSON.stringify({ pw: v }));",
  "  fetch('/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pw: v }) });",
  '}',
  '</script>',
].join('\n');

/** Each form of PASS a page or a tool may show, none of which may reach the client. */
const PASS_FORMS = [
  PASS,
  JSON.stringify(PASS).slice(1, -1),
  encodeURIComponent(PASS),
  encodeURIComponent(PASS).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  new URLSearchParams({ p: PASS }).toString().slice(2),
  Buffer.from(`user:${PASS}`).toString('base64'),
  Buffer.from(`xy${PASS}`).toString('base64url'),
  'p&#64;ss w&quot;o\\rd&amp;+/9'.replace('&#64;', '@'),
];

let dir: string;
let secretsFile: string;
let fixture: FixtureServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-secrets-'));
  secretsFile = path.join(dir, 'secrets.env');
  writeFileSync(secretsFile, `# the sign-in\nexport API_KEY="${SECRET}"\nEMPTY=\nPASS='${PASS}'\n`);
  fixture = await startFixtureServer({ pages: { signin: PAGE, next: '<title>Next</title>', login: LOGIN } });
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reading secrets and hiding them', () => {
  it('reads a dotenv file and refuses a line that is not NAME=value without quoting it', () => {
    expect(readSecretsFile(secretsFile)).toEqual({ API_KEY: SECRET, EMPTY: '', PASS });
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

  it('hides a secret JSON-escaped, URL-encoded in either case, as an HTML entity and in base64 at any offset', () => {
    const redactor = createRedactor({ PASS });
    const mark = '<secret>PASS</secret>';
    for (const form of PASS_FORMS) {
      const shown = redactor?.text(`before ${form} after`);
      // A base64 text keeps what encodes its other bytes (user:), and its padding.
      if (/^[\w+/=-]+$/.test(form)) expect(shown).toMatch(new RegExp(`^before [\\w+/=-]*${mark}[\\w+/=-]* after$`));
      else expect(shown).toBe(`before ${mark} after`);
    }
    // Within longer base64 text, at each of the three byte offsets, in both alphabets.
    for (const prefix of ['', 'a', 'ab', 'abc:']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${PASS} and more`).toString(encoding);
        const shown = redactor?.text(encoded) ?? '';
        expect(shown).toContain(mark);
        for (const offset of [0, 1, 2]) {
          const core = Buffer.from(`${'x'.repeat(offset)}${PASS}`)
            .toString(encoding)
            .slice(4, -4);
          expect(shown).not.toContain(core);
        }
      }
    }
    expect(redactor?.text('nothing here, dGVzdA==')).toBe('nothing here, dGVzdA==');
  });

  it('hides from then on a part of a secret a field kept, when it is long enough to be told apart', () => {
    const redactor = createRedactor({ PASS });
    redactor?.hide('PASS', 'p@ss w');
    redactor?.hide('PASS', 'p@s');
    redactor?.hide('OTHER', 'some text');
    expect(redactor?.text('field: p@ss w; p@s; some text')).toBe('field: <secret>PASS</secret>; p@s; some text');
    expect(redactor?.text(PASS)).toBe('<secret>PASS</secret>');
  });

  it('refuses secrets shorter than 8 characters at start, saying why and never quoting them', async () => {
    const short = path.join(dir, 'short.env');
    writeFileSync(short, 'PIN=4321\nLONG_ENOUGH=12345678\nUNSET=\n');
    const command = parseArgs(['--secrets', short], {});
    if (command.kind !== 'run') throw new Error('not a run');
    expect(() => createServer(command.options)).toThrow(/PIN is shorter than 8 characters; a value that short could be guessed/);
    const result = await run(process.execPath, [CLI_PATH, '--headless', '--secrets', short]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/PIN is shorter than 8 characters/);
    expect(result.stderr).not.toContain('4321');
    expect(result.stderr).not.toContain('LONG_ENOUGH');
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

describe('--secrets against what pages do with a secret, and recordings', () => {
  let server: InProcessConnection;
  let outputDir: string;
  beforeAll(async () => {
    outputDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-secrets-out-'));
    server = await connectInProcess(['--headless', '--caps', 'network,devtools', '--secrets', secretsFile, '--output-dir', outputDir]);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(outputDir, { recursive: true, force: true });
  });

  it('hides a secret in every form a page turns it into: cut by maxlength, posted, echoed, logged encoded', async () => {
    const shown: string[] = [];
    const tool = async (name: string, args: Record<string, unknown> = {}) => {
      const outcome = await call(server.client, name, args);
      shown.push(JSON.stringify(outcome.result));
      return expectSuccess(outcome);
    };
    const { sessionId } = await tool('create_session');
    await tool('navigate', { sessionId, url: fixture.urlFor('/pages/login') });
    // The field keeps 6 characters of the secret: neither the answer nor a later snapshot shows them.
    const cut = await tool('type', { sessionId, selector: '#short', text: 'PASS', includeSnapshot: true });
    expect(cut.value).toBe('<secret>PASS</secret>');
    expect(JSON.stringify(await tool('snapshot', { sessionId }))).toContain('<secret>PASS</secret>');
    const form = await tool('fill_form', { sessionId, fields: [{ selector: '#short', value: 'PASS' }] });
    expect(form.fields[0].value).toBe('<secret>PASS</secret>');
    await tool('type', { sessionId, selector: '#pw', text: 'PASS' });
    await tool('click', { sessionId, selector: '#leak' });
    // The urlencoded form post, whose answer echoes the password in the page.
    await tool('type', { sessionId, selector: '#pw', text: 'PASS', clear: true, submit: true });
    expect(JSON.stringify(await tool('snapshot', { sessionId }))).toContain('<secret>PASS</secret>');
    let posts: { id: string; method: string; resourceType: string }[] = [];
    for (let attempt = 0; attempt < 50 && posts.length < 2; attempt += 1) {
      if (attempt > 0) await sleep(100);
      const listed = expectSuccess(await call(server.client, 'network_requests', { sessionId, filter: '/submit' }));
      posts = listed.requests.filter((request: { method: string }) => request.method === 'POST');
    }
    expect(posts.map((post) => post.resourceType).sort()).toEqual(['document', 'fetch']);
    for (const post of posts) {
      const request = await tool('network_request', { sessionId, id: post.id });
      expect(request.requestBody).toContain('<secret>PASS</secret>');
      // The page that echoes the form's post (the fetch's answer went with the page it was made from).
      if (post.resourceType === 'document') expect(request.responseBody).toContain('<secret>PASS</secret>');
    }
    const logged = JSON.stringify(await tool('console_messages', { sessionId }));
    for (const kind of ['basic', 'url', 'lower', 'json']) expect(logged).toMatch(new RegExp(`${kind} [^"\\\\]*[^<]*<secret>PASS</secret>`));
    await tool('close_session', { sessionId });
    for (const text of [...shown, server.stderrText()]) {
      for (const form of [...PASS_FORMS, 'p@ss w', 'p%40ss']) expect(text).not.toContain(form);
    }
  });

  it('records no trace or video, saying why, writes nothing and leaves the session usable', async () => {
    const { sessionId } = expectSuccess(await call(server.client, 'create_session'));
    const openSessions = async () => expectSuccess(await call(server.client, 'list_sessions')).sessions.length;
    const before = await openSessions();
    const refusals = [
      await call(server.client, 'start_trace', { sessionId }),
      await call(server.client, 'video', { sessionId, action: 'start' }),
      await call(server.client, 'create_session', { recordVideo: true }),
    ];
    for (const refusal of refusals) {
      const error = expectError(refusal, 'INVALID_PARAMETERS');
      expect(error.details.reason).toBe('secrets_set');
      expect(error.message).toMatch(/runs with --secrets/);
    }
    expectError(await call(server.client, 'stop_trace', { sessionId }), 'INVALID_PARAMETERS');
    expectSuccess(await call(server.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/next') }));
    // The refused create_session left no session open.
    expect(await openSessions()).toBe(before);
    expectSuccess(await call(server.client, 'close_session', { sessionId }));
    const written = readdirSync(outputDir, { recursive: true }).map(String);
    expect(written.filter((name) => /\.(zip|webm)$/.test(name))).toEqual([]);
  });

  it('refuses the playwright profile’s tracing and video too', async () => {
    const playwright = await connectInProcess(['--headless', '--profile', 'playwright', '--caps', 'devtools', '--secrets', secretsFile]);
    try {
      for (const name of ['browser_start_tracing', 'browser_start_video']) {
        const error = expectError(await call(playwright.client, name), 'INVALID_PARAMETERS');
        expect(error.details.reason).toBe('secrets_set');
      }
    } finally {
      await playwright.close();
    }
  });
});
