// A burst of creations: contexts are opened a few at a time (each open gets its own timeout from its turn), and every
// creation succeeds, instead of a thousand opens at once each taking longer than its timeout.
import type { Browser } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';

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
});
