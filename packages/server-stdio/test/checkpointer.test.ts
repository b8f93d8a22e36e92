// The one checkpointer on fake time: its schedule after calls, its bound on checkpoints in flight, and checkpoints cut to their size with what was left out named.
import { RecordTooLarge, type Clock, type SessionImage, type Store, type Timers } from '@sessionwright/session-core';
import { silentLogger } from '@sessionwright/session-core/parts';
import { describe, expect, it } from 'vitest';
import { CHECKPOINTS_IN_FLIGHT, Checkpointer, type Capture } from '../src/fleet/checkpointer.js';

/** Time that moves only when the test says so. */
function fakeTime(): Clock & Timers & { advance(ms: number): Promise<void> } {
  let now = 1_000_000;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      next += 1;
      due.set(next, { at: now + ms, run });
      return next;
    },
    clearTimeout(handle) {
      due.delete(handle as number);
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const [id, timer] = [...due].filter(([, entry]) => entry.at <= until).sort((a, b) => a[1].at - b[1].at)[0] ?? [];
        if (id === undefined || timer === undefined) break;
        due.delete(id);
        now = timer.at;
        timer.run();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A Store in memory, its sizes checked as the folder and Redis check them. */
function memoryStore(): Store & { records: Map<string, Uint8Array> } {
  const records = new Map<string, Uint8Array>();
  return {
    records,
    async get(key, options = {}) {
      const value = records.get(key);
      if (value !== undefined && options.maxBytes !== undefined && value.length > options.maxBytes)
        throw new RecordTooLarge(key, value.length, options.maxBytes);
      return value;
    },
    async set(key, value) {
      records.set(key, value);
    },
    async setWithin(key, value) {
      records.set(key, value);
      return true;
    },
    async delete(key) {
      return records.delete(key);
    },
    async keys(prefix) {
      return [...records.keys()].filter((key) => key.startsWith(prefix));
    },
    async close() {},
  };
}

function image(origins: { origin: string; indexedDBBytes: number }[]): SessionImage {
  return {
    version: 1,
    capturedAt: 0,
    options: {},
    tabs: [{ url: 'http://a.test/', sessionStorage: [] }],
    currentTab: 0,
    storageState: {
      cookies: [],
      origins: origins.map(({ origin, indexedDBBytes }) => ({
        origin,
        localStorage: [{ name: 'kept', value: 'yes' }],
        indexedDB: [
          { name: 'db', version: 1, stores: [{ name: 's', autoIncrement: false, records: [{ key: 1, value: 'x'.repeat(indexedDBBytes) }], indexes: [] }] },
        ],
      })),
    } as SessionImage['storageState'],
  };
}

/** A checkpointer on fake time over a memory store. */
function checkpointerOn(time: ReturnType<typeof fakeTime>, store: Store, init: { capture: (sessionId: string) => Promise<Capture>; maxBytes?: number }) {
  return new Checkpointer({ store, ttlMs: 60_000, logger: silentLogger, clock: time, timers: time, ...init });
}

describe('Checkpointer', () => {
  it('checkpoints a session about 300 ms after a call, at most once a second, and never more than two at once', async () => {
    const time = fakeTime();
    const store = memoryStore();
    const captures: string[] = [];
    const pending: (() => void)[] = [];
    let holdCaptures = false;
    let inFlight = 0;
    let mostInFlight = 0;
    const checkpointer = checkpointerOn(time, store, {
      capture: async (sessionId): Promise<Capture> => {
        captures.push(sessionId);
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        if (holdCaptures) await new Promise<void>((resolve) => pending.push(resolve));
        inFlight -= 1;
        return { identity: 'alice', guarded: true, image: image([]) };
      },
    });
    checkpointer.used('a');
    await time.advance(299);
    expect(captures).toEqual([]);
    await time.advance(1);
    expect(captures).toEqual(['a']);
    expect((await checkpointer.read('a'))?.identity).toBe('alice');
    // Used again at once: the next one waits out the second since the last.
    checkpointer.used('a');
    checkpointer.used('a');
    await time.advance(999);
    expect(captures).toEqual(['a']);
    await time.advance(1);
    expect(captures).toEqual(['a', 'a']);
    // Five sessions due at once: two in flight, the others wait their turn.
    holdCaptures = true;
    for (const id of ['b', 'c', 'd', 'e', 'f']) checkpointer.used(id);
    await time.advance(300);
    expect(inFlight).toBe(CHECKPOINTS_IN_FLIGHT);
    while (pending.length > 0) {
      pending.shift()?.();
      await settle();
      await settle();
    }
    expect(captures.slice(2).sort()).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(mostInFlight).toBe(CHECKPOINTS_IN_FLIGHT);
    // Forgotten before it was due: nothing more; removed: its checkpoint goes.
    holdCaptures = false;
    checkpointer.used('g');
    checkpointer.forget('g');
    await time.advance(5_000);
    expect(captures).not.toContain('g');
    checkpointer.remove('a');
    await settle();
    expect(await checkpointer.read('a')).toBeUndefined();
  });

  it('cuts a checkpoint to its size, the largest IndexedDB first, and names what it left out', async () => {
    const time = fakeTime();
    const store = memoryStore();
    const checkpointer = checkpointerOn(time, store, {
      maxBytes: 100_000,
      capture: async () => ({
        identity: 'alice',
        guarded: true,
        image: image([
          { origin: 'http://small.test', indexedDBBytes: 1_000 },
          { origin: 'http://big.test', indexedDBBytes: 150_000 },
          { origin: 'http://bigger.test', indexedDBBytes: 300_000 },
        ]),
      }),
    });
    await checkpointer.now('a');
    const stored = store.records.get('checkpoints/a');
    expect(stored?.length).toBeLessThanOrEqual(100_000);
    const record = await checkpointer.read('a');
    expect(record?.dropped).toEqual([
      'the IndexedDB of http://bigger.test (too large for a checkpoint)',
      'the IndexedDB of http://big.test (too large for a checkpoint)',
    ]);
    const kept = record?.image.storageState.origins as { origin: string; indexedDB?: unknown; localStorage: unknown[] }[];
    expect(kept.map((origin) => [origin.origin, origin.indexedDB !== undefined, origin.localStorage.length])).toEqual([
      ['http://small.test', true, 1],
      ['http://big.test', false, 1],
      ['http://bigger.test', false, 1],
    ]);
    // A checkpoint past the size (another server's, or planted) is not read: the session starts blank.
    store.records.set('checkpoints/b', new Uint8Array(200_000));
    expect(await checkpointer.read('b')).toBeUndefined();
  });
});
