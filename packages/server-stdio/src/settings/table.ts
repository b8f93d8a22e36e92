// The one table of settings (docs/configuration.md): each flag's command-line spelling, environment variable, config-file key, check and help line come from its entry.
import { isSessionError } from '@sessionwright/session-core';
import {
  BROWSER_NAMES,
  DEFAULT_CALL_TIMEOUT,
  DEFAULT_DOWNLOAD_LIMITS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_TABS,
  DEFAULT_RUNAWAY_LIMITS,
  DEFAULT_SESSION_TIMEOUT,
  STATE_NAME_PATTERN,
  parseEndpoint,
} from '@sessionwright/session-core/parts';
import { CAPABILITIES, PROFILE_NAMES } from '@sessionwright/tools';
import { tokenProblem } from '../identity/identities.js';

function checkStateName(value: string): string {
  if (!STATE_NAME_PATTERN.test(value))
    throw new BadValue('is not a state name (1 to 100 letters, digits, spaces and _ . @ -, starting with a letter or digit)');
  return value;
}

export type FlagKind = 'integer' | 'boolean' | 'string' | 'list' | 'enum' | 'path';

/** A value as the options hold it: a list or repeatable flag holds a list. */
export type FlagValue = number | boolean | string | readonly string[];

export interface FlagDefinition {
  /** kebab-case, as typed after `--`; its camelCase form is the config-file key (and a second command-line spelling). */
  readonly name: string;
  /**
   * integer: digits only, within min/max. boolean: true/false (also 1/0); on the command line a bare flag is true.
   * string: any non-empty text. list: comma-separated (a JSON array in the file). enum: one of `choices`.
   * path: a file or directory; a relative path in the config file is relative to that file.
   */
  readonly kind: FlagKind;
  /** One line for --help and the docs. */
  readonly description: string;
  /** What the value is called in --help: `--max-sessions <n>`. A boolean with one shows `[bool]` (takes an optional true/false). */
  readonly placeholder?: string;
  /** The value when no source sets it. Without one the option is undefined, and `defaultText` says what the code then does. */
  readonly default?: FlagValue;
  readonly defaultText?: string;
  /** integer: the smallest and largest accepted values. */
  readonly min?: number;
  readonly max?: number;
  /** enum: the accepted values. */
  readonly choices?: readonly string[];
  /** Never printed: --print-config and error messages show `***` instead. */
  readonly secret?: boolean;
  /** May be given more than once on the command line; the values add up to a list (comma-separated in the environment). */
  readonly repeatable?: boolean;
  /** Lives in `ServerOptions.http`; on the command line it is an error without --port (the environment and the file may hold it for when HTTP is on). */
  readonly httpOnly?: boolean;
  /** How a bad integer is described (`a port number from 0 to 65535`) instead of the generic range. */
  readonly mustBe?: string;
  /** A further check of one value (each item of a list); returns it normalised, or throws a `BadValue` saying what is wrong. */
  readonly check?: (value: string) => string;
  /** A value for the generated config-file example in docs/configuration.md, when the default will not do. */
  readonly example?: FlagValue;
  /** Flags that cannot be set together with this one (checked where the flag is used); the docs example leaves this one out. */
  readonly excludes?: readonly string[];
}

/**
 * What is wrong with a value, worded to follow "--flag value: " (the resolver adds where the value came from).
 * `withoutValue` says it without quoting the value, worded to follow the flag's name: what a config file's error says,
 * as its contents are never quoted.
 */
export class BadValue extends Error {
  override readonly name = 'BadValue';
  readonly withoutValue: string;
  constructor(message: string, withoutValue: string = message) {
    super(message);
    this.withoutValue = withoutValue;
  }
}

/*
 * Every setting of the server, in --help order. To add one, add an entry here: that is all the parsing, the
 * SESSIONWRIGHT_<NAME> environment variable, the camelCase config-file key, --print-config, --help and the docs tables
 * need. Its value appears as `options.<camelCase>` in ServerOptions (or `options.http.<camelCase>` when httpOnly),
 * typed from `kind` (undefined when it has no `default`); then run `pnpm build && pnpm readme`.
 */
