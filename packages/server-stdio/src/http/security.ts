// The checks every HTTP request passes before it reaches MCP: Host (DNS rebinding), web pages (docs/http.md), and the bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Identity } from '../identity/identities.js';

/** The names that always mean this machine. In a URL's hostname IPv6 keeps its brackets, hence "[::1]". */
const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]'];

interface GuardOptions {
  /** The address the server is bound to. */
  host: string;
  allowedHosts: readonly string[];
  /** The web origins whose pages may use the server besides its own (`*`: any page). */
  allowedOrigins: readonly string[];
  authToken: string | undefined;
  /** With --auth-tokens-file: each token is a client identity (then `authToken` is unset). */
  identities?: readonly Identity[] | undefined;
}

/** Why a request is refused: the HTTP status, a message for the client, and any headers the status calls for. */
interface Refusal {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

interface RequestGuard {
  /** The Host header alone (DNS rebinding): a refusal (403) or undefined. The first half of checkSource. */
  checkHost(headers: IncomingHttpHeaders): Refusal | undefined;
  /**
   * Host, then web pages: a refusal (403) or undefined. Runs first, on every request, preflights included. A request a
   * browser sent (see `fromBrowser`) is served only from the server's own origin or one of `allowedOrigins`.
   */
  checkSource(headers: IncomingHttpHeaders): Refusal | undefined;
  /** The bearer token: a refusal (401) or undefined. */
  checkToken(headers: IncomingHttpHeaders): Refusal | undefined;
  /** The client identity whose token the request carries (undefined without identities, or for a wrong token). */
  identify(headers: IncomingHttpHeaders): string | undefined;
  /** The request's Origin when it is present and allowed (for CORS headers), else undefined. */
  allowedOrigin(headers: IncomingHttpHeaders): string | undefined;
}

export function createRequestGuard(options: GuardOptions): RequestGuard {
  const anyHost = options.allowedHosts.includes('*');
  /** The names this server answers to by name; `*` is left out, as a page on any name is not thereby the server's own. */
  const hosts = new Set([...LOCAL_NAMES, ...boundNames(options.host), ...options.allowedHosts.filter((name) => name !== '*').map(hostnameOf)]);
  const anyOrigin = options.allowedOrigins.includes('*');
  const origins = new Set(options.allowedOrigins);
  // Hashing first gives both sides the same length, so the comparison takes the same time whatever was sent.
  const expected = options.authToken === undefined ? undefined : digest(options.authToken);
  const identities = (options.identities ?? []).map((identity) => ({ name: identity.name, digest: digest(identity.token) }));
  /** The identity whose token this is; every digest is compared, so the time taken does not tell which one matched. */
  const identityOf = (token: string): string | undefined => {
    const given = digest(token);
    let found: string | undefined;
    for (const identity of identities) if (timingSafeEqual(given, identity.digest)) found = identity.name;
    return found;
  };
  const bearer = (headers: IncomingHttpHeaders) => /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];

  /**
   * True when `origin` is the server's own: the Host the request was sent to, by one of the names the server answers to.
   * Only the server's own responses (JSON and event streams, no scripts) are pages of that origin.
   */
  const ownOrigin = (origin: string, host: string | undefined) => {
    if (host === undefined || !hosts.has(hostnameOf(host))) return false;
    try {
      return origin === new URL(`http://${host}`).origin || origin === new URL(`https://${host}`).origin;
    } catch {
      return false;
    }
  };
  const originAllowed = (origin: string, host: string | undefined) => anyOrigin || origins.has(origin) || ownOrigin(origin, host);

  const checkHost = (headers: IncomingHttpHeaders): Refusal | undefined => {
    const host = headers.host;
    if (anyHost || (host !== undefined && hosts.has(hostnameOf(host)))) return undefined;
    return {
      status: 403,
      message: `Forbidden: Host header ${JSON.stringify(host ?? '')} is not allowed. Connect by localhost, or start the server with --allowed-hosts naming this host.`,
    };
  };

  return {
    checkHost,
    checkSource(headers) {
      const hostRefusal = checkHost(headers);
      if (hostRefusal) return hostRefusal;
      const host = headers.host;
      if (!fromBrowser(headers) || anyOrigin) return undefined;
      const origin = headers.origin;
      if (origin !== undefined) {
        if (originAllowed(origin, host)) return undefined;
        return {
          status: 403,
          message: `Forbidden: web pages from ${JSON.stringify(origin)} may not use this server. Start it with --allowed-origins ${origin} to let that origin's pages connect.`,
        };
      }
      // Without an Origin, only a request from one of the server's own pages is known to come from an allowed origin.
      if (headers['sec-fetch-site'] === 'same-origin' && host !== undefined && hosts.has(hostnameOf(host))) return undefined;
      return {
        status: 403,
        message:
          'Forbidden: a web browser sent this request for a page or a navigation, not an MCP client. Web pages reach this server ' +
          'only by fetch() from an origin listed in --allowed-origins.',
      };
    },
    checkToken(headers) {
      if (expected === undefined && identities.length === 0) return undefined;
      const token = bearer(headers);
      if (token !== undefined && expected !== undefined && timingSafeEqual(digest(token), expected)) return undefined;
      if (token !== undefined && identityOf(token) !== undefined) return undefined;
      const given = headers.authorization !== undefined;
      return {
        status: 401,
        message: given
          ? 'Unauthorized: the bearer token is wrong.'
          : 'Unauthorized: this server requires "Authorization: Bearer <token>" (the token it was started with).',
        headers: { 'WWW-Authenticate': given ? 'Bearer realm="sessionwright", error="invalid_token"' : 'Bearer realm="sessionwright"' },
      };
    },
    identify(headers) {
      const token = bearer(headers);
      return token === undefined || identities.length === 0 ? undefined : identityOf(token);
    },
    allowedOrigin(headers) {
      const origin = headers.origin;
      return origin !== undefined && originAllowed(origin, headers.host) ? origin : undefined;
    },
  };
}

/**
 * True when a browser sent the request, for a page or a navigation: it carries `Origin` (fetch, EventSource, forms),
 * `Sec-Fetch-Site` or `Sec-Fetch-Dest` (every request of a current browser to a trustworthy URL: iframes, images,
 * navigations), or a `Sec-Fetch-Mode` other than `cors`. Node's fetch, which MCP SDK clients use, sends
 * `Sec-Fetch-Mode: cors` and none of the others, so that alone does not count.
 */
function fromBrowser(headers: IncomingHttpHeaders): boolean {
  const mode = headers['sec-fetch-mode'];
  return (
    headers.origin !== undefined ||
    headers['sec-fetch-site'] !== undefined ||
    headers['sec-fetch-dest'] !== undefined ||
    headers['sec-fetch-user'] !== undefined ||
    (mode !== undefined && mode !== 'cors')
  );
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The hostname part of a Host header or an --allowed-hosts entry, as a URL spells it (lower case, IPv6 in brackets). */
function hostnameOf(host: string): string {
  const bare = isIP(host) === 6 ? `[${host}]` : host;
  try {
    return new URL(`http://${bare}`).hostname;
  } catch {
    return `\u0000invalid:${host}`;
  }
}

/** Names a client may use for the bound address: the address itself, or every local address when bound to all of them. */
function boundNames(host: string): string[] {
  if (host === '0.0.0.0' || host === '::') {
    return Object.values(networkInterfaces())
      .flat()
      .filter((entry) => entry !== undefined)
      .map((entry) => hostnameOf(entry.address));
  }
  return [hostnameOf(host)];
}
