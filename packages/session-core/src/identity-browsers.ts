// Browsers of their own for identities: started with an identity's first session, closed a while after its last.
import type { BrowserSource } from './browser-source.js';
import type { TimerHandle, Timers } from './clock.js';
import type { Logger } from './logger.js';

/** How long an identity's own browser stays up after its last session, for the identity's next one. */
const IDENTITY_BROWSER_IDLE_MS = 30_000;

interface IdentityBrowsersInit {
  /** Makes a browser source for an identity (undefined: that identity shares the manager's). */
  launch: (identity: string) => BrowserSource | undefined;
  /** How long an identity's browser stays up after it serves no session and no creation (default 30 000 ms). */
  idleMs?: number | undefined;
  timers: Timers;
  logger: Logger;
  /** Open sessions plus creations in flight on a source. */
  load: (source: BrowserSource) => number;
  /** Told of a source made for an identity (the manager gives it a warm pool) and of one closed. */
  added: (source: BrowserSource) => void;
  removed: (source: BrowserSource) => void;
}

/** Each identity's own browser source (SessionManagerOptions.browserPerIdentity), and the timers that close one its identity no longer uses. */
export class IdentityBrowsers {
  private readonly sources = new Map<string, BrowserSource>();
  private readonly idle = new Map<BrowserSource, TimerHandle>();
  private readonly idleMs: number;

  constructor(private readonly init: IdentityBrowsersInit) {
    if (init.idleMs !== undefined && (!Number.isFinite(init.idleMs) || init.idleMs < 0)) {
      throw new RangeError('browserPerIdentity.idleMs must be a number of ms of at least 0');
    }
    this.idleMs = init.idleMs ?? IDENTITY_BROWSER_IDLE_MS;
  }

  /** Every identity's source open now. */
  get all(): BrowserSource[] {
    return [...this.sources.values()];
  }

  /** The identity's own browser source, made on its first session; undefined when it shares the manager's. */
  sourceOf(identity: string | undefined): BrowserSource | undefined {
    if (identity === undefined) return undefined;
    let source = this.sources.get(identity);
    if (source === undefined) {
      source = this.init.launch(identity);
      if (source === undefined) return undefined;
      this.sources.set(identity, source);
      // Warm contexts as for the shared browser, ready once the identity's browser is up (after its first session).
      this.init.added(source);
      this.init.logger.info(`a browser of its own started for a client (${this.sources.size} client browsers)`);
    }
    const idle = this.idle.get(source);
    if (idle !== undefined) this.init.timers.clearTimeout(idle);
    this.idle.delete(source);
    return source;
  }

  /** Closes an identity's browser idleMs after it serves no session and no creation, unless one comes first. */
  release(source: BrowserSource): void {
    const identity = [...this.sources].find(([, candidate]) => candidate === source)?.[0];
    if (identity === undefined || this.init.load(source) > 0 || this.idle.has(source)) return;
    const timer = this.init.timers.setTimeout(() => {
      this.idle.delete(source);
      if (this.init.load(source) > 0 || this.sources.get(identity) !== source) return;
      this.sources.delete(identity);
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