const FLAGS = [
  {
    name: 'browser',
    kind: 'enum',
    placeholder: 'name',
    choices: BROWSER_NAMES,
    default: 'chromium',
    description: 'Browser to launch: chromium, firefox or webkit',
  },
  {
    name: 'headless',
    kind: 'boolean',
    placeholder: 'bool',
    defaultText: 'headed, or headless on Linux without a display',
    example: true,
    description: 'Run without a window',
  },
  {
    name: 'session-timeout',
    kind: 'integer',
    placeholder: 'ms',
    min: 1,
    default: DEFAULT_SESSION_TIMEOUT,
    description: 'Idle time in ms after which a session expires',
  },
  { name: 'max-sessions', kind: 'integer', placeholder: 'n', min: 1, default: DEFAULT_MAX_SESSIONS, description: 'How many sessions may be open at once' },
  {
    name: 'call-timeout',
    kind: 'integer',
    placeholder: 'ms',
    min: 1,
    default: DEFAULT_CALL_TIMEOUT,
    description: 'The longest a single tool call may run, in ms; past it the call ends and a page that does not let go is replaced',
  },
  {
    name: 'max-sessions-per-client',
    kind: 'integer',
    placeholder: 'n',
    min: 1,
    defaultText: 'no limit but --max-sessions',
    example: 5,
    description: 'How many sessions one client may hold at once: one identity of --auth-tokens-file, else one connection',
  },
  {
    name: 'warm-sessions',
    kind: 'integer',
    placeholder: 'n',
    min: 0,
    defaultText: '1 headless, 0 headed',
    example: 1,
    description: 'Blank sessions kept ready so create_session answers at once',
  },
  {
    name: 'executable-path',
    kind: 'path',
    placeholder: 'path',
    defaultText: "Playwright's own browser, else a system Chrome/Chromium",
    example: '/usr/bin/chromium',
    description: 'Browser binary to use',
  },
  {
    name: 'profile',
    kind: 'enum',
    placeholder: 'name',
    choices: PROFILE_NAMES,
    default: 'sessions',
    description:
      "Tool names and shapes: sessions (create_session, navigate…) or playwright (@playwright/mcp's browser_* tools, one implicit session per connection)",
  },
  {
    name: 'caps',
    kind: 'list',
    placeholder: 'list',
    default: [],
    check: (cap) => {
      if (cap !== 'all' && !(CAPABILITIES as readonly string[]).includes(cap))
        throw new BadValue(`"${cap}" is not a capability; use ${[...CAPABILITIES, 'all'].join(', ')}`, `may hold only ${[...CAPABILITIES, 'all'].join(', ')}`);
      return cap;
    },
    example: ['network', 'pdf'],
    description: `Comma-separated tool groups to add to the default list: ${CAPABILITIES.join(', ')}, or all`,
  },
  {
    name: 'max-tabs',
    kind: 'integer',
    placeholder: 'n',
    min: 1,
    default: DEFAULT_MAX_TABS,
    description: 'Most tabs one session keeps open; past it the oldest background tab is closed',
  },
  {
    name: 'file-root',
    kind: 'path',
    placeholder: 'dir',
    repeatable: true,
    defaultText: "the client's MCP roots, else (stdio) the working directory",
    example: ['/srv/uploads'],
    description: 'A directory upload_file may read files from (repeatable); no path outside it is accepted',
  },
  {
    name: 'output-dir',
    kind: 'path',
    placeholder: 'dir',
    defaultText: 'a temporary folder removed at exit',
    example: '/srv/downloads',
    description:
      "Where files are saved: each client identity's in a folder of its own, its sessions' downloads, traces and videos in a " +
      'folder per session (gone with the session unless --keep-downloads)',
  },
  {
    name: 'data-dir',
    kind: 'path',
    placeholder: 'dir',
    defaultText: '$XDG_STATE_HOME/sessionwright, or ~/.local/state/sessionwright',
    example: '/var/lib/sessionwright',
    description:
      "Where saved states are kept, encrypted (docs/sign-ins.md); given explicitly (without --store), also each session's " +
      'checkpoint, so a restarted server restores its sessions (docs/deploy.md)',
  },
  {
    name: 'state-key',
    kind: 'string',
    placeholder: 'secret',
    secret: true,
    defaultText: 'the key file state.key in --data-dir, made at first use with mode 0600',
    description: 'The secret saved states are encrypted with (AES-256-GCM); any text, best 32 random characters or more',
  },
  {
    name: 'state-key-previous',
    kind: 'string',
    placeholder: 'secret',
    secret: true,
    description:
      'The key the saved states were encrypted with before --state-key: at start-up each state it opens is encrypted again with the new key (docs/sign-ins.md)',
  },
  {
    name: 'state',
    kind: 'string',
    placeholder: 'name',
    description: "Start the playwright profile's implicit session from this saved state (see save_state), signed in",
    check: checkStateName,
  },
  {
    name: 'browser-per-client',
    kind: 'boolean',
    placeholder: 'bool',
    defaultText: 'on with --auth-tokens-file, else off',
    example: true,
    description:
      'Give each client (an identity of --auth-tokens-file, else a connection) a browser process of its own, so a runaway page ' +
      'slows only its own client; launched browsers only',
  },
  {
    name: 'secrets',
    kind: 'path',
    placeholder: 'path',
    example: '/srv/secrets.env',
    description:
      'A dotenv file of NAME=value lines (each value at least 8 characters): each value is shown as <secret>NAME</secret> ' +
      'wherever a result, a file a tool writes or a log line would show it, in any form a page gives it (JSON, URL, HTML, ' +
      'base64), and type or fill_form given NAME as the text types the value; no trace or video is recorded (docs/configuration.md)',
  },
  {
    name: 'redact-url-params',
    kind: 'list',
    placeholder: 'names',
    default: [],
    example: ['access_token', 'code'],
    description: 'Comma-separated URL query and fragment parameter names whose values every URL in a result shows as <redacted>',
  },
  {
    name: 'max-page-memory',
    kind: 'integer',
    placeholder: 'bytes',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    default: DEFAULT_RUNAWAY_LIMITS.heapBytes,
    description:
      "Bytes of JavaScript one tab may hold (its heap and ArrayBuffers) before its session's pages are stopped as runaway; 0 for " +
      'no bound. Watched in browsers this server launches (Linux)',
  },
  {
    name: 'max-download-bytes',
    kind: 'integer',
    placeholder: 'bytes',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    default: DEFAULT_DOWNLOAD_LIMITS.maxBytes,
    description:
      'Bytes one session may write: downloads, traces, videos and saved files together, those in progress included; a download ' +
      'past it is cancelled, a trace or video stopped',
  },
  {
    name: 'output-max-size',
    kind: 'integer',
    placeholder: 'bytes',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    defaultText: "no limit but each session's",
    example: 10_737_418_240,
    description:
      "Bytes one client's folder of --output-dir may hold (its saved files and its sessions' downloads, traces and videos); a " +
      'file that would pass it is refused or cancelled',
  },
  {
    name: 'max-downloads',
    kind: 'integer',
    placeholder: 'n',
    min: 0,
    default: DEFAULT_DOWNLOAD_LIMITS.maxCount,
    description: 'Files one session may write (downloads, traces, videos and saved files); the ones after are cancelled or refused',
  },
  {
    name: 'keep-downloads',
    kind: 'boolean',
    default: DEFAULT_DOWNLOAD_LIMITS.keep,
    description: "Keep a session's folder (its downloads, traces and videos) when it ends (in --output-dir; without it they go at exit)",
  },
  { name: 'allow-file-urls', kind: 'boolean', default: false, description: 'Let navigate open file: URLs (off by default)' },
  { name: 'verbose', kind: 'boolean', default: false, description: 'Log every tool call on stderr' },
  {
    name: 'port',
    kind: 'integer',
    placeholder: 'n',
    min: 0,
    max: 65_535,
    mustBe: 'a port number from 0 to 65535',
    httpOnly: true,
    example: 8931,
    description: 'Serve MCP over HTTP on this port instead of stdio (0: any free port): Streamable HTTP at /mcp, legacy SSE at /sse and /',
  },
  {
    name: 'host',
    kind: 'string',
    placeholder: 'address',
    default: '127.0.0.1',
    httpOnly: true,
    check: (host) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host),
    description: 'Address to listen on with --port; anything but loopback needs --auth-token',
  },
  {
    name: 'allowed-hosts',
    kind: 'list',
    placeholder: 'names',
    default: [],
    httpOnly: true,
    example: ['mcp.example.com'],
    description: 'Comma-separated Host header names to accept besides localhost and the bound address (* for any)',
  },
  {
    name: 'allowed-origins',
    kind: 'list',
    placeholder: 'origins',
    default: [],
    httpOnly: true,
    check: checkOrigin,
    example: ['https://app.example.com'],
    description: 'Comma-separated web origins whose pages may use the server from a browser (* for any); none by default, not even other localhost ports',
  },
  {
    name: 'auth-token',
    kind: 'string',
    placeholder: 'token',
    secret: true,
    httpOnly: true,
    check: (token) => {
      const problem = tokenProblem(token);
      if (problem !== undefined) throw new BadValue(problem);
      return token;
    },
    example: 'change-me-to-a-long-random-token',
    description: 'Require "Authorization: Bearer <token>" on every HTTP request (a token of at least 16 characters)',
  },
  {
    name: 'auth-tokens-file',
    kind: 'path',
    placeholder: 'path',
    httpOnly: true,
    excludes: ['auth-token'],
    description:
      'A file of "name token" lines, one client identity each: every request needs one of the tokens, and a session belongs to the identity that created it',
  },
  {
    name: 'max-connections',
    kind: 'integer',
    placeholder: 'n',
    min: 1,
    default: 100,
    httpOnly: true,
    description: 'How many MCP connections may be open at once over HTTP; one more is answered 503',
  },
  {
    name: 'max-connections-per-client',
    kind: 'integer',
    placeholder: 'n',
    min: 1,
    httpOnly: true,
    example: 10,
    description:
      'How many of --max-connections one client may hold: an identity of --auth-tokens-file, or without identities one remote ' +
      "address (this machine's own connections are one client that only --max-connections bounds); one more is answered 429",
    defaultText: 'a quarter of --max-connections, at least 1',
  },
  {
    name: 'allow-unauthenticated',
    kind: 'boolean',
    default: false,
    httpOnly: true,
    description: 'Listen on a non-loopback address without a token (only behind a firewall or an authenticating proxy)',
  },
  {
    name: 'allow-unsafe-code',
    kind: 'boolean',
    default: false,
    httpOnly: true,
    description:
      'Serve run_code_unsafe (browser_run_code_unsafe) over HTTP: clients run code in this process. Refused with more than one ' +
      'identity; over stdio it is always served',
  },
  {
    name: 'store',
    kind: 'string',
    placeholder: 'redis-url',
    // The URL may carry a password: never printed.
    secret: true,
    httpOnly: true,
    check: checkStoreUrl,
    example: 'redis://redis.internal:6379',
    description:
      'Run as one replica of a fleet that shares this Redis (redis://[user:password@]host:port[/db], rediss:// for TLS): any ' +
      'replica serves any session, and sessions outlive a replica (docs/deploy.md)',
  },
  {
    name: 'advertise-url',
    kind: 'string',
    placeholder: 'url',
    httpOnly: true,
    check: checkAdvertiseUrl,
    defaultText: "http://<this machine's host name>:<port>",
    example: 'http://replica-1.internal:8931',
    description: 'With --store: how the other replicas reach this one (its label in list_sessions is the host and port)',
  },
  {
    name: 'drain-window',
    kind: 'integer',
    placeholder: 'ms',
    min: 0,
    default: 10_000,
    httpOnly: true,
    description:
      "With --store: after SIGTERM, how long a replica keeps serving requests (relaying them to its sessions' new owners) " +
      'while its /healthz answers 503, so a balancer or a Kubernetes endpoint update stops sending it requests first (docs/deploy.md)',
  },
  {
    name: 'store-key',
    kind: 'string',
    placeholder: 'secret',
    secret: true,
    httpOnly: true,
    check: (key) => {
      if (key.length < 16) throw new BadValue('must be at least 16 characters', 'must be at least 16 characters');
      return key;
    },
    example: 'change-me-to-a-long-random-secret',
    description:
      'With --store: a secret every replica shares (at least 16 characters); it encrypts what they store and authenticates their requests to each other',
  },
  {
    name: 'close-sessions-on-disconnect',
    kind: 'boolean',
    default: false,
    description: "Close a connection's sessions as soon as it ends, instead of at their idle timeout",
  },
  {
    name: 'browser-endpoint',
    kind: 'string',
    placeholder: 'ws-url',
    repeatable: true,
    default: [],
    // The URL may carry a token (?token=…) or a secret path: never printed.
    secret: true,
    check: checkEndpoint,
    example: ['ws://browsers.internal:3000/#maxSessions=20'],
    description:
      'A Playwright browser server to run sessions on (playwright run-server, launchServer(), Browserless, Moon); repeatable; ' +
      'with any endpoint nothing is launched locally. #maxSessions=<n> at the end caps it (docs/deploy.md)',
  },
  {
    name: 'cdp-endpoint',
    kind: 'string',
    placeholder: 'url',
    repeatable: true,
    default: [],
    secret: true,
    check: checkEndpoint,
    example: ['http://127.0.0.1:9222'],
    description: 'A Chromium to run sessions on over CDP (http://host:9222); repeatable; never closed by sessionwright. #maxSessions=<n> at the end caps it',
  },
] as const satisfies readonly FlagDefinition[];

