// What a call relayed from another replica brings into this process, apart from the fleet so the HTTP server and the live view name it without loading Redis.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Envelope } from './relay-signature.js';

/**
 * In a fleet, the base of the live-view links a call mints: the address its client reached (the balancer's), carried
 * along when the call runs on another replica. Unset, a link is on the replica's own base.
 */
export const liveLinkBase = new AsyncLocalStorage<string | undefined>();

/** The envelope of the relayed request being served (how far its call has travelled, whether it lists this replica only). */
export const relayedCall = new AsyncLocalStorage<Envelope | undefined>();
