// Browsers of their own for owners: started with an owner's first session, closed a while after its last.
import type { BrowserSource } from './browser-source.js';
import type { TimerHandle, Timers } from './clock.js';
import type { Logger } from './logger.js';

/** How long an owner's own browser stays up after its last session, for the owner's next one. */
const OWNER_BROWSER_IDLE_MS = 30_000;

export interface OwnerBrowsersInit {
  /** Makes a browser source for an owner (undefined: that owner shares the manager's). */
  launch: (owner: string) => BrowserSource | undefined;
  /** How long an owner's browser stays up after it serves no session and no creation (default 30 000 ms). */
  idleMs?: number | undefined;
  timers: Timers;
  logger: Logger;
  /** Open sessions plus creations in flight on a source. */
  load: (source: BrowserSource) => number;
  /** Told of a source made for an owner (the manager gives it a warm pool) and of one closed. */
  added: (source: BrowserSource) => void;
  removed: (source: BrowserSource) => void;
}

/** Each owner's own browser source (SessionManagerOptions.browserPerOwner), and the timers that close one its owner no longer uses. */
export class OwnerBrowsers {
  private readonly sources = new Map<string, BrowserSource>();
  private readonly idle = new Map<BrowserSource, TimerHandle>();
  private readonly idleMs: number;

  constructor(private readonly init: OwnerBrowsersInit) {
    if (init.idleMs !== undefined && (!Number.isFinite(init.idleMs) || init.idleMs < 0)) {
      throw new RangeError('browserPerOwner.idleMs must be a number of ms of at least 0');
    }
    this.idleMs = init.idleMs ?? OWNER_BROWSER_IDLE_MS;
  }

  /** Every owner's source open now. */
  get all(): BrowserSource[] {
    return [...this.sources.values()];
  }

  /** The owner's own browser source, made on its first session; undefined when it shares the manager's. */
  sourceOf(owner: string | undefined): BrowserSource | undefined {
    if (owner === undefined) return undefined;
    let source = this.sources.get(owner);
    if (source === undefined) {
      source = this.init.launch(owner);
      if (source === undefined) return undefined;
      this.sources.set(owner, source);
      // Warm contexts as for the shared browser, ready once the owner's browser is up (after its first session).
      this.init.added(source);
      this.init.logger.info(`a browser of its own started for a client (${this.sources.size} client browsers)`);
    }
    const idle = this.idle.get(source);
    if (idle !== undefined) this.init.timers.clearTimeout(idle);
    this.idle.delete(source);
    return source;
  }

  /** Closes an owner's browser idleMs after it serves no session and no creation, unless one comes first. */
  release(source: BrowserSource): void {
    const owner = [...this.sources].find(([, candidate]) => candidate === source)?.[0];
    if (owner === undefined || this.init.load(source) > 0 || this.idle.has(source)) return;
    const timer = this.init.timers.setTimeout(() => {
      this.idle.delete(source);
      if (this.init.load(source) > 0 || this.sources.get(owner) !== source) return;
      this.sources.delete(owner);
      this.init.removed(source);
      void source.close();
    }, this.idleMs);
    this.idle.set(source, timer);
  }

  /** Clears the timers (shutdown closes the sources). */
  stop(): void {
    for (const timer of this.idle.values()) this.init.timers.clearTimeout(timer);
  }
}
