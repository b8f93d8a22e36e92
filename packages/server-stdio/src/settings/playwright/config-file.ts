// The playwright profile's config reader: a config file in @playwright/mcp's shape, key by key, into one level of settings; its errors name keys, never quote values.
import path from 'node:path';
import { sessionDefaultsSchema, type SessionDefaults } from '@sessionwright/session-core/parts';
import { UsageError } from '../../input/usage-error.js';
import { closest, type OtherVocabulary } from '../sources.js';
import { FLAG_DEFINITIONS, camelCase } from '../table.js';
import { BY_NAME, apply, initScriptsFrom, setBrowser, storageStateFrom, type PlaywrightFlag } from './flags.js';
import { proxyOf, sizeOf, writer, type Given, type Level, type Unmeant, type Writer } from './level.js';

const OUR_KEYS = new Set(FLAG_DEFINITIONS.map((flag) => camelCase(flag.name)));

/**
 * A config file is in @playwright/mcp's shape when its `browser` is an object or it has a key of @playwright/mcp's
 * that is not one of ours (`server`, `capabilities`, `network`, `timeouts`, …); otherwise it is ours.
 */
export function isPlaywrightConfig(json: Record<string, unknown>): boolean {
  return Object.entries(json).some(([key, value]) => (key === 'browser' ? isObject(value) : PLAYWRIGHT_CONFIG_KEYS.has(key) && !OUR_KEYS.has(key)));
}

