// Idle expiry, refresh on use and tombstones, driven by fake time against a real shared browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, type SessionManagerOptions } from '../src/index.js';
import { FakeTime } from './fake-time.js';
import { errorOf, rejectionOf } from './session-errors.js';

const TIMEOUT = 60_000;

let host: BrowserHost;
beforeAll(async () => {
  host = new BrowserHost({ headless: true }).start();
  await host.browser();
});
afterAll(() => host.close());

function setup(options: Partial<SessionManagerOptions> = {}) {
  const time = new FakeTime();
  const manager = new SessionManager({ host, sessionTimeout: TIMEOUT, clock: time, timers: time, ...options });
  return { time, manager };
}

describe('idle expiry', () => {
  it('expires at exactly createdAt + sessionTimeout, not a millisecond before', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    expect(session.createdAt).toBe(time.now());
    expect(session.expiresAt).toBe(session.createdAt + TIMEOUT);

    time.advance(TIMEOUT - 1);
    expect(manager.get(session.id)).toBe(session);
    expect(manager.has(session.id)).toBe(true);
    time.advance(1);
    expect(time.now()).toBe(session.createdAt + TIMEOUT);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
    expect(manager.has(session.id)).toBe(false);
    expect(manager.has('never-issued')).toBe(false);
    expect(manager.size).toBe(0);
    // The context is closed behind the scenes.
    await expect.poll(() => session.page.isClosed()).toBe(true);
  });

  it('moves expiresAt on every call through run()', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    time.advance(40_000);
    const url = await manager.run(session.id, async (page, runSession) => {
      expect(runSession).toBe(session);
      return page.url();
    });
    expect(url).toBe('about:blank');
    expect(session.lastUsedAt).toBe(session.createdAt + 40_000);
    expect(session.expiresAt).toBe(session.createdAt + 40_000 + TIMEOUT);

    // The original deadline passes without effect.
    time.advance(TIMEOUT - 1);
    expect(manager.get(session.id)).toBe(session);
    time.advance(1);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
  });

  it('counts watching as use for at most one more timeout past the last use: a session only watched still expires', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    // Watched every 10 s: each look moves the expiry, up to twice the timeout after creation and no further.
    for (let watched = 0; watched < 3 * TIMEOUT; watched += 10_000) {
      time.advance(10_000);
      if (manager.size === 0) break;
      session.watched(time.now());
      expect(session.expiresAt).toBe(Math.min(time.now() + TIMEOUT, session.createdAt + 2 * TIMEOUT));
    }
    expect(time.now()).toBe(session.createdAt + 2 * TIMEOUT);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
  });

  it('lets a real use after watching start a new bound', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    time.advance(TIMEOUT - 1_000);
    session.watched(time.now());
    time.advance(TIMEOUT - 1_000);
    expect(manager.get(session.id)).toBe(session);
    await manager.run(session.id, async () => {});
    session.watched(time.now() + 5_000);
    expect(session.expiresAt).toBe(time.now() + 5_000 + TIMEOUT);
  });

  it('get() does not count as use', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    time.advance(TIMEOUT / 2);
    manager.get(session.id);
    expect(session.expiresAt).toBe(session.createdAt + TIMEOUT);
    time.advance(TIMEOUT / 2);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
  });

  it('does not expire a session while a call runs, and counts the call’s end as use', async () => {
    // The call's own time limit runs on the same clock: it is set past the three timeouts that pass inside the call.
    const { time, manager } = setup({ callTimeout: 4 * TIMEOUT });
    const session = await manager.create();
    await manager.run(session.id, async () => {
      // Three timeouts pass inside the call.
      time.advance(3 * TIMEOUT);
      expect(manager.get(session.id)).toBe(session);
      expect(session.busy).toBe(true);
    });
    expect(session.busy).toBe(false);
    expect(session.expiresAt).toBe(time.now() + TIMEOUT);
    time.advance(TIMEOUT - 1);
    expect(manager.get(session.id)).toBe(session);
    time.advance(1);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
  });

  it('keeps a session whose call is awaiting the browser while time passes outside it', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const call = manager.run(session.id, async (page) => {
      await gate;
      return page.evaluate(() => 1 + 1);
    });
    time.advance(2 * TIMEOUT + 5);
    expect(manager.get(session.id)).toBe(session);
    // While the call runs there is one expiry timer, not a timer re-arming itself.
    expect(time.pending).toBe(1);
    release();
    expect(await call).toBe(2);
    expect(session.expiresAt).toBe(time.now() + TIMEOUT);
    time.advance(TIMEOUT);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
  });
});

