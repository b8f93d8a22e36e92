// The replica-to-replica route's path and signature header, apart from the fleet so the HTTP server names them without loading Redis.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The path of replica-to-replica calls; only a request signed with the store key reaches a tool (FleetKeys.verify). */
export const INTERNAL_CALL_PATH = '/fleet/call';
/** The header that carries the signature of a replica-to-replica request. */
export const SIGNATURE_HEADER = 'x-sessionwright-fleet';

/** The header that carries, on a request relayed to another replica, the base of live-view links for its caller. */
export const LIVE_BASE_HEADER = 'x-sessionwright-live-base';

/**
 * In a fleet, the base of the live-view links a call mints: the address its client reached (the balancer's), carried
 * along when the call runs on another replica. Unset, a link is on the replica's own base.
 */
export const liveLinkBase = new AsyncLocalStorage<string | undefined>();
