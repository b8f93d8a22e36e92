// The one checkpointer of a server's sessions (a fleet's replica, or one server with --data-dir): each session's image, sealed in the store, off the call's path, bounded in size, rate and memory.
import {
  RecordTooLarge,
  shortId,
  systemClock,
  systemTimers,
  type Clock,
  type Logger,
  type SessionImage,
  type SessionManager,
  type Store,
  type TimerHandle,
  type Timers,
} from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';

/** A checkpoint follows a session's call by about this much, and a session is checkpointed at most once per interval. */
const CHECKPOINT_DELAY_MS = 300;
const CHECKPOINT_INTERVAL_MS = 1_000;
/** How many checkpoints are captured and written at once per server: calls are never crowded out, and memory holds at most this many images. */
export const CHECKPOINTS_IN_FLIGHT = 2;
/** How big one checkpoint may be (its JSON, before sealing): what does not fit is left out, and its restore says so (docs/deploy.md). */
export const CHECKPOINT_MAX_BYTES = 5 * 1024 * 1024;
/** How long capturing a checkpoint may take in the session's queue. */
const CAPTURE_TIMEOUT_MS = 15_000;

/** What a checkpoint holds: the session's image, whose it is, and what did not fit (told to the agent at restore). */
export interface CheckpointRecord {
  v: 1;
  identity: string;
  guarded: boolean;
  image: SessionImage;
  /** What was left out to keep the checkpoint within its size, as restored.lost words it. */
  dropped: string[];
}

/** What the checkpointer captures of a session: its owner and its image. */
export type Capture = Omit<CheckpointRecord, 'v' | 'dropped'>;

interface CheckpointerInit {
  /** The server's store, sealed. */
  store: Store;
  /** How long a checkpoint outlives the session's last checkpoint (the session's idle timeout and a margin). */
  ttlMs: number;
  /** The session's owner and image now, or undefined when the session is no longer this server's. */
  capture: (sessionId: string) => Promise<Capture | undefined>;
  logger: Logger;
  maxBytes?: number;
  clock?: Clock;
  timers?: Timers;
}

interface Job {
  sessionId: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Schedules a checkpoint after each call (`used`), at most once per CHECKPOINT_INTERVAL_MS per session; runs them
 * CHECKPOINTS_IN_FLIGHT at a time; takes one at once when asked (`now`, a hand-over). Each is captured, measured and
 * cut to maxBytes before it is sealed, so neither the store nor this process holds more than that per session.
 */
export class Checkpointer {
  private readonly scheduled = new Map<string, TimerHandle>();
  private readonly last = new Map<string, number>();
  private readonly waiting: Job[] = [];
  private inFlight = 0;
  private stopped = false;
  private readonly clock: Clock;
  private readonly timers: Timers;
  readonly maxBytes: number;

  constructor(private readonly init: CheckpointerInit) {
    this.clock = init.clock ?? systemClock;
    this.timers = init.timers ?? systemTimers;
    this.maxBytes = init.maxBytes ?? CHECKPOINT_MAX_BYTES;
  }

  /** A call on the session ended: its checkpoint follows within about a second. */
  used(sessionId: string): void {
    if (this.stopped || this.scheduled.has(sessionId)) return;
    const since = this.clock.now() - (this.last.get(sessionId) ?? 0);
    const handle = this.timers.setTimeout(
      () => {
        this.scheduled.delete(sessionId);
        this.now(sessionId).catch((error: unknown) => this.init.logger.debug(`checkpoint of ${shortId(sessionId)} failed: ${messageOf(error)}`));
      },
      Math.max(CHECKPOINT_DELAY_MS, CHECKPOINT_INTERVAL_MS - since),
    );
    this.scheduled.set(sessionId, handle);
  }

  /** Checkpoints the session as soon as a place in flight is free (its scheduled one is taken now); rejects when it could not be written. */
  now(sessionId: string): Promise<void> {
    this.cancel(sessionId);
    return new Promise((resolve, reject) => {
      this.waiting.push({ sessionId, resolve, reject });
      this.pump();
    });
  }

  /** The session is no longer this server's: nothing more is scheduled for it (its checkpoint stays, for whoever restores it). */
  forget(sessionId: string): void {
    this.cancel(sessionId);
    this.last.delete(sessionId);
  }

  /** The session ended for good: its checkpoint goes too. */
  remove(sessionId: string): void {
    this.forget(sessionId);
    void this.init.store.delete(checkpointKey(sessionId)).catch(() => {});
  }

