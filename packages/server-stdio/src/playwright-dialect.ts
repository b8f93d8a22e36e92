// The playwright profile's dialect: @playwright/mcp's (and `playwright mcp`'s) flags, PLAYWRIGHT_MCP_* variables and config-file shape, translated into sessionwright's settings (docs/compat.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  isSessionError,
  resolveSessionDefaults,
  systemChromiumCandidates,
  type BrowserName,
  type ConsoleLevel,
  type SessionDefaults,
} from '@sessionwright/session-core';
import { CAPABILITIES } from '@sessionwright/tools';
import { describeJsonError, readSettingsFile } from './bounded-read.js';
import type { ForeignArity, ForeignOccurrence, ForeignValue, OtherVocabulary, ResolvedConfig, ResolvedValue } from './config.js';
import { BadValue, FLAG_DEFINITIONS, camelCase, type FlagDefinition } from './flags.js';
import type { BrowserSetup } from './options.js';
import { UsageError } from './usage-error.js';

/** @playwright/mcp's capability names (its --caps and `capabilities`); `tracing` is its older name for devtools. */
export const PLAYWRIGHT_CAPS = ['vision', 'pdf', 'devtools', 'network', 'storage', 'testing', 'config'] as const;

/** The prefix of @playwright/mcp's environment variables. */
export const PLAYWRIGHT_ENV_PREFIX = 'PLAYWRIGHT_MCP_';

/** Sizes of the files the dialect reads: a storage state (cookies and localStorage) and a page script. */
const STORAGE_STATE_MAX_BYTES = 20 * 1024 * 1024;
const INIT_SCRIPT_MAX_BYTES = 5 * 1024 * 1024;

/** The longest idle timeout a timer can hold: what --idle-timeout 0 ("never") becomes. */
const NEVER_MS = 2_147_483_647;

/** What one flag took: a bare flag is true (`--x=false` false), a flag with values has them (one for `value`). */
type Given = boolean | string[];

/** One flag of @playwright/mcp (0.0.83) or `playwright mcp` (1.65), and what it means here. */
export interface PlaywrightFlag {
  /** As @playwright/mcp spells it, without the dashes. */
  readonly name: string;
  readonly takes: ForeignArity;
  /** What its value is called in --help. */
  readonly placeholder?: string;
  /** Its variable, PLAYWRIGHT_MCP_ + this, where @playwright/mcp reads one; `values` flags read one item from it, or a comma list with `envList`. */
  readonly env?: string;
  readonly envList?: boolean;
  /** Its value is never printed (headers, a proxy URL with a password). */
  readonly secret?: boolean;
  /**
   * What it means here, one line for --help and docs/compat.md. A flag that our own table reads the same way (`--port`)
   * is `sameAsOurs`: the command line goes to the table, only its variable comes here.
   */
  readonly means: string;
  readonly sameAsOurs?: boolean;
  /** Sets what it means at one level (the command line, the environment). Absent: no meaning here, said once with `means`. */
  readonly apply?: (given: Given, to: Writer) => void;
}

/** What a flag's apply writes into, at one level, with where the value came from for messages. */
interface Writer {
  readonly where: string;
  readonly level: Level;
  /** A value for one of our flags, as text our table reads and checks. */
  ours(flag: string, text: string): void;
  session<K extends keyof SessionDefaults & string>(key: K, value: SessionDefaults[K]): void;
  setup(update: Partial<SetupPart>): void;
  fail(problem: string): never;
  /** Says once, on stderr, that this has no meaning here and why. */
  unmeant(reason: string): void;
}

/** The settings beyond our table that one level sets (merged key by key, the higher level winning). */
interface SetupPart {
  chromiumSandbox: boolean;
  launchArgs: string[];
  launchTimeout: number;
  cdpHeaders: Record<string, string>;
  cdpTimeout: number;
  connectHeaders: Record<string, string>;
  connectTimeout: number;
  elementTimeout: number;
  navigationTimeout: number;
  consoleLevel: ConsoleLevel;
  imageResponses: 'allow' | 'omit';
  saveTrace: boolean;
  saveVideo: { width: number; height: number };
  saveSession: boolean;
  secrets: Record<string, string>;
}

/** One level of precedence: the command line, the environment or the config file. */
class Level {
  readonly ours = new Map<FlagDefinition, ForeignValue[]>();
  readonly session: Record<string, unknown> = {};
  /** Where each session key was set, to name it when the merged defaults are refused. */
  readonly sessionWhere = new Map<string, string>();
  setup: Partial<SetupPart> = {};
  /** A device set here takes the keys it covers from the levels below, as @playwright/mcp's merge does. */
  device: string | undefined;
  mobile: string | undefined;
  browser: { name: BrowserName; channel: string | undefined; where: string } | undefined;
  proxy: { server?: string; bypass?: string; where: string } | undefined;
}

/** The keys a Playwright device descriptor sets. */
const DEVICE_KEYS = ['device', 'viewport', 'userAgent', 'deviceScaleFactor', 'isMobile', 'hasTouch'];

/** `1280x720` or `1280,720`. */
function sizeOf(text: string, to: Writer): { width: number; height: number } {
  const match = /^\s*(\d+)\s*[x,]\s*(\d+)\s*$/i.exec(text);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 1 || height < 1) to.fail('must be a size in pixels such as 1280x720 or 1280,720');
  return { width, height };
}

