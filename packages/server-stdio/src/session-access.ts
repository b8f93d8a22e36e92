// The sessions one caller may see and use: a SessionAccess scoped to its connection or its client identity.
import type { SessionManager } from '@sessionwright/session-core';
import type { SessionAccess } from '@sessionwright/tools';
import type { Fleet } from './fleet/fleet.js';

/**
 * Who is calling. `owner` is the key sessions are listed and counted under (the client identity when the server has
 * several, else the connection). With `guarded`, only the owner may use its sessions: anyone else presenting an id is
 * answered as for an unknown id. Without it the id alone is the capability (one identity: everyone is the same client).
 */
export interface CallerScope {
  owner: string;
  guarded: boolean;
}

/**
 * A SessionAccess for one caller; `created`, for a connection, collects the ids it opened (closed with it under
 * --close-sessions-on-disconnect).
 */
export function scopedAccess(manager: SessionManager, scope: CallerScope, created?: Set<string>, fleet?: Fleet): SessionAccess {
  const guard = scope.guarded ? { owner: scope.owner } : {};
  return {
    get maxSessions() {
      return manager.maxSessions;
    },
    async create(request = {}) {
      // In a fleet the caller's place is taken across every replica first, and the session is entered in the directory.
      const ticket = await fleet?.reserve(scope);
      let session;
      try {
        // With identities each is a tenant: a full server does not tell it how many sessions the others hold.
        session = await manager.create({
          ...request,
          owner: scope.owner,
          tenant: scope.guarded,
          ...(ticket === undefined ? {} : { sessionId: ticket.sessionId }),
        });
      } catch (error) {
        ticket?.release();
        throw error;
      }
      if (fleet !== undefined) {
        try {
          await fleet.opened(session, scope);
        } catch (error) {
          await manager.close(session.id).catch(() => {});
          ticket?.release();
          throw error;
        }
      }
      created?.add(session.id);
      return session;
    },
    async close(sessionId) {
      const files = await manager.close(sessionId, guard);
      fleet?.closed(sessionId);
      return files;
    },
    get: (sessionId) => manager.get(sessionId, guard),
    list: () => manager.list({ owner: scope.owner }),
    async run(sessionId, fn, options = {}) {
      try {
        return await manager.run(sessionId, fn, { ...options, ...guard });
      } finally {
        fleet?.used(sessionId);
      }
    },
  };
}