/** The table as plain definitions, for code that walks it. */
export const FLAG_DEFINITIONS: readonly FlagDefinition[] = FLAGS;

/** The flags that can all be set at once (those that exclude another are left out): what the docs' example sets. */
export const COMBINABLE_FLAGS: readonly FlagDefinition[] = FLAG_DEFINITIONS.filter((flag) => flag.excludes === undefined);

/** The prefix of every setting's environment variable. */
export const ENV_PREFIX = 'SESSIONWRIGHT_';

/** `max-sessions` → `maxSessions`: the config-file key, and the command line's second spelling. */
export function camelCase(name: string): string {
  return name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

/** `max-sessions` → `SESSIONWRIGHT_MAX_SESSIONS`. */
export function envVarName(name: string): string {
  return `${ENV_PREFIX}${name.replaceAll('-', '_').toUpperCase()}`;
}

/** How --help and the docs show a flag: `--max-sessions <n>`, `--headless [bool]`, `--verbose`. */
export function flagUsage(flag: FlagDefinition): string {
  if (flag.placeholder === undefined) return `--${flag.name}`;
  return flag.kind === 'boolean' ? `--${flag.name} [${flag.placeholder}]` : `--${flag.name} <${flag.placeholder}>`;
}

/** One option of a help text: how it is written, and what it does. */
export type HelpRow = readonly [usage: string, text: string];

/** Help lines with the options' texts in one column, as both profiles' --help print them. */
export function helpLines(rows: readonly HelpRow[]): string[] {
  const width = Math.max(...rows.map(([usage]) => usage.length)) + 2;
  return rows.map(([usage, text]) => `  ${usage.padEnd(width)}${text}`);
}

/** The default as --help and the docs say it; empty when there is nothing worth saying (off, empty list). */
export function defaultText(flag: FlagDefinition): string {
  if (flag.defaultText !== undefined) return flag.defaultText;
  if (flag.default === undefined || flag.default === false || (Array.isArray(flag.default) && flag.default.length === 0)) return '';
  return String(flag.default);
}

/** A value for the config-file example: its `example`, else its default, else one of its kind. */
export function exampleValue(flag: FlagDefinition): FlagValue {
  if (flag.example !== undefined) return flag.example;
  if (flag.default !== undefined) return flag.default;
  if (flag.kind === 'integer') return flag.min ?? 1;
  if (flag.kind === 'boolean') return true;
  if (flag.choices?.[0] !== undefined) return flag.repeatable ? [flag.choices[0]] : flag.choices[0];
  return flag.kind === 'list' || flag.repeatable ? ['example'] : 'example';
}

/** A browser endpoint URL (ws, wss, http or https; an optional #maxSessions=<n>), checked before anything starts. */
function checkEndpoint(endpoint: string): string {
  try {
    parseEndpoint(endpoint);
  } catch (error) {
    if (isSessionError(error))
      throw new BadValue(error.message, 'must hold browser endpoint URLs such as ws://host:3000/ (ws, wss, http or https, and an optional #maxSessions=<n>)');
    throw error;
  }
  return endpoint;
}

/** A Redis URL: redis:// or rediss:// with a host. */
function checkStoreUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '')
    throw new BadValue('is not a Redis URL such as redis://host:6379 (rediss:// for TLS)', 'must be a Redis URL such as redis://host:6379 (rediss:// for TLS)');
  return value;
}

