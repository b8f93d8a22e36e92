// The playwright profile's config reader: a config file in @playwright/mcp's shape, key by key, into one level of settings; its errors name keys, never quote values.
import path from 'node:path';
import { sessionDefaultsSchema, type SessionDefaults } from '@sessionwright/session-core';
import { UsageError } from '../../usage-error.js';
import { closest, type OtherVocabulary } from '../sources.js';
import { FLAG_DEFINITIONS, camelCase } from '../table.js';
import { BY_NAME, apply, initScriptsFrom, setBrowser, storageStateFrom, type PlaywrightFlag } from './flags.js';
import { proxyOf, sizeOf, writer, type Given, type Level, type Unmeant } from './level.js';

/** @playwright/mcp's top-level config keys. */
const PLAYWRIGHT_CONFIG_KEYS = new Set([
  'browser',
  'extension',
  'tabGroup',
  'background',
  'server',
  'capabilities',
  'saveSession',
  'saveVideo',
  'saveTrace',
  'sharedBrowserContext',
  'secrets',
  'outputDir',
  'outputMaxSize',
  'console',
  'network',
  'testIdAttribute',
  'timeouts',
  'imageResponses',
  'filePaths',
  'snapshot',
  'allowUnrestrictedFileAccess',
  'ignoreRoots',
  'codegen',
  'webmcp',
  'redactUrlParams',
  'vision',
]);

const OUR_KEYS = new Set(FLAG_DEFINITIONS.map((flag) => camelCase(flag.name)));

/** The keys each object of @playwright/mcp's config reads (`browser.launchOptions.channel` is under `browser.launchOptions`): what an unknown key is compared with. */
const NESTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  browser: [
    'browserName',
    'isolated',
    'userDataDir',
    'launchOptions',
    'contextOptions',
    'cdpEndpoint',
    'cdpHeaders',
    'cdpTimeout',
    'remoteEndpoint',
    'remoteHeaders',
    'initScript',
    'initPage',
  ],
  'browser.launchOptions': [
    'channel',
    'headless',
    'executablePath',
    'chromiumSandbox',
    'args',
    'timeout',
    'proxy',
    'handleSIGINT',
    'handleSIGTERM',
    'handleSIGHUP',
  ],
  server: ['port', 'host', 'allowedHosts'],
  timeouts: ['action', 'navigation', 'idle', 'settle', 'expect'],
};

/** sessionwright's own session defaults, which no Playwright context option names: a config's `browser.contextOptions` cannot set them. */
const SESSIONWRIGHT_DEFAULTS = new Set(['device', 'blockResources', 'recordVideo', 'initScripts', 'allowedOrigins', 'blockedOrigins']);

/** The context options `browser.contextOptions` gives every session as they are: the session defaults' own names (session-core's schema checks them). */
const CONTEXT_OPTIONS: ReadonlySet<string> = new Set(Object.keys(sessionDefaultsSchema.shape).filter((name) => !SESSIONWRIGHT_DEFAULTS.has(name)));

/** The keys `browser.contextOptions` reads. */
const CONTEXT_KEYS: readonly string[] = [...CONTEXT_OPTIONS, 'acceptDownloads'];

/** `; did you mean "x"?` for a key close to one the same object reads (ours too at the top level); empty when none is close. */
function suggestion(key: string): string {
  const dot = key.lastIndexOf('.');
  const [parent, name] = dot === -1 ? ['', key] : [key.slice(0, dot), key.slice(dot + 1)];
  const candidates =
    parent === '' ? [...PLAYWRIGHT_CONFIG_KEYS, ...OUR_KEYS] : parent === 'browser.contextOptions' ? CONTEXT_KEYS : (NESTED_KEYS[parent] ?? []);
  const near = closest(name, candidates);
  return near === undefined ? '' : `; did you mean "${parent === '' ? near : `${parent}.${near}`}"?`;
}

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

