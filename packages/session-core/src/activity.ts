// How busy a browser source is: calls and creations under way on it, and when the last one ended; its warm pool refills in a quiet moment.
import type { Clock } from './clock.js';

/**
 * The manager says when each call or creation on a source starts and ends; the source's warm pool reads how long it
 * has been quiet. Nothing here is on a call's way: a call is counted, never waited on.
 */
export class Activity {
  private running = 0;
  private endedAt = 0;

  constructor(private readonly clock: Clock) {}

  /** Counts a piece of work as started; answers how to say it ended (once, however often it is called). */
  begin(): () => void {
    this.running += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running -= 1;
      this.endedAt = this.clock.now();
    };
  }

  /** Counts `work` as running until it settles; answers its value. */
  async during<T>(work: Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work;
    } finally {
      end();
    }
  }

  /** How long no work has run, at `now` (0 while some does). */
  quietFor(now: number): number {
    return this.running > 0 ? 0 : now - this.endedAt;
  }
}