function numberOf(text: string, to: Writer, min = 0): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < min) to.fail(`must be a number of at least ${min}`);
  return value;
}

function oneOf<const T extends readonly string[]>(text: string, choices: T, to: Writer): T[number] {
  if (!choices.includes(text)) to.fail(`must be one of ${choices.join(', ')}`);
  return text as T[number];
}

/** `Name: value`, as --cdp-header takes it. */
function headerOf(text: string, to: Writer): [string, string] {
  const colon = text.indexOf(':');
  const name = (colon === -1 ? text : text.slice(0, colon)).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) to.fail('must be a header such as "Authorization: Bearer <token>"');
  return [name, colon === -1 ? '' : text.slice(colon + 1).trim()];
}

const list = (texts: string[], separator: string | RegExp) =>
  texts
    .flatMap((text) => text.split(separator))
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The browser --browser (or browser.browserName, or a launch channel) names, and the Chrome or Edge channel if any. */
function browserOf(text: string, to: Writer): { name: BrowserName; channel: string | undefined } {
  if (/^(chrome|msedge)(-beta|-dev|-canary)?$/.test(text)) return { name: 'chromium', channel: text };
  if (text === 'chromium' || text === 'chrome-for-testing') return { name: 'chromium', channel: undefined };
  if (/^moz-firefox(-beta|-nightly)?$/.test(text) || text === 'firefox') return { name: 'firefox', channel: undefined };
  if (text === 'webkit') return { name: 'webkit', channel: undefined };
  return to.fail('must be chrome, chromium, firefox, webkit or msedge (or a chrome-*, msedge-* or moz-firefox-* channel)');
}

function setBrowser(text: string, to: Writer): void {
  const { name, channel } = browserOf(text, to);
  to.level.browser = { name, channel, where: to.where };
  to.ours('browser', name);
}

/** A storage state file, read at start-up: every session starts with its cookies and localStorage. */
function storageStateFrom(file: string, to: Writer): SessionDefaults['storageState'] {
  const text = readSettingsFile(file, 'storage state file', { maxBytes: STORAGE_STATE_MAX_BYTES });
  try {
    return JSON.parse(text) as SessionDefaults['storageState'];
  } catch (error) {
    return to.fail(`the storage state file ${file} is not valid JSON (${describeJsonError(error, text)})`);
  }
}

function initScriptsFrom(files: string[]): string[] {
  return files.map((file) => readSettingsFile(file, 'init script', { maxBytes: INIT_SCRIPT_MAX_BYTES }));
}

const same = (name: string, takes: ForeignArity, placeholder: string | undefined, env: string, means: string): PlaywrightFlag => ({
  name,
  takes,
  ...(placeholder === undefined ? {} : { placeholder }),
  env,
  means,
  sameAsOurs: true,
  apply: (given, to) => to.ours(name, typeof given === 'boolean' ? String(given) : given.join(',')),
});

/** Said for the flags that only work with @playwright/mcp's browser extension. */
const EXTENSION_ONLY = 'only for the Playwright browser extension (--extension), which sessionwright does not drive';

/**
 * Every flag of @playwright/mcp 0.0.83 and of Playwright 1.65's `playwright mcp`, and the older ones configs still carry
 * (--vision, --save-trace, --save-video), in @playwright/mcp's --help order. The translation table: each one sets our
 * flags, the session defaults or the setup; or means what sessionwright does anyway; or has no meaning here.
 */
