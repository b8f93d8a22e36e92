// Time sources the SessionManager uses, injectable so expiry can be tested without sleeping.

/** Where the current time comes from: systemClock, or a fake one in tests. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** What Timers.setTimeout returns and clearTimeout takes; opaque to everyone but the Timers that made it. */
export type TimerHandle = unknown;

/** Where timers come from: systemTimers, or fake ones that tests advance by hand. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock (Date.now). */
export const systemClock: Clock = { now: () => Date.now() };

/** Real timers, unref'd so that an idle session never keeps the process alive. */
export const systemTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    // An idle session must never keep the process alive on its own.
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/**
 * The promise's value, or `fallback` once `ms` have passed on `timers`, whichever comes first: the one way a call here
 * stops waiting on a browser that may never answer. The timer is cleared when the promise wins and never keeps the
 * process alive.
 */
export async function orAfter<T, F>(promise: Promise<T>, ms: number, fallback: F, timers: Timers = systemTimers): Promise<T | F> {
  let timer: TimerHandle | undefined;
  const gaveUp = new Promise<F>((resolve) => {
    timer = timers.setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, gaveUp]);
  } finally {
    timers.clearTimeout(timer);
  }
}
