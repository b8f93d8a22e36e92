// The playwright profile's flag table: every flag of @playwright/mcp (and `playwright mcp`), its PLAYWRIGHT_MCP_* variable, its help line, and what it sets here (docs/compat.md).
import path from 'node:path';
import type { BrowserName, SessionDefaults } from '@sessionwright/session-core/parts';
import { describeJsonError, readSettingsFile } from '../../input/bounded-read.js';
import type { ForeignArity } from '../sources.js';
import { FLAG_DEFINITIONS, helpLines, type FlagDefinition } from '../table.js';
import { PLAYWRIGHT_PROFILE_FLAGS, headerOf, list, numberOf, oneOf, sizeOf, type Given, type Writer } from './level.js';
import { defined } from '@sessionwright/session-core/parts';

/** @playwright/mcp's capability names (its --caps and `capabilities`); `tracing` is its older name for devtools. */
export const PLAYWRIGHT_CAPS = ['vision', 'pdf', 'devtools', 'network', 'storage', 'testing', 'config'] as const;

/** The prefix of @playwright/mcp's environment variables. */
export const PLAYWRIGHT_ENV_PREFIX = 'PLAYWRIGHT_MCP_';

/** Sizes of the files the dialect reads: a storage state (cookies and localStorage) and a page script. */
const STORAGE_STATE_MAX_BYTES = 20 * 1024 * 1024;
const INIT_SCRIPT_MAX_BYTES = 5 * 1024 * 1024;

/** The longest idle timeout a timer can hold: what --idle-timeout 0 ("never") becomes. */
const NEVER_MS = 2_147_483_647;

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

/** The browser --browser (or browser.browserName, or a launch channel) names, and the Chrome or Edge channel if any. */
function browserOf(text: string, to: Writer): { name: BrowserName; channel: string | undefined } {
  if (/^(chrome|msedge)(-beta|-dev|-canary)?$/.test(text)) return { name: 'chromium', channel: text };
  if (text === 'chromium' || text === 'chrome-for-testing') return { name: 'chromium', channel: undefined };
  if (/^moz-firefox(-beta|-nightly)?$/.test(text) || text === 'firefox') return { name: 'firefox', channel: undefined };
  if (text === 'webkit') return { name: 'webkit', channel: undefined };
  return to.fail('must be chrome, chromium, firefox, webkit or msedge (or a chrome-*, msedge-* or moz-firefox-* channel)');
}

export function setBrowser(text: string, to: Writer): void {
  const { name, channel } = browserOf(text, to);
  to.level.browser = { name, channel, where: to.where };
  to.ours('browser', name);
}

/** A storage state file, read at start-up: every session starts with its cookies and localStorage. */
export function storageStateFrom(file: string, to: Writer): SessionDefaults['storageState'] {
  const text = readSettingsFile(file, 'storage state file', { maxBytes: STORAGE_STATE_MAX_BYTES });
  try {
    return JSON.parse(text) as SessionDefaults['storageState'];
  } catch (error) {
    return to.fail(`the storage state file ${file} is not valid JSON (${describeJsonError(error, text)})`);
  }
}

export function initScriptsFrom(files: string[]): string[] {
  return files.map((file) => readSettingsFile(file, 'init script', { maxBytes: INIT_SCRIPT_MAX_BYTES }));
}

const same = (name: string, takes: ForeignArity, placeholder: string | undefined, env: string, means: string): PlaywrightFlag => ({
  name,
  takes,
  ...defined({ placeholder }),
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
    'a dotenv file of secrets: each value is shown as <secret>NAME</secret> in results, written files and logs, and browser_type ' +
      'given NAME types it (our --secrets)',
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
    means: "full (default): each action writes the page's snapshot to a file its result names; none: actions write and name none",
    apply: (given, to) => {
      // @playwright/mcp takes any word here and treats every one but "none" as "full"; so does this.
      const mode = (given as string[])[0] ?? '';
      if (mode !== 'full' && mode !== 'none') to.unmeant(`"${mode.slice(0, 40)}" is read as "full", as @playwright/mcp reads it`);
      to.setup({ snapshotMode: mode === 'none' ? 'none' : 'full' });
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

export const BY_NAME = new Map(PLAYWRIGHT_FLAGS.map((flag) => [flag.name, flag]));

/** Our flags that mean something else (or are read another way) in the playwright profile: there, the dialect reads them. */
const TAKEN_OVER: readonly string[] = PLAYWRIGHT_FLAGS.filter((flag) => !flag.sameAsOurs && FLAG_DEFINITIONS.some((ours) => ours.name === flag.name)).map(
  (flag) => flag.name,
);

/** The profile's flags for the command line: the taken-over ones are left to the dialect. */
export const PLAYWRIGHT_COMMAND_LINE_FLAGS: readonly FlagDefinition[] = PLAYWRIGHT_PROFILE_FLAGS.filter((flag) => !TAKEN_OVER.includes(flag.name));

/** What the command line's parser asks of the dialect: how many values an @playwright/mcp flag takes. */
export function playwrightArity(name: string): ForeignArity | undefined {
  const flag = BY_NAME.get(name);
  // Ours to read, --config included (the table's parser knows it without a definition).
  return flag === undefined || flag.sameAsOurs ? undefined : flag.takes;
}

export function apply(flag: PlaywrightFlag, given: Given, to: Writer): void {
  if (flag.apply === undefined) {
    // A bare flag set to false asks for nothing; anything else asks for what has no meaning here.
    if (given !== false) to.unmeant(flag.means);
    return;
  }
  flag.apply(given, to);
}

/** The help section of the playwright profile: every @playwright/mcp flag and what it means here. */
export function playwrightHelp(): string {
  const usage = (flag: PlaywrightFlag) => `--${flag.name}${flag.placeholder === undefined ? '' : ` <${flag.placeholder}>`}`;
  const lines = helpLines(
    PLAYWRIGHT_FLAGS.map((flag) => [usage(flag), `${flag.means}${flag.env === undefined ? '' : ` (${PLAYWRIGHT_ENV_PREFIX}${flag.env})`}`]),
  );
  return [
    "With --profile playwright, @playwright/mcp's flags (0.0.83, and `playwright mcp` of Playwright 1.65) are accepted as well, " +
      'each as it means here (docs/compat.md):',
    '',
    ...lines,
    '',
    `  Each also as its ${PLAYWRIGHT_ENV_PREFIX}* variable where @playwright/mcp reads one, and --config reads @playwright/mcp's config shape.`,
    '  A flag without an effect here is accepted and named once on stderr.',
  ].join('\n');
}
