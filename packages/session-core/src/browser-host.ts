// Owns the one shared Browser: launches it in the background, relaunches it after a crash, closes it on shutdown.
import type { Browser, LaunchOptions } from 'playwright';
import { BrowserListeners, type BrowserSource, type SourceFailure } from './browser-source.js';
import { browserError, firstLine, isSessionError, messageOf } from './errors.js';
import { resolveExecutable, resolveHeadless, type BrowserName, type ResolvedExecutable } from './executable.js';
import { playwright, type PlaywrightLoader } from './load-playwright.js';
import { silentLogger, type Logger } from './logger.js';
import { orAfter } from './clock.js';
import { browserChildren, killProcessGroup } from './process-tree.js';
import { defined } from './fields.js';

/** How a BrowserHost launches its browser: which one, headless or not, which binary, switches and time limit. */
export interface BrowserHostOptions {
  browser?: BrowserName;
  /** Undefined: headed, except on Linux without a display. */
  headless?: boolean;
  executablePath?: string;
  /** Extra command-line switches for the browser. */
  args?: string[];
  /** Chromium's sandbox: Playwright's default (off) when undefined. */
  chromiumSandbox?: boolean;
  logger?: Logger;
  /** Milliseconds a launch may take before it fails. */
  launchTimeout?: number;
  /** How the program takes part in each launch (see LaunchHook); without it Playwright loads and launches as usual. */
  launchHook?: LaunchHook;
}

/**
 * How a program takes part in launching its browser, for start-up tricks that are the program's to play, not a
 * library's: the sessionwright command loads Playwright through V8's code cache, and hands the launch a browser process
 * it started before Playwright had loaded. Every part is optional.
 */
export interface LaunchHook {
  /** Loads Playwright, if nothing has yet: runs the plain `require` its own way and returns what it returned. */
  loadPlaywright?: PlaywrightLoader;
  /** Runs Playwright's launch (it may hand the launch a browser process it started earlier) and returns its result. */
  launch?: <T>(launch: () => Promise<T>) => Promise<T>;
  /** A child of this process, not yet launched by a BrowserHost, that the next launch may take as its browser. */
  earlyBrowserPid?: () => number | undefined;
}

/**
 * Chromium switches that keep a headless browser from phoning home on a machine with no network. No --disable-features:
 * Playwright passes its own list (MediaRouter, OptimizationHints, HTTPS upgrades of http:// navigations, …), and
 * Chromium keeps only the last of two, so a second list here would switch all of Playwright's back on.
 */
const QUIET_CHROMIUM_ARGS = ['--disable-quic', '--no-default-browser-check'];

/** The local browser as a BrowserSource: owned (closed on shutdown), launched on demand, so always available until closed. */
export class BrowserHost implements BrowserSource {
  readonly kind = 'launch' as const;
  readonly ownership = 'owned' as const;
  readonly label = 'local';
  readonly maxSessions = undefined;
  /** A launch is awaited by whoever asks for the browser, and its failure is their error: nothing to wait for or report here. */
  readonly attempt = undefined;
  readonly failure: SourceFailure | undefined = undefined;
  readonly browserName: BrowserName;
  readonly headless: boolean;
  private readonly options: BrowserHostOptions;
  private readonly logger: Logger;
  private executable: ResolvedExecutable | undefined;
  private launching: Promise<Browser> | undefined;
  private current: Browser | undefined;
  private closed = false;
  private launchedOnce = false;
  private readonly listeners = new BrowserListeners();
  /** Browsers closed on purpose by recycle() or retire(): their going away is not a crash. */
  private readonly retired = new WeakSet<Browser>();
  /** Browsers rotate() set aside that are not retired yet: closed with the host too. */
  private readonly setAside = new Set<Browser>();
  /** The process ids each launched browser started as (Linux), to kill it if it hangs on close. */
  private readonly processIds = new WeakMap<Browser, number[]>();

  constructor(options: BrowserHostOptions = {}) {
    this.options = options;
    this.browserName = options.browser ?? 'chromium';
    this.logger = options.logger ?? silentLogger;
    const decision = resolveHeadless(options.headless);
    this.headless = decision.headless;
    if (decision.reason) this.logger.info(decision.reason);
  }

