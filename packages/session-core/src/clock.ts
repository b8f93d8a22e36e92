// Time sources the SessionManager uses, injectable so expiry can be tested without sleeping.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export type TimerHandle = unknown;

export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = { now: () => Date.now() };

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
