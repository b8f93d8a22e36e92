// The session's own times on a fake clock, in a real browser: a call's deadline, a call waiting behind a person's control, the lease's expiry, and the window for a stopped page's popups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, type Session, type SessionManagerOptions } from '../src/index.js';
import { LEFTOVER_POPUP_MS } from '../src/runaway-watch.js';
import { FakeTime } from './fake-time.js';
import { rejectionOf } from './session-errors.js';

let host: BrowserHost;
beforeAll(async () => {
  host = new BrowserHost({ headless: true }).start();
  await host.browser();
});
afterAll(() => host.close());

const managers: SessionManager[] = [];
afterAll(() => Promise.all(managers.map((manager) => manager.shutdown())));

function setup(options: Partial<SessionManagerOptions> = {}) {
  const time = new FakeTime();
  const manager = new SessionManager({ host, clock: time, timers: time, ...options });
  managers.push(manager);
  return { time, manager };
}

/** Lets the promise callbacks and the browser's answers waiting now run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Whether `promise` has settled, without waiting for it. */
function tracked<T>(promise: Promise<T>): { readonly settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

describe('a call’s deadline on the session’s clock', () => {
  it('ends a call with call_timeout exactly at its time limit, and the session goes on', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    let started = false;
    const call = tracked(
      session.run(
        (_page, stop) =>
          new Promise((_resolve, reject) => {
            started = true;
            stop.addEventListener('abort', () => reject(new Error('stopped')));
          }),
        { timeout: 20_000 },
      ),
    );
    await expect.poll(() => started).toBe(true);
    time.advance(19_999);
    await settle();
    expect(call.settled).toBe(false);
    time.advance(1);
    // Well before the limit could pass in real time.
    await expect.poll(() => call.settled, { timeout: 5_000 }).toBe(true);
    const error = await rejectionOf(call.promise);
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.details).toMatchObject({ reason: 'call_timeout', timeout: 20_000, pageReplaced: false });
    // It let go at once: the next call runs on the same page.
    expect(await session.run(async (page) => page.url())).toBe('about:blank');
  });
});

describe('a call waiting behind a person’s control', () => {
  it('waits while the lease is held and ends at its time limit, counted from its arrival', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    const lease = session.control.take({ message: 'Solve the puzzle.' });
    expect(lease.takenAt).toBe(time.now());
    await lease.acquired;
    expect(lease.state).toBe('held');
    let waited = 0;
    const call = tracked(session.run(async () => 'ran', { timeout: 20_000, onWaitForPerson: () => (waited += 1) }));
    time.advance(19_999);
    await settle();
    expect(call.settled).toBe(false);
    expect(waited).toBe(1);
    time.advance(1);
    await expect.poll(() => call.settled, { timeout: 5_000 }).toBe(true);
    const error = await rejectionOf(call.promise);
    expect(error.details).toMatchObject({ reason: 'call_timeout', timeout: 20_000, waitedFor: 'person', pageReplaced: false });
    // Given back, the next call runs at once.
    lease.release();
    expect(await session.run(async () => 'ran', { timeout: 3_000 })).toBe('ran');
  });
});

describe('a person’s lease on the session’s timers', () => {
  it('tells its holder exactly when it is due back, and not once it was given back before', async () => {
    const { time, manager } = setup();
    const session = await manager.create();
    let expired = 0;
    const lease = session.control.take({ by: 'agent' }, { afterMs: 60_000, onExpiry: () => (expired += 1) });
    await lease.acquired;
    time.advance(59_999);
    expect(expired).toBe(0);
    time.advance(1);
    expect(expired).toBe(1);
    lease.release();
    expect(session.control.lease).toBeUndefined();

    const pending = time.pending;
    const early = session.control.take({ by: 'agent' }, { afterMs: 60_000, onExpiry: () => (expired += 1) });
    expect(time.pending).toBe(pending + 1);
    early.release();
    expect(time.pending).toBe(pending);
    time.advance(60_000);
    expect(expired).toBe(1);
  });
});

describe('the popup window after a runaway stop', () => {
  /** Opens a popup from the session's page and answers once the session has seen it. */
  async function openPopup(session: Session): Promise<void> {
    await session.run(async (page) => {
      const opened = page.context().waitForEvent('page');
      await page.evaluate(() => void window.open('about:blank?popup'));
      await opened;
    });
  }

  it(`closes a popup that arrives within ${LEFTOVER_POPUP_MS} ms of the stop, and follows one after`, async () => {
    const { time, manager } = setup({ runaway: { events: { dialogs: 2 } } });
    const session = await manager.create();
    // Three dialogs at once pass the bound of two: the session's pages are stopped.
    const stopped = await rejectionOf(
      session.run((page) =>
        page.evaluate(() => {
          for (let i = 0; i < 3; i += 1) alert(String(i));
        }),
      ),
    );
    expect(stopped.details).toMatchObject({ reason: 'runaway_page', bound: 'dialogs' });
    session.takeEvents();
    // The fresh page opens a popup while the window is open: it is closed, and the session stays on its page.
    await openPopup(session);
    const fresh = session.page;
    await expect.poll(() => session.tabs().length).toBe(1);
    expect(session.page).toBe(fresh);
    expect(session.takeEvents().openedTabs).toEqual([]);
    // Once the window has passed, a popup is a tab the session follows.
    time.advance(LEFTOVER_POPUP_MS);
    await openPopup(session);
    expect(session.tabs()).toHaveLength(2);
    expect(session.page).not.toBe(fresh);
    expect(session.takeEvents().openedTabs).toHaveLength(1);
  });
});