/** The keys of a config file in @playwright/mcp's shape that are ours alone (maxSessions, profile, …): read as ours. */
export function ownKeys(json: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(json).filter(([key, value]) => OUR_KEYS.has(key) && !(PLAYWRIGHT_CONFIG_KEYS.has(key) && (key !== 'browser' || isObject(value)))),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A reader of config files that only recognizes @playwright/mcp's shape (for finding the profile before the dialect applies). */
export const PEEK_PLAYWRIGHT_CONFIG: OtherVocabulary = {
  cli: new Map(),
  env: new Map(),
  file: (json) => (isPlaywrightConfig(json) ? { own: ownKeys(json), values: new Map() } : undefined),
};

/** Refuses a config file in @playwright/mcp's shape outside the playwright profile, saying how to read it. */
export const REFUSE_PLAYWRIGHT_CONFIG: OtherVocabulary = {
  cli: new Map(),
  env: new Map(),
  file: (json, file) => {
    if (!isPlaywrightConfig(json)) return undefined;
    throw new UsageError(`${file}: this config file is in @playwright/mcp's shape; it is read with --profile playwright (docs/compat.md)`);
  },
};

/** sessionwright's own session defaults, which no Playwright context option names: a config's `browser.contextOptions` cannot set them. */
const SESSIONWRIGHT_DEFAULTS = new Set(['device', 'blockResources', 'recordVideo', 'initScripts', 'allowedOrigins', 'blockedOrigins']);

/** The context options `browser.contextOptions` gives every session as they are: the session defaults' own names (session-core's schema checks them). */
const CONTEXT_OPTIONS: readonly string[] = Object.keys(sessionDefaultsSchema.shape).filter((name) => !SESSIONWRIGHT_DEFAULTS.has(name));

/** What reading a key has at hand: a writer into the level, and checks of a JSON value by type that refuse naming the key, never quoting the value. */
interface Reader {
  readonly level: Level;
  at(key: string, flag?: string): Writer;
  note(key: string, reason: string): void;
  fail(key: string, problem: string): never;
  object(value: unknown, key: string): Record<string, unknown>;
  bool(value: unknown, key: string): boolean;
  number(value: unknown, key: string): number;
  text(value: unknown, key: string): string;
  texts(value: unknown, key: string): string[];
  headers(value: unknown, key: string): Record<string, string>;
  size(value: unknown, key: string): { width: number; height: number };
  /** Reads the value as the flag `name` reads its own. */
  viaFlag(name: string, given: Given, key: string): void;
  /** A path relative to the config file's directory. */
  fromFile(value: string): string;
}

/** Reads one key's value; `key` is its whole path in the file (`browser.launchOptions.channel`). */
type Read = (value: unknown, key: string, r: Reader) => void;
type Keys = Readonly<Record<string, Read>>;

/** Reads the keys of one object of the file by its table; an unknown key is said once, with the close key of the same table if any. */
function readObject(
  object: Record<string, unknown>,
  prefix: string,
  keys: Keys,
  r: Reader,
  options: { unknown: string; keepNull?: boolean; each?: Read },
): void {
  for (const [name, value] of Object.entries(object)) {
    if (value === undefined || (value === null && !options.keepNull)) continue;
    const key = `${prefix}.${name}`;
    options.each?.(value, key, r);
    const read = Object.hasOwn(keys, name) ? keys[name] : undefined;
    if (read !== undefined) read(value, key, r);
    else r.note(key, `${options.unknown}${suggestion(prefix, name, Object.keys(keys))}`);
  }
}

/** `; did you mean "x"?` for a key close to one of `candidates` (the keys its object reads); empty when none is close. */
function suggestion(prefix: string, name: string, candidates: readonly string[]): string {
  const near = closest(name, candidates);
  return near === undefined ? '' : `; did you mean "${prefix === '' ? near : `${prefix}.${near}`}"?`;
}

const NOT_A_SETTING = 'not a setting of @playwright/mcp or sessionwright';

const LAUNCH_OPTIONS: Keys = {
  channel: (value, key, r) => setBrowser(r.text(value, key), r.at(key)),
  headless: (value, key, r) => r.at(key).ours('headless', String(r.bool(value, key))),
  executablePath: (value, key, r) => r.at(key).ours('executable-path', path.resolve(r.text(value, key))),
  chromiumSandbox: (value, key, r) => r.at(key).setup({ chromiumSandbox: r.bool(value, key) }),
  args: (value, key, r) => r.at(key).setup({ launchArgs: r.texts(value, key) }),
  timeout: (value, key, r) => r.at(key).setup({ launchTimeout: r.number(value, key) }),
  proxy: (value, key, r) => {
    const proxy = r.object(value, key);
    r.at(key).session('proxy', { ...(proxy as NonNullable<SessionDefaults['proxy']>), ...proxyOf(r.text(proxy.server, `${key}.server`), undefined) });
  },
  // Playwright's signal handling: the server handles its signals itself.
  handleSIGINT: () => {},
  handleSIGTERM: () => {},
  handleSIGHUP: () => {},
};

const CONTEXT_KEYS: Keys = {
  ...Object.fromEntries(
    CONTEXT_OPTIONS.map((name): [string, Read] => [name, (value, key, r) => r.at(key).session(name as keyof SessionDefaults, value as never)]),
  ),
  viewport: (value, key, r) => {
    if (value === null) r.note(key, 'every session has a viewport (1280x720 unless one is given)');
    else r.at(key).session('viewport', r.size(value, key));
  },
  storageState: (value, key, r) =>
    r
      .at(key)
      .session(
        'storageState',
        typeof value === 'string' ? storageStateFrom(path.resolve(value), r.at(key)) : (r.object(value, key) as SessionDefaults['storageState']),
      ),
  acceptDownloads: (value, key, r) => {
    r.bool(value, key);
  },
};

const BROWSER_KEYS: Keys = {
  browserName: (value, key, r) => setBrowser(r.text(value, key), r.at(key)),
  isolated: (value, key, r) => r.viaFlag('isolated', r.bool(value, key), key),
  userDataDir: (value, key, r) => r.viaFlag('user-data-dir', [r.text(value, key)], key),
  launchOptions: (value, key, r) => readObject(r.object(value, key), key, LAUNCH_OPTIONS, r, { unknown: 'not a launch option sessionwright sets' }),
  contextOptions: (value, key, r) =>
    readObject(r.object(value, key), key, CONTEXT_KEYS, r, { unknown: 'not a context option sessionwright sets for every session', keepNull: true }),
  cdpEndpoint: (value, key, r) => r.at(key).ours('cdp-endpoint', r.text(value, key)),
  cdpHeaders: (value, key, r) => r.at(key).setup({ cdpHeaders: r.headers(value, key) }),
  cdpTimeout: (value, key, r) => r.at(key).setup({ cdpTimeout: r.number(value, key) }),
  remoteEndpoint: (value, key, r) => {
    if (typeof value === 'string') {
      r.at(key).ours('browser-endpoint', r.text(value, key));
      return;
    }
    const remote = r.object(value, key);
    r.at(key).ours('browser-endpoint', r.text(remote.endpoint, `${key}.endpoint`));
    if (remote.headers !== undefined) r.at(key).setup({ connectHeaders: r.headers(remote.headers, `${key}.headers`) });
    if (remote.timeout !== undefined) r.at(key).setup({ connectTimeout: r.number(remote.timeout, `${key}.timeout`) });
  },
  remoteHeaders: (value, key, r) => r.at(key).setup({ connectHeaders: r.headers(value, key) }),
  initScript: (value, key, r) => r.at(key).session('initScripts', initScriptsFrom(r.texts(value, key).map(r.fromFile))),
  initPage: (value, key, r) => r.viaFlag('init-page', r.texts(value, key), key),
};

const SERVER_KEYS: Keys = {
  port: (value, key, r) => r.at(key).ours('port', String(r.number(value, key))),
  host: (value, key, r) => r.at(key).ours('host', r.text(value, key)),
  allowedHosts: (value, key, r) => r.at(key).ours('allowed-hosts', r.texts(value, key).join(',')),
};

/** `timeouts.*`: each a number of ms, read as its flag reads it. */
const timeout =
  (flag: string): Read =>
  (value, key, r) =>
    r.viaFlag(flag, [String(r.number(value, key))], key);
const TIMEOUT_KEYS: Keys = {
  action: timeout('timeout-action'),
  navigation: timeout('timeout-navigation'),
  idle: timeout('idle-timeout'),
  settle: timeout('timeout-settle'),
  expect: (_, key, r) => r.note(key, 'no tool here waits for an expectation'),
};

/** A key read as the flag `name` reads a bare flag set to the key's true or false. */
const asFlag =
  (name: string): Read =>
  (value, key, r) =>
    r.viaFlag(name, r.bool(value, key), key);
/** A key read as the flag `name` reads its one value. */
const asValue =
  (name: string): Read =>
  (value, key, r) =>
    r.viaFlag(name, [r.text(value, key)], key);

/** @playwright/mcp's top-level config keys, each with its reader: the shape of its config file. */
const TOP_LEVEL: Keys = {
  browser: (value, key, r) => {
    if (isObject(value)) readObject(value, key, BROWSER_KEYS, r, { unknown: NOT_A_SETTING });
  },
  extension: asFlag('extension'),
  tabGroup: (value, key, r) => {
    if (r.bool(value, key) === false) r.viaFlag('no-tab-group', true, key);
  },
  background: asFlag('background'),
  server: (value, key, r) => readObject(r.object(value, key), key, SERVER_KEYS, r, { unknown: NOT_A_SETTING }),
  capabilities: (value, key, r) => r.at(key).ours('caps', r.texts(value, key).join(',')),
  saveSession: asFlag('save-session'),
  saveVideo: (value, key, r) => {
    r.at(key).setup({ saveVideo: r.size(value, key) });
    r.note(key, 'recorded; this version records no video yet');
  },
  saveTrace: asFlag('save-trace'),
  sharedBrowserContext: asFlag('shared-browser-context'),
  secrets: (value, key, r) => {
    // The config file holds the values themselves, by name, as @playwright/mcp's does.
    const secrets: Record<string, string> = {};
    for (const [name, secret] of Object.entries(r.object(value, key))) {
      if (typeof secret !== 'string') r.fail(`${key}.${name}`, 'must be a string');
      else secrets[name] = secret;
    }
    r.at(key).setup({ secrets: { ...r.level.setup.secrets, ...secrets } });
  },
  outputDir: (value, key, r) => r.at(key).ours('output-dir', path.resolve(r.text(value, key))),
  outputMaxSize: (value, key, r) => r.viaFlag('output-max-size', [String(r.number(value, key))], key),
  console: (value, key, r) => {
    const level = r.object(value, key).level;
    if (level !== undefined) r.viaFlag('console-level', [r.text(level, `${key}.level`)], `${key}.level`);
  },
  network: (value, key, r) => {
    const network = r.object(value, key);
    for (const name of ['allowedOrigins', 'blockedOrigins'] as const)
      if (network[name] !== undefined) r.at(`${key}.${name}`).session(name, r.texts(network[name], `${key}.${name}`));
  },
  testIdAttribute: asValue('test-id-attribute'),
  // Every key of `timeouts` must be a number of ms, the unknown ones too.
  timeouts: (value, key, r) => readObject(r.object(value, key), key, TIMEOUT_KEYS, r, { unknown: NOT_A_SETTING, each: (ms, name) => r.number(ms, name) }),
  imageResponses: asValue('image-responses'),
  filePaths: asValue('file-paths'),
  snapshot: (value, key, r) => {
    const snapshot = r.object(value, key);
    if (snapshot.mode !== undefined) r.viaFlag('snapshot-mode', [r.text(snapshot.mode, `${key}.mode`)], `${key}.mode`);
    if (snapshot.boxes !== undefined) r.viaFlag('snapshot-boxes', r.bool(snapshot.boxes, `${key}.boxes`), `${key}.boxes`);
  },
  allowUnrestrictedFileAccess: asFlag('allow-unrestricted-file-access'),
  ignoreRoots: asFlag('ignore-roots'),
  codegen: asValue('codegen'),
  webmcp: (value, key, r) => {
    r.bool(value, key);
  },
  redactUrlParams: (value, key, r) => r.viaFlag('redact-url-params', [r.texts(value, key).join(',')], key),
  vision: asFlag('vision'),
};

/** @playwright/mcp's top-level config keys. */
const PLAYWRIGHT_CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(TOP_LEVEL));

