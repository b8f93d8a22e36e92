// Turns at work the whole browser shares (opening contexts, loading pages): a few at once, handed out fairly across owners.

/** Frees a turn; calling it again does nothing. */
export type Release = () => void;

/**
 * At most `limit` turns are out at once. The others wait in one queue per owner, and a freed turn goes to the owner
 * after the last one served, so an owner with a thousand waiting cannot hold back another owner's one for more than a
 * turn. A freed turn is handed straight to the next waiter, so no newcomer slips in between. A waiter whose signal
 * aborts leaves its queue with the signal's reason and never gets a turn.
 */
export class Turns {
  readonly limit: number;
  private out = 0;
  /** Waiting owners in the order they are served next (a Map keeps insertion order), each with its waiters in order. */
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

  async take(owner: string | undefined, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) throw signal.reason;
    if (this.out < this.limit) this.out += 1;
    else await this.wait(owner ?? '', signal);
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

  /** Gives a freed turn to the first waiter of the owner next in line, who then goes to the back of the line. */
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