  /** Begins launching in the background; callers that need the browser await `browser()`. */
  start(): this {
    // A launch failure is reported to whoever awaits browser(), not as an unhandled rejection here.
    this.browser().catch(() => {});
    return this;
  }

  /** The executable in use (resolved on first launch), for diagnostics. */
  get resolved(): ResolvedExecutable | undefined {
    return this.executable;
  }

  /** Resolves the executable without launching: throws BROWSER_ERROR when there is none. */
  resolveExecutable(): ResolvedExecutable {
    this.executable ??= resolveExecutable({
      browser: this.browserName,
      headless: this.headless,
      ...defined({ executablePath: this.options.executablePath }),
    });
    return this.executable;
  }

  /** The shared browser, launching a new one when there is none or the last one died. */
  browser(): Promise<Browser> {
    if (this.closed) return Promise.reject(browserError('shutting_down', 'The browser host has been shut down.'));
    if (this.current?.isConnected()) return Promise.resolve(this.current);
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  get available(): boolean {
    return !this.closed;
  }

  get everConnected(): boolean {
    return this.launchedOnce;
  }

  /** True while a launched browser is connected. */
  get connected(): boolean {
    return this.current?.isConnected() ?? false;
  }

  /** The process ids `browser` started as, when this host launched it (Linux; elsewhere empty). */
  processIdsOf(browser: Browser): readonly number[] {
    return this.processIds.get(browser) ?? [];
  }

  /** Called with each browser launched (the first, and each one after a crash); at once if one is up already. */
  onLaunched(listener: (browser: Browser) => void): () => void {
    return this.listeners.onLaunched(listener, this.current);
  }

  /** Called when the browser goes away without being asked to (crash, killed process). */
  onDisconnected(listener: (browser: Browser) => void): () => void {
    return this.listeners.onDisconnected(listener);
  }

  /**
   * Replaces the browser with a fresh one: the current one is closed (every process it started with it, and the memory
   * it kept after its sessions closed) and a new one launched in the background; onLaunched listeners hear of it (a warm
   * pool refills there). Its going away is not reported as a crash. Call it only when no session is open in it: whatever
   * is open in it closes. A caller that asks for the browser meanwhile gets the new one.
   */
  async recycle(): Promise<void> {
    const old = this.rotate();
    if (old) await this.retire(old);
  }

  /**
   * Starts a fresh browser in the background for whoever asks for the browser from now on, and returns the current one,
   * which keeps serving what is open in it until the caller hands it to retire(). Undefined when there is nothing to
   * replace (no browser up, a launch in flight, or closed).
   */
  rotate(): Browser | undefined {
    const old = this.current;
    if (this.closed || this.launching || !old) return undefined;
    this.current = undefined;
    this.setAside.add(old);
    this.start();
    return old;
  }

  /**
   * Closes a browser rotate() set aside (every process it started) once the contexts it is still closing have closed,
   * or it went DRAIN_STALL_MS without closing one; its going away is not reported as a crash.
   */
  async retire(browser: Browser): Promise<void> {
    this.retired.add(browser);
    // A session's close answers after CLOSE_TIMEOUT_MS even if its context is still closing; after a burst of closes,
    // hundreds can be. Closed under them, the browser runs into its kill timeout, and the kill ends all their renderers
    // at once: thousands of exiting threads then leave this process almost no CPU for many seconds (docs/performance.md).
    // The browser closing them one by one spreads that out. Until then it stays set aside, so a shutdown still closes it.
    const left = await drained(browser);
    if (left > 0) this.logger.warn(`a browser being replaced closed none of its last ${left} contexts in ${DRAIN_STALL_MS / 1000} s; closing it anyway`);
    this.setAside.delete(browser);
    await this.closeOrKill(browser);
  }

  /**
   * Closes the browser and every process it started, within a few seconds: a browser that does not close within
   * CLOSE_BROWSER_TIMEOUT_MS (hung, or stopped) is killed. Safe to call twice.
   */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.launching;
    const browsers = [this.current, ...this.setAside].filter((browser) => browser !== undefined);
    this.current = undefined;
    this.setAside.clear();
    await Promise.all(browsers.map((browser) => this.closeOrKill(browser)));
    // A launch still in flight is closed as soon as it lands, so it cannot outlive us.
    if (pending) await pending.then((late) => this.closeOrKill(late)).catch(() => {});
  }

