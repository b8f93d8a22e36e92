// Turns: at most `limit` out, handed straight to waiters, in rotation across identities and in order within one; an aborted
// waiter never gets one. A model-based property checks the same on random sequences of takes, releases and aborts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Turns, type Release } from '../src/turns.js';

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A take whose release (or rejection) is recorded when it comes. */
function track(turns: Turns, identity: string | undefined, signal?: AbortSignal) {
  const entry: { release?: Release; error?: unknown } = {};
  turns.take(identity, signal).then(
    (release) => {
      entry.release = release;
    },
    (error: unknown) => {
      entry.error = error;
    },
  );
  return entry;
}

describe('Turns', () => {
  it('gives at most limit turns at once and hands a freed one straight to the next waiter', async () => {
    const turns = new Turns(2);
    const entries = [1, 2, 3, 4].map(() => track(turns, 'a'));
    await settle();
    expect(entries.map((entry) => entry.release !== undefined)).toEqual([true, true, false, false]);
    expect(turns.active).toBe(2);
    expect(turns.waiting).toBe(2);
    // A newcomer arriving as a turn is freed does not take it from the one waiting.
    entries[0]?.release?.();
    const late = track(turns, 'a');
    await settle();
    expect(entries[2]?.release).toBeDefined();
    expect(late.release).toBeUndefined();
    expect(turns.active).toBe(2);
  });

  it('serves waiting identities in rotation, so a long queue holds back another identity by one turn', async () => {
    const turns = new Turns(1);
    const first = track(turns, 'busy');
    const busy = [1, 2, 3, 4].map(() => track(turns, 'busy'));
    const other = track(turns, 'other');
    await settle();
    const order: string[] = [];
    let current = first.release;
    for (let served = 0; served < 5; served += 1) {
      current?.();
      await settle();
      const next = [...busy.map((entry, i) => ({ entry, name: `busy${i + 1}` })), { entry: other, name: 'other' }].find(
        ({ entry, name }) => entry.release !== undefined && !order.includes(name),
      );
      if (!next) break;
      order.push(next.name);
      current = next.entry.release;
    }
    expect(order).toEqual(['busy1', 'other', 'busy2', 'busy3', 'busy4']);
  });

  it('a waiter whose signal aborts leaves with its reason and never gets a turn; release is idempotent', async () => {
    const turns = new Turns(1);
    const holder = track(turns, 'a');
    const controller = new AbortController();
    const quitter = track(turns, 'b', controller.signal);
    const next = track(turns, 'c');
    await settle();
    controller.abort(new Error('gave up'));
    await settle();
    expect((quitter.error as Error).message).toBe('gave up');
    expect(turns.waiting).toBe(1);
    holder.release?.();
    holder.release?.();
    await settle();
    expect(quitter.release).toBeUndefined();
    expect(next.release).toBeDefined();
    expect(turns.active).toBe(1);
    next.release?.();
    expect(turns.active).toBe(0);
    await expect(turns.take('d', AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    expect(turns.active).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) expect(() => new Turns(limit)).toThrow(RangeError);
  });

  it('on any sequence of takes, releases and aborts: never more than limit out, no idle turn while one waits, each identity in order', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('take' as const), identity: fc.constantFrom('a', 'b', 'c', undefined) }),
      fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('abort' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), async (limit, steps) => {
        const turns = new Turns(limit);
        const taken: Array<{ identity: string; entry: ReturnType<typeof track>; controller: AbortController; seq: number; released: boolean }> = [];
        const servedOrder = new Map<string, number[]>();
        let seq = 0;
        for (const action of steps) {
          if (action.kind === 'take') {
            const controller = new AbortController();
            taken.push({ identity: action.identity ?? '', entry: track(turns, action.identity, controller.signal), controller, seq: seq++, released: false });
          } else {
            const holding = taken.filter((t) => t.entry.release && !t.released);
            const waiting = taken.filter((t) => !t.entry.release && t.entry.error === undefined);
            if (action.kind === 'release' && holding.length > 0) {
              const chosen = holding[action.pick % holding.length];
              if (chosen) {
                chosen.released = true;
                chosen.entry.release?.();
              }
            }
            if (action.kind === 'abort' && waiting.length > 0) waiting[action.pick % waiting.length]?.controller.abort(new Error('abort'));
          }
          await settle();
          for (const t of taken) {
            if (t.entry.release && !servedOrder.get(t.identity)?.includes(t.seq)) servedOrder.set(t.identity, [...(servedOrder.get(t.identity) ?? []), t.seq]);
          }
          const holding = taken.filter((t) => t.entry.release && !t.released).length;
          const waiting = taken.filter((t) => !t.entry.release && t.entry.error === undefined).length;
          expect(holding).toBe(turns.active);
          expect(waiting).toBe(turns.waiting);
          expect(holding).toBeLessThanOrEqual(limit);
          if (waiting > 0) expect(holding).toBe(limit);
          // An aborted waiter never holds a turn.
          expect(taken.some((t) => t.entry.error !== undefined && t.entry.release !== undefined)).toBe(false);
        }
        for (const order of servedOrder.values()) expect(order).toEqual([...order].sort((x, y) => x - y));
      }),
      { numRuns: 200 },
    );
  });
});
