// The command line of spec §4: flags (kebab-case and the seed's camelCase), their checks, and --help/--version.
import { BROWSER_NAMES, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TIMEOUT, type BrowserName } from '@sessionwright/session-core';
import { cac } from 'cac';
import { HTTP_FLAGS, addHttpOptions, toHttpOptions, type HttpOptions } from './http-options.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export { UsageError };

export interface ServerOptions {
  browser: BrowserName;
  /** Undefined: decided by the display (headed, or headless on Linux without one). */
  headless: boolean | undefined;
  sessionTimeout: number;
  maxSessions: number;
  /** Contexts kept ready for create_session; undefined: 1 in headless mode, 0 in headed mode. */
  warmSessions: number | undefined;
  executablePath: string | undefined;
  allowFileUrls: boolean;
  verbose: boolean;
  /** Undefined: serve stdio. Set by --port: serve HTTP (Streamable HTTP and legacy SSE) and not stdio. */
  http: HttpOptions | undefined;
  /** Close a connection's sessions when it ends, instead of leaving them to their idle timeout. */
  closeSessionsOnDisconnect: boolean;
}

export type CliCommand = { kind: 'run'; options: ServerOptions } | { kind: 'help'; text: string } | { kind: 'version'; verbose: boolean; options: ServerOptions };

export const DEFAULT_OPTIONS: ServerOptions = {
  browser: 'chromium',
  headless: undefined,
  sessionTimeout: DEFAULT_SESSION_TIMEOUT,
  maxSessions: DEFAULT_MAX_SESSIONS,
  warmSessions: undefined,
  executablePath: undefined,
  allowFileUrls: false,
  verbose: false,
  http: undefined,
  closeSessionsOnDisconnect: false,
};

/** Every spelling cac may hand back: kebab-case as typed, its camelCase form, and the seed's camelCase flags. */
const KNOWN_FLAGS = new Set(
  ['browser', 'headless', 'session-timeout', 'max-sessions', 'warm-sessions', 'executable-path', 'allow-file-urls', 'verbose', 'help', 'h', 'version', 'v', ...HTTP_FLAGS].flatMap(
    (flag) => [flag, flag.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())],
  ),
);

function buildCli() {
  const cli = cac('sessionwright');
  cli
    .option('--browser <name>', 'Browser to launch: chromium, firefox or webkit', { default: 'chromium' })
    .option('--headless [bool]', 'Run without a window (default: headed, or headless on Linux without a display)')
    .option('--session-timeout <ms>', 'Idle time in ms after which a session expires', { default: DEFAULT_SESSION_TIMEOUT })
    .option('--max-sessions <n>', 'How many sessions may be open at once', { default: DEFAULT_MAX_SESSIONS })
    .option('--warm-sessions <n>', 'Blank sessions kept ready so create_session answers at once (default: 1 headless, 0 headed)')
    .option('--executable-path <path>', 'Browser binary to use (default: Playwright\'s own browser, else a system Chrome/Chromium)')
    .option('--allow-file-urls', 'Let navigate open file: URLs (off by default)')
    .option('--verbose', 'Log every tool call on stderr');
  addHttpOptions(cli);
  cli.usage('[options]');
  cli.help();
  cli.version(VERSION);
  return cli;
}

/**
 * Parses argv (without node and the script) into a command; throws UsageError on any bad flag or value.
 * `env` supplies SESSIONWRIGHT_AUTH_TOKEN.
 */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): CliCommand {
  const cli = buildCli();
  let parsed: ReturnType<typeof cli.parse>;
  const helpLines: string[] = [];
  const { log, info } = console;
  try {
    // cac prints help and version itself; capture it, so the caller decides where text goes.
    console.log = console.info = (...parts: unknown[]) => helpLines.push(parts.join(' '));
    parsed = cli.parse(['node', 'sessionwright', ...argv], { run: false });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  } finally {
    console.log = log;
    console.info = info;
  }
  const flags = parsed.options as Record<string, unknown>;
  if (flags.help) return { kind: 'help', text: helpLines.join('\n') };
  // --version --verbose reports the browser the other flags would pick, so they are parsed (and checked) too.
  if (flags.version) return { kind: 'version', verbose: flags.verbose === true, options: { ...toOptions(flags), ...toHttpOptions(flags, argv, env) } };
  const unknown = Object.keys(flags).filter((key) => key !== '--' && !KNOWN_FLAGS.has(key));
  // mri reads "-5" as a flag named 5, so a negative value shows up here.
  if (unknown.some((key) => /^\d/.test(key))) throw new UsageError(`values cannot be negative (got -${unknown.find((key) => /^\d/.test(key))})`);
  if (unknown.length > 0) throw new UsageError(`unknown option --${unknown[0]}; see --help`);
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument "${parsed.args[0]}"; see --help`);
  return { kind: 'run', options: { ...toOptions(flags), ...toHttpOptions(flags, argv, env) } };
}

function toOptions(flags: Record<string, unknown>): Omit<ServerOptions, 'http' | 'closeSessionsOnDisconnect'> {
  const browser = single(flags.browser, 'browser');
  if (!BROWSER_NAMES.includes(browser as BrowserName)) {
    throw new UsageError(`--browser must be one of ${BROWSER_NAMES.join(', ')} (got "${String(browser)}")`);
  }
  const executablePath = flags.executablePath === undefined ? undefined : String(single(flags.executablePath, 'executable-path'));
  if (executablePath === '' || executablePath === 'true') throw new UsageError('--executable-path needs a path');
  return {
    browser: browser as BrowserName,
    headless: parseBoolean(flags.headless, 'headless'),
    sessionTimeout: parseInteger(flags.sessionTimeout, 'session-timeout', 1),
    maxSessions: parseInteger(flags.maxSessions, 'max-sessions', 1),
    warmSessions: flags.warmSessions === undefined ? undefined : parseInteger(flags.warmSessions, 'warm-sessions', 0),
    executablePath,
    allowFileUrls: parseBoolean(flags.allowFileUrls, 'allow-file-urls') ?? false,
    verbose: parseBoolean(flags.verbose, 'verbose') ?? false,
  };
}

/** A flag given twice is a mistake worth saying, not a silent pick. */
function single(value: unknown, name: string): unknown {
  if (Array.isArray(value)) throw new UsageError(`--${name} was given more than once`);
  return value;
}

function parseBoolean(value: unknown, name: string): boolean | undefined {
  value = single(value, name);
  if (value === undefined) return undefined;
  if (value === true || value === '' || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  throw new UsageError(`--${name} takes true or false (got "${String(value)}")`);
}

function parseInteger(value: unknown, name: string, min: number): number {
  value = single(value, name);
  const text = String(value).trim();
  const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min) {
    throw new UsageError(`--${name} must be a whole number of at least ${min} (got "${String(value)}")`);
  }
  return number;
}
