// Gives the memory back that a browser keeps after its sessions closed: relaunches a launched browser once none is open.
import type { BrowserHost } from './browser-host.js';
import type { TimerHandle, Timers } from './clock.js';
import type { Logger } from './logger.js';
import type { WarmPool } from './warm-pool.js';

export interface IdleRecyclerOptions {
  host: BrowserHost;
  /** The host's warm pool: its contexts live in the browser being replaced. */
  pool: WarmPool;
  /** Sessions open on the host, creations in flight included. */
  openSessions: () => number;
  /** How long no session must be open before the browser is replaced, ms. */
  idleMs: number;
  timers: Timers;
  logger: Logger;
}

/**
 * A browser does not give back all the memory its closed sessions used (after 500 sessions closed, Chromium sat at
 * twice its idle size). Once a browser that served sessions has had none open for `idleMs`, it is replaced by a fresh
 * one in the background, and the warm pool refills there, so the next create_session is as fast as before. Anything
 * that opens a session cancels a pending recycle; a creation that starts during one waits for the new browser.
 */
export class IdleRecycler {
  private readonly options: IdleRecyclerOptions;
  private timer: TimerHandle | undefined;
  /** True once a session was open in the current browser: a browser that served nobody has nothing to give back. */
  private served = false;
  private stopped = false;

  constructor(options: IdleRecyclerOptions) {
    this.options = options;
  }

  /** Call whenever sessions open, close or start opening. */
  sessionsChanged(): void {
    if (this.stopped) return;
    if (this.options.openSessions() > 0) {
      this.served = true;
      this.cancel();
      return;
    }
    if (this.served && this.timer === undefined) this.timer = this.options.timers.setTimeout(() => void this.recycle(), this.options.idleMs);
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

  private async recycle(): Promise<void> {
    this.timer = undefined;
    const { host, pool, openSessions, logger } = this.options;
    if (this.stopped || openSessions() > 0 || !host.connected) return;
    this.served = false;
    const old = await host.browser();
    // Checked again after the await: a creation may have started meanwhile, and it must keep its browser.
    if (this.stopped || openSessions() > 0) {
      this.served = true;
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