/** A config file in @playwright/mcp's shape, key by key, into one level; a value of the wrong type is refused naming its key, never quoting it. */
export function readConfig(json: Record<string, unknown>, file: string, level: Level, unmeant: Unmeant): void {
  const at = (key: string, flag = key) => writer(level, `${file}: ${key}`, { key: flag, display: key }, unmeant);
  const note = (key: string, reason: string) => unmeant(key, key, reason);
  const fail = (key: string, problem: string): never => {
    throw new UsageError(`${file}: ${key} ${problem}`);
  };
  const object = (value: unknown, key: string) => (isObject(value) ? value : fail(key, 'must be an object'));
  const bool = (value: unknown, key: string) => (typeof value === 'boolean' ? value : fail(key, 'must be true or false'));
  const number = (value: unknown, key: string) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fail(key, 'must be a number of at least 0');
  const text = (value: unknown, key: string) => (typeof value === 'string' && value.trim() !== '' ? value : fail(key, 'must be a non-empty string'));
  const texts = (value: unknown, key: string) =>
    Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : fail(key, 'must be an array of strings');
  const headers = (value: unknown, key: string) => {
    const entries = Object.entries(object(value, key));
    if (!entries.every(([, header]) => typeof header === 'string')) fail(key, 'must map header names to strings');
    return Object.fromEntries(entries) as Record<string, string>;
  };
  const size = (value: unknown, key: string) => {
    if (typeof value === 'string') return sizeOf(value, at(key));
    const { width, height } = object(value, key);
    if (typeof width !== 'number' || typeof height !== 'number') fail(key, 'must be {"width": …, "height": …}');
    return { width: width as number, height: height as number };
  };
  const unknownKey = (key: string) => note(key, `not a setting of @playwright/mcp or sessionwright${suggestion(key)}`);
  const viaFlag = (name: string, given: Given, key: string) => apply(BY_NAME.get(name) as PlaywrightFlag, given, at(key, name));
  // Relative paths are the working directory's, as @playwright/mcp resolves them, except init scripts: the file's directory.
  const fromFile = (value: string) => path.resolve(path.dirname(path.resolve(file)), value);

  for (const [key, value] of Object.entries(json)) {
    if (value === undefined || value === null) continue;
    if (OUR_KEYS.has(key) && !PLAYWRIGHT_CONFIG_KEYS.has(key)) continue;
    switch (key) {
      case 'browser': {
        if (!isObject(value)) break;
        for (const [browserKey, setting] of Object.entries(value)) {
          const name = `browser.${browserKey}`;
          if (setting === undefined || setting === null) continue;
          if (browserKey === 'browserName') setBrowser(text(setting, name), at(name));
          else if (browserKey === 'isolated') viaFlag('isolated', bool(setting, name), name);
          else if (browserKey === 'userDataDir') viaFlag('user-data-dir', [text(setting, name)], name);
          else if (browserKey === 'launchOptions') readLaunchOptions(object(setting, name), name);
          else if (browserKey === 'contextOptions') readContextOptions(object(setting, name), name);
          else if (browserKey === 'cdpEndpoint') at(name).ours('cdp-endpoint', text(setting, name));
          else if (browserKey === 'cdpHeaders') at(name).setup({ cdpHeaders: headers(setting, name) });
          else if (browserKey === 'cdpTimeout') at(name).setup({ cdpTimeout: number(setting, name) });
          else if (browserKey === 'remoteEndpoint') {
            if (typeof setting === 'string') at(name).ours('browser-endpoint', text(setting, name));
            else {
              const remote = object(setting, name);
              at(name).ours('browser-endpoint', text(remote.endpoint, `${name}.endpoint`));
              if (remote.headers !== undefined) at(name).setup({ connectHeaders: headers(remote.headers, `${name}.headers`) });
              if (remote.timeout !== undefined) at(name).setup({ connectTimeout: number(remote.timeout, `${name}.timeout`) });
            }
          } else if (browserKey === 'remoteHeaders') at(name).setup({ connectHeaders: headers(setting, name) });
          else if (browserKey === 'initScript') at(name).session('initScripts', initScriptsFrom(texts(setting, name).map(fromFile)));
          else if (browserKey === 'initPage') viaFlag('init-page', texts(setting, name), name);
          else unknownKey(name);
        }
        break;
      }
      case 'extension':
        viaFlag('extension', bool(value, key), key);
        break;
      case 'tabGroup':
        if (bool(value, key) === false) viaFlag('no-tab-group', true, key);
        break;
      case 'background':
        viaFlag('background', bool(value, key), key);
        break;
      case 'server': {
        const server = object(value, key);
        for (const [serverKey, setting] of Object.entries(server)) {
          const name = `server.${serverKey}`;
          if (setting === undefined || setting === null) continue;
          if (serverKey === 'port') at(name).ours('port', String(number(setting, name)));
          else if (serverKey === 'host') at(name).ours('host', text(setting, name));
          else if (serverKey === 'allowedHosts') at(name).ours('allowed-hosts', texts(setting, name).join(','));
          else unknownKey(name);
        }
        break;
      }
      case 'capabilities':
        at(key).ours('caps', texts(value, key).join(','));
        break;
      case 'vision':
        viaFlag('vision', bool(value, key), key);
        break;
      case 'saveSession':
        viaFlag('save-session', bool(value, key), key);
        break;
      case 'saveTrace':
        viaFlag('save-trace', bool(value, key), key);
        break;
      case 'saveVideo':
        at(key).setup({ saveVideo: size(value, key) });
        note(key, 'recorded; this version records no video yet');
        break;
      case 'sharedBrowserContext':
        viaFlag('shared-browser-context', bool(value, key), key);
        break;
      case 'secrets': {
        // The config file holds the values themselves, by name, as @playwright/mcp's does.
        const secrets: Record<string, string> = {};
        for (const [name, secret] of Object.entries(object(value, key))) {
          if (typeof secret !== 'string') fail(`${key}.${name}`, 'must be a string');
          else secrets[name] = secret;
        }
        at(key).setup({ secrets: { ...level.setup.secrets, ...secrets } });
        break;
      }
      case 'outputDir':
        at(key).ours('output-dir', path.resolve(text(value, key)));
        break;
      case 'outputMaxSize':
        viaFlag('output-max-size', [String(number(value, key))], key);
        break;
      case 'console': {
        const level = object(value, key).level;
        if (level !== undefined) viaFlag('console-level', [text(level, `${key}.level`)], `${key}.level`);
        break;
      }
      case 'network': {
        const network = object(value, key);
        if (network.allowedOrigins !== undefined) at(`${key}.allowedOrigins`).session('allowedOrigins', texts(network.allowedOrigins, `${key}.allowedOrigins`));
        if (network.blockedOrigins !== undefined) at(`${key}.blockedOrigins`).session('blockedOrigins', texts(network.blockedOrigins, `${key}.blockedOrigins`));
        break;
      }
      case 'testIdAttribute':
        viaFlag('test-id-attribute', [text(value, key)], key);
        break;
      case 'timeouts': {
        const timeouts = object(value, key);
        for (const [timeoutKey, setting] of Object.entries(timeouts)) {
          const name = `${key}.${timeoutKey}`;
          if (setting === undefined || setting === null) continue;
          const ms = String(number(setting, name));
          if (timeoutKey === 'action') viaFlag('timeout-action', [ms], name);
          else if (timeoutKey === 'navigation') viaFlag('timeout-navigation', [ms], name);
          else if (timeoutKey === 'idle') viaFlag('idle-timeout', [ms], name);
          else if (timeoutKey === 'settle') viaFlag('timeout-settle', [ms], name);
          else if (timeoutKey === 'expect') note(name, 'no tool here waits for an expectation');
          else unknownKey(name);
        }
        break;
      }
      case 'imageResponses':
        viaFlag('image-responses', [text(value, key)], key);
        break;
      case 'filePaths':
        viaFlag('file-paths', [text(value, key)], key);
        break;
      case 'snapshot': {
        const snapshot = object(value, key);
        if (snapshot.mode !== undefined) viaFlag('snapshot-mode', [text(snapshot.mode, `${key}.mode`)], `${key}.mode`);
        if (snapshot.boxes !== undefined) viaFlag('snapshot-boxes', bool(snapshot.boxes, `${key}.boxes`), `${key}.boxes`);
        break;
      }
      case 'allowUnrestrictedFileAccess':
        viaFlag('allow-unrestricted-file-access', bool(value, key), key);
        break;
      case 'ignoreRoots':
        viaFlag('ignore-roots', bool(value, key), key);
        break;
      case 'codegen':
        viaFlag('codegen', [text(value, key)], key);
        break;
      case 'webmcp':
        bool(value, key);
        break;
      case 'redactUrlParams':
        viaFlag('redact-url-params', [texts(value, key).join(',')], key);
        break;
      default:
        unknownKey(key);
    }
  }

  function readLaunchOptions(options: Record<string, unknown>, prefix: string): void {
    for (const [optionKey, setting] of Object.entries(options)) {
      const name = `${prefix}.${optionKey}`;
      if (setting === undefined || setting === null) continue;
      if (optionKey === 'channel') setBrowser(text(setting, name), at(name));
      else if (optionKey === 'headless') at(name).ours('headless', String(bool(setting, name)));
      else if (optionKey === 'executablePath') at(name).ours('executable-path', path.resolve(text(setting, name)));
      else if (optionKey === 'chromiumSandbox') at(name).setup({ chromiumSandbox: bool(setting, name) });
      else if (optionKey === 'args') at(name).setup({ launchArgs: texts(setting, name) });
      else if (optionKey === 'timeout') at(name).setup({ launchTimeout: number(setting, name) });
      else if (optionKey === 'proxy') {
        const proxy = object(setting, name);
        at(name).session('proxy', { ...(proxy as NonNullable<SessionDefaults['proxy']>), ...proxyOf(text(proxy.server, `${name}.server`), undefined) });
      } else if (!['handleSIGINT', 'handleSIGTERM', 'handleSIGHUP'].includes(optionKey))
        note(name, `not a launch option sessionwright sets${suggestion(name)}`);
    }
  }

  function readContextOptions(options: Record<string, unknown>, prefix: string): void {
    for (const [optionKey, setting] of Object.entries(options)) {
      const name = `${prefix}.${optionKey}`;
      if (setting === undefined) continue;
      if (optionKey === 'viewport') {
        if (setting === null) note(name, 'every session has a viewport (1280x720 unless one is given)');
        else at(name).session('viewport', size(setting, name));
      } else if (optionKey === 'storageState') {
        at(name).session(
          'storageState',
          typeof setting === 'string' ? storageStateFrom(path.resolve(setting), at(name)) : (object(setting, name) as SessionDefaults['storageState']),
        );
      } else if (CONTEXT_OPTIONS.has(optionKey)) at(name).session(optionKey as keyof SessionDefaults, setting as never);
      else if (optionKey === 'acceptDownloads') bool(setting, name);
      else note(name, `not a context option sessionwright sets for every session${suggestion(name)}`);
    }
  }
}
