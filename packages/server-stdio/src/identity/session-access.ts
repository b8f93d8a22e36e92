// The sessions one caller may see and use: a SessionAccess scoped to its connection or its client identity.
import type { Session, SessionManager } from '@sessionwright/session-core';
import { MAX_FORKS, type SavedStates } from '@sessionwright/session-core/parts';
import type { SavedStateAccess, SessionAccess } from '@sessionwright/tools';

/**
 * Who is calling. `identity` is the key sessions are listed and counted under (the client identity when the server has
 * several, else the connection). With `guarded`, only the identity may use its sessions: anyone else presenting an id is
 * answered as for an unknown id. Without it the id alone is the capability (one identity: everyone is the same client).
 */
export interface CallerScope {
  identity: string;
  guarded: boolean;
  /** Whose saved states the caller reaches: its identity, or without identities the one local identity. */
  stateIdentity?: string;
}

/**
 * What keeps sessions beyond this process (a fleet's directory and checkpoints, or --data-dir's checkpoints): it is told
 * of every session opened, used and closed through a SessionAccess.
 */
export interface SessionKeeper {
  /** The id of a session about to be created, and its place among the caller's sessions (a fleet's quota). */
  reserve(scope: CallerScope): Promise<{ sessionId: string; release(): void }>;
  /** The session is open; it is entered where it is kept. */
  opened(session: Session, scope: CallerScope): Promise<void>;
  /** A call on the session ended: its checkpoint follows. */
  used(sessionId: string): void;
  /** Its caller closed it: nothing of it is kept. */
  closed(sessionId: string): void;
}

/**
 * A SessionAccess for one caller; `created`, for a connection, collects the ids it opened (closed with it under
 * --close-sessions-on-disconnect).
 */
export function scopedAccess(manager: SessionManager, scope: CallerScope, created?: Set<string>, states?: SavedStates, fleet?: SessionKeeper): SessionAccess {
  const guard = scope.guarded ? { identity: scope.identity } : {};
  const stateIdentity = scope.stateIdentity ?? scope.identity;
  const saved: SavedStateAccess | undefined = states && {
    async save(sessionId, name, signal) {
      const storageState = await manager.run(sessionId, (page) => page.context().storageState({ indexedDB: true }), { ...guard, signal });
      return states.save(stateIdentity, name, storageState);
    },
    list: () => states.list(stateIdentity),
    delete: (name) => states.delete(stateIdentity, name),
    load: (name) => states.load(stateIdentity, name),
  };
  return {
    states: saved,
    async fork(sessionId, request) {
      // In a fleet each copy takes the caller's place across every replica first, as a create does: all of them or none.
      const places = fleet === undefined ? [] : await reserveAll(fleet, scope, request.count ?? 1);
      let copies: Session[];
      try {
        copies = await manager.fork(sessionId, { ...request, ...guard, guarded: scope.guarded });
      } catch (error) {
        for (const place of places) place.release();
        throw error;
      }
      for (const copy of copies) created?.add(copy.id);
      // Each copy is entered in the directory like a new session, in the place reserved for it.
      try {
        if (fleet !== undefined) await Promise.all(copies.map((copy) => fleet.opened(copy, scope)));
      } finally {
        for (const place of places) place.release();
      }
      return copies;
    },
    get maxSessions() {
      return manager.maxSessions;
    },
    async create(request = {}) {
      // In a fleet the caller's place is taken across every replica first, and the session is entered in the directory.
      const ticket = await fleet?.reserve(scope);
      let session;
      try {
        // With identities each is guarded: a full server does not tell it how many sessions the others hold.
        session = await manager.create({
          ...request,
          identity: scope.identity,
          guarded: scope.guarded,
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
    list: () => manager.list({ identity: scope.identity }),
    async run(sessionId, fn, options = {}) {
      try {
        return await manager.run(sessionId, fn, { ...options, ...guard });
      } finally {
        fleet?.used(sessionId);
      }
    },
  };
}

/**
 * `count` places among the caller's sessions across the fleet, or none: MAX_SESSIONS_REACHED when they do not all fit.
 * A count the manager refuses (INVALID_PARAMETERS) reserves nothing, so that refusal answers.
 */
async function reserveAll(fleet: SessionKeeper, scope: CallerScope, count: number): Promise<{ release(): void }[]> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_FORKS) return [];
  const places: { release(): void }[] = [];
  try {
    for (let index = 0; index < count; index += 1) places.push(await fleet.reserve(scope));
  } catch (error) {
    for (const place of places) place.release();
    throw error;
  }
  return places;
}