  /** The session's checkpoint, or undefined when there is none; one past maxBytes (another server's) is not read. */
  async read(sessionId: string): Promise<CheckpointRecord | undefined> {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.init.store.get(checkpointKey(sessionId), { maxBytes: this.maxBytes });
    } catch (error) {
      if (!(error instanceof RecordTooLarge)) throw error;
      this.init.logger.warn(`session ${shortId(sessionId)}: ${error.message}; it starts blank`);
      return undefined;
    }
    if (bytes === undefined) return undefined;
    const record = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<CheckpointRecord>;
    if (record.v !== 1 || record.image === undefined || typeof record.identity !== 'string') return undefined;
    return { v: 1, identity: record.identity, guarded: record.guarded === true, image: record.image, dropped: record.dropped ?? [] };
  }

  /** Schedules nothing more (checkpoints asked for with `now` still run). */
  stop(): void {
    this.stopped = true;
    for (const handle of this.scheduled.values()) this.timers.clearTimeout(handle);
    this.scheduled.clear();
  }

  private cancel(sessionId: string): void {
    const handle = this.scheduled.get(sessionId);
    if (handle !== undefined) this.timers.clearTimeout(handle);
    this.scheduled.delete(sessionId);
  }

  private pump(): void {
    while (this.inFlight < CHECKPOINTS_IN_FLIGHT) {
      const job = this.waiting.shift();
      if (job === undefined) return;
      this.inFlight += 1;
      this.write(job.sessionId)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
        });
    }
  }

  private async write(sessionId: string): Promise<void> {
    this.last.set(sessionId, this.clock.now());
    const captured = await this.init.capture(sessionId);
    if (captured === undefined) return;
    const { bytes, dropped } = fitted({ v: 1, ...captured, dropped: [] }, this.maxBytes);
    if (dropped.length > 0) this.init.logger.debug(`checkpoint of ${shortId(sessionId)}: left out ${dropped.join('; ')}`);
    await this.init.store.set(checkpointKey(sessionId), bytes, { ttlMs: this.init.ttlMs });
  }
}

/** The image of a session of `manager`, captured in its queue after the calls before it (CAPTURE_TIMEOUT_MS at most). */
export async function captureSession(manager: SessionManager, sessionId: string): Promise<SessionImage> {
  const session = manager.get(sessionId);
  return session.run(() => session.image(), { timeout: CAPTURE_TIMEOUT_MS });
}

/** Where a session's checkpoint is kept in the store. */
export function checkpointKey(sessionId: string): string {
  return `checkpoints/${sessionId}`;
}

/**
 * The record as at most `maxBytes` of JSON: past that, the largest parts of its storage are left out first (an
 * origin's IndexedDB, its localStorage, a tab's sessionStorage), each named in `dropped`.
 */
export function fitted(record: CheckpointRecord, maxBytes: number): { bytes: Buffer; dropped: string[] } {
  let bytes = Buffer.from(JSON.stringify(record), 'utf8');
  if (bytes.length <= maxBytes) return { bytes, dropped: [] };
  const { storageState, tabs } = record.image;
  const parts = [
    ...storageState.origins.flatMap((origin: { origin: string; localStorage: unknown[]; indexedDB?: unknown }) => [
      { label: `the IndexedDB of ${origin.origin}`, size: sizeOf(origin.indexedDB), drop: () => void delete origin.indexedDB },
      { label: `the localStorage of ${origin.origin}`, size: sizeOf(origin.localStorage), drop: () => void (origin.localStorage = []) },
    ]),
    ...tabs.map((tab) => ({
      label: `the sessionStorage of the tab at ${tab.url}`,
      size: sizeOf(tab.sessionStorage),
      drop: () => void (tab.sessionStorage = []),
    })),
  ]
    .filter((part) => part.size > 2)
    .sort((a, b) => b.size - a.size);
  const dropped: string[] = [];
  let estimate = bytes.length;
  for (const part of parts) {
    if (estimate <= maxBytes) break;
    part.drop();
    estimate -= part.size;
    dropped.push(`${part.label} (too large for a checkpoint)`);
  }
  record.dropped = dropped;
  bytes = Buffer.from(JSON.stringify(record), 'utf8');
  if (bytes.length > maxBytes) throw new RangeError(`the session's checkpoint is ${bytes.length} bytes even without its storage, more than ${maxBytes}`);
  return { bytes, dropped };
}

function sizeOf(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}