export const PLAYWRIGHT_FLAGS: readonly PlaywrightFlag[] = [
  {
    name: 'allowed-hosts',
    takes: 'values',
    placeholder: 'hosts...',
    env: 'ALLOWED_HOSTS',
    envList: true,
    means: 'Host header names the HTTP server accepts (our --allowed-hosts; with --port, else ignored as @playwright/mcp ignores it)',
    apply: (given, to) => to.ours('allowed-hosts', list(given as string[], ',').join(',')),
  },
  {
    name: 'allowed-origins',
    takes: 'value',
    placeholder: 'origins',
    env: 'ALLOWED_ORIGINS',
    means: "the only origins the pages' requests may go to (semicolon-separated); not the HTTP server's --allowed-origins of the sessions profile",
    apply: (given, to) => to.session('allowedOrigins', list(given as string[], ';')),
  },
  {
    name: 'allow-unrestricted-file-access',
    takes: 'nothing',
    env: 'ALLOW_UNRESTRICTED_FILE_ACCESS',
    means: 'file: URLs may be opened, and files uploaded from anywhere (--allow-file-urls, --file-root /)',
    apply: (given, to) => {
      if (given !== true) return;
      to.ours('allow-file-urls', 'true');
      to.ours('file-root', path.parse(process.cwd()).root);
    },
  },
  {
    name: 'blocked-origins',
    takes: 'value',
    placeholder: 'origins',
    env: 'BLOCKED_ORIGINS',
    means: "origins the pages' requests never go to (semicolon-separated)",
    apply: (given, to) => to.session('blockedOrigins', list(given as string[], ';')),
  },
  {
    name: 'block-service-workers',
    takes: 'nothing',
    env: 'BLOCK_SERVICE_WORKERS',
    means: 'every session blocks service workers',
    apply: (given, to) => given === true && to.session('serviceWorkers', 'block'),
  },
  {
    name: 'browser',
    takes: 'value',
    placeholder: 'browser',
    env: 'BROWSER',
    means: 'chromium, firefox or webkit (our --browser); chrome, msedge and their channels run Chromium, in that browser where it is installed',
    apply: (given, to) => setBrowser((given as string[])[0] ?? '', to),
  },
  {
    name: 'caps',
    takes: 'value',
    placeholder: 'caps',
    env: 'CAPS',
    means: `tool groups in @playwright/mcp's names (${PLAYWRIGHT_CAPS.join(', ')}), kept as our --caps`,
    apply: (given, to) => to.ours('caps', list(given as string[], ',').join(',')),
  },
  same('cdp-endpoint', 'value', 'endpoint', 'CDP_ENDPOINT', 'sessions run in the Chromium at this CDP endpoint (our --cdp-endpoint)'),
  {
    name: 'cdp-header',
    takes: 'values',
    placeholder: 'headers...',
    env: 'CDP_HEADERS',
    secret: true,
    means: 'headers sent when connecting to --cdp-endpoint ("Name: value"; never printed)',
    apply: (given, to) => {
      const headers = { ...to.level.setup.cdpHeaders };
      for (const text of given as string[]) {
        const [name, value] = headerOf(text, to);
        headers[name] = value;
      }
      to.setup({ cdpHeaders: headers });
    },
  },
  {
    name: 'cdp-timeout',
    takes: 'value',
    placeholder: 'timeout',
    env: 'CDP_TIMEOUT',
    means: 'how long connecting to --cdp-endpoint may take, in ms (0: no limit)',
    apply: (given, to) => to.setup({ cdpTimeout: numberOf((given as string[])[0] ?? '', to) }),
  },
  {
    name: 'codegen',
    takes: 'value',
    placeholder: 'lang',
    env: 'CODEGEN',
    means: 'results carry no generated Playwright code; "none" is what sessionwright does',
    apply: (given, to) => {
      const language = oneOf((given as string[])[0] ?? '', ['none', 'typescript', 'python', 'java', 'csharp'] as const, to);
      if (language !== 'none') to.unmeant('results carry no generated Playwright code');
    },
  },
  same('config', 'value', 'path', 'CONFIG', "a JSON config file, in @playwright/mcp's shape or in sessionwright's"),
  {
    name: 'console-level',
    takes: 'value',
    placeholder: 'level',
    env: 'CONSOLE_LEVEL',
    means: 'the lowest level browser_console_messages returns when a call names none',
    apply: (given, to) => to.setup({ consoleLevel: oneOf((given as string[])[0] ?? '', ['error', 'warning', 'info', 'debug'] as const, to) }),
  },
  {
    name: 'device',
    takes: 'value',
    placeholder: 'device',
    env: 'DEVICE',
    means: 'every session emulates this Playwright device (viewport, user agent, scale, touch)',
    apply: (given, to) => {
      to.level.device = to.where;
      to.session('device', (given as string[])[0] ?? '');
    },
  },
  {
    name: 'mobile',
    takes: 'nothing',
    env: 'MOBILE',
    means: 'every session emulates a generic phone (Pixel 10, or iPhone 17 with webkit)',
    apply: (given, to) => {
      if (given === true) to.level.mobile = to.where;
    },
  },
  same('executable-path', 'value', 'path', 'EXECUTABLE_PATH', 'the browser binary (our --executable-path)'),
  {
    name: 'extension',
    takes: 'nothing',
    env: 'EXTENSION',
    means: 'sessionwright launches or connects to its own browser; it does not drive the browser extension',
  },
  {
    name: 'endpoint',
    takes: 'value',
    placeholder: 'endpoint',
    means: 'sessions run on this Playwright browser server (our --browser-endpoint)',
    apply: (given, to) => to.ours('browser-endpoint', (given as string[])[0] ?? ''),
  },
  {
    name: 'file-paths',
    takes: 'value',
    placeholder: 'mode',
    env: 'FILE_PATHS',
    means: 'results name files by absolute path; "absolute" is what sessionwright does',
    apply: (given, to) => {
      if (oneOf((given as string[])[0] ?? '', ['relative', 'absolute'] as const, to) === 'relative') to.unmeant('results name files by absolute path');
    },
  },
  {
    name: 'grant-permissions',
    takes: 'values',
    placeholder: 'permissions...',
    env: 'GRANT_PERMISSIONS',
    envList: true,
    means: 'every session is granted these permissions (geolocation, clipboard-read, …)',
    apply: (given, to) => to.session('permissions', list(given as string[], ',')),
  },
  same('headless', 'nothing', undefined, 'HEADLESS', 'run the browser without a window (our --headless)'),
  {
    name: 'host',
    takes: 'value',
    placeholder: 'host',
    env: 'HOST',
    means: "the HTTP server's address (our --host; with --port, else ignored as @playwright/mcp ignores it)",
    apply: (given, to) => to.ours('host', (given as string[])[0] ?? ''),
  },
  {
    name: 'idle-timeout',
    takes: 'value',
    placeholder: 'timeout',
    env: 'IDLE_TIMEOUT',
    means: "a session, the connection's page too, closes after this many ms without a call (our --session-timeout; 0: never)",
    apply: (given, to) => {
      const ms = numberOf((given as string[])[0] ?? '', to);
      to.ours('session-timeout', String(ms === 0 ? NEVER_MS : Math.min(Math.round(ms), NEVER_MS)));
    },
  },
  {
    name: 'ignore-https-errors',
    takes: 'nothing',
    env: 'IGNORE_HTTPS_ERRORS',
    means: 'every session ignores HTTPS errors',
    apply: (given, to) => given === true && to.session('ignoreHTTPSErrors', true),
  },
  {
    name: 'ignore-roots',
    takes: 'nothing',
    env: 'IGNORE_ROOTS',
    means: 'files are uploaded from the working directory, without asking the client for its roots (--file-root .)',
    apply: (given, to) => given === true && to.ours('file-root', process.cwd()),
  },
  {
    name: 'init-page',
    takes: 'values',
    placeholder: 'path...',
    env: 'INIT_PAGE',
    means: 'no TypeScript runs on the page object in the server; --init-script runs a script in every page',
  },
  {
    name: 'init-script',
    takes: 'values',
    placeholder: 'path...',
    env: 'INIT_SCRIPT',
    means: 'every page of every session runs these scripts before its own',
    apply: (given, to) => to.session('initScripts', [...((to.level.session.initScripts as string[] | undefined) ?? []), ...initScriptsFrom(given as string[])]),
  },
  {
    name: 'isolated',
    takes: 'nothing',
    env: 'ISOLATED',
    means: 'what every session is: its own in-memory context',
    apply: (given, to) => given === false && to.unmeant('every session is isolated; no profile is kept on disk'),
  },
  {
    name: 'image-responses',
    takes: 'value',
    placeholder: 'mode',
    env: 'IMAGE_RESPONSES',
    means: 'allow: screenshots come back as images; omit: results carry no images; only: as allow (the JSON result stays first)',
    apply: (given, to) => {
      const mode = oneOf((given as string[])[0] ?? '', ['allow', 'omit', 'only'] as const, to);
      if (mode === 'only') to.unmeant('a result always starts with its JSON; images come after it');
      to.setup({ imageResponses: mode === 'omit' ? 'omit' : 'allow' });
    },
  },
  {
    name: 'no-sandbox',
    takes: 'nothing',
    means: "Chromium runs without its sandbox (Playwright's default here)",
    apply: (given, to) => to.setup({ chromiumSandbox: given !== true }),
  },
  { name: 'background', takes: 'nothing', env: 'BACKGROUND', means: EXTENSION_ONLY },
  { name: 'no-tab-group', takes: 'nothing', env: 'NO_TAB_GROUP', means: EXTENSION_ONLY },
  {
    name: 'no-webmcp',
    takes: 'nothing',
    env: 'WEBMCP',
    means: 'what sessionwright does: tools a page registers through WebMCP are not exposed',
    apply: () => {},
  },
  same('output-dir', 'value', 'path', 'OUTPUT_DIR', "where files are saved, each client's in a folder of its own (our --output-dir)"),
  same('output-max-size', 'value', 'bytes', 'OUTPUT_MAX_SIZE', "the most a client's folder of --output-dir may hold (our --output-max-size)"),
  same('port', 'value', 'port', 'PORT', 'serve MCP over HTTP: legacy SSE at / and /sse, Streamable HTTP at /mcp (our --port)'),
  { name: 'profile-dir-name', takes: 'value', placeholder: 'name', env: 'PROFILE_DIR_NAME', means: EXTENSION_ONLY },
  {
    name: 'proxy-bypass',
    takes: 'value',
    placeholder: 'bypass',
    env: 'PROXY_BYPASS',
    means: 'domains that bypass --proxy-server',
    apply: (given, to) => {
      to.level.proxy = { ...to.level.proxy, bypass: (given as string[])[0] ?? '', where: to.level.proxy?.where ?? to.where };
    },
  },
  {
    name: 'proxy-server',
    takes: 'value',
    placeholder: 'proxy',
    env: 'PROXY_SERVER',
    secret: true,
    means: "every session's traffic goes through this proxy (http://user:password@host:port; the password is never printed)",
    apply: (given, to) => {
      to.level.proxy = { ...to.level.proxy, server: (given as string[])[0] ?? '', where: to.where };
    },
  },
  same(
    'redact-url-params',
    'value',
    'names',
    'REDACT_URL_PARAMS',
    'the values of these URL query and fragment parameters are shown as <redacted> in every URL a result shows (our --redact-url-params)',
  ),
  {
    name: 'remote-header',
    takes: 'values',
    placeholder: 'headers...',
    env: 'REMOTE_HEADERS',
    secret: true,
    means: 'headers sent when connecting to --endpoint ("Name: value"; never printed)',
    apply: (given, to) => {
      const headers = { ...to.level.setup.connectHeaders };
      for (const text of given as string[]) {
        const [name, value] = headerOf(text, to);
        headers[name] = value;
      }
      to.setup({ connectHeaders: headers });
    },
  },
  {
    name: 'sandbox',
    takes: 'nothing',
    env: 'SANDBOX',
    means: 'Chromium runs with its sandbox',
    apply: (given, to) => to.setup({ chromiumSandbox: given === true }),
  },
  {
    name: 'save-session',
    takes: 'nothing',
    means: 'recorded for the devtools capability; this version writes no session log yet',
    apply: (given, to) => {
      to.setup({ saveSession: given === true });
      if (given === true) to.unmeant('recorded; this version writes no session log yet');
    },
  },
  same(
    'secrets',
    'value',
    'path',
    'SECRETS_FILE',
    'a dotenv file of secrets: each value is shown as <secret>NAME</secret> in results, written files and logs, and browser_type given NAME types it (our --secrets)',
  ),
  {
    name: 'shared-browser-context',
    takes: 'nothing',
    means: 'each connection has its own session; connections share one by passing its sessionId',
    apply: (given, to) => given === true && to.unmeant('each connection has its own session; connections share one by passing its sessionId'),
  },
  { name: 'snapshot-boxes', takes: 'nothing', means: 'snapshots carry no bounding boxes' },
  {
    name: 'snapshot-mode',
    takes: 'value',
    placeholder: 'mode',
    means: 'actions always carry the page\'s snapshot; "full" is what sessionwright does',
    apply: (given, to) => {
      if ((given as string[])[0] !== 'full') to.unmeant("actions always carry the page's snapshot");
    },
  },
  {
    name: 'storage-state',
    takes: 'value',
    placeholder: 'path',
    env: 'STORAGE_STATE',
    means: "every session starts with this storage state's cookies and localStorage (read at start-up)",
    apply: (given, to) => to.session('storageState', storageStateFrom((given as string[])[0] ?? '', to)),
  },
  { name: 'test-id-attribute', takes: 'value', placeholder: 'attribute', env: 'TEST_ID_ATTRIBUTE', means: 'no tool here generates test-id locators' },
  {
    name: 'timeout-action',
    takes: 'value',
    placeholder: 'timeout',
    env: 'TIMEOUT_ACTION',
    means: 'how long element actions wait, in ms, when a call gives no timeout (default 5000; 0: up to --call-timeout)',
    apply: (given, to) => to.setup({ elementTimeout: numberOf((given as string[])[0] ?? '', to) }),
  },
  {
    name: 'timeout-navigation',
    takes: 'value',
    placeholder: 'timeout',
    env: 'TIMEOUT_NAVIGATION',
    means: 'how long navigations wait, in ms, when a call gives no timeout (default 30000; 0: up to --call-timeout)',
    apply: (given, to) => to.setup({ navigationTimeout: numberOf((given as string[])[0] ?? '', to) }),
  },
  {
    name: 'timeout-settle',
    takes: 'value',
    placeholder: 'timeout',
    env: 'TIMEOUT_SETTLE',
    means: 'actions wait for the navigation they start, not for a fixed settle time',
  },
  {
    name: 'user-agent',
    takes: 'value',
    placeholder: 'ua string',
    env: 'USER_AGENT',
    means: 'every session sends this user agent',
    apply: (given, to) => to.session('userAgent', (given as string[])[0] ?? ''),
  },
  {
    name: 'user-data-dir',
    takes: 'value',
    placeholder: 'path',
    env: 'USER_DATA_DIR',
    means: 'sessions are isolated in-memory contexts, never a profile on disk; --storage-state starts them signed in',
  },
  {
    name: 'viewport-size',
    takes: 'value',
    placeholder: 'size',
    env: 'VIEWPORT_SIZE',
    means: 'every session\'s viewport, "1280x720" or "1280,720"',
    apply: (given, to) => to.session('viewport', sizeOf((given as string[])[0] ?? '', to)),
  },
  { name: 'vision', takes: 'nothing', means: 'the older spelling of --caps vision', apply: (given, to) => given === true && to.ours('caps', 'vision') },
  {
    name: 'save-trace',
    takes: 'nothing',
    means: 'recorded for the devtools capability (a trace per session under --output-dir); this version writes none yet',
    apply: (given, to) => {
      to.setup({ saveTrace: given === true });
      if (given === true) to.unmeant('recorded; this version writes no traces yet');
    },
  },
  {
    name: 'save-video',
    takes: 'value',
    placeholder: 'size',
    means: 'recorded for the devtools capability (a video per page at this size under --output-dir); this version records none yet',
    apply: (given, to) => {
      to.setup({ saveVideo: sizeOf((given as string[])[0] ?? '', to) });
      to.unmeant('recorded; this version records no video yet');
    },
  },
];

