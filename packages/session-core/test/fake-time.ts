// A manual clock and timer source for SessionManager tests: time moves only when advance() says so.
import type { Clock, TimerHandle, Timers } from '../src/index.js';

interface PendingTimer {
  at: number;
  callback: () => void;
}

export class FakeTime implements Clock, Timers {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  /** Timers scheduled and not yet fired or cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way, in due order, with `now()`
   * reading the moment each was due. Timers scheduled by callbacks fire too if they fall due in the window.
   * A runaway (a timer re-arming itself at the same instant) fails loudly instead of hanging the test.
   */
  advance(ms: number): void {
    const target = this.current + ms;
    for (let fired = 0; ; fired++) {
      if (fired > 10_000) throw new Error('FakeTime: more than 10 000 timers fired in one advance(); a timer is re-arming itself');
      const due = this.nextDue(target);
      if (!due) break;
      const [id, timer] = due;
      this.timers.delete(id);
      this.current = timer.at;
      timer.callback();
    }
    this.current = target;
  }

  private nextDue(limit: number): [number, PendingTimer] | undefined {
    let best: [number, PendingTimer] | undefined;
    for (const entry of this.timers) {
      if (entry[1].at > limit) continue;
      if (!best || entry[1].at < best[1].at) best = entry;
    }
    return best;
  }
}
