// A person's control of a session: an entry in the session's queue, held from when the calls before it let go until the person gives it back; the live picture and the person's input.
import type { Page } from 'playwright';
import type { Clock, Timers } from './clock.js';
import { SessionError, browserError } from './errors.js';
import { dispatchPersonInput, type PersonInput } from './person-input.js';
import { Screencast, cdpOf, type CurrentTab } from './screencast.js';

/** Where a person's control stands: waiting for the calls queued before it, held, or given back. */
type ControlState = 'waiting' | 'held' | 'released';

/** Why a lease was taken, shown to the person (request_human's message), and who asked. */
interface ControlRequest {
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

/** A place in a session's queue: the entry before it, and how to let the next one go. */
export interface QueuePlace {
  previous: Promise<unknown>;
  letGo(): void;
}

interface PersonControlInit {
  /** The tab calls act on, followed by the screencast. */
  current: CurrentTab;
  /** Takes a place at the end of the session's queue. */
  join: () => QueuePlace;
  /** The page a person's input goes to (the current tab, or a fresh one). */
  livePage: () => Promise<Page>;
  /** True once the session has ended. */
  ended: () => boolean;
  clock: Clock;
  timers: Timers;
}

/** When a lease is due back: `onExpiry` is told once, `afterMs` after it was taken, unless it was given back before. */
interface LeaseExpiry {
  afterMs: number;
  onExpiry: () => void;
}

/** A person's part in a session: the live picture, their control (at most one lease at a time) and their input. */
export class PersonControl {
  /** A person's control, queued or held. */
  private current: ControlLease | undefined;
  private readonly listeners = new Set<(lease: ControlLease) => void>();
  private cast: Screencast | undefined;

  constructor(private readonly init: PersonControlInit) {}

  /** The live picture of the current tab, for whoever watches (it runs only while someone does). */
  get screencast(): Screencast {
    this.cast ??= new Screencast(this.init.current, this.init);
    return this.cast;
  }

  /** A person's control, waiting or held; undefined when no one has it. */
  get lease(): ControlLease | undefined {
    return this.current;
  }

  /** Calls `listener` when a person's control is asked for and at each of its changes; returns how to stop. */
  onChange(listener: (lease: ControlLease) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Puts a person's control in the queue: once every call queued before it has let go, the person has the session,
   * and calls that arrive meanwhile wait behind it (each still ends at its time limit) until release(). At most one
   * at a time: INVALID_PARAMETERS (details.reason `control_taken`) while another is waiting or held. With `expiry`, its
   * holder is told when the lease is due back (on the session's timers); what then happens is theirs to decide.
   */
  take(request: ControlRequest = {}, expiry?: LeaseExpiry): ControlLease {
    if (this.init.ended()) throw browserError('unknown', 'The session has ended.', { details: { browserMessage: 'the session has ended' } });
    if (this.current) {
      throw new SessionError('INVALID_PARAMETERS', 'Someone already has control of this session, or is about to get it.', {
        details: { reason: 'control_taken', state: this.current.state },
      });
    }
    const place = this.init.join();
    const lease = new ControlLease(place.previous, request, (input) => this.sendInput(input), this.init.clock.now());
    this.current = lease;
    const { timers } = this.init;
    const due = expiry && timers.setTimeout(() => expiry.onExpiry(), expiry.afterMs);
    lease.onChange((state) => {
      // The next call waits for the lease to be given back, as for a call ahead of it.
      if (state === 'released') {
        if (due !== undefined) timers.clearTimeout(due);
        place.letGo();
        if (this.current === lease) this.current = undefined;
      }
      for (const listener of [...this.listeners]) listener(lease);
    });
    for (const listener of [...this.listeners]) listener(lease);
    return lease;
  }

  /** Lets a person's control go and stops the screencast: the session has ended. */
  end(): void {
    this.current?.release();
    this.cast?.stop();
  }

  /** A person's input, on the current tab (the lease is held, so no call is running). */
  private async sendInput(input: PersonInput): Promise<void> {
    const page = await this.init.livePage();
    const cdp = await cdpOf(page);
    const viewport =
      this.cast?.viewportOf(page) ??
      page.viewportSize() ??
      (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })).catch(() => ({ width: 0, height: 0 })));
    await dispatchPersonInput(cdp, input, viewport);
  }
}
