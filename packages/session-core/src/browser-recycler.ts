// Gives back the memory a launched browser keeps after its sessions closed: replaces it when idle, or after many sessions.
import type { Browser } from 'playwright';
import type { BrowserHost } from './browser-host.js';
import type { TimerHandle, Timers } from './clock.js';
import type { Logger } from './logger.js';
import type { WarmPool } from './warm-pool.js';

interface BrowserRecyclerOptions {
  host: BrowserHost;
  /** The host's warm pool: its contexts live in the browser being replaced. */
  pool: WarmPool;
  /** Sessions open on the host, creations in flight included. */
  openSessions: () => number;
  /** Sessions open in one browser of the host. */
  openIn: (browser: Browser) => number;
  /** How long no session must be open before the browser is replaced, ms. */
  idleMs: number;
  /** How many sessions one browser serves before new sessions go to a fresh one (undefined: no limit). */
  rotateAfter?: number | undefined;
  timers: Timers;
  logger: Logger;
}

/**
 * A browser does not give back all the memory its closed sessions used (docs/performance.md). Two ways out, both for a
 * browser this process launched:
 * - Idle: once a browser that served sessions has had none open for `idleMs`, it is replaced by a fresh one in the
 *   background, and the warm pool refills there, so the next create_session is as fast as on a fresh server.
 *   Anything that opens a session cancels a pending recycle; a creation that starts during one waits for the new
 *   browser.
 * - Busy: a server that is never idle would keep growing, so after `rotateAfter` sessions new ones go to a fresh
 *   browser while the old one keeps serving the sessions open in it, and closes once the last of them has. Nothing
 *   open is moved or lost; at most one old browser drains at a time.
 */
export class BrowserRecycler {
  private readonly options: BrowserRecyclerOptions;
  private timer: TimerHandle | undefined;
  /** Sessions opened in the current browser: one that served nobody has nothing to give back. */
  private served = 0;
  /** The browser set aside by a rotation, closed once nothing is open in it. */
  private draining: Browser | undefined;
  private stopped = false;

  constructor(options: BrowserRecyclerOptions) {
    this.options = options;
  }

  /** Call when a session opened. */
  sessionOpened(): void {
    this.served += 1;
    const { rotateAfter } = this.options;
    if (rotateAfter !== undefined && this.served >= rotateAfter && this.draining === undefined) this.rotate();
  }

  /** Call whenever sessions open, close or start opening. */
  sessionsChanged(): void {
    if (this.stopped) return;
    if (this.draining && this.options.openIn(this.draining) === 0) void this.retire(this.draining);
    if (this.options.openSessions() > 0) {
      this.cancel();
      return;
    }
    if (this.served > 0 && this.timer === undefined) this.timer = this.options.timers.setTimeout(() => void this.recycle(), this.options.idleMs);
  }

  /** No recycle from now on (shutdown). */
  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private cancel(): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private rotate(): void {
    const { host, pool, logger } = this.options;
    const old = host.rotate();
    if (!old) return;
    logger.info(`browser rotated after ${this.served} sessions: new sessions open in a fresh browser; the old one closes when its last session does`);
    this.served = 0;
    this.draining = old;
    pool.dropBrowser(old);
  }

  private async retire(browser: Browser): Promise<void> {
    this.draining = undefined;
    const started = Date.now();
    await this.options.host.retire(browser);
    this.options.logger.info(`browser retired: the one rotated out closed after its last session (${Date.now() - started} ms to close)`);
  }

  private async recycle(): Promise<void> {
    this.timer = undefined;
    const { host, pool, openSessions, logger } = this.options;
    if (this.stopped || openSessions() > 0 || !host.connected) return;
    const served = this.served;
    this.served = 0;
    const old = await host.browser();
    // Checked again after the await: a creation may have started meanwhile, and it must keep its browser.
    if (this.stopped || openSessions() > 0) {
      this.served = served;
      return;
    }
    pool.dropBrowser(old);
    const started = Date.now();
    await host.recycle();
    logger.info(
      `browser recycled: no session was open for ${Math.round(this.options.idleMs / 1000)} s (closed and relaunched in the background, ${Date.now() - started} ms to close)`,
    );
  }
}