const BY_NAME = new Map(PLAYWRIGHT_FLAGS.map((flag) => [flag.name, flag]));

/** Our flags that mean something else (or are read another way) in the playwright profile: there, the dialect reads them. */
export const TAKEN_OVER: readonly string[] = PLAYWRIGHT_FLAGS.filter(
  (flag) => !flag.sameAsOurs && FLAG_DEFINITIONS.some((ours) => ours.name === flag.name),
).map((flag) => flag.name);

/** Our table as the playwright profile reads it: --caps takes @playwright/mcp's names (checked when the settings are finished). */
export const PLAYWRIGHT_PROFILE_FLAGS: readonly FlagDefinition[] = FLAG_DEFINITIONS.map((flag) =>
  flag.name === 'caps'
    ? {
        ...flag,
        check: (cap: string) => {
          if (!/^[a-z][a-z-]*$/.test(cap)) throw new BadValue(`"${cap}" is not a capability name`, 'may hold only capability names (see --help)');
          return cap;
        },
      }
    : flag,
);

/** The profile's flags for the command line: the taken-over ones are left to the dialect. */
export const PLAYWRIGHT_COMMAND_LINE_FLAGS: readonly FlagDefinition[] = PLAYWRIGHT_PROFILE_FLAGS.filter((flag) => !TAKEN_OVER.includes(flag.name));

