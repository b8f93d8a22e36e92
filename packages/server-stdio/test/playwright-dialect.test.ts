// --profile playwright reads @playwright/mcp's command line, PLAYWRIGHT_MCP_* variables and config file: every one of its flags, variables and config keys, taken live from the installed @playwright/mcp 0.0.83 and Playwright 1.65, is accepted and translated.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs, type CliCommand, type ServerOptions } from '../src/settings/options.js';
import { PLAYWRIGHT_FLAGS } from '../src/settings/playwright/flags.js';
import { CLI_PATH, REPO_ROOT, run } from './helpers.js';

const require = createRequire(import.meta.url);
/** @playwright/mcp 0.0.83 (a devDependency) and the `playwright` package this server runs on (1.65). */
const MCP_DIR = path.dirname(require.resolve('@playwright/mcp/package.json'));
const PLAYWRIGHT_DIR = path.dirname(require.resolve('playwright/package.json'));
/** The bundles that hold each one's MCP program (flags, variables, config keys). */
const BUNDLES = {
  '@playwright/mcp 0.0.83': path.join(
    path.dirname(createRequire(path.join(MCP_DIR, 'package.json')).resolve('playwright-core/package.json')),
    'lib/coreBundle.js',
  ),
  'playwright mcp 1.65': path.join(
    path.dirname(createRequire(path.join(PLAYWRIGHT_DIR, 'package.json')).resolve('playwright-core/package.json')),
    'lib/coreBundle.js',
  ),
};

const scratch = mkdtempSync(path.join(tmpdir(), 'sw-dialect-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const STORAGE_STATE = path.join(scratch, 'state.json');
writeFileSync(STORAGE_STATE, JSON.stringify({ cookies: [{ name: 'sid', value: 'st8-cookie', domain: '127.0.0.1', path: '/' }], origins: [] }));
const INIT_SCRIPT = path.join(scratch, 'init.js');
writeFileSync(INIT_SCRIPT, 'window.__init = 1;');
const EMPTY_CONFIG = path.join(scratch, 'empty.json');
writeFileSync(EMPTY_CONFIG, '{}');
writeFileSync(path.join(scratch, 'secrets.env'), 'API_KEY=sample-secret\n');

/** Every option a commander --help lists: `--name`, `--name <value>`, `--name <values...>`. */
function optionsOf(help: string): Array<{ name: string; takes: 'nothing' | 'value' | 'values' }> {
  return [...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z-]*)( <[^>]+>)?/gm)]
    .map(([, name = '', value]) => ({
      name,
      takes: value === undefined ? ('nothing' as const) : value.endsWith('...>') ? ('values' as const) : ('value' as const),
    }))
    .filter(({ name }) => name !== 'help' && name !== 'version');
}

/** A value @playwright/mcp would accept for each flag that takes one. */
const SAMPLES: Record<string, string[]> = {
  'allowed-hosts': ['localhost', 'example.com'],
  'allowed-origins': ['https://a.example;http://localhost:*'],
  'blocked-origins': ['https://ads.example'],
  browser: ['chromium'],
  caps: ['vision,pdf'],
  'cdp-endpoint': ['http://127.0.0.1:9222'],
  'cdp-header': ['Authorization: Bearer t0k3n'],
  'cdp-timeout': ['5000'],
  codegen: ['none'],
  config: [EMPTY_CONFIG],
  'console-level': ['error'],
  device: ['iPhone 15'],
  'executable-path': ['/usr/bin/chromium'],
  endpoint: ['ws://127.0.0.1:3000/'],
  'file-paths': ['absolute'],
  'grant-permissions': ['geolocation', 'clipboard-read'],
  host: ['127.0.0.1'],
  'idle-timeout': ['60000'],
  'init-page': [INIT_SCRIPT],
  'init-script': [INIT_SCRIPT],
  'image-responses': ['omit'],
  'output-dir': [scratch],
  'output-max-size': ['1000000'],
  port: ['0'],
  'profile-dir-name': ['Default'],
  'proxy-bypass': ['.example.com'],
  'proxy-server': ['http://127.0.0.1:3128'],
  'redact-url-params': ['access_token,code'],
  'remote-header': ['X-Key: abc'],
  secrets: [path.join(scratch, 'secrets.env')],
  'snapshot-mode': ['full'],
  'storage-state': [STORAGE_STATE],
  'test-id-attribute': ['data-qa'],
  'timeout-action': ['3000'],
  'timeout-navigation': ['20000'],
  'timeout-settle': ['300'],
  'user-agent': ['agent/1'],
  'user-data-dir': [scratch],
  'viewport-size': ['800x600'],
};

