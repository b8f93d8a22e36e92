// Turns at work the whole browser shares (opening contexts, loading pages): a few at once, handed out fairly across identities.
import os from 'node:os';
import type { TimerHandle, Timers } from './clock.js';

/** Frees a turn; calling it again does nothing. */
export type Release = () => void;

/**
 * At most `limit` turns are out at once. The others wait in one queue per identity, and a freed turn goes to the identity
 * after the last one served, so an identity with a thousand waiting cannot hold back another identity's one for more than a
 * turn. A freed turn is handed straight to the next waiter, so no newcomer slips in between. A waiter whose signal
 * aborts leaves its queue with the signal's reason and never gets a turn.
 */
export class Turns {
  readonly limit: number;
  private out = 0;
  /** Waiting identities in the order they are served next (a Map keeps insertion order), each with its waiters in order. */
  private readonly queues = new Map<string, Array<() => void>>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('the number of turns at once must be a positive integer');
    this.limit = limit;
  }

  /** Turns out now. */
  get active(): number {
    return this.out;
  }

  /** Waiters in every queue. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  async take(identity: string | undefined, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) throw signal.reason;
    if (this.out < this.limit) this.out += 1;
    else await this.wait(identity ?? '', signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  private wait(key: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const queue = this.queues.get(key);
        queue?.splice(queue.indexOf(turn), 1);
        if (queue?.length === 0) this.queues.delete(key);
        reject(signal?.reason);
      };
      const queue = this.queues.get(key);
      if (queue) queue.push(turn);
      else this.queues.set(key, [turn]);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Gives a freed turn to the first waiter of the identity next in line, who then goes to the back of the line. */
  private handOver(): void {
    const next = this.queues.entries().next();
    if (next.done) {
      this.out -= 1;
      return;
    }
    const [key, queue] = next.value;
    const turn = queue.shift() as () => void;
    this.queues.delete(key);
    if (queue.length > 0) this.queues.set(key, queue);
    turn();
  }
}

/** Contexts opened at once; more keep a two-core machine no busier but make every open slower. */
const MAX_CONCURRENT_OPENS = 8;
/** How long a page load keeps its turn, unless every core is busy (see WorkTurns.load). */
const LOAD_HOLD_MS = 5_000;

/**
 * The two kinds of work every session shares one browser for, each in turns: opening a context and its page (a few at
 * once), and loading a page (more at once, and a load that takes long lets the next one go).
 */
export class WorkTurns {
  private readonly opens = new Turns(MAX_CONCURRENT_OPENS);
  private readonly loads: Turns;
  private readonly loadHoldMs: number;
  private readonly timers: Timers;

  /** `loadsAtOnce` defaults to 8 per CPU core, at least 16; `loadHoldMs` to 5 000. */
  constructor(options: { loadsAtOnce?: number | undefined; loadHoldMs?: number | undefined; timers: Timers }) {
    this.loads = new Turns(options.loadsAtOnce ?? Math.max(16, 8 * os.availableParallelism()));
    this.loadHoldMs = options.loadHoldMs ?? LOAD_HOLD_MS;
    if (!Number.isFinite(this.loadHoldMs) || this.loadHoldMs <= 0) throw new RangeError('pageLoads.holdMs must be a positive number of ms');
    this.timers = options.timers;
  }

  /**
   * Runs `open` in its turn. A burst of creations waits here rather than asking the browser for a thousand contexts at
   * once (each open would then take longer than its timeout). A creation given up while waiting (`signal`) leaves the
   * queue without opening anything; turns go round the identities, so one client's burst does not hold back another's.
   */
  async open<T>(identity: string | undefined, signal: AbortSignal | undefined, open: () => Promise<T>): Promise<T> {
    const release = await this.opens.take(identity, signal);
    try {
      return await open();
    } finally {
      release();
    }
  }

  /**
   * Runs a page load in its turn. A thousand loads at once on a small machine would each take as long as all of them
   * together, and all run past their timeouts; in turns each takes about its own time and they end one after another,
   * and another identity's load waits for one turn, not for the thousand. After loadHoldMs a page that has not finished
   * loading goes on without its turn, unless every core is busy: then the loads themselves are what is slow, and handing
   * the turn on would only add to them.
   */
  async load<T>(identity: string | undefined, signal: AbortSignal, load: () => Promise<T>): Promise<T> {
    const release = await this.loads.take(identity, signal);
    const holdOn = (): TimerHandle =>
      this.timers.setTimeout(() => {
        if (everyCoreBusy()) timer = holdOn();
        else release();
      }, this.loadHoldMs);
    let timer = holdOn();
    try {
      return await load();
    } finally {
      this.timers.clearTimeout(timer);
      release();
    }
  }
}

/** The machine's runnable work fills every core (1-minute load average, Linux and macOS; always 0 on Windows). */
function everyCoreBusy(): boolean {
  const [lastMinute = 0] = os.loadavg();
  return lastMinute >= os.availableParallelism();
}