  private async closeOrKill(browser: Browser): Promise<void> {
    const closed = await orAfter(
      browser.close().then(
        () => true,
        () => true,
      ),
      CLOSE_BROWSER_TIMEOUT_MS,
      false,
    );
    if (closed) return;
    const pids = this.processIds.get(browser) ?? [];
    this.logger.warn(`the browser did not close within ${CLOSE_BROWSER_TIMEOUT_MS} ms; killing it${pids.length ? ` (pid ${pids.join(', ')})` : ''}`);
    for (const pid of pids) killProcessGroup(pid);
  }

  private async launch(): Promise<Browser> {
    // Loading Playwright blocks the event loop: let requests already waiting (initialize) be answered first.
    await new Promise((resolve) => setImmediate(resolve));
    const hook = this.options.launchHook ?? {};
    playwright(hook.loadPlaywright);
    let executable: ResolvedExecutable;
    try {
      executable = this.resolveExecutable();
    } catch (error) {
      this.logger.warn(messageOf(error));
      throw error;
    }
    const launchOptions: LaunchOptions = {
      headless: this.headless,
      args: [...(this.browserName === 'chromium' ? QUIET_CHROMIUM_ARGS : []), ...(this.options.args ?? [])],
      timeout: this.options.launchTimeout ?? 30_000,
      ...defined({ chromiumSandbox: this.options.chromiumSandbox }),
      // We close the browser ourselves on shutdown, after the sessions; Playwright's own handlers would race us.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      ...defined({ executablePath: executable.executablePath }),
    };
    const started = Date.now();
    const childrenBefore = new Set(browserChildren());
    // A browser started early is already a child, but it is the one this launch may take.
    childrenBefore.delete(hook.earlyBrowserPid?.() ?? 0);
    let browser: Browser;
    try {
      const launch = () => playwright()[this.browserName].launch(launchOptions);
      browser = await (hook.launch ? hook.launch(launch) : launch());
    } catch (error) {
      if (isSessionError(error)) throw error;
      // Chromium will not run its sandbox as root and exits at once, with nothing in Playwright's message to say why.
      const asRoot = this.options.chromiumSandbox === true && this.browserName === 'chromium' && process.getuid?.() === 0;
      const why = asRoot ? " Chromium's sandbox cannot run as root: launch without it (no --sandbox), or as another user." : '';
      throw browserError('launch_failed', `The browser failed to start: ${firstLine(messageOf(error))}${why}`, {
        details: { executable: executable.description, browserMessage: messageOf(error).slice(0, 2000), ...(asRoot ? { hint: why.trim() } : {}) },
        cause: error,
      });
    }
    this.processIds.set(
      browser,
      browserChildren().filter((pid) => !childrenBefore.has(pid)),
    );
    if (this.closed) {
      await this.closeOrKill(browser);
      throw browserError('shutting_down', 'The browser host was shut down while the browser was starting.');
    }
    this.current = browser;
    this.launchedOnce = true;
    this.listeners.launch(browser);
    this.logger.info(
      `browser ready: ${executable.description}, ${this.headless ? 'headless' : 'headed'}, version ${browser.version()}, in ${Date.now() - started} ms`,
    );
    browser.on('disconnected', () => {
      if (this.current === browser) this.current = undefined;
      this.setAside.delete(browser);
      if (this.closed || this.retired.has(browser)) return;
      this.logger.warn('the browser disconnected; its sessions are gone and the next new session starts a new browser');
      this.listeners.disconnect(browser);
    });
    return browser;
  }
}

/** How long closing the browser may take before it is killed. */
const CLOSE_BROWSER_TIMEOUT_MS = 1_500;

/**
 * How long a retired browser may go without closing one more of its contexts before it is closed anyway. A browser
 * closes contexts one at a time, slowly on a loaded machine, so a fixed bound would cut short one closing 500; one
 * that stopped closing any is stuck.
 */
const DRAIN_STALL_MS = 10_000;

/**
 * Resolves when `browser` has no context left (none has when it disconnects), or closed none for DRAIN_STALL_MS; with
 * how many are left.
 */
async function drained(browser: Browser): Promise<number> {
  let left = browser.contexts().length;
  let progressAt = Date.now();
  while (left > 0 && Date.now() - progressAt < DRAIN_STALL_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = browser.contexts().length;
    if (now < left) progressAt = Date.now();
    left = now;
  }
  return left;
}
