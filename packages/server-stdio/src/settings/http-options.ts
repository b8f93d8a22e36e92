// How the server listens in HTTP mode: the options the HTTP-only flags fill in, and the refusal to run unprotected.
import { isIP } from 'node:net';
import { envVarName, type HttpFlagValues } from './table.js';
import { isReplicaUrl } from '../fleet/replica-url.js';
import { readIdentities } from '../identity/identities.js';
import { UsageError } from '../input/usage-error.js';

/**
 * How the server listens when it serves HTTP instead of stdio: one field per HTTP-only flag of the table in settings/table.ts.
 * `port` (0 picks any free port) is always set here; `host` is the address to bind; `allowedHosts` are accepted on top
 * of the loopback names, `allowedOrigins` are the web origins whose pages may use the server (`*`: any; docs/http.md);
 * with `authToken` every request needs `Authorization: Bearer <token>`.
 */
export type HttpOptions = HttpFlagValues & { port: number };

/** The environment variable that holds the token, so it stays out of `ps` listings and shell history. */
const AUTH_TOKEN_ENV = envVarName('auth-token');

/**
 * Refuses a listener that anyone on the network could drive (not loopback, no token, and no explicit opt-out), and
 * a token file that cannot be read or parsed, or that comes with a single token too.
 */
export function checkListening(http: HttpOptions): void {
  if (http.store !== undefined && http.storeKey === undefined)
    throw new UsageError('--store needs --store-key (or SESSIONWRIGHT_STORE_KEY): a secret every replica shares, which encrypts what they store');
  if (http.store === undefined && (http.storeKey !== undefined || http.advertiseUrl !== undefined))
    throw new UsageError(`--${http.storeKey !== undefined ? 'store-key' : 'advertise-url'} applies only to a fleet; add --store redis://…`);
  if (http.advertiseUrl !== undefined && !isReplicaUrl(http.advertiseUrl))
    throw new UsageError(
      `--advertise-url must be http(s)://host:port and nothing more (no path, query, user or password): ${JSON.stringify(http.advertiseUrl)}`,
    );
  if (http.authTokensFile !== undefined) {
    if (http.authToken !== undefined) throw new UsageError('--auth-tokens-file and --auth-token cannot be used together: put every token in the file');
    const identities = readIdentities(http.authTokensFile);
    // Code run in this process can read every identity's sessions and tokens: only one identity may be given that.
    if (http.allowUnsafeCode && identities.length > 1) {
      throw new UsageError(
        `--allow-unsafe-code with ${identities.length} identities in --auth-tokens-file: code one client runs in this process could reach the others' sessions; serve unsafe code to one identity only`,
      );
    }
    return;
  }
  if (!isLoopback(http.host) && http.authToken === undefined && !http.allowUnauthenticated) {
    throw new UsageError(
      `refusing to listen on ${http.host} without a token: anyone who can reach it could drive the browser. ` +
        `Set --auth-token <token> (or ${AUTH_TOKEN_ENV}), or pass --allow-unauthenticated if a firewall or an authenticating proxy protects it`,
    );
  }
}

/** True for addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const address = (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).toLowerCase();
  if (address === 'localhost' || address.endsWith('.localhost')) return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || address.startsWith('::ffff:127.');
}
