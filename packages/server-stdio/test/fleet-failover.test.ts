// A fleet loses nothing when a replica does (docs/deploy.md#a-fleet): SIGKILL, a rolling restart under load, and Redis going away, with real parts.
import { hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, startFleet, type Fleet, type Replica } from './fleet-helpers.js';
import { modernCall, type ModernAnswer } from './modern-helpers.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
let fixture: FixtureServer;
let fleet: Fleet;

beforeAll(async () => {
  if (!parts) return;
  fixture = await startFixtureServer();
  fleet = await startFleet(3);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
});

const alice = { token: ALICE };

function ok(answer: ModernAnswer): any {
  expect(answer.response?.result?.isError, JSON.stringify(answer.json ?? answer.response)).toBeFalsy();
  return answer.json;
}

/** The replica that holds a session, as list_sessions says (host:port). */
async function holderOf(sessionId: string): Promise<Replica> {
  const listed = ok(await modernCall(fleet.balancer.url, 'list_sessions', {}, alice));
  const label = listed.sessions.find((session: { sessionId: string }) => session.sessionId === sessionId)?.replica;
  const replica = fleet.replicas.find((candidate) => new URL(candidate.base).host === label);
  if (!replica) throw new Error(`no replica holds ${sessionId}: ${JSON.stringify(listed)}`);
  return replica;
}

/** A session signed in on the fixture site as `user` (an HttpOnly cookie), left on /account. */
async function signedIn(user: string): Promise<string> {
  const sessionId = ok(await modernCall(fleet.balancer.url, 'create_session', {}, alice)).sessionId as string;
  ok(await modernCall(fleet.balancer.url, 'navigate', { sessionId, url: fixture.urlFor(`/sign-in?user=${user}`) }, alice));
  ok(await modernCall(fleet.balancer.url, 'navigate', { sessionId, url: fixture.urlFor('/account') }, alice));
  return sessionId;
}

async function accountOf(base: string, sessionId: string): Promise<{ text: string; restored: unknown; url: string }> {
  const answer = ok(await modernCall(base, 'snapshot', { sessionId }, alice));
  return { text: JSON.stringify(answer), restored: answer.restored, url: answer.url };
}

describe.skipIf(!parts)('nothing lost when a replica is', () => {
  it('restores the sessions of a SIGKILLed replica on a live one, signed in and on their URL, and says so once', async () => {
    const sessions = await Promise.all(['ada', 'grace', 'linus'].map((user) => signedIn(user)));
    // A checkpoint follows a call within about two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const victim = await holderOf(sessions[0]!);
    const lost = [];
    for (const sessionId of sessions) if ((await holderOf(sessionId)) === victim) lost.push(sessionId);
    await victim.kill();
    const survivor = fleet.replicas.find((replica) => replica !== victim)!;
    for (const [index, sessionId] of sessions.entries()) {
      const user = ['ada', 'grace', 'linus'][index];
      const first = await accountOf(survivor.base, sessionId);
      expect(first.text).toContain(`Signed in as ${user}`);
      expect(first.url).toBe(fixture.urlFor('/account'));
      if (lost.includes(sessionId))
        expect(first.restored).toMatchObject({ at: expect.any(Number), lost: expect.arrayContaining([expect.stringContaining('refs')]) });
      else expect(first.restored).toBeUndefined();
      // Said once: the next call is an ordinary one, through the balancer.
      expect((await accountOf(fleet.balancer.url, sessionId)).restored).toBeUndefined();
    }
    // The replica comes back: it serves nothing twice (the sessions stay where they were restored).
    await victim.start();
    for (const sessionId of lost) expect(await holderOf(sessionId)).not.toBe(victim);
    for (const sessionId of sessions) ok(await modernCall(fleet.balancer.url, 'close_session', { sessionId }, alice));
  }, 180_000);

  it('restarts every replica, one after another, under load, and fails no call', async () => {
    const sessions = await Promise.all(['ada', 'grace', 'linus'].map((user) => signedIn(user)));
    let stop = false;
    const failures: string[] = [];
    let calls = 0;
    const load = sessions.map(async (sessionId, index) => {
      const pages = ['/pages/home', '/pages/form'];
      while (!stop) {
        const url = fixture.urlFor(pages[calls % 2]!);
        try {
          const answer = await modernCall(fleet.balancer.url, 'navigate', { sessionId, url }, alice);
          calls += 1;
          if (answer.status !== 200 || answer.response?.result?.isError || answer.json?.url !== url)
            failures.push(`${index}: ${answer.status} ${JSON.stringify(answer.json ?? answer.response)}`);
        } catch (error) {
          failures.push(`${index}: ${String(error)}`);
        }
      }
    });
    for (const replica of fleet.replicas) {
      await replica.stop();
      await replica.start();
      // The balancer sees it up again before the next one stops.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    stop = true;
    await Promise.all(load);
    expect(failures, fleet.replicas.map((replica) => replica.cli.stderr().slice(-3000)).join('\n----\n')).toEqual([]);
    expect(calls).toBeGreaterThan(10);
    for (const sessionId of sessions) {
      ok(await modernCall(fleet.balancer.url, 'navigate', { sessionId, url: fixture.urlFor('/account') }, alice));
      expect((await accountOf(fleet.balancer.url, sessionId)).text).toMatch(/Signed in as (ada|grace|linus)/);
      ok(await modernCall(fleet.balancer.url, 'close_session', { sessionId }, alice));
    }
  }, 240_000);

  it('keeps serving the sessions each replica holds while Redis is away, answers store_unavailable where it is needed, and heals', async () => {
    const sessionId = await signedIn('ada');
    const holder = await holderOf(sessionId);
    const other = fleet.replicas.find((replica) => replica !== holder)!;
    await fleet.redis.stop();
    ok(await modernCall(holder.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }, alice));
    const refused = await modernCall(other.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, alice);
    expect(refused.json.errorCode).toBe('BROWSER_ERROR');
    expect(refused.json.details.reason).toBe('store_unavailable');
    const create = await modernCall(other.base, 'create_session', {}, alice);
    expect(create.json.details.reason).toBe('store_unavailable');
    // Redis returns empty: each replica enters its sessions again and the fleet serves them from anywhere.
    await fleet.redis.start();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await modernCall(other.base, 'navigate', { sessionId, url: fixture.urlFor('/account') }, alice);
      if (!answer.response?.result?.isError) {
        expect(answer.json.restored).toBeUndefined();
        break;
      }
      if (Date.now() > deadline) throw new Error(`not healed: ${JSON.stringify(answer.json)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect((await accountOf(other.base, sessionId)).text).toContain('Signed in as ada');
    expect(await holderOf(sessionId)).toBe(holder);
    ok(await modernCall(fleet.balancer.url, 'close_session', { sessionId }, alice));
  }, 120_000);
});
