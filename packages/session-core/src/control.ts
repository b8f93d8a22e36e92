// A person's control of a session: an entry in the session's queue, held from when the calls before it let go until the person gives it back.
import type { PersonInput } from './person-input.js';

/** Where a person's control stands: waiting for the calls queued before it, held, or given back. */
export type ControlState = 'waiting' | 'held' | 'released';

/** Why a lease was taken, shown to the person (request_human's message), and who asked. */
export interface ControlRequest {
  /** What the person is asked to do; shown beside the live view. */
  message?: string | undefined;
  /** Who takes control: a person pressing "Take control", or an agent handing the session to a person. */
  by?: 'person' | 'agent';
}

/**
 * The person's place at the head of the session's queue. Calls that arrive while it waits or is held wait behind it,
 * telling their caller so (RunOptions.onWaitForPerson), and still end at their time limit.
 */
export class ControlLease {
  readonly message: string | undefined;
  readonly by: 'person' | 'agent';
  readonly takenAt: number;
  private current: ControlState = 'waiting';
  private readonly listeners = new Set<(state: ControlState) => void>();
  /** Resolves once the person has the session (every call queued before the lease has let go). */
  readonly acquired: Promise<void>;
  /** Resolves when the lease is given back (or the session ends). */
  readonly released: Promise<void>;
  private resolveReleased!: () => void;

  constructor(
    previous: Promise<unknown>,
    request: ControlRequest,
    private readonly send: (input: PersonInput) => Promise<void>,
    now: number,
  ) {
    this.message = request.message;
    this.by = request.by ?? 'person';
    this.takenAt = now;
    this.released = new Promise((resolve) => {
      this.resolveReleased = resolve;
    });
    this.acquired = previous.then(() => {
      if (this.current === 'waiting') this.set('held');
    });
  }

  get state(): ControlState {
    return this.current;
  }

  /** Sends the person's mouse or keyboard input to the session's current tab; refused unless the lease is held. */
  async input(input: PersonInput): Promise<void> {
    if (this.current !== 'held') throw new Error(`control is ${this.current}, not held`);
    await this.send(input);
  }

  /** Gives control back: the calls waiting behind the lease run. Safe to call twice. */
  release(): void {
    if (this.current === 'released') return;
    this.set('released');
    this.resolveReleased();
  }

  /** Calls `listener` at every change of state; returns how to stop. */
  onChange(listener: (state: ControlState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(state: ControlState): void {
    this.current = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}
