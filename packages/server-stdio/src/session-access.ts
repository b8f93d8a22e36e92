// The sessions one caller may see and use: a SessionAccess scoped to its connection or its client identity.
import type { SavedStates, SessionManager } from '@sessionwright/session-core';
import type { SavedStateAccess, SessionAccess } from '@sessionwright/tools';

/**
 * Who is calling. `owner` is the key sessions are listed and counted under (the client identity when the server has
 * several, else the connection). With `guarded`, only the owner may use its sessions: anyone else presenting an id is
 * answered as for an unknown id. Without it the id alone is the capability (one identity: everyone is the same client).
 */
export interface CallerScope {
  owner: string;
  guarded: boolean;
  /** Whose saved states the caller reaches: its identity, or without identities the one local identity. */
  stateOwner?: string;
}

/**
 * A SessionAccess for one caller; `created`, for a connection, collects the ids it opened (closed with it under
 * --close-sessions-on-disconnect).
 */
export function scopedAccess(manager: SessionManager, scope: CallerScope, created?: Set<string>, states?: SavedStates): SessionAccess {
  const guard = scope.guarded ? { owner: scope.owner } : {};
  const stateOwner = scope.stateOwner ?? scope.owner;
  const saved: SavedStateAccess | undefined = states && {
    async save(sessionId, name, signal) {
      const storageState = await manager.run(sessionId, (page) => page.context().storageState({ indexedDB: true }), { ...guard, signal });
      return states.save(stateOwner, name, storageState);
    },
    list: () => states.list(stateOwner),
    delete: (name) => states.delete(stateOwner, name),
    load: (name) => states.load(stateOwner, name),
  };
  return {
    states: saved,
    async fork(sessionId, request) {
      const copies = await manager.fork(sessionId, { ...request, ...guard, tenant: scope.guarded });
      for (const copy of copies) created?.add(copy.id);
      return copies;
    },
    get maxSessions() {
      return manager.maxSessions;
    },
    async create(request = {}) {
      // With identities each is a tenant: a full server does not tell it how many sessions the others hold.
      const session = await manager.create({ ...request, owner: scope.owner, tenant: scope.guarded });
      created?.add(session.id);
      return session;
    },
    close: (sessionId) => manager.close(sessionId, guard),
    get: (sessionId) => manager.get(sessionId, guard),
    list: () => manager.list({ owner: scope.owner }),
    run: (sessionId, fn, options = {}) => manager.run(sessionId, fn, { ...options, ...guard }),
  };
}
