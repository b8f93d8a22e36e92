// Identities: an opaque key that lists, counts and (when a call presents it) guards sessions, for servers with several clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';
import { FakeTime } from './fake-time.js';
import { errorOf, rejectionOf } from './session-errors.js';

let host: BrowserHost;
beforeAll(async () => {
  host = new BrowserHost({ headless: true }).start();
  await host.browser();
});
afterAll(() => host.close());

/** Closes the manager's sessions but not the shared browser (shutdown would close the host too). */
async function closeAll(manager: SessionManager): Promise<void> {
  for (const { sessionId } of await manager.list()) await manager.close(sessionId).catch(() => {});
}

describe('ownership', () => {
  it('answers another identity exactly as for an id never issued, open or ended', async () => {
    const time = new FakeTime();
    const manager = new SessionManager({ host, clock: time, timers: time, sessionTimeout: 1_000 });
    const mine = await manager.create({ identity: 'alice' });
    const never = errorOf(() => manager.get('00000000-0000-4000-8000-000000000000', { identity: 'bob' }));
    const theirs = errorOf(() => manager.get(mine.id, { identity: 'bob' }));
    expect({ ...theirs.toJSON(), sessionId: undefined }).toEqual({ ...never.toJSON(), sessionId: undefined });
    expect((await rejectionOf(manager.run(mine.id, async () => 1, { identity: 'bob' }))).toJSON()).toEqual(theirs.toJSON());
    expect((await rejectionOf(manager.close(mine.id, { identity: 'bob' }))).code).toBe('SESSION_NOT_FOUND');
    // The identity itself, and a caller that names no identity (the id alone is the capability), still reach it.
    expect(await manager.run(mine.id, async () => 'ok', { identity: 'alice' })).toBe('ok');
    expect(manager.get(mine.id)).toBe(mine);
    // Ended: the identity hears why; anyone else hears nothing more than "no such id".
    time.advance(1_000);
    expect(errorOf(() => manager.get(mine.id, { identity: 'alice' })).code).toBe('SESSION_EXPIRED');
    expect(errorOf(() => manager.get(mine.id, { identity: 'bob' })).details).toEqual(never.details);
    await closeAll(manager);
  });
});

describe('maxSessionsPerIdentity', () => {
  it('refuses an identity past its limit with scope client, counting creations in flight, while others still create', async () => {
    const manager = new SessionManager({ host, maxSessions: 5, maxSessionsPerIdentity: 2 });
    const settled = await Promise.allSettled([1, 2, 3].map(() => manager.create({ identity: 'alice' })));
    const refused = settled.filter((result) => result.status === 'rejected');
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as { code: string; details: Record<string, unknown> };
    expect(error.code).toBe('MAX_SESSIONS_REACHED');
    expect(error.details).toMatchObject({ scope: 'client', maxSessionsPerClient: 2, next: 'free_session' });
    const bobs = await Promise.all([manager.create({ identity: 'bob' }), manager.create({ identity: 'bob' })]);
    expect(bobs).toHaveLength(2);
    // The global limit answers scope server.
    const global = await rejectionOf(manager.create({ identity: 'carol' }).then(() => manager.create({ identity: 'carol' })));
    expect(global.details).toMatchObject({ scope: 'server', maxSessions: 5 });
    // Closing one of alice's frees her a slot.
    const [first] = manager.idsOf('alice');
    await manager.close(first!);
    expect((await manager.create({ identity: 'alice' })).identity).toBe('alice');
    await closeAll(manager);
  });
});

describe('a full server and its guarded identities', () => {
  it("tells a guarded identity only of its own sessions, never how many the others hold; any other caller hears the server's count", async () => {
    const manager = new SessionManager({ host, maxSessions: 3 });
    await manager.create({ identity: 'alice', guarded: true });
    await Promise.all([manager.create({ identity: 'bob', guarded: true }), manager.create({ identity: 'bob', guarded: true })]);
    const refused = await rejectionOf(manager.create({ identity: 'alice', guarded: true }));
    expect(refused.code).toBe('MAX_SESSIONS_REACHED');
    expect(refused.details).toEqual({ scope: 'server', maxSessions: 3, yourSessions: 1, next: 'free_session' });
    expect(refused.message).toContain('1 of them yours');
    // A caller that is not one of several guarded identities (one client, or a library user) is told the whole picture.
    const whole = await rejectionOf(manager.create({ identity: 'carol' }));
    expect(whole.details).toMatchObject({ scope: 'server', maxSessions: 3, openSessions: 3 });
    await closeAll(manager);
  });
});