/** The environment of this process without any SESSIONWRIGHT_* or PLAYWRIGHT_MCP_* variable, plus the given ones. */
function cleanEnv(vars: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SESSIONWRIGHT|PLAYWRIGHT_MCP)_/.test(name))), ...vars };
}

function running(command: CliCommand): { options: ServerOptions; warnings: readonly string[] } {
  if (command.kind !== 'run') throw new Error(`expected a run, got ${command.kind}`);
  return command;
}

const playwright = (argv: string[], vars: Record<string, string> = {}) => running(parseArgs(['--profile', 'playwright', ...argv], cleanEnv(vars)));

describe("every flag of @playwright/mcp's own --help, live", () => {
  const sources = [
    { label: '@playwright/mcp 0.0.83', args: [path.join(MCP_DIR, 'cli.js'), '--help'] },
    { label: 'playwright mcp 1.65', args: [path.join(PLAYWRIGHT_DIR, 'cli.js'), 'mcp', '--help'] },
  ];
  it.each(sources)('$label: each option is accepted by --profile playwright, taking its values as there, and listed in its --help', async ({ args }) => {
    const theirs = await run(process.execPath, args, { timeout: 30_000 });
    expect(theirs.code, theirs.stderr).toBe(0);
    const options = optionsOf(theirs.stdout);
    // The help parsed: 0.0.83 lists 50 options, 1.65 has 54.
    expect(options.length).toBeGreaterThanOrEqual(45);
    const ours = await run(process.execPath, [CLI_PATH, '--profile', 'playwright', '--help'], { env: cleanEnv() as NodeJS.ProcessEnv });
    expect(ours.code, ours.stderr).toBe(0);
    for (const { name, takes } of options) {
      expect(ours.stdout, `--${name} in our --help`).toContain(`--${name}`);
      const samples = takes === 'nothing' ? [] : (SAMPLES[name] ?? ['x']);
      const given = takes === 'value' ? samples.slice(0, 1) : samples;
      let command: { options: ServerOptions; warnings: readonly string[] };
      try {
        command = playwright([`--${name}`, ...given]);
      } catch (error) {
        throw new Error(`--${name} ${given.join(' ')}: ${(error as Error).message}`);
      }
      // At most one line about it, and only when it has no effect here.
      expect(command.warnings.filter((line) => line.includes(`--${name}`)).length, `--${name}`).toBeLessThanOrEqual(1);
      // Ours takes the same number of values: a following flag is still read as a flag.
      expect(playwright([`--${name}`, ...given, '--viewport-size', '640x480']).options.setup.sessionDefaults?.viewport, `--${name}`).toEqual({
        width: 640,
        height: 480,
      });
    }
  });

  it('the hidden and older flags too: --vision, --remote-header, --save-trace, --save-video', () => {
    const { options } = playwright(['--vision', '--remote-header', 'X-Key: abc', '--save-trace', '--save-video', '800x600']);
    expect(options.caps).toEqual(['vision']);
    expect(options.setup.endpoints.connectHeaders).toEqual({ 'X-Key': 'abc' });
    expect(options.setup.recording).toEqual({ trace: true, video: { width: 800, height: 600 }, session: false });
  });
});

