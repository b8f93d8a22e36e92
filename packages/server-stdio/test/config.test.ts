// Settings from SESSIONWRIGHT_* variables and --config <file.json> (docs/configuration.md): precedence, the same checks as the flags, --print-config, and real servers configured each way.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectStdio, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readCommandLine, resolveConfig } from '../src/settings/sources.js';
import { BadValue, COMBINABLE_FLAGS, FLAG_DEFINITIONS, camelCase, envVarName, exampleValue, type FlagDefinition } from '../src/settings/table.js';
import { UsageError } from '../src/settings/options.js';
import { createServer } from '../src/runtime.js';
import { CLI_PATH, REPO_ROOT, call, expectError, expectSuccess, run } from './helpers.js';
import { INITIALIZE, JSON_POST, connectStreamable, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'sessionwright-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let fileCount = 0;
/** Writes a config file (an object as JSON, a string as it is) and returns its path. */
function configFile(content: unknown, name = `config-${(fileCount += 1)}.json`): string {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** This process's environment without any SESSIONWRIGHT_* variable, plus the given ones. */
function envWith(vars: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SESSIONWRIGHT_')));
  return { ...base, ...vars };
}

type Printed = Record<string, { value: unknown; source: 'cli' | 'env' | 'file' | 'default' }>;

/** Runs `sessionwright … --print-config` and returns its JSON; fails unless it exits 0 with JSON on stdout. */
async function printConfig(args: string[], vars: Record<string, string> = {}): Promise<{ config: Printed; stdout: string; stderr: string }> {
  const result = await run(process.execPath, [CLI_PATH, ...args, '--print-config'], { env: envWith(vars), timeout: 15_000 });
  expect(result.code, result.stderr).toBe(0);
  return { config: JSON.parse(result.stdout) as Printed, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI expecting exit 2 with exactly one line on stderr and nothing on stdout; returns that line. */
async function usageError(args: string[], vars: Record<string, string> = {}): Promise<string> {
  const result = await run(process.execPath, [CLI_PATH, ...args], { env: envWith(vars), timeout: 15_000 });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  expect(lines, result.stderr).toHaveLength(1);
  return lines[0]!;
}

describe('precedence: command line, then environment, then file, then defaults', () => {
  // One value per source for an integer, a list, a boolean and an enum flag.
  const VALUES = {
    maxSessions: { cli: ['--max-sessions', '3'], env: ['SESSIONWRIGHT_MAX_SESSIONS', '4'], file: 5, expected: { cli: 3, env: 4, file: 5, default: 10 } },
    allowedOrigins: {
      cli: ['--allowed-origins', 'https://cli.example'],
      env: ['SESSIONWRIGHT_ALLOWED_ORIGINS', 'https://env.example, https://env2.example'],
      file: ['https://file.example'],
      expected: { cli: ['https://cli.example'], env: ['https://env.example', 'https://env2.example'], file: ['https://file.example'], default: [] },
    },
    verbose: { cli: ['--verbose'], env: ['SESSIONWRIGHT_VERBOSE', 'false'], file: true, expected: { cli: true, env: false, file: true, default: false } },
    browser: {
      cli: ['--browser=webkit'],
      env: ['SESSIONWRIGHT_BROWSER', 'firefox'],
      file: 'webkit',
      expected: { cli: 'webkit', env: 'firefox', file: 'webkit', default: 'chromium' },
    },
  } as const;
  const SOURCES = ['cli', 'env', 'file'] as const;
  // Every combination of the three sources: the highest one present wins, for every flag at once.
  const combinations = Array.from({ length: 8 }, (_, mask) => SOURCES.filter((_, bit) => mask & (1 << bit)));

  it.each(combinations.map((sources) => [sources.join('+') || 'none', sources] as const))('%s', async (_, sources) => {
    const args: string[] = ['--port', '0'];
    const vars: Record<string, string> = {};
    const file: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(VALUES)) {
      if (sources.includes('cli')) args.push(...value.cli);
      if (sources.includes('env')) vars[value.env[0]] = value.env[1];
      if (sources.includes('file')) file[key] = value.file;
    }
    if (sources.includes('file')) args.push('--config', configFile(file));
    const { config } = await printConfig(args, vars);
    const winner = sources[0] ?? 'default';
    for (const [key, value] of Object.entries(VALUES)) {
      expect(config[key], key).toEqual({ value: value.expected[winner], source: winner });
    }
  });

  it('SESSIONWRIGHT_CONFIG names the file, and --config wins over it', async () => {
    const fromEnv = configFile({ maxSessions: 6 });
    const fromCli = configFile({ maxSessions: 7 });
    const viaEnv = await printConfig([], { SESSIONWRIGHT_CONFIG: fromEnv });
    expect(viaEnv.config.config).toEqual({ value: fromEnv, source: 'env' });
    expect(viaEnv.config.maxSessions).toEqual({ value: 6, source: 'file' });
    const viaCli = await printConfig(['--config', fromCli], { SESSIONWRIGHT_CONFIG: fromEnv });
    expect(viaCli.config.config).toEqual({ value: fromCli, source: 'cli' });
    expect(viaCli.config.maxSessions).toEqual({ value: 7, source: 'file' });
  });

  it('a flag given twice on the command line is an error, whatever the spellings', async () => {
    expect(await usageError(['--max-sessions', '2', '--maxSessions=3'])).toBe('sessionwright: --max-sessions was given more than once');
  });
});

describe('repeatable and list flags (a table of their own, ahead of the flags that will use them)', () => {
  const TABLE: FlagDefinition[] = [
    { name: 'file-root', kind: 'path', repeatable: true, default: [], description: 'a repeatable path' },
    { name: 'caps', kind: 'list', choices: ['tabs', 'pdf'], description: 'a list of choices' },
    {
      name: 'endpoint',
      kind: 'string',
      repeatable: true,
      secret: true,
      description: 'a repeatable secret',
      check: (url) => {
        if (!url.startsWith('ws://')) throw new BadValue('must be a ws:// URL');
        return url;
      },
    },
  ];
  const resolve = (argv: string[], env: Record<string, string> = {}) => {
    const resolved = resolveConfig(readCommandLine(argv, TABLE), env, TABLE);
    return Object.fromEntries(resolved.values);
  };

  it('a repeatable flag adds up on the command line, is comma-separated in the environment, and an array in the file', () => {
    expect(resolve(['--file-root', 'a', '--fileRoot=b']).fileRoot).toEqual({ value: ['a', 'b'], source: 'cli' });
    expect(resolve([], { SESSIONWRIGHT_FILE_ROOT: 'a, b,' }).fileRoot).toEqual({ value: ['a', 'b'], source: 'env' });
    const file = configFile({ fileRoot: ['relative', '/absolute'] });
    expect(resolve(['--config', file]).fileRoot).toEqual({ value: [path.join(scratch, 'relative'), '/absolute'], source: 'file' });
    // The command line's list replaces the environment's, which replaces the file's.
    expect(resolve(['--config', file, '--file-root', 'c'], { SESSIONWRIGHT_FILE_ROOT: 'a,b' }).fileRoot).toEqual({ value: ['c'], source: 'cli' });
    expect(resolve([]).fileRoot).toEqual({ value: [], source: 'default' });
  });

  it('a list flag is comma-separated, each item checked, and given once', () => {
    expect(resolve(['--caps', 'tabs, pdf']).caps).toEqual({ value: ['tabs', 'pdf'], source: 'cli' });
    expect(resolve([]).caps).toEqual({ value: undefined, source: 'default' });
    expect(() => resolve(['--caps', 'tabs', '--caps', 'pdf'])).toThrow('--caps was given more than once');
    expect(() => resolve(['--caps', 'tabs,png'])).toThrow('--caps tabs,png: must be one of tabs, pdf');
    expect(() => resolve([], { SESSIONWRIGHT_CAPS: ',' })).toThrow('SESSIONWRIGHT_CAPS=,: needs a comma-separated list');
    expect(() => resolve(['--config', configFile({ caps: ['png'] })])).toThrow(/\.json: caps must be one of tabs, pdf$/);
  });

  it('a secret repeatable flag is masked in every message', () => {
    const bad = 'http://a.example/?token=s3cret';
    const failure = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected a UsageError');
    };
    const messages = [
      failure(() => resolve(['--endpoint', 'ws://ok', '--endpoint', bad])),
      failure(() => resolve([], { SESSIONWRIGHT_ENDPOINT: `ws://ok,${bad}` })),
      failure(() => resolve(['--config', configFile({ endpoint: ['ws://ok', bad] })])),
      failure(() => resolve(['--config', configFile({ endpoint: bad })])),
    ];
    expect(messages[0]).toBe('--endpoint ***: must be a ws:// URL');
    expect(messages[1]).toBe('SESSIONWRIGHT_ENDPOINT=***: must be a ws:// URL');
    expect(messages[2]).toMatch(/\.json: endpoint must be a ws:\/\/ URL$/);
    expect(messages[3]).toMatch(/\.json: endpoint must be an array of strings \(got a string\)$/);
    for (const message of messages) expect(message).not.toContain('s3cret');
  });
});

describe('a config file with every key', () => {
  it("docs/configuration.md's example sets every setting that can be combined, and each is read from the file", async () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'configuration.md'), 'utf8');
    const example = /<!-- config-example:start -->[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example, 'the example in docs/configuration.md').toBeDefined();
    const settings = JSON.parse(example!) as Record<string, unknown>;
    const keys = COMBINABLE_FLAGS.map((flag) => camelCase(flag.name));
    expect(Object.keys(settings).sort()).toEqual([...keys].sort());
    const file = configFile(settings);
    const { config, stdout } = await printConfig(['--config', file]);
    expect(config.config).toEqual({ value: file, source: 'cli' });
    for (const flag of COMBINABLE_FLAGS) {
      const key = camelCase(flag.name);
      expect(config[key], key).toEqual({ value: flag.secret ? '***' : settings[key], source: 'file' });
    }
    expect(stdout).not.toContain(String(settings.authToken));
  });

  it('a relative path in the file is relative to the file', async () => {
    mkdirSync(path.join(scratch, 'nested'), { recursive: true });
    const file = configFile({ executablePath: 'bin/chrome' }, 'nested/paths.json');
    const { config } = await printConfig(['--config', file]);
    expect(config.executablePath).toEqual({ value: path.join(scratch, 'nested', 'bin', 'chrome'), source: 'file' });
  });

  it('HTTP-only keys in the file wait for HTTP mode instead of failing a stdio server', async () => {
    const file = configFile({ host: '0.0.0.0', allowedOrigins: ['https://app.example.com'] });
    const { config } = await printConfig(['--config', file]);
    expect(config.port).toEqual({ value: null, source: 'default' });
    expect(config.host).toEqual({ value: '0.0.0.0', source: 'file' });
    // With a port, the same file is checked as the flags would be: 0.0.0.0 without a token is refused.
    expect(await usageError(['--config', file, '--port', '0'])).toMatch(/^sessionwright: refusing to listen on 0\.0\.0\.0 without a token/);
  });
});