describe('a timer that fires early', () => {
  it('is re-armed for the rest of the time instead of expiring the session', async () => {
    const time = new FakeTime();
    // Timers that fire after half the time asked for, as an imprecise timer source might.
    const early = {
      setTimeout: (callback: () => void, ms: number) => time.setTimeout(callback, Math.ceil(ms / 2)),
      clearTimeout: (handle: unknown) => time.clearTimeout(handle),
    };
    const manager = new SessionManager({ host, sessionTimeout: TIMEOUT, clock: time, timers: early });
    const session = await manager.create();
    time.advance(TIMEOUT / 2);
    expect(manager.get(session.id)).toBe(session);
    expect(time.pending).toBe(1);
    time.advance(TIMEOUT / 2 - 1);
    expect(manager.get(session.id)).toBe(session);
    time.advance(1);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
  });
});

describe('tombstones', () => {
  it('answers SESSION_EXPIRED for an expired id, from get, run and close', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    time.advance(TIMEOUT);
    const error = errorOf(() => manager.get(session.id));
    expect(error.code).toBe('SESSION_EXPIRED');
    expect(error.sessionId).toBe(session.id);
    expect(error.details).toMatchObject({ reason: 'expired', sessionTimeout: TIMEOUT, next: 'new_session' });
    expect((await rejectionOf(manager.run(session.id, async () => 1))).code).toBe('SESSION_EXPIRED');
    expect((await rejectionOf(manager.close(session.id))).code).toBe('SESSION_EXPIRED');
  });

  it('answers SESSION_NOT_FOUND with reason "closed" for a closed id', async () => {
    const { manager } = setup();
    const session = await manager.create();
    await manager.close(session.id);
    expect(session.page.isClosed()).toBe(true);
    const error = errorOf(() => manager.get(session.id));
    expect(error.code).toBe('SESSION_NOT_FOUND');
    expect(error.sessionId).toBe(session.id);
    expect(error.details).toEqual({ reason: 'closed', next: 'new_session' });
    expect((await rejectionOf(manager.close(session.id))).code).toBe('SESSION_NOT_FOUND');
  });

  it('answers SESSION_NOT_FOUND without a reason, pointing to the list of sessions, for an id never issued', () => {
    const { manager } = setup();
    const id = '8c0f3c1e-5b7a-4d2e-9f10-2a3b4c5d6e7f';
    const error = errorOf(() => manager.get(id));
    expect(error.code).toBe('SESSION_NOT_FOUND');
    expect(error.sessionId).toBe(id);
    expect(error.details).toEqual({ next: 'find_session' });
  });

  it('forgets an ended id after tombstoneTtl', async () => {
    const { time, manager } = setup({ tombstoneTtl: 1_000 });
    const session = await manager.create();
    time.advance(TIMEOUT);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
    time.advance(1_000);
    expect(errorOf(() => manager.get(session.id)).code).toBe('SESSION_EXPIRED');
    time.advance(1);
    const error = errorOf(() => manager.get(session.id));
    expect(error.code).toBe('SESSION_NOT_FOUND');
    expect(error.details).toEqual({ next: 'find_session' });
  });

  it('remembers at most tombstoneLimit ended ids, dropping the oldest', async () => {
    const { manager } = setup({ tombstoneLimit: 2 });
    const [a, b, c] = await Promise.all([manager.create(), manager.create(), manager.create()]);
    for (const session of [a, b, c]) await manager.close(session!.id);
    expect(errorOf(() => manager.get(a!.id)).details).toEqual({ next: 'find_session' });
    expect(errorOf(() => manager.get(b!.id)).details).toEqual({ reason: 'closed', next: 'new_session' });
    expect(errorOf(() => manager.get(c!.id)).details).toEqual({ reason: 'closed', next: 'new_session' });
  });
});

describe('expiry timers', () => {
  it('arms one timer per session and clears it on close', async () => {
    const { time, manager } = setup();
    expect(time.pending).toBe(0);
    const a = await manager.create();
    const b = await manager.create();
    // Each session starts listening to its pages on the next turn of the timers; then only the expiry timers are armed.
    time.advance(0);
    expect(time.pending).toBe(2);
    await manager.run(a.id, async () => undefined);
    expect(time.pending).toBe(2);
    await manager.close(a.id);
    expect(time.pending).toBe(1);
    await manager.close(b.id);
    expect(time.pending).toBe(0);
  });

  it('clears the timer when a session expires', async () => {
    const { time, manager } = setup();
    await manager.create();
    time.advance(TIMEOUT);
    expect(time.pending).toBe(0);
  });
});