/** An http(s) URL with a host and nothing after the port. */
function checkAdvertiseUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || url.search || url.hash)
    throw new BadValue(`"${value}" is not a URL such as http://replica-1:8931`, 'must be a URL such as http://replica-1:8931');
  return url.origin;
}

/** An origin is scheme://host[:port] with nothing after it; `*` stands for any. */
function checkOrigin(origin: string): string {
  if (origin === '*') return origin;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const bare =
    url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username;
  if (url === undefined || !bare)
    throw new BadValue(
      `"${origin}" is not an origin such as https://app.example.com (scheme, host and port only)`,
      'may hold only origins such as https://app.example.com (scheme, host and port only)',
    );
  return url.origin;
}

// The option types follow from the table, so a new entry needs no hand-written field.
type Flag = (typeof FLAGS)[number];
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type ValueOf<F extends Flag> = F extends { repeatable: true }
  ? string[]
  : F['kind'] extends 'integer'
    ? number
    : F['kind'] extends 'boolean'
      ? boolean
      : F['kind'] extends 'list'
        ? string[]
        : F extends { choices: readonly (infer Choice)[] }
          ? Choice
          : string;
type Optional<F extends Flag> = F extends { default: unknown } ? never : undefined;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The values of the flags that are not httpOnly, by camelCase key. */
export type GeneralFlagValues = Simplify<{ -readonly [F in Flag as F extends { httpOnly: true } ? never : CamelCase<F['name']>]: ValueOf<F> | Optional<F> }>;
/** The values of the httpOnly flags, by camelCase key. */
export type HttpFlagValues = Simplify<{ -readonly [F in Flag as F extends { httpOnly: true } ? CamelCase<F['name']> : never]: ValueOf<F> | Optional<F> }>;