// These start no browser, so they run side by side.
describe.concurrent('bad values: exit 2 and one line naming the source, before anything starts', () => {
  const rows: Array<[string, { args?: string[]; env?: Record<string, string>; file?: unknown }, string | RegExp]> = [
    ['--max-sessions 0', { args: ['--max-sessions', '0'] }, 'sessionwright: --max-sessions 0: must be at least 1'],
    ['--maxSessions abc', { args: ['--maxSessions', 'abc'] }, 'sessionwright: --maxSessions abc: must be a whole number of at least 1'],
    ['--max-sessions -5', { args: ['--max-sessions', '-5'] }, 'sessionwright: --max-sessions -5: must be at least 1'],
    ['SESSIONWRIGHT_MAX_SESSIONS=0', { env: { SESSIONWRIGHT_MAX_SESSIONS: '0' } }, 'sessionwright: SESSIONWRIGHT_MAX_SESSIONS=0: must be at least 1'],
    [
      'SESSIONWRIGHT_SESSION_TIMEOUT=soon',
      { env: { SESSIONWRIGHT_SESSION_TIMEOUT: 'soon' } },
      'sessionwright: SESSIONWRIGHT_SESSION_TIMEOUT=soon: must be a whole number of at least 1',
    ],
    [
      'SESSIONWRIGHT_BROWSER=safari',
      { env: { SESSIONWRIGHT_BROWSER: 'safari' } },
      'sessionwright: SESSIONWRIGHT_BROWSER=safari: must be one of chromium, firefox, webkit',
    ],
    ['SESSIONWRIGHT_HEADLESS=maybe', { env: { SESSIONWRIGHT_HEADLESS: 'maybe' } }, 'sessionwright: SESSIONWRIGHT_HEADLESS=maybe: must be true or false'],
    ['SESSIONWRIGHT_PORT=70000', { env: { SESSIONWRIGHT_PORT: '70000' } }, 'sessionwright: SESSIONWRIGHT_PORT=70000: must be a port number from 0 to 65535'],
    [
      'SESSIONWRIGHT_ALLOWED_ORIGINS with a path',
      { env: { SESSIONWRIGHT_ALLOWED_ORIGINS: 'https://a.example,https://b.example/app' } },
      /^sessionwright: SESSIONWRIGHT_ALLOWED_ORIGINS=https:\/\/a\.example,https:\/\/b\.example\/app: "https:\/\/b\.example\/app" is not an origin/,
    ],
    // A bad value is a mistake even where a higher source overrides it.
    [
      'SESSIONWRIGHT_MAX_SESSIONS=0 under --max-sessions 2',
      { args: ['--max-sessions', '2'], env: { SESSIONWRIGHT_MAX_SESSIONS: '0' } },
      'sessionwright: SESSIONWRIGHT_MAX_SESSIONS=0: must be at least 1',
    ],
    // A file's values are never quoted (it may not be the file meant, and may hold secrets): a wrong type is named instead.
    ['file maxSessions 0', { file: { maxSessions: 0 } }, /^sessionwright: \S+\.json: maxSessions must be at least 1$/],
    ['file maxSessions "5"', { file: { maxSessions: '5' } }, /^sessionwright: \S+\.json: maxSessions must be a whole number of at least 1 \(got a string\)$/],
    ['file sessionTimeout 1.5', { file: { sessionTimeout: 1.5 } }, /: sessionTimeout must be a whole number of at least 1$/],
    ['file browser safari', { file: { browser: 'safari' } }, /\.json: browser must be one of chromium, firefox, webkit$/],
    ['file headless "yes"', { file: { headless: 'yes' } }, /\.json: headless must be true or false \(got a string\)$/],
    ['file allowedHosts as a string', { file: { allowedHosts: 'a.example' } }, /\.json: allowedHosts must be an array of strings \(got a string\)$/],
    ['file executablePath ""', { file: { executablePath: '' } }, /\.json: executablePath needs a value$/],
    [
      'file allowedOrigins with a path',
      { file: { allowedOrigins: ['https://b.example/app'] } },
      /\.json: allowedOrigins may hold only origins such as https:\/\/app\.example\.com \(scheme, host and port only\)$/,
    ],
    ['file unknown key', { file: { maxSession: 3 } }, /^sessionwright: \S+\.json: key 1 is no setting; did you mean "maxSessions"\?$/],
    ['file kebab-case key', { file: { headless: true, 'max-sessions': 3 } }, /: key 2 is no setting; did you mean "maxSessions"\?$/],
    ['file unknown key far from any', { file: { zzzzzzzzzz: 3 } }, /: key 1 is no setting; the keys are the flags' camelCase names \(see --help\)$/],
    [
      'file not JSON',
      { file: '{"maxSessions": 3,' },
      /^sessionwright: \S+\.json: not valid JSON \(expected double-quoted property name at line 1, column 19\)$/,
    ],
    [
      'file cut short',
      { file: '{"maxSessions": 3' },
      /^sessionwright: \S+\.json: not valid JSON \(expected ',' or '}' after property value at line 1, column 18\)$/,
    ],
    ['file empty', { file: '' }, /^sessionwright: \S+\.json: not valid JSON \(it ends too early\)$/],
    ['file not JSON, on line 2', { file: '{"maxSessions": 3,\n  "headless": tru }' }, /: not valid JSON \(an unexpected character\)$/],
    ['file not JSON, a trailing comma', { file: '{"maxSessions": 3,\n}' }, /: not valid JSON \(expected double-quoted property name at line 2, column 1\)$/],
    ['file an array', { file: '[{"maxSessions": 3}]' }, /^sessionwright: \S+\.json: must hold a JSON object of settings/],
    ['file null', { file: 'null' }, /\.json: must hold a JSON object of settings/],
    [
      '--config of a missing file',
      { args: ['--config', '/nonexistent/sessionwright.json'] },
      'sessionwright: /nonexistent/sessionwright.json: cannot read the config file (no such file)',
    ],
    [
      'SESSIONWRIGHT_CONFIG of a directory',
      { env: { SESSIONWRIGHT_CONFIG: tmpdir() } },
      `sessionwright: ${tmpdir()}: cannot read the config file (it is a directory)`,
    ],
    ['--config without a path', { args: ['--config'] }, 'sessionwright: --config needs the path of a JSON file'],
    [
      '--auth-token without --port',
      { args: ['--auth-token', 's3cret-cli-s3cret-cli'] },
      'sessionwright: --auth-token applies only to HTTP mode; add --port <n>',
    ],
    [
      'unknown flag near a known one',
      { args: ['--max-session', '3'] },
      'sessionwright: unknown option --max-session; did you mean --max-sessions? (see --help)',
    ],
  ];

  // Settings that are each valid but mean nothing together: refused, not ignored.
  it('createServer refuses a --caps name that means nothing in the playwright profile, before it starts anything, and takes each group that profile serves', async ({
    expect,
  }) => {
    expect(() => createServer({ profile: 'playwright', caps: ['vision', 'telepathy'] })).toThrow(UsageError);
    expect(() => createServer({ profile: 'playwright', caps: ['vision', 'telepathy'] })).toThrow(
      '--caps vision,telepathy: "telepathy" is no capability of --profile playwright',
    );
    // unsafe (run_code) is a group of the default profile only: the playwright profile serves nothing for it.
    expect(() => createServer({ profile: 'playwright', caps: ['unsafe'] })).toThrow('--caps unsafe: "unsafe" is no capability of --profile playwright');
    const server = createServer({ profile: 'playwright', caps: ['vision', 'pdf', 'devtools', 'network', 'storage', 'testing', 'config', 'live'] });
    await server.close();
  });

  it('says once that --state means nothing outside the playwright profile, whose implicit session is what it starts', async ({ expect }) => {
    const warnings: string[] = [];
    const server = createServer({ state: 'signed-in' }, { info: () => {}, debug: () => {}, warn: (message) => warnings.push(message) });
    await server.close();
    expect(warnings.filter((line) => line.startsWith('--state starts the implicit session of --profile playwright'))).toHaveLength(1);
  });

  it('--profile playwright --caps live serves live_view and request_human, as --caps all does', async ({ expect }) => {
    const names = async (caps: string) => {
      const server = await connectStdio({ command: process.execPath, args: [CLI_PATH, '--headless', '--profile', 'playwright', '--caps', caps] });
      try {
        return (await server.client.listTools()).tools.map((tool) => tool.name);
      } finally {
        await server.close();
      }
    };
    const live = await names('live');
    expect(live).toEqual(expect.arrayContaining(['live_view', 'request_human', 'browser_navigate']));
    expect(live).not.toContain('browser_start_tracing');
    expect(await names('all')).toEqual(expect.arrayContaining(['live_view', 'request_human']));
  });

  it.for(rows)('%s', async ([, { args = [], env = {}, file }, expected], { expect }) => {
    const fileArgs = file === undefined ? [] : ['--config', configFile(file)];
    const line = await usageError([...args, ...fileArgs], env);
    if (typeof expected === 'string') expect(line).toBe(expected);
    else expect(line).toMatch(expected);
  });
});

describe("--caps in the playwright profile takes @playwright/mcp's names from every source", () => {
  const rows: [string, { args?: string[]; env?: Record<string, string>; file?: unknown }, string[], 'cli' | 'env' | 'file'][] = [
    ['--caps', { args: ['--profile', 'playwright', '--caps', 'vision,network,pdf'] }, ['vision', 'network', 'pdf'], 'cli'],
    ['SESSIONWRIGHT_CAPS', { args: ['--profile', 'playwright'], env: { SESSIONWRIGHT_CAPS: 'all' } }, ['all'], 'env'],
    ['the config file', { file: { profile: 'playwright', caps: ['storage', 'devtools'] } }, ['storage', 'devtools'], 'file'],
    ['--caps live', { args: ['--profile', 'playwright', '--caps', 'live'] }, ['live'], 'cli'],
  ];

  it.for(rows)('%s: accepted without a word, since each brings its tools', async ([, { args = [], env = {}, file }, caps, source], { expect }) => {
    const fileArgs = file === undefined ? [] : ['--config', configFile(file)];
    const { config, stderr } = await printConfig([...args, ...fileArgs], env);
    expect(config.caps).toMatchObject({ value: caps, source });
    expect(stderr.split('\n').filter((line) => line.includes('caps'))).toEqual([]);
  });
});

describe('secrets', () => {
  const TOKEN = 'tok-9f8e7d6c5b4a';

  it.each([
    ['the command line', ['--auth-token', TOKEN], {}, 'cli'],
    ['the environment', [], { SESSIONWRIGHT_AUTH_TOKEN: TOKEN }, 'env'],
    ['the file', ['--config', 'FILE'], {}, 'file'],
  ] as const)('--print-config masks a token from %s', async (_, args, vars, source) => {
    const resolved = args.map((arg) => (arg === 'FILE' ? configFile({ authToken: TOKEN }) : arg));
    const { config, stdout, stderr } = await printConfig(['--port', '0', ...resolved], vars);
    expect(config.authToken).toEqual({ value: '***', source });
    expect(stdout + stderr).not.toContain(TOKEN);
  });

  it('a bad token is reported without its value, from any source', async () => {
    const bad = `${TOKEN} with spaces`;
    const lines = [
      await usageError(['--port', '0', '--auth-token', bad]),
      await usageError(['--port', '0'], { SESSIONWRIGHT_AUTH_TOKEN: bad }),
      await usageError(['--port', '0', '--config', configFile({ authToken: bad })]),
      await usageError(['--port', '0', '--config', configFile({ authToken: 42 })]),
    ];
    expect(lines[0]).toBe('sessionwright: --auth-token ***: must not contain spaces or line breaks');
    expect(lines[1]).toBe('sessionwright: SESSIONWRIGHT_AUTH_TOKEN=***: must not contain spaces or line breaks');
    expect(lines[2]).toMatch(/\.json: authToken must not contain spaces or line breaks$/);
    expect(lines[3]).toMatch(/\.json: authToken must be a string \(got a number\)$/);
    for (const line of lines) expect(line).not.toContain(TOKEN);
  });

  it('a token shorter than 16 characters is refused from any source, without its value', async () => {
    for (const short of ['Z', 'tok-9f8e7d6c5b4']) {
      const lines = [
        await usageError(['--port', '0', '--auth-token', short]),
        await usageError(['--port', '0'], { SESSIONWRIGHT_AUTH_TOKEN: short }),
        await usageError(['--port', '0', '--config', configFile({ authToken: short })]),
      ];
      expect(lines[0]).toBe('sessionwright: --auth-token ***: must be at least 16 characters long (make one with: openssl rand -hex 32)');
      expect(lines[1]).toMatch(/^sessionwright: SESSIONWRIGHT_AUTH_TOKEN=\*\*\*: must be at least 16 characters long/);
      expect(lines[2]).toMatch(/\.json: authToken must be at least 16 characters long/);
      for (const line of lines) expect(line.replace(/sessionwright|SESSIONWRIGHT_AUTH_TOKEN|\S+\.json/g, '')).not.toContain(short);
    }
  });

  it("a config file's contents are never quoted in an error: not JSON (a tokens file, /etc/shadow), a wrong value, a stray key", async () => {
    const secrets = [TOKEN, 'root', '$6$saltsalt$', 'alice'];
    const files = [
      `alice ${TOKEN}\n`,
      'root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\n',
      `{"maxSessions": 3, "authToken": ${TOKEN}}`,
      `{"authToken": "${TOKEN}`,
      { maxSessions: TOKEN },
      { browser: TOKEN },
      { caps: [TOKEN] },
      { allowedOrigins: [`https://${TOKEN}/alice`] },
      { [TOKEN]: 'alice' },
      { headless: true, [`${TOKEN}-root`]: 1 },
    ];
    for (const content of files) {
      const line = await usageError(['--config', configFile(content)]);
      const said = line.replace(/^sessionwright: \S+\.json: /, '');
      for (const secret of secrets) expect(said, line).not.toContain(secret);
    }
  });

  it('a config file is read within 1 MiB: --config /dev/zero exits 2 at once', async () => {
    expect(await usageError(['--config', '/dev/zero'])).toBe(
      'sessionwright: /dev/zero: cannot read the config file (larger than 1 MiB, which no settings file is)',
    );
    const large = configFile(`{"maxSessions": 3, "x": "${'a'.repeat(1024 * 1024)}"}`);
    expect(await usageError(['--config', large])).toMatch(/: cannot read the config file \(larger than 1 MiB/);
  });
});

describe('unknown SESSIONWRIGHT_* variables', () => {
  it('draw one warning line each on stderr, naming the close setting, and do not stop the server', async () => {
    const { config, stderr } = await printConfig([], { SESSIONWRIGHT_MAX_SESION: '3', SESSIONWRIGHT_FROBNICATE: '1', SESSIONWRIGHT_CACHE: '/tmp/cache' });
    expect(config.maxSessions).toEqual({ value: 10, source: 'default' });
    expect(stderr.split('\n').filter(Boolean).sort()).toEqual([
      'sessionwright: ignoring SESSIONWRIGHT_FROBNICATE: no such setting',
      'sessionwright: ignoring SESSIONWRIGHT_MAX_SESION: no such setting; did you mean SESSIONWRIGHT_MAX_SESSIONS?',
    ]);
  });

  it('booleans read the words environments use: yes/no, on/off, 1/0', async () => {
    const { config } = await printConfig([], { SESSIONWRIGHT_VERBOSE: 'yes', SESSIONWRIGHT_ALLOW_FILE_URLS: 'OFF', SESSIONWRIGHT_HEADLESS: '1' });
    expect([config.verbose?.value, config.allowFileUrls?.value, config.headless?.value]).toEqual([true, false, true]);
  });

  it('an empty variable counts as unset', async () => {
    const { config } = await printConfig([], { SESSIONWRIGHT_MAX_SESSIONS: '', SESSIONWRIGHT_AUTH_TOKEN: '' });
    expect(config.maxSessions).toEqual({ value: 10, source: 'default' });
    expect(config.authToken).toEqual({ value: null, source: 'default' });
  });
});

describe('--print-config', () => {
  it('lists every setting with its source, exits 0 and starts nothing (a missing browser is not even looked for)', async () => {
    const { config, stderr } = await printConfig(['--executable-path', '/nonexistent/chrome']);
    expect(Object.keys(config)).toEqual(['config', ...FLAG_DEFINITIONS.map((flag) => camelCase(flag.name))]);
    expect(config.executablePath).toEqual({ value: '/nonexistent/chrome', source: 'cli' });
    expect(config.headless).toEqual({ value: null, source: 'default' });
    expect(config.config).toEqual({ value: null, source: 'default' });
    expect(stderr).toBe('');
  });

  it('every flag has an environment variable that --print-config reads back', async () => {
    // The docs example's value of each flag, given only through its variable (a list comma-separated); a flag that
    // excludes another is given on its own.
    const vars = Object.fromEntries(
      COMBINABLE_FLAGS.map((flag) => {
        const value = exampleValue(flag);
        return [envVarName(flag.name), Array.isArray(value) ? value.join(',') : String(value)];
      }),
    );
    const { config } = await printConfig([], vars);
    for (const flag of COMBINABLE_FLAGS) expect(config[camelCase(flag.name)]?.source, flag.name).toBe('env');
    for (const flag of FLAG_DEFINITIONS.filter((other) => !COMBINABLE_FLAGS.includes(other))) {
      const alone = await printConfig([], { [envVarName(flag.name)]: String(exampleValue(flag)) });
      expect(alone.config[camelCase(flag.name)]?.source, flag.name).toBe('env');
    }
  });
});

/** Servers a test started; closed after it whatever happened. */
const servers: StdioConnection[] = [];
const httpServers: HttpCli[] = [];
afterEach(async () => {
  await Promise.all([...servers.splice(0).map((server) => server.close()), ...httpServers.splice(0).map((server) => server.stop())]);
});

describe('a real server configured each way behaves as the same flags would', () => {
  /** Starts the built CLI over stdio with only these flags (no --headless added) and this environment. */
  async function startWith(args: string[], env: Record<string, string>): Promise<StdioConnection> {
    const server = await connectStdio({ command: process.execPath, args: [CLI_PATH, ...args], env });
    servers.push(server);
    await server.client.listTools();
    return server;
  }

  /** Creates sessions until MAX_SESSIONS_REACHED; checks the limit and the idle timeout the server was given. */
  async function expectLimits(server: StdioConnection, maxSessions: number, sessionTimeout: number) {
    expect(expectSuccess(await call(server.client, 'list_sessions')).maxSessions).toBe(maxSessions);
    for (let index = 0; index < maxSessions; index += 1) {
      const created = expectSuccess(await call(server.client, 'create_session'));
      expect(created.expiresAt - created.createdAt).toBe(sessionTimeout);
    }
    const full = expectError(await call(server.client, 'create_session'), 'MAX_SESSIONS_REACHED');
    expect(full.details).toMatchObject({ maxSessions });
  }

  it('only environment variables', async () => {
    const server = await startWith([], {
      SESSIONWRIGHT_HEADLESS: 'true',
      SESSIONWRIGHT_MAX_SESSIONS: '2',
      SESSIONWRIGHT_SESSION_TIMEOUT: '4321',
      SESSIONWRIGHT_WARM_SESSIONS: '0',
    });
    await expectLimits(server, 2, 4321);
  });

  it('only a config file', async () => {
    const file = configFile({ headless: true, maxSessions: 3, sessionTimeout: 5432, warmSessions: 0 });
    const server = await startWith(['--config', file], {});
    await expectLimits(server, 3, 5432);
  });

  it('a mix: the command line over the environment over the file', async () => {
    const file = configFile({ headless: true, maxSessions: 9, sessionTimeout: 9999, warmSessions: 0 });
    const server = await startWith(['--session-timeout', '6543'], {
      SESSIONWRIGHT_CONFIG: file,
      SESSIONWRIGHT_MAX_SESSIONS: '2',
      SESSIONWRIGHT_SESSION_TIMEOUT: '7777',
    });
    await expectLimits(server, 2, 6543);
  });

  it('HTTP mode from the environment only: the port, and a token every request needs, which is never logged', async () => {
    const token = 'env-only-token-3141';
    const server = await startHttpCli([], {
      onlyFlags: true,
      env: envWith({
        SESSIONWRIGHT_PORT: '0',
        SESSIONWRIGHT_HEADLESS: 'true',
        SESSIONWRIGHT_AUTH_TOKEN: token,
        SESSIONWRIGHT_VERBOSE: 'true',
        SESSIONWRIGHT_MAX_SESSIONS: '1',
      }),
    });
    httpServers.push(server);
    expect((await rawRequest(server.base, { headers: JSON_POST, body: INITIALIZE })).status).toBe(401);
    const { client } = await connectStreamable(server.base, { Authorization: `Bearer ${token}` });
    try {
      expectSuccess(await call(client, 'create_session'));
      expect(expectError(await call(client, 'create_session'), 'MAX_SESSIONS_REACHED').details).toMatchObject({ maxSessions: 1 });
    } finally {
      await client.close();
    }
    await server.stop();
    // --verbose logs every call; none of it, nor the start-up lines, shows the token.
    expect(server.stderr()).toMatch(/create_session/);
    expect(server.stderr()).not.toContain(token);
  });
});