describe('the real command lines of @playwright/mcp users', () => {
  it("a benchmark harness's line: every flag honoured, nothing said on stderr", () => {
    const { options, warnings } = playwright(['--headless', '--isolated', '--no-sandbox', '--browser', 'chromium', '--viewport-size', '1280,720']);
    expect(options).toMatchObject({ headless: true, browser: 'chromium', profile: 'playwright' });
    expect(options.setup.sessionDefaults).toEqual({ viewport: { width: 1280, height: 720 } });
    expect(options.setup.launch).toEqual({ chromiumSandbox: false });
    expect(warnings).toEqual([]);
  });

  it('a Claude Desktop line with = values and a list that takes several arguments', () => {
    const { options } = playwright([
      `--storage-state=${STORAGE_STATE}`,
      '--user-agent=desk/1',
      '--viewport-size=1024x768',
      '--grant-permissions',
      'geolocation',
      'clipboard-read',
      '--init-script',
      INIT_SCRIPT,
      '--ignore-https-errors',
      '--block-service-workers',
      '--proxy-server',
      'http://user:pa55@127.0.0.1:3128',
      '--proxy-bypass',
      '.internal',
    ]);
    expect(options.setup.sessionDefaults).toEqual({
      storageState: { cookies: [{ name: 'sid', value: 'st8-cookie', domain: '127.0.0.1', path: '/' }], origins: [] },
      userAgent: 'desk/1',
      viewport: { width: 1024, height: 768 },
      permissions: ['geolocation', 'clipboard-read'],
      initScripts: ['window.__init = 1;'],
      ignoreHTTPSErrors: true,
      serviceWorkers: 'block',
      proxy: { server: 'http://127.0.0.1:3128', username: 'user', password: 'pa55', bypass: '.internal' },
    });
  });

  it('--caps in its names is kept (tracing is devtools, core is always on) without a word; an unknown name is said once', () => {
    const { options, warnings } = playwright(['--caps', 'vision,pdf,devtools,network,storage,testing,config,tracing,core']);
    expect(options.caps).toEqual(['vision', 'pdf', 'devtools', 'network', 'storage', 'testing', 'config']);
    expect(warnings).toEqual([]);
    expect(playwright(['--caps', 'made-up']).warnings).toEqual(['caps: "made-up" is not a capability of @playwright/mcp; ignored']);
  });

  it('a flag without meaning here is named once, however often and wherever it is given', () => {
    const { warnings } = playwright(['--extension', '--extension', '--user-data-dir', scratch], { PLAYWRIGHT_MCP_EXTENSION: 'true' });
    expect(warnings.filter((line) => line.includes('extension'))).toHaveLength(1);
    expect(warnings.filter((line) => line.includes('user-data-dir'))).toHaveLength(1);
    expect(warnings).toHaveLength(2);
  });

  it('maps the rest: endpoints, headers, timeouts, the idle timeout, file access, console level, images, the sandbox', () => {
    const { options } = playwright([
      '--cdp-endpoint',
      'http://127.0.0.1:9222',
      '--cdp-header',
      'Authorization: Bearer a',
      'X-Other: b',
      '--cdp-timeout',
      '0',
      '--endpoint',
      'ws://127.0.0.1:3000/',
      '--timeout-action',
      '1500',
      '--timeout-navigation',
      '9000',
      '--idle-timeout',
      '0',
      '--allow-unrestricted-file-access',
      '--console-level',
      'warning',
      '--image-responses',
      'omit',
      '--sandbox',
    ]);
    expect(options).toMatchObject({
      cdpEndpoint: ['http://127.0.0.1:9222'],
      browserEndpoint: ['ws://127.0.0.1:3000/'],
      sessionTimeout: 2_147_483_647,
      allowFileUrls: true,
      fileRoot: ['/'],
    });
    expect(options.setup).toMatchObject({
      endpoints: { cdpHeaders: { Authorization: 'Bearer a', 'X-Other': 'b' }, cdpTimeout: 0 },
      timeouts: { element: 1500, navigation: 9000 },
      consoleLevel: 'warning',
      imageResponses: 'omit',
      launch: { chromiumSandbox: true },
    });
    expect(playwright(['--idle-timeout', '60000']).options.sessionTimeout).toBe(60_000);
    // --snapshot-mode: full by default; none honoured; any other word read as full, as @playwright/mcp reads it, and said once.
    expect(playwright([]).options.setup.snapshotMode).toBe('full');
    expect(playwright(['--snapshot-mode', 'full'])).toMatchObject({ options: { setup: { snapshotMode: 'full' } }, warnings: [] });
    expect(playwright(['--snapshot-mode', 'none'])).toMatchObject({ options: { setup: { snapshotMode: 'none' } }, warnings: [] });
    const other = playwright(['--snapshot-mode', 'incremental']);
    expect(other.options.setup.snapshotMode).toBe('full');
    expect(other.warnings).toEqual([expect.stringMatching(/^--snapshot-mode: .*"incremental" is read as "full"/)]);
    // Playwright's 0, no limit, is the call's own ceiling.
    expect(playwright(['--timeout-action', '0', '--timeout-navigation', '0', '--call-timeout', '90000']).options.setup.timeouts).toEqual({
      element: 90_000,
      navigation: 90_000,
    });
    expect(playwright(['--ignore-roots']).options.fileRoot).toEqual([process.cwd()]);
  });

  it('--browser chrome and msedge run Chromium (in that browser where installed); firefox and webkit are themselves', () => {
    expect(playwright(['--browser', 'msedge']).options.browser).toBe('chromium');
    expect(playwright(['--browser', 'chrome-beta']).options.browser).toBe('chromium');
    expect(playwright(['--browser', 'firefox']).options.browser).toBe('firefox');
    expect(playwright(['--browser', 'moz-firefox']).options.browser).toBe('firefox');
    expect(() => playwright(['--browser', 'safari'])).toThrow(/--browser safari: must be chrome, chromium, firefox, webkit or msedge/);
  });

  it('--mobile is a phone for the browser in use, and refuses --device beside it, as @playwright/mcp does', () => {
    expect(playwright(['--mobile']).options.setup.sessionDefaults).toEqual({ device: 'Pixel 10' });
    expect(playwright(['--mobile', '--browser', 'webkit']).options.setup.sessionDefaults).toEqual({ device: 'iPhone 17' });
    expect(() => playwright(['--mobile', '--device', 'iPhone 15'])).toThrow(/cannot be used together with --device/);
    expect(() => playwright(['--mobile', '--browser', 'firefox'])).toThrow(/Firefox cannot emulate a phone/);
  });

  it('refuses a bad value naming the flag as typed, and never quotes a secret or a file it read', () => {
    expect(() => playwright(['--viewport-size', 'big'])).toThrow(/^--viewport-size big: must be a size in pixels/);
    expect(() => playwright(['--device', 'iPhone 99'])).toThrow(/--device iPhone 99: Unknown device "iPhone 99"/);
    expect(() => playwright(['--grant-permissions', 'telepathy'])).toThrow(/--grant-permissions telepathy: Unknown permission "telepathy"/);
    expect(() => playwright(['--timeout-action', 'soon'])).toThrow(/--timeout-action soon: must be a number/);
    expect(() => playwright(['--console-level', 'loud'])).toThrow(/must be one of error, warning, info, debug/);
    expect(() => playwright(['--viewport-size'])).toThrow(/--viewport-size needs a value/);
    expect(() => playwright([], { PLAYWRIGHT_MCP_PORT: 'eighty' })).toThrow(/PLAYWRIGHT_MCP_PORT=eighty: must be a port number/);
    const secretFile = path.join(scratch, 'secret-state.json');
    writeFileSync(secretFile, '{"cookies": [{"name": "sid", "value": "hunter2-secret"}]}');
    let message = '';
    try {
      playwright(['--storage-state', secretFile]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/storageState\.cookies\[0\]\.domain must be a string/);
    expect(message).not.toContain('hunter2');
    expect(() => playwright(['--storage-state', path.join(scratch, 'missing.json')])).toThrow(
      /missing\.json: cannot read the storage state file \(no such file\)/,
    );
    // Read as every settings file is, within a bound of their own.
    expect(() => playwright(['--init-script', '/dev/zero'])).toThrow('/dev/zero: cannot read the init script (larger than 5 MiB)');
    expect(() => playwright(['--storage-state', '/dev/zero'])).toThrow('/dev/zero: cannot read the storage state file (larger than 20 MiB)');
    expect(() => playwright(['--proxy-server', 'ftp://user:s3cr3t@host:21'])).toThrow(/--proxy-server \*\*\*/);
    try {
      playwright(['--proxy-server', 'ftp://user:s3cr3t@host:21']);
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cr3t');
    }
  });

  it("--allowed-origins is the pages' request allowlist here, and the HTTP server's browser origins stay SESSIONWRIGHT_ALLOWED_ORIGINS", () => {
    const { options } = playwright(['--allowed-origins', 'https://a.example;http://localhost:*', '--port', '0'], {
      SESSIONWRIGHT_ALLOWED_ORIGINS: 'https://app.example',
    });
    expect(options.setup.sessionDefaults?.allowedOrigins).toEqual(['https://a.example', 'http://localhost:*']);
    expect(options.http?.allowedOrigins).toEqual(['https://app.example']);
    // In the default profile the same flag is the HTTP server's.
    const sessions = running(parseArgs(['--allowed-origins', 'https://app.example', '--port', '0'], cleanEnv()));
    expect(sessions.options.http?.allowedOrigins).toEqual(['https://app.example']);
  });

  it('--host and --allowed-hosts without --port are ignored over stdio, as @playwright/mcp ignores them', () => {
    const { options } = playwright(['--host', '0.0.0.0', '--allowed-hosts', 'example.com']);
    expect(options.http).toBeUndefined();
    expect(playwright(['--host', 'localhost', '--port', '0']).options.http).toMatchObject({ host: 'localhost', port: 0 });
  });
});

describe('--output-max-size', () => {
  it("is ours: a cap on each client's folder of --output-dir, from the flag and the config key", () => {
    expect(playwright(['--output-max-size', '1000000']).options.outputMaxSize).toBe(1_000_000);
    const file = path.join(scratch, 'output-max-size.json');
    writeFileSync(file, JSON.stringify({ outputMaxSize: 2_000_000 }));
    expect(playwright(['--config', file]).options.outputMaxSize).toBe(2_000_000);
  });
});

describe('docs/compat.md', () => {
  it('says what each @playwright/mcp flag does here', () => {
    const compat = readFileSync(path.join(REPO_ROOT, 'docs', 'compat.md'), 'utf8');
    for (const flag of PLAYWRIGHT_FLAGS) expect(compat, `--${flag.name}`).toMatch(new RegExp(`\\| \`--${flag.name}[ \`]`));
  });
});

describe('where the playwright profile is named, and outside it', () => {
  it('in SESSIONWRIGHT_PROFILE or in our config file as well as on the command line', () => {
    const viaEnv = running(parseArgs(['--isolated', '--viewport-size', '800x600'], cleanEnv({ SESSIONWRIGHT_PROFILE: 'playwright' })));
    expect(viaEnv.options.setup.sessionDefaults?.viewport).toEqual({ width: 800, height: 600 });
    const ours = path.join(scratch, 'ours.json');
    writeFileSync(ours, JSON.stringify({ profile: 'playwright', maxSessions: 4 }));
    const viaFile = running(parseArgs(['--config', ours, '--isolated', '--user-agent', 'file/1'], cleanEnv()));
    expect(viaFile.options).toMatchObject({ profile: 'playwright', maxSessions: 4 });
    expect(viaFile.options.setup.sessionDefaults?.userAgent).toBe('file/1');
  });

  it('the default profile refuses @playwright/mcp flags and its config shape, saying how to use them', async () => {
    expect(() => parseArgs(['--isolated'], cleanEnv())).toThrow('unknown option --isolated: it is an @playwright/mcp flag, accepted with --profile playwright');
    const theirs = path.join(scratch, 'theirs.json');
    writeFileSync(theirs, JSON.stringify({ browser: { browserName: 'chromium' } }));
    expect(() => parseArgs(['--config', theirs], cleanEnv())).toThrow("this config file is in @playwright/mcp's shape; it is read with --profile playwright");
    const exited = await run(process.execPath, [CLI_PATH, '--headless', '--isolated'], { env: cleanEnv() as NodeJS.ProcessEnv });
    expect(exited.code).toBe(2);
    expect(exited.stderr.trim().split('\n')).toEqual([
      'sessionwright: unknown option --isolated: it is an @playwright/mcp flag, accepted with --profile playwright (see --help)',
    ]);
  });
});

describe('PLAYWRIGHT_MCP_* variables, as @playwright/mcp reads them, live', () => {
  /** The variables each one's configFromEnv reads (its config file's too). */
  function variablesOf(bundle: string): string[] {
    const source = readFileSync(bundle, 'utf8');
    const start = source.indexOf('function configFromEnv(');
    const body = source.slice(start, source.indexOf('\nfunction ', start + 1));
    return [...new Set([...body.matchAll(/e\.PLAYWRIGHT_MCP_([A-Z_]+)/g)].map(([, name = '']) => name))];
  }
  const SAMPLE_BY_VARIABLE: Record<string, string> = {
    CDP_HEADERS: 'Authorization: Bearer t',
    REMOTE_HEADERS: 'X-Key: k',
    SECRETS_FILE: path.join(scratch, 'secrets.env'),
    INIT_SCRIPT: INIT_SCRIPT,
    INIT_PAGE: INIT_SCRIPT,
    CONFIG: EMPTY_CONFIG,
  };
  const sampleFor = (variable: string) => {
    if (SAMPLE_BY_VARIABLE[variable] !== undefined) return SAMPLE_BY_VARIABLE[variable];
    const flag = PLAYWRIGHT_FLAGS.find((entry) => entry.env === variable);
    if (flag?.takes === 'nothing') return 'true';
    return (SAMPLES[flag?.name ?? ''] ?? ['x']).join(',');
  };

  it.each(Object.entries(BUNDLES))('%s: each variable its configFromEnv reads is one of ours and accepted', (_label, bundle) => {
    const variables = variablesOf(bundle);
    expect(variables.length).toBeGreaterThan(40);
    const known = new Set(PLAYWRIGHT_FLAGS.flatMap((flag) => (flag.env === undefined ? [] : [flag.env])));
    for (const variable of variables) {
      expect(known.has(variable), `PLAYWRIGHT_MCP_${variable}`).toBe(true);
      expect(() => playwright([], { [`PLAYWRIGHT_MCP_${variable}`]: sampleFor(variable) }), `PLAYWRIGHT_MCP_${variable}`).not.toThrow();
    }
  });

  it('sets what the flags set; the command line wins over them, our own spelling over theirs, and they over the config file', () => {
    const file = path.join(scratch, 'precedence.json');
    writeFileSync(file, JSON.stringify({ browser: { contextOptions: { userAgent: 'file/1', locale: 'de-DE', viewport: { width: 900, height: 700 } } } }));
    const { options } = playwright(['--user-agent', 'cli/1', '--config', file], {
      PLAYWRIGHT_MCP_USER_AGENT: 'env/1',
      PLAYWRIGHT_MCP_VIEWPORT_SIZE: '640x480',
      PLAYWRIGHT_MCP_HEADLESS: '1',
      PLAYWRIGHT_MCP_GRANT_PERMISSIONS: 'geolocation,notifications',
      PLAYWRIGHT_MCP_ISOLATED: 'yes-please',
      PLAYWRIGHT_MCP_PORT: '8931',
      SESSIONWRIGHT_PORT: '9000',
    });
    expect(options.setup.sessionDefaults).toMatchObject({
      userAgent: 'cli/1',
      viewport: { width: 640, height: 480 },
      locale: 'de-DE',
      permissions: ['geolocation', 'notifications'],
    });
    expect(options.headless).toBe(true);
    expect(options.http?.port).toBe(9000);
  });

  it('PLAYWRIGHT_MCP_CONFIG names the config file when ours names none', () => {
    const file = path.join(scratch, 'named-by-env.json');
    writeFileSync(file, JSON.stringify({ server: { port: 8123 }, browser: { launchOptions: { headless: true } } }));
    const { options } = playwright([], { PLAYWRIGHT_MCP_CONFIG: file });
    expect(options.http?.port).toBe(8123);
    expect(options.headless).toBe(true);
  });
});

describe("@playwright/mcp's config file, live", () => {
  /** The config keys and their types, as @playwright/mcp's .ini reader lists them (every key of its config). */
  function keysOf(bundle: string): Array<[string, string]> {
    const source = readFileSync(bundle, 'utf8');
    const start = source.indexOf('longhandTypes = {');
    const body = source.slice(start, source.indexOf('};', start));
    return [...body.matchAll(/^\s+"([A-Za-z.]+)": "([a-z[\]]+)"/gm)].map(([, key = '', type = '']) => [key, type]);
  }
  const VALUES: Record<string, unknown> = {
    'browser.browserName': 'chromium',
    'browser.launchOptions.channel': 'chrome',
    'browser.launchOptions.executablePath': '/usr/bin/chromium',
    'browser.launchOptions.proxy.server': 'http://127.0.0.1:3128',
    'browser.cdpEndpoint': 'http://127.0.0.1:9222',
    'browser.remoteEndpoint': 'ws://127.0.0.1:3000/',
    'browser.initPage': [INIT_SCRIPT],
    'browser.initScript': [INIT_SCRIPT],
    'browser.contextOptions.colorScheme': 'dark',
    'browser.contextOptions.contrast': 'more',
    'browser.contextOptions.forcedColors': 'none',
    'browser.contextOptions.reducedMotion': 'reduce',
    'browser.contextOptions.serviceWorkers': 'block',
    'browser.contextOptions.storageState': STORAGE_STATE,
    'browser.contextOptions.baseURL': 'https://example.com/',
    'browser.contextOptions.locale': 'de-DE',
    'browser.contextOptions.timezoneId': 'Europe/Berlin',
    'browser.contextOptions.permissions': ['geolocation'],
    'browser.contextOptions.deviceScaleFactor': 2,
    imageResponses: 'omit',
    filePaths: 'absolute',
    codegen: 'none',
    'console.level': 'error',
    'snapshot.mode': 'full',
    'server.host': '127.0.0.1',
    'server.port': 0,
    capabilities: ['vision'],
  };
  const sampleOf = (key: string, type: string): unknown => {
    if (key in VALUES) return VALUES[key];
    if (type === 'boolean') return true;
    if (type === 'number') return 1000;
    if (type === 'string[]') return ['example.com'];
    if (type === 'size') return { width: 800, height: 600 };
    return scratch;
  };
  const nested = (key: string, value: unknown) => key.split('.').reduceRight<unknown>((inner, part) => ({ [part]: inner }), value) as Record<string, unknown>;

  it.each(Object.entries(BUNDLES))('%s: each key is a setting here (read, or named as without effect), never unknown', (_label, bundle) => {
    const keys = keysOf(bundle);
    expect(keys.length).toBeGreaterThan(60);
    for (const [key, type] of keys) {
      const file = path.join(scratch, `key-${key}.json`);
      // A lone server key still marks the file as @playwright/mcp's: every one of its files has some such key.
      // A proxy is read whole: its other keys come with a server.
      const proxy = /^browser\.launchOptions\.proxy\.(.+)$/.exec(key)?.[1];
      const json = proxy
        ? { browser: { launchOptions: { proxy: { server: 'http://127.0.0.1:3128', [proxy]: sampleOf(key, type) } } } }
        : nested(key, sampleOf(key, type));
      writeFileSync(file, JSON.stringify({ ...json, ...(key.startsWith('server.') ? {} : { server: {} }) }));
      let warnings: readonly string[] = [];
      try {
        warnings = playwright(['--config', file]).warnings;
      } catch (error) {
        throw new Error(`${key}: ${(error as Error).message}`);
      }
      expect(
        warnings.filter((line) => line.includes('not a setting')),
        key,
      ).toEqual([]);
    }
  });

  it('reads a whole file: browser, launch and context options, server, capabilities, network, timeouts', () => {
    const file = path.join(scratch, 'whole.json');
    writeFileSync(
      file,
      JSON.stringify({
        browser: {
          browserName: 'chromium',
          isolated: true,
          launchOptions: {
            headless: true,
            chromiumSandbox: false,
            args: ['--lang=de'],
            proxy: { server: 'http://127.0.0.1:3128', username: 'u', password: 'p' },
          },
          contextOptions: { viewport: { width: 1000, height: 800 }, userAgent: 'cfg/1', permissions: ['geolocation'], ignoreHTTPSErrors: true },
          initScript: ['init.js'],
        },
        server: { port: 8931, host: 'localhost', allowedHosts: ['localhost'] },
        capabilities: ['vision', 'pdf'],
        network: { allowedOrigins: ['http://127.0.0.1:*'], blockedOrigins: ['https://ads.example'] },
        timeouts: { action: 2000, navigation: 15000 },
        outputDir: scratch,
        saveTrace: true,
        imageResponses: 'allow',
        maxSessions: 3,
      }),
    );
    const { options } = playwright(['--config', file]);
    expect(options).toMatchObject({ browser: 'chromium', headless: true, caps: ['vision', 'pdf'], outputDir: scratch, maxSessions: 3 });
    expect(options.http).toMatchObject({ port: 8931, host: 'localhost', allowedHosts: ['localhost'] });
    expect(options.setup.sessionDefaults).toEqual({
      proxy: { server: 'http://127.0.0.1:3128', username: 'u', password: 'p' },
      viewport: { width: 1000, height: 800 },
      userAgent: 'cfg/1',
      permissions: ['geolocation'],
      ignoreHTTPSErrors: true,
      // Relative to the config file's directory, as @playwright/mcp resolves init scripts.
      initScripts: ['window.__init = 1;'],
      allowedOrigins: ['http://127.0.0.1:*'],
      blockedOrigins: ['https://ads.example'],
    });
    expect(options.setup).toMatchObject({
      launch: { chromiumSandbox: false, args: ['--lang=de'] },
      timeouts: { element: 2000, navigation: 15000 },
      recording: { trace: true, video: undefined, session: false },
    });
  });

  it('refuses a value of the wrong type naming its key, without quoting the file', () => {
    const file = path.join(scratch, 'wrong.json');
    writeFileSync(file, JSON.stringify({ server: { port: 'secret-port-value' } }));
    let message = '';
    try {
      playwright(['--config', file]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`${file}: server.port must be a number of at least 0`);
  });

  it('--print-config shows the translated settings, where each came from, and no secret', async () => {
    const printed = await run(
      process.execPath,
      [
        CLI_PATH,
        '--profile',
        'playwright',
        '--browser',
        'msedge',
        '--proxy-server',
        'http://u:pr0xy-pw@127.0.0.1:3128',
        '--cdp-header',
        'Authorization: Bearer cdp-t0ken',
        '--cdp-endpoint',
        'http://127.0.0.1:9222',
        '--storage-state',
        STORAGE_STATE,
        '--print-config',
      ],
      { env: cleanEnv() as NodeJS.ProcessEnv },
    );
    expect(printed.code, printed.stderr).toBe(0);
    for (const secret of ['pr0xy-pw', 'cdp-t0ken', 'st8-cookie']) expect(printed.stdout + printed.stderr).not.toContain(secret);
    const json = JSON.parse(printed.stdout);
    expect(json.browser).toEqual({ value: 'chromium', source: 'cli', via: '--browser msedge' });
    expect(json.setup.value.sessionDefaults).toEqual({ proxy: { server: 'http://127.0.0.1:3128' }, storageState: { cookies: 1, origins: 0 } });
    expect(json.setup.value.endpoints.cdpHeaders).toEqual({ Authorization: '***' });
  });
});