/** What the command line's parser asks of the dialect: how many values an @playwright/mcp flag takes. */
export function playwrightArity(name: string): ForeignArity | undefined {
  const flag = BY_NAME.get(name);
  // Ours to read, --config included (the table's parser knows it without a definition).
  return flag === undefined || flag.sameAsOurs ? undefined : flag.takes;
}

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

/**
 * A config file is in @playwright/mcp's shape when its `browser` is an object or it has a key of @playwright/mcp's
 * that is not one of ours (`server`, `capabilities`, `network`, `timeouts`, …); otherwise it is ours.
 */
export function isPlaywrightConfig(json: Record<string, unknown>): boolean {
  return Object.entries(json).some(([key, value]) => (key === 'browser' ? isObject(value) : PLAYWRIGHT_CONFIG_KEYS.has(key) && !OUR_KEYS.has(key)));
}

/** The keys of a config file in @playwright/mcp's shape that are ours alone (maxSessions, profile, …): read as ours. */
function ownKeys(json: Record<string, unknown>): Record<string, unknown> {
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

/** The translation of one run's @playwright/mcp input: our flags' values by level, then the rest once ours are resolved. */
export interface PlaywrightTranslation {
  /** For resolveConfig: our flags' values from @playwright/mcp's command line, variables and config file. */
  vocabulary: OtherVocabulary;
  /** The environment with PLAYWRIGHT_MCP_CONFIG naming the config file when ours names none. */
  env: Record<string, string | undefined>;
  /**
   * With our flags resolved: the setup (merged command line over environment over file), a browser channel's executable
   * where no path was given, @playwright/mcp's capability names, and the lines to say on stderr.
   */
  finish(config: ResolvedConfig): { values: ReadonlyMap<string, ResolvedValue>; setup: BrowserSetup; notes: string[] };
}

/**
 * Translates @playwright/mcp's flags from the command line (as readCommandLine set them aside) and its variables, and
 * gives a reader for its config file. Throws UsageError naming the flag or variable for a bad value.
 */
export function translatePlaywright(foreign: readonly ForeignOccurrence[], env: Record<string, string | undefined>): PlaywrightTranslation {
  const notes = new Map<string, string>();
  const cli = new Level();
  const fromEnv = new Level();
  const file = new Level();
  // Keyed by the flag, so one given on the command line and in a variable is still said once.
  const unmeant: Unmeant = (key, display, reason) => {
    if (!notes.has(key)) notes.set(key, `${display}: accepted, no effect here: ${reason}`);
  };

  for (const { name, values } of foreign) {
    const flag = BY_NAME.get(name);
    if (flag === undefined) continue;
    const spelling = `--${name}`;
    if (flag.takes !== 'nothing' && values.length === 0) throw new UsageError(`${spelling} needs a value`);
    const where = values.length === 0 ? spelling : `${spelling} ${flag.secret ? '***' : values.join(' ')}`;
    const given: Given = flag.takes === 'nothing' ? booleanOf(values[0], where) : values;
    apply(flag, given, writer(cli, where, { key: name, display: spelling }, unmeant));
  }

  for (const flag of PLAYWRIGHT_FLAGS) {
    if (flag.env === undefined) continue;
    const variable = `${PLAYWRIGHT_ENV_PREFIX}${flag.env}`;
    const text = env[variable]?.trim();
    if (text === undefined || text === '' || flag.name === 'config') continue;
    const where = `${variable}=${flag.secret ? '***' : text}`;
    let given: Given;
    if (flag.takes === 'nothing') {
      // As @playwright/mcp reads them: true/1 and false/0, anything else unset.
      if (!['true', '1', 'false', '0'].includes(text)) continue;
      given = text === 'true' || text === '1';
    } else given = flag.envList ? list([text], ',') : [text];
    apply(flag, given, writer(fromEnv, where, { key: flag.name, display: variable }, unmeant));
  }

  const configEnv = `${PLAYWRIGHT_ENV_PREFIX}CONFIG`;
  const vocabulary: OtherVocabulary = {
    cli: cli.ours,
    env: fromEnv.ours,
    file(json, filePath) {
      if (!isPlaywrightConfig(json)) return undefined;
      readConfig(json, filePath, file, unmeant);
      finishLevel(file);
      return { own: ownKeys(json), values: file.ours };
    },
  };
  finishLevel(cli);
  finishLevel(fromEnv);

  return {
    vocabulary,
    env: env.SESSIONWRIGHT_CONFIG || !env[configEnv] ? env : { ...env, SESSIONWRIGHT_CONFIG: env[configEnv] },
    finish(config) {
      const values = new Map(config.values);
      const levels = [file, fromEnv, cli];
      const browser = (values.get('browser')?.value ?? 'chromium') as BrowserName;
      const callTimeout = values.get('callTimeout')?.value as number;

      // A Chrome or Edge channel runs in that browser when it is installed and no executable was given.
      const winner = levels.filter((level) => level.browser !== undefined).at(-1)?.browser;
      const browserSource = values.get('browser');
      if (winner?.channel !== undefined && browserSource?.via !== undefined && values.get('executablePath')?.value === undefined) {
        const found = channelExecutable(winner.channel);
        if (found !== undefined) values.set('executablePath', { value: found, source: browserSource.source, via: winner.where });
        else notes.set('browser', `${winner.where}: no ${winner.channel} found on this machine; sessions run in sessionwright's usual Chromium`);
      }

      const caps = values.get('caps');
      if (caps !== undefined && Array.isArray(caps.value)) values.set('caps', { ...caps, value: playwrightCaps(caps.value as string[], notes) });

      const sessionDefaults = mergeSessionDefaults(levels);
      if (sessionDefaults !== undefined) checkSessionDefaults(sessionDefaults, browser, levels);
      const part: Partial<SetupPart> = Object.assign({}, ...levels.map((level) => level.setup));
      const setup: BrowserSetup = {
        sessionDefaults,
        launch: {
          ...(part.chromiumSandbox === undefined ? {} : { chromiumSandbox: part.chromiumSandbox }),
          ...(part.launchArgs === undefined ? {} : { args: part.launchArgs }),
          ...(part.launchTimeout === undefined ? {} : { timeout: part.launchTimeout }),
        },
        endpoints: {
          ...(part.cdpHeaders === undefined ? {} : { cdpHeaders: part.cdpHeaders }),
          ...(part.cdpTimeout === undefined ? {} : { cdpTimeout: part.cdpTimeout }),
          ...(part.connectHeaders === undefined ? {} : { connectHeaders: part.connectHeaders }),
          ...(part.connectTimeout === undefined ? {} : { connectTimeout: part.connectTimeout }),
        },
        timeouts: {
          // 0, Playwright's "no limit", is the call's own ceiling here: nothing waits longer than --call-timeout.
          ...(part.elementTimeout === undefined ? {} : { element: part.elementTimeout || callTimeout }),
          ...(part.navigationTimeout === undefined ? {} : { navigation: part.navigationTimeout || callTimeout }),
        },
        consoleLevel: part.consoleLevel,
        imageResponses: part.imageResponses ?? 'allow',
        recording: { trace: part.saveTrace ?? false, video: part.saveVideo, session: part.saveSession ?? false },
        ...(part.secrets === undefined ? {} : { secrets: part.secrets }),
      };
      return { values, setup, notes: [...notes.values()] };
    },
  };
}

function apply(flag: PlaywrightFlag, given: Given, to: Writer): void {
  if (flag.apply === undefined) {
    // A bare flag set to false asks for nothing; anything else asks for what has no meaning here.
    if (given !== false) to.unmeant(flag.means);
    return;
  }
  flag.apply(given, to);
}

/** `--flag` is true; `--flag=false` (or 0, no, off) is false. */
function booleanOf(text: string | undefined, where: string): boolean {
  const value = text?.trim().toLowerCase();
  if (value === undefined || ['', 'true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new UsageError(`${where}: must be true or false`);
}

/** Says once that a flag (`key`, shown as `display`) has no effect here. */
type Unmeant = (key: string, display: string, reason: string) => void;

function writer(level: Level, where: string, name: { key: string; display: string }, unmeant: Unmeant): Writer {
  const ourFlags = new Map(PLAYWRIGHT_PROFILE_FLAGS.map((flag) => [flag.name, flag]));
  const to: Writer = {
    where,
    level,
    ours(flag, text) {
      const definition = ourFlags.get(flag);
      if (definition === undefined) throw new Error(`no flag --${flag}`);
      const values = level.ours.get(definition) ?? [];
      values.push({ where, text });
      level.ours.set(definition, values);
    },
    session(key, value) {
      level.session[key] = value;
      level.sessionWhere.set(key, where);
    },
    setup(update) {
      level.setup = { ...level.setup, ...update };
    },
    fail(problem) {
      throw new UsageError(`${where}: ${problem}`);
    },
    unmeant: (reason) => unmeant(name.key, name.display, reason),
  };
  return to;
}

/** What a level's flags set together: --mobile's device (by the level's browser), the proxy with its bypass. */
function finishLevel(level: Level): void {
  if (level.mobile !== undefined) {
    if (level.device !== undefined) throw new UsageError(`${level.mobile}: cannot be used together with ${level.device}; pick one`);
    if (level.browser?.name === 'firefox') throw new UsageError(`${level.mobile}: Firefox cannot emulate a phone; use chromium or webkit`);
    level.session.device = level.browser?.name === 'webkit' ? 'iPhone 17' : 'Pixel 10';
    level.sessionWhere.set('device', level.mobile);
    level.device = level.mobile;
    level.mobile = undefined;
  }
  const proxy = level.proxy;
  if (proxy?.server !== undefined) {
    level.session.proxy = proxyOf(proxy.server, proxy.bypass);
    level.sessionWhere.set('proxy', proxy.where);
  }
  level.proxy = undefined;
}

/** A proxy URL as @playwright/mcp takes it, with the credentials it may carry taken out into their own fields (secrets). */
function proxyOf(server: string, bypass: string | undefined): NonNullable<SessionDefaults['proxy']> {
  const result: NonNullable<SessionDefaults['proxy']> = { server };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server) && URL.canParse(server)) {
    const url = new URL(server);
    if (url.username !== '' || url.password !== '') {
      result.username = decodeURIComponent(url.username);
      result.password = decodeURIComponent(url.password);
      url.username = '';
      url.password = '';
      result.server = url.href.replace(/\/$/, '');
    }
  }
  if (bypass !== undefined && bypass !== '') result.bypass = bypass;
  return result;
}

/** The session defaults of every level, the higher level winning key by key; a device takes the keys it covers from below. */
function mergeSessionDefaults(levels: readonly Level[]): SessionDefaults | undefined {
  const merged: Record<string, unknown> = {};
  for (const level of levels) {
    if (level.session.device !== undefined) for (const key of DEVICE_KEYS) delete merged[key];
    Object.assign(merged, level.session);
  }
  return Object.keys(merged).length === 0 ? undefined : (merged as SessionDefaults);
}

/** Checks the merged defaults as session-core will, naming where the refused one came from. */
function checkSessionDefaults(defaults: SessionDefaults, browser: BrowserName, levels: readonly Level[]): void {
  try {
    resolveSessionDefaults(defaults, browser);
  } catch (error) {
    if (!isSessionError(error)) throw error;
    const option = typeof error.details?.option === 'string' ? error.details.option : undefined;
    const where =
      option === undefined
        ? undefined
        : [...levels]
            .reverse()
            .find((level) => level.sessionWhere.has(option))
            ?.sessionWhere.get(option);
    throw new UsageError(`${where ?? 'the playwright profile'}: ${error.message}`);
  }
}

/** @playwright/mcp's capability names as the settings keep them: tracing is devtools; core* is always on; others are said and left out. */
function playwrightCaps(caps: readonly string[], notes: Map<string, string>): string[] {
  const known = new Set<string>([...PLAYWRIGHT_CAPS, ...CAPABILITIES, 'all']);
  const kept: string[] = [];
  for (const cap of caps) {
    const name = cap === 'tracing' ? 'devtools' : cap;
    if (name === 'core' || name.startsWith('core-')) continue;
    if (!known.has(name)) {
      notes.set(`caps ${name}`, `caps: "${name}" is not a capability of @playwright/mcp; ignored`);
      continue;
    }
    if (!kept.includes(name)) kept.push(name);
  }
  // The playwright profile serves @playwright/mcp's core tools; each capability's tools come with their capability group.
  return kept;
}

/** Where a Chrome or Edge channel is installed, if it is, in the usual places. */
function channelExecutable(channel: string): string | undefined {
  const [brand = '', release] = channel.split('-');
  const linux =
    brand === 'chrome'
      ? [`/opt/google/chrome${release ? `-${release}` : ''}/chrome`, `/usr/bin/google-chrome${release ? `-${release}` : '-stable'}`, '/usr/bin/google-chrome']
      : [
          `/opt/microsoft/msedge${release ? `-${release}` : ''}/msedge`,
          `/usr/bin/microsoft-edge${release ? `-${release}` : '-stable'}`,
          '/usr/bin/microsoft-edge',
        ];
  const stable = release === undefined;
  const pattern = brand === 'chrome' ? /chrome/i : /edge/i;
  const elsewhere =
    stable && process.platform !== 'linux' ? systemChromiumCandidates(false).filter((file) => pattern.test(file) && !/chromium/i.test(file)) : [];
  const candidates = process.platform === 'linux' ? (stable ? linux : linux.slice(0, 2)) : elsewhere;
  return candidates.find((file) => existsSync(file));
}

/** A config file in @playwright/mcp's shape, key by key, into one level; a value of the wrong type is refused naming its key, never quoting it. */
function readConfig(json: Record<string, unknown>, file: string, level: Level, unmeant: Unmeant): void {
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
  const unknownKey = (key: string) => note(key, 'not a setting of @playwright/mcp or sessionwright');
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
      } else if (!['handleSIGINT', 'handleSIGTERM', 'handleSIGHUP'].includes(optionKey)) note(name, 'not a launch option sessionwright sets');
    }
  }

  function readContextOptions(options: Record<string, unknown>, prefix: string): void {
    const direct = new Set<string>([
      'userAgent',
      'locale',
      'timezoneId',
      'geolocation',
      'permissions',
      'colorScheme',
      'reducedMotion',
      'extraHTTPHeaders',
      'httpCredentials',
      'offline',
      'javaScriptEnabled',
      'ignoreHTTPSErrors',
      'proxy',
      'deviceScaleFactor',
      'isMobile',
      'hasTouch',
      'screen',
      'serviceWorkers',
      'baseURL',
      'bypassCSP',
      'contrast',
      'forcedColors',
    ]);
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
      } else if (direct.has(optionKey)) at(name).session(optionKey as keyof SessionDefaults, setting as never);
      else if (optionKey === 'acceptDownloads') bool(setting, name);
      else note(name, 'not a context option sessionwright sets for every session');
    }
  }
}

/** The help section of the playwright profile: every @playwright/mcp flag and what it means here. */
export function playwrightHelp(): string {
  const usage = (flag: PlaywrightFlag) => `--${flag.name}${flag.placeholder === undefined ? '' : ` <${flag.placeholder}>`}`;
  const width = Math.max(...PLAYWRIGHT_FLAGS.map((flag) => usage(flag).length)) + 2;
  const lines = PLAYWRIGHT_FLAGS.map(
    (flag) => `  ${usage(flag).padEnd(width)}${flag.means}${flag.env === undefined ? '' : ` (${PLAYWRIGHT_ENV_PREFIX}${flag.env})`}`,
  );
  return [
    "With --profile playwright, @playwright/mcp's flags (0.0.83, and `playwright mcp` of Playwright 1.65) are accepted as well, each as it means here (docs/compat.md):",
    '',
    ...lines,
    '',
    `  Each also as its ${PLAYWRIGHT_ENV_PREFIX}* variable where @playwright/mcp reads one, and --config reads @playwright/mcp's config shape.`,
    '  A flag without an effect here is accepted and named once on stderr.',
  ].join('\n');
}
