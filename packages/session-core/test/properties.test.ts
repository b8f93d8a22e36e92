// Property tests of the SessionManager's invariants (ids, expiry at creation, tombstones, the limit, one browser).
import fc from 'fast-check';
import type { Browser } from 'playwright';
import { validate, version } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionError, SessionManager, type Session } from '../src/index.js';
import { FakeTime } from './fake-time.js';

// Each run opens real contexts (up to four): 50 runs explore the space and stay within the time limit on a loaded machine.
const RUNS = { numRuns: 50 };
const PROPERTY_TIME_LIMIT = 180_000;

let host: BrowserHost;
let browser: Browser;
beforeAll(async () => {
  host = new BrowserHost({ headless: true }).start();
  browser = await host.browser();
});
afterAll(() => host.close());

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof SessionError ? error.code : `not a SessionError: ${String(error)}`;
  }
  return undefined;
}

async function closeAll(manager: SessionManager, sessions: Iterable<Session>): Promise<void> {
  await Promise.all([...sessions].map((session) => manager.close(session.id).catch(() => {})));
}

describe('SessionManager properties', () => {
  // One property for everything true of a single new session: each run costs one context, so they share the runs.
  it(
    'gives every new session a fresh UUID v4 id, expiresAt = createdAt + timeout, the shared browser, and forgets it once closed',
    async () => {
      const neighbourManager = new SessionManager({ host });
      const neighbour = await neighbourManager.create();
      const seen = new Set<string>([neighbour.id]);
      try {
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 0, max: 4e12 }), fc.boolean(), async (timeout, start, usedFirst) => {
            const time = new FakeTime(start);
            const manager = new SessionManager({ host, sessionTimeout: timeout, clock: time, timers: time });
            const session = await manager.create();
            try {
              expect(validate(session.id) && version(session.id) === 4, session.id).toBe(true);
              expect(seen.has(session.id)).toBe(false);
              seen.add(session.id);

              expect(session.createdAt).toBe(start);
              expect(session.expiresAt).toBe(session.createdAt + timeout);
              // The session starts listening to its pages on the next turn of the timers; then only its expiry is armed.
              time.advance(0);
              expect(time.pending).toBe(1);

              expect(session.browser).toBe(browser);
              expect(session.context.browser()).toBe(browser);
              expect(session.browser).toBe(neighbour.browser);
              expect(session.context).not.toBe(neighbour.context);

              if (usedFirst) await manager.run(session.id, async (page) => page.url());
              await manager.close(session.id);
              expect(codeOf(() => manager.get(session.id))).toBe('SESSION_NOT_FOUND');
              await expect(manager.run(session.id, async () => 1)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND', details: { reason: 'closed' } });
              expect(time.pending).toBe(0);
              // Another manager's session in the same browser is untouched.
              expect(neighbourManager.get(neighbour.id)).toBe(neighbour);
            } finally {
              await closeAll(manager, [session]);
            }
          }),
          RUNS,
        );
      } finally {
        await closeAll(neighbourManager, [neighbour]);
      }
      expect(seen.size).toBeGreaterThanOrEqual(RUNS.numRuns + 1);
    },
    PROPERTY_TIME_LIMIT,
  );

  it('answers SESSION_NOT_FOUND for any id never issued', async () => {
    const manager = new SessionManager({ host });
    const open = await manager.create();
    try {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.uuid(), fc.uuid({ version: 4 }), fc.string(), fc.string({ unit: 'grapheme' })), async (id) => {
          fc.pre(id !== open.id);
          let thrown: unknown;
          try {
            manager.get(id);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(SessionError);
          const error = thrown as SessionError;
          expect(error.code).toBe('SESSION_NOT_FOUND');
          expect(error.sessionId).toBe(id);
          expect(error.details).toEqual({ next: 'find_session' });
          await expect(manager.run(id, async () => 1)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
          await expect(manager.close(id)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
        }),
        RUNS,
      );
      expect(manager.get(open.id)).toBe(open);
    } finally {
      await closeAll(manager, [open]);
    }
  });

  it(
    'never opens more than maxSessions, and answers MAX_SESSIONS_REACHED exactly when full',
    async () => {
      type Op = { op: 'create' } | { op: 'close'; index: number };
      const opArb: fc.Arbitrary<Op> = fc.oneof(
        { arbitrary: fc.constant({ op: 'create' as const }), weight: 3 },
        { arbitrary: fc.record({ op: fc.constant('close' as const), index: fc.nat() }), weight: 2 },
      );
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(opArb, { maxLength: 6 }), async (max, ops) => {
          const manager = new SessionManager({ host, maxSessions: max });
          const open: Session[] = [];
          try {
            for (const step of ops) {
              if (step.op === 'create') {
                const full = open.length === max;
                const result = await manager.create().then(
                  (session) => ({ session }),
                  (error: unknown) => ({ error }),
                );
                if ('session' in result) {
                  expect(full).toBe(false);
                  open.push(result.session);
                } else {
                  expect(full).toBe(true);
                  expect(result.error).toBeInstanceOf(SessionError);
                  expect(result.error).toMatchObject({ code: 'MAX_SESSIONS_REACHED', details: { maxSessions: max } });
                }
              } else if (open.length > 0) {
                const [session] = open.splice(step.index % open.length, 1);
                await manager.close(session!.id);
              }
              expect(manager.size).toBe(open.length);
              expect(manager.size).toBeLessThanOrEqual(max);
            }
          } finally {
            await closeAll(manager, open);
          }
        }),
        RUNS,
      );
    },
    PROPERTY_TIME_LIMIT,
  );
});

describe('creations in flight', () => {
  it.each([1, 2, 3, 4])('count against the limit: maxSessions %i, two more creations than that at once', async (max) => {
    const manager = new SessionManager({ host, maxSessions: max });
    const results = await Promise.allSettled(Array.from({ length: max + 2 }, () => manager.create()));
    const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    try {
      expect(created).toHaveLength(max);
      expect(refused).toHaveLength(2);
      for (const error of refused) {
        expect(error).toBeInstanceOf(SessionError);
        expect(error).toMatchObject({ code: 'MAX_SESSIONS_REACHED', details: { maxSessions: max } });
      }
      expect(manager.size).toBe(max);
    } finally {
      await closeAll(manager, created);
    }
  });
});