/** A config file in @playwright/mcp's shape, key by key, into one level; a value of the wrong type is refused naming its key, never quoting it. */
export function readConfig(json: Record<string, unknown>, file: string, level: Level, unmeant: Unmeant): void {
  const at = (key: string, flag = key) => writer(level, `${file}: ${key}`, { key: flag, display: key }, unmeant);
  const fail = (key: string, problem: string): never => {
    throw new UsageError(`${file}: ${key} ${problem}`);
  };
  const object = (value: unknown, key: string) => (isObject(value) ? value : fail(key, 'must be an object'));
  const r: Reader = {
    level,
    at,
    note: (key, reason) => unmeant(key, key, reason),
    fail,
    object,
    bool: (value, key) => (typeof value === 'boolean' ? value : fail(key, 'must be true or false')),
    number: (value, key) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fail(key, 'must be a number of at least 0')),
    text: (value, key) => (typeof value === 'string' && value.trim() !== '' ? value : fail(key, 'must be a non-empty string')),
    texts: (value, key) =>
      Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : fail(key, 'must be an array of strings'),
    headers: (value, key) => {
      const entries = Object.entries(object(value, key));
      if (!entries.every(([, header]) => typeof header === 'string')) fail(key, 'must map header names to strings');
      return Object.fromEntries(entries) as Record<string, string>;
    },
    size: (value, key) => {
      if (typeof value === 'string') return sizeOf(value, at(key));
      const { width, height } = object(value, key);
      if (typeof width !== 'number' || typeof height !== 'number') fail(key, 'must be {"width": …, "height": …}');
      return { width: width as number, height: height as number };
    },
    viaFlag: (name, given, key) => apply(BY_NAME.get(name) as PlaywrightFlag, given, at(key, name)),
    // Relative paths are the working directory's, as @playwright/mcp resolves them, except init scripts: the file's directory.
    fromFile: (value) => path.resolve(path.dirname(path.resolve(file)), value),
  };
  const candidates = [...PLAYWRIGHT_CONFIG_KEYS, ...OUR_KEYS];
  for (const [key, value] of Object.entries(json)) {
    if (value === undefined || value === null) continue;
    if (OUR_KEYS.has(key) && !PLAYWRIGHT_CONFIG_KEYS.has(key)) continue;
    const read = Object.hasOwn(TOP_LEVEL, key) ? TOP_LEVEL[key] : undefined;
    if (read !== undefined) read(value, key, r);
    else r.note(key, `${NOT_A_SETTING}${suggestion('', key, candidates)}`);
  }
}
