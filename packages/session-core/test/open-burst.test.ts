// A burst of creations: contexts are opened a few at a time (each open gets its own timeout from its turn), and every
// creation succeeds, instead of a thousand opens at once each taking longer than its timeout; one given up leaves nothing.
import { waitFor } from '@sessionwright/test-kit';
import type { Browser } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';
import { rejectionOf } from './session-errors.js';

const managers: SessionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.shutdown()));
});

describe('a burst of creations', () => {
  it('opens at most 8 contexts at once, in parallel, and every creation succeeds', async () => {
    const host = new BrowserHost({ headless: true });
    const manager = new SessionManager({ host, maxSessions: 40 });
    managers.push(manager);
    const browser = await host.start().browser();
    let opening = 0;
    let most = 0;
    const newContext = browser.newContext.bind(browser);
    (browser as { newContext: Browser['newContext'] }).newContext = async (...args) => {
      opening += 1;
      most = Math.max(most, opening);
      try {
        return await newContext(...args);
      } finally {
        opening -= 1;
      }
    };
    const sessions = await Promise.all(Array.from({ length: 24 }, () => manager.create()));
    expect(new Set(sessions.map((session) => session.id)).size).toBe(24);
    expect(sessions.every((session) => !session.page.isClosed())).toBe(true);
    expect(most).toBeLessThanOrEqual(8);
    expect(most).toBeGreaterThan(1);
  });

  it('a creation given up while waiting for its turn opens nothing; one given up while opening closes what lands', async () => {
    const host = new BrowserHost({ headless: true });
    const manager = new SessionManager({ host, maxSessions: 40 });
    managers.push(manager);
    const browser = await host.start().browser();
    const gate = held(browser);
    const controllers = Array.from({ length: 12 }, () => new AbortController());
    const creations = controllers.map((controller) => manager.create({ signal: controller.signal }));
    await waitFor(() => gate.asked === 8, UNTIL);
    controllers[1]?.abort(); // opening
    controllers[10]?.abort(); // waiting for a turn
    // Both answer at once, before the browser has opened anything.
    const [opening, waiting] = await Promise.all([rejectionOf(creations[1] as Promise<unknown>), rejectionOf(creations[10] as Promise<unknown>)]);
    for (const error of [opening, waiting]) {
      expect(error.code).toBe('BROWSER_ERROR');
      expect(error.details?.reason).toBe('cancelled');
    }
    expect(browser.contexts()).toHaveLength(0);
    gate.release();
    const created = await Promise.all(creations.filter((_, i) => i !== 1 && i !== 10));
    expect(created).toHaveLength(10);
    expect(gate.asked).toBe(11);
    expect(await manager.list()).toHaveLength(10);
    await waitFor(() => browser.contexts().length === 10, UNTIL);
  });

  it('a creation that cannot get its turn within the call timeout ends with call_timeout, and what opens later is closed', async () => {
    const host = new BrowserHost({ headless: true });
    const manager = new SessionManager({ host, maxSessions: 40, callTimeout: 400 });
    managers.push(manager);
    const browser = await host.start().browser();
    const gate = held(browser);
    const errors = await Promise.all(Array.from({ length: 10 }, () => rejectionOf(manager.create())));
    for (const error of errors) {
      expect(error.code).toBe('BROWSER_ERROR');
      expect(error.details?.reason).toBe('call_timeout');
      expect(error.details?.timeout).toBe(400);
    }
    expect(gate.asked).toBe(8);
    gate.release();
    await waitFor(() => gate.opened === 8, UNTIL);
    await waitFor(() => browser.contexts().length === 0, UNTIL);
    expect(await manager.list()).toHaveLength(0);
  });
});

/** Holds every newContext() of the browser until release(), counting those asked for and those opened. */
function held(browser: Browser): { readonly asked: number; readonly opened: number; release(): void } {
  let open!: () => void;
  const released = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { asked: 0, opened: 0, release: () => open() };
  const newContext = browser.newContext.bind(browser);
  (browser as { newContext: Browser['newContext'] }).newContext = async (...args) => {
    state.asked += 1;
    await released;
    const context = await newContext(...args);
    state.opened += 1;
    return context;
  };
  return state;
}

/** How long a burst's opens may take on a loaded machine, checked every 20 ms. */
const UNTIL = { timeout: 10_000, interval: 20 };
