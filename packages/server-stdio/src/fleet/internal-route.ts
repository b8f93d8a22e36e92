// The replica-to-replica route's path and signature header, apart from the fleet so the HTTP server names them without loading Redis.

/** The path of replica-to-replica calls; only a request signed with the store key reaches a tool (FleetKeys.verify). */
export const INTERNAL_CALL_PATH = '/fleet/call';
/** The header that carries the signature of a replica-to-replica request. */
export const SIGNATURE_HEADER = 'x-sessionwright-fleet';
