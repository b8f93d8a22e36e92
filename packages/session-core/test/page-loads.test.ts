// Page loads in turns: run() with `loads` waits for one of a few turns shared by every session, fairly across identities;
// the wait counts against the call's limit but not the load's own timeout, and a load that never ends lets go of its turn
// unless every core is busy. The machine's load average is stubbed: a test cannot make this machine idle or busy on cue.
import os, { availableParallelism } from 'node:os';
import { holdsFor, startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import type { Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrowserHost, SessionManager, type SessionManagerOptions } from '../src/index.js';
import { rejectionOf } from './session-errors.js';

/** Polled often: the tests start their next call as soon as a request reaches the site. */
const POLL = { timeout: 10_000, interval: 10 };

let fixture: FixtureServer;
const host = new BrowserHost({ headless: true });
const managers: SessionManager[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer();
});
// The managers share one browser: each closes its own sessions, and the browser goes last.
afterEach(async () => {
  vi.restoreAllMocks();
  for (const manager of managers.splice(0)) await Promise.all((await manager.list()).map((info) => manager.close(info.sessionId)));
});
afterAll(async () => {
  await host.close();
  await fixture.close();
});

describe('page loads in turns', () => {
  it('runs at most atOnce loads at once across sessions, and every one succeeds', async () => {
    const manager = newManager({ pageLoads: { atOnce: 2 } });
    const sessions = await Promise.all(Array.from({ length: 6 }, () => manager.create()));
    let loading = 0;
    let most = 0;
    const load = async (page: Page, url: string) => {
      loading += 1;
      most = Math.max(most, loading);
      try {
        return (await page.goto(url))?.status();
      } finally {
        loading -= 1;
      }
    };
    const statuses = await Promise.all(
      sessions.map((session, i) => manager.run(session.id, (page) => load(page, fixture.urlFor(`/wait/200?${i}`)), { loads: true })),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(most).toBe(2);
    // Calls that load nothing are not held back by the turns.
    expect(await manager.run(sessions[0]?.id ?? '', async (page) => page.url())).toContain('/wait/200');
  });

  it("the wait for a turn does not count against the load's own timeout", async () => {
    const manager = newManager({ pageLoads: { atOnce: 1 } });
    const [first, second] = await Promise.all([manager.create(), manager.create()]);
    const slow = manager.run(first.id, (page) => page.goto(fixture.urlFor('/wait/3000')), { loads: true });
    await waitFor(() => fixture.requests.includes('/wait/3000'), POLL);
    // Its own load takes a few ms; it waits ~3 s for its turn.
    const quick = await manager.run(second.id, (page) => page.goto(fixture.urlFor('/pages/home?quick'), { timeout: 2_000 }), { loads: true });
    expect(quick?.status()).toBe(200);
    expect((await slow)?.status()).toBe(200);
  });

  it("another identity's load waits for one turn, not for the queue of an identity with many", async () => {
    const manager = newManager({ pageLoads: { atOnce: 1 } });
    const busy = await Promise.all(Array.from({ length: 5 }, () => manager.create({ identity: 'busy' })));
    const other = await manager.create({ identity: 'other' });
    const loads = busy.map((session, i) => manager.run(session.id, (page) => page.goto(fixture.urlFor(`/wait/500?busy${i}`)), { loads: true }));
    await waitFor(() => fixture.requests.includes('/wait/500?busy0'), POLL);
    const own = manager.run(other.id, (page) => page.goto(fixture.urlFor('/wait/500?other')), { loads: true });
    await Promise.all([...loads, own]);
    const order = fixture.requests.filter((path) => path.startsWith('/wait/500?')).map((path) => path.slice('/wait/500?'.length));
    // busy0 was loading and busy1 waited first; the other identity comes next, long before busy4.
    expect(order.indexOf('other')).toBeLessThanOrEqual(2);
    expect(order.at(-1)).toMatch(/^busy/);
  });

  it('a load that never ends lets go of its turn after holdMs', async () => {
    loadAverage(0);
    const manager = newManager({ pageLoads: { atOnce: 1, holdMs: 300 } });
    const [stuck, next] = await Promise.all([manager.create(), manager.create()]);
    const hanging = manager.run(stuck.id, (page) => page.goto(fixture.urlFor('/hang?turns'), { timeout: 20_000 }), { loads: true, timeout: 20_000 });
    let ended = false;
    hanging.then(
      () => (ended = true),
      () => (ended = true),
    );
    await waitFor(() => fixture.requests.includes('/hang?turns'), POLL);
    const loaded = await manager.run(next.id, (page) => page.goto(fixture.urlFor('/pages/home?after-hang')), { loads: true });
    expect(loaded?.status()).toBe(200);
    // The hanging load is still under way: only its turn was given up.
    expect(ended ? 'ended' : 'loading').toBe('loading');
  });

  it('while every core is busy a load keeps its turn past holdMs, and lets go once the machine has room', async () => {
    loadAverage(availableParallelism());
    const manager = newManager({ pageLoads: { atOnce: 1, holdMs: 200 } });
    const [stuck, next] = await Promise.all([manager.create(), manager.create()]);
    const hanging = manager.run(stuck.id, (page) => page.goto(fixture.urlFor('/hang?busy'), { timeout: 20_000 }), { loads: true, timeout: 20_000 });
    hanging.catch(() => {});
    await waitFor(() => fixture.requests.includes('/hang?busy'), POLL);
    const waiting = manager.run(next.id, (page) => page.goto(fixture.urlFor('/pages/home?after-busy')), { loads: true });
    // Five holds go by with the turn kept.
    await holdsFor(() => !fixture.requests.includes('/pages/home?after-busy'), 1_000, { what: 'the second load waiting for its turn' });
    expect(fixture.requests).not.toContain('/pages/home?after-busy');
    loadAverage(availableParallelism() - 0.5);
    expect((await waiting)?.status()).toBe(200);
  });

  it('a call cancelled or past its limit while waiting for a turn ends at once, loads nothing, and keeps its page', async () => {
    const manager = newManager({ pageLoads: { atOnce: 1 }, callTimeout: 5_000 });
    const [holder, cancelled, late] = await Promise.all([manager.create(), manager.create(), manager.create()]);
    const holding = manager.run(holder.id, (page) => page.goto(fixture.urlFor('/wait/1500?holder')), { loads: true });
    await waitFor(() => fixture.requests.includes('/wait/1500?holder'), POLL);
    const pages = [cancelled.page, late.page];
    const controller = new AbortController();
    const cancelledCall = manager.run(cancelled.id, (page) => page.goto(fixture.urlFor('/pages/home?cancelled')), { loads: true, signal: controller.signal });
    const lateCall = manager.run(late.id, (page) => page.goto(fixture.urlFor('/pages/home?late')), { loads: true, timeout: 200 });
    controller.abort();
    const [cancelError, lateError] = await Promise.all([rejectionOf(cancelledCall), rejectionOf(lateCall)]);
    expect(cancelError.details).toMatchObject({ reason: 'cancelled', pageReplaced: false });
    expect(lateError.details).toMatchObject({ reason: 'call_timeout', pageReplaced: false });
    await holding;
    expect(fixture.requests.filter((path) => path.endsWith('?cancelled') || path.endsWith('?late'))).toEqual([]);
    expect([cancelled.page, late.page]).toEqual(pages);
    // Both sessions load at once afterwards.
    for (const session of [cancelled, late]) {
      expect((await manager.run(session.id, (page) => page.goto(fixture.urlFor(`/pages/home?again-${session.id}`)), { loads: true }))?.status()).toBe(200);
    }
  });

  it('refuses a hold that is not a positive number of ms and a count that is not a positive integer', () => {
    for (const pageLoads of [{ holdMs: 0 }, { holdMs: Number.NaN }, { atOnce: 0 }, { atOnce: 2.5 }]) {
      expect(() => new SessionManager({ host, pageLoads })).toThrow(RangeError);
    }
  });
});

/** Every later os.loadavg() answers this 1-minute figure. */
function loadAverage(lastMinute: number): void {
  vi.spyOn(os, 'loadavg').mockReturnValue([lastMinute, lastMinute, lastMinute]);
}

function newManager(options: Partial<SessionManagerOptions>): SessionManager {
  const manager = new SessionManager({ host, maxSessions: 20, ...options });
  managers.push(manager);
  return manager;
}
