// What a call relayed from another replica brings into this process, apart from the rest of the fleet so the HTTP server names it without loading Redis.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Envelope } from './relay-signature.js';

/** The envelope of the relayed request being served (how far its call has travelled, whether it lists this replica only). */
export const relayedCall = new AsyncLocalStorage<Envelope | undefined>();
