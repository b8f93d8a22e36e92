// The HTTP-mode flags (--port, --host, --auth-token, …): their help lines, their checks, and the refusal to run unprotected.
import { isIP } from 'node:net';
import type { CAC } from 'cac';
import { UsageError } from './usage-error.js';

/** How the server listens when it serves HTTP instead of stdio. */
export interface HttpOptions {
  /** 0 picks any free port. */
  port: number;
  /** The address to bind (default 127.0.0.1). */
  host: string;
  /** Host header names accepted on top of the defaults (the localhost names, and the bound address); `*` accepts any. */
  allowedHosts: string[];
  /** Origins accepted on top of http(s)://localhost|127.0.0.1|[::1] on any port; `*` accepts any. */
  allowedOrigins: string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  authToken: string | undefined;
}

/** The environment variable that holds the token, so it stays out of `ps` listings and shell history. */
export const AUTH_TOKEN_ENV = 'SESSIONWRIGHT_AUTH_TOKEN';

const DEFAULT_HTTP_HOST = '127.0.0.1';

/** The flags this module adds, kebab-case (options.ts adds their camelCase spellings). */
export const HTTP_FLAGS = ['port', 'host', 'allowed-hosts', 'allowed-origins', 'auth-token', 'allow-unauthenticated', 'close-sessions-on-disconnect'];

/** Flags whose value must reach us exactly as typed: the argument parser would turn a token like 0123 into the number 123. */
const VERBATIM_FLAGS = ['port', 'host', 'allowed-hosts', 'allowed-origins', 'auth-token'];

export function addHttpOptions(cli: CAC): void {
  cli
    .option('--port <n>', 'Serve MCP over HTTP on this port instead of stdio (0: any free port): Streamable HTTP at /mcp, legacy SSE at /sse and /')
    .option('--host <address>', `Address to listen on with --port; anything but loopback needs --auth-token (default: ${DEFAULT_HTTP_HOST})`)
    .option('--allowed-hosts <names>', 'Comma-separated Host header names to accept besides localhost and the bound address (* for any)')
    .option('--allowed-origins <origins>', 'Comma-separated browser origins to accept besides http(s)://localhost on any port (* for any)')
    .option('--auth-token <token>', `Require "Authorization: Bearer <token>" on every HTTP request (or set ${AUTH_TOKEN_ENV})`)
    .option('--allow-unauthenticated', 'Listen on a non-loopback address without a token (only behind a firewall or an authenticating proxy)')
    .option('--close-sessions-on-disconnect', 'Close a connection\'s sessions as soon as it ends, instead of at their idle timeout');
}

/** The HTTP part of the options: `http` is undefined without --port (stdio), and then the HTTP-only flags are an error. */
export function toHttpOptions(
  flags: Record<string, unknown>,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): { http: HttpOptions | undefined; closeSessionsOnDisconnect: boolean } {
  const closeSessionsOnDisconnect = flag(flags.closeSessionsOnDisconnect, 'close-sessions-on-disconnect');
  if (flags.port === undefined) {
    const stray = HTTP_FLAGS.filter((name) => name !== 'port' && name !== 'close-sessions-on-disconnect').find((name) => flags[camel(name)] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} applies only to HTTP mode; add --port <n>`);
    return { http: undefined, closeSessionsOnDisconnect };
  }
  const rawPort = String(verbatim(argv, flags, 'port')).trim();
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) throw new UsageError(`--port must be a port number from 0 to 65535 (got "${rawPort}")`);
  const host = unbracket(text(verbatim(argv, flags, 'host'), 'host') ?? DEFAULT_HTTP_HOST);
  const envToken = env[AUTH_TOKEN_ENV];
  const authToken = text(verbatim(argv, flags, 'auth-token'), 'auth-token') ?? (envToken === undefined || envToken === '' ? undefined : envToken);
  if (authToken !== undefined && /\s/.test(authToken)) throw new UsageError('--auth-token must not contain spaces or line breaks');
  const allowUnauthenticated = flag(flags.allowUnauthenticated, 'allow-unauthenticated');
  if (!isLoopback(host) && authToken === undefined && !allowUnauthenticated) {
    throw new UsageError(
      `refusing to listen on ${host} without a token: anyone who can reach it could drive the browser. ` +
        `Set --auth-token <token> (or ${AUTH_TOKEN_ENV}), or pass --allow-unauthenticated if a firewall or an authenticating proxy protects it`,
    );
  }
  return {
    http: {
      port,
      host,
      allowedHosts: list(verbatim(argv, flags, 'allowed-hosts'), 'allowed-hosts'),
      allowedOrigins: list(verbatim(argv, flags, 'allowed-origins'), 'allowed-origins').map((origin) => checkOrigin(origin)),
      authToken,
    },
    closeSessionsOnDisconnect,
  };
}

/** True for addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const address = unbracket(host).toLowerCase();
  if (address === 'localhost' || address.endsWith('.localhost')) return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || address.startsWith('::ffff:127.');
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The value of a flag as it was typed (the last one wins, as the parser's own would if it were a single value).
 * Falls back to the parsed value when the flag was not given in a form we recognise.
 */
function verbatim(argv: readonly string[], flags: Record<string, unknown>, name: string): unknown {
  if (Array.isArray(flags[camel(name)])) throw new UsageError(`--${name} was given more than once`);
  if (!VERBATIM_FLAGS.includes(name)) return flags[camel(name)];
  let value: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--') break;
    for (const spelling of [`--${name}`, `--${camel(name)}`]) {
      if (arg.startsWith(`${spelling}=`)) value = arg.slice(spelling.length + 1);
      else if (arg === spelling) {
        const next = argv[index + 1];
        value = next === undefined || next.startsWith('-') ? '' : next;
      }
    }
  }
  return value ?? flags[camel(name)];
}

function camel(name: string): string {
  return name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

function flag(value: unknown, name: string): boolean {
  if (Array.isArray(value)) throw new UsageError(`--${name} was given more than once`);
  if (value === undefined || value === false || value === 'false') return false;
  if (value === true || value === '' || value === 'true') return true;
  throw new UsageError(`--${name} takes no value (got "${String(value)}")`);
}

function text(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  const result = value === true ? '' : String(value).trim();
  if (result === '') throw new UsageError(`--${name} needs a value`);
  return result;
}

function list(value: unknown, name: string): string[] {
  const joined = text(value, name);
  if (joined === undefined) return [];
  const items = joined
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs a comma-separated list`);
  return items;
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
  const bare = url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username;
  if (url === undefined || !bare) {
    throw new UsageError(`--allowed-origins: "${origin}" is not an origin such as https://app.example.com (scheme, host and port only)`);
  }
  return url.origin;
}
