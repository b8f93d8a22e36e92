// A browser that runs elsewhere (a Playwright browser server or a CDP endpoint): connected in the background, reconnected with backoff, never closed.
import { createRequire } from 'node:module';
import type { Browser } from 'playwright';
import { BrowserListeners, parseEndpoint, redactUrls, type BrowserSource, type SourceFailure } from './browser-source.js';
import { orAfter, systemTimers, type TimerHandle, type Timers } from './clock.js';
import { browserError, firstLine, messageOf, type SessionError } from './errors.js';
import type { BrowserName } from './executable.js';
import { playwright, type PlaywrightLoader } from './load-playwright.js';
import { silentLogger, type Logger } from './logger.js';
import { defined } from './fields.js';

/** Where a RemoteBrowser connects and how it retries. */
export interface RemoteBrowserOptions {
  /** connect: Playwright's own protocol (`playwright run-server`, `launchServer()`, Browserless, Moon); cdp: `connectOverCDP`. */
  kind: 'connect' | 'cdp';
  /** The endpoint URL, with an optional `#maxSessions=<n>`. It may hold a token: it is never logged or shown. */
  endpoint: string;
  /** The browser type to connect with (connect only; CDP is always Chromium). Default chromium. */
  browser?: BrowserName;
  /** Overrides the label taken from the URL (to tell apart two endpoints on one host:port). */
  label?: string;
  logger?: Logger;
  /** Milliseconds one connection attempt may take (default 10 000; 0: no limit). */
  connectTimeout?: number;
  /** HTTP headers sent with the connection request (a hosted browser's token): secrets, never logged. */
  headers?: Record<string, string>;
  /** Wait after the first failure, doubled after each further one up to retryMax (defaults 500 and 30 000 ms). */
  retryInitial?: number;
  retryMax?: number;
  timers?: Timers;
  /** How Playwright is loaded if this source is the first to need it (see LaunchHook.loadPlaywright). */
  loadPlaywright?: PlaywrightLoader;
}

/** The Playwright version this process speaks; a Playwright server accepts only clients of its own major.minor version. */
export function playwrightVersion(): string {
  return (createRequire(import.meta.url)('playwright/package.json') as { version: string }).version;
}

/** How long shutdown waits for a remote browser to acknowledge the disconnection. */
const DISCONNECT_TIMEOUT_MS = 2_000;

/** A browser that runs elsewhere, as a BrowserSource: connected in the background, reconnected with backoff, never closed. */
export class RemoteBrowser implements BrowserSource {
  readonly kind: 'connect' | 'cdp';
  readonly ownership = 'attached' as const;
  readonly label: string;
  readonly maxSessions: number | undefined;
  private readonly url: string;
  readonly browserName: BrowserName;
  private readonly logger: Logger;
  private readonly timers: Timers;
  private readonly connectTimeout: number;
  private readonly headers: Record<string, string> | undefined;
  private readonly retryInitial: number;
  private readonly retryMax: number;
  private retryDelay: number;
  private retryTimer: TimerHandle | undefined;
  private current: Browser | undefined;
  private connecting: Promise<Browser | undefined> | undefined;
  private closed = false;
  private lastFailure: SourceFailure | undefined;
  private connectedOnce = false;
  private readonly listeners = new BrowserListeners();
  private readonly loadPlaywright: PlaywrightLoader | undefined;

  constructor(options: RemoteBrowserOptions) {
    const parsed = parseEndpoint(options.endpoint);
    this.kind = options.kind;
    this.url = parsed.url;
    this.label = options.label ?? parsed.label;
    this.maxSessions = parsed.maxSessions;
    this.browserName = options.kind === 'cdp' ? 'chromium' : (options.browser ?? 'chromium');
    this.logger = options.logger ?? silentLogger;
    this.timers = options.timers ?? systemTimers;
    this.connectTimeout = options.connectTimeout ?? 10_000;
    this.headers = options.headers;
    this.retryInitial = options.retryInitial ?? 500;
    this.retryMax = options.retryMax ?? 30_000;
    this.retryDelay = this.retryInitial;
    this.loadPlaywright = options.loadPlaywright;
  }

  get available(): boolean {
    return !this.closed && (this.current?.isConnected() ?? false);
  }

  get attempt(): Promise<unknown> | undefined {
    return this.connecting;
  }

  get failure(): SourceFailure | undefined {
    return this.available ? undefined : this.lastFailure;
  }

  get everConnected(): boolean {
    return this.connectedOnce;
  }

  start(): this {
    this.connectNow();
    return this;
  }

  /** The connected browser, or the one an attempt in flight brings; BROWSER_ERROR without waiting for a retry. */
  async browser(): Promise<Browser> {
    if (this.closed) throw browserError('shutting_down', 'The browser endpoints have been shut down.');
    if (this.current?.isConnected()) return this.current;
    this.connectNow();
    const browser = await this.connecting;
    if (browser?.isConnected()) return browser;
    throw this.unavailableError();
  }

  onLaunched(listener: (browser: Browser) => void): () => void {
    return this.listeners.onLaunched(listener, this.current);
  }

  onDisconnected(listener: (browser: Browser) => void): () => void {
    return this.listeners.onDisconnected(listener);
  }

  /**
   * Disconnects; the remote browser stays up. For `connect`, Browser.close() only closes the connection (the server then
   * drops the contexts this client made); for CDP it closes the socket, not the browser.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const browser = this.current;
    this.current = undefined;
    const pending = this.connecting;
    // A remote end that stops answering must not hold up shutdown: the socket is dropped with the process anyway.
    const disconnecting = Promise.all([browser?.close(), pending?.then((late) => late?.close())]).catch(() => {});
    await orAfter(disconnecting, DISCONNECT_TIMEOUT_MS, undefined);
  }

  /** The error a caller gets while this endpoint is down, named by its label. */
  unavailableError(): SessionError {
    const failure = this.lastFailure ?? { reason: 'browser_unreachable', message: 'not connected yet' };
    return browserError(
      failure.reason === 'version_mismatch' ? 'version_mismatch' : 'browser_unreachable',
      `The browser endpoint ${this.label} is not available: ${failure.message}`,
      {
        details: failureDetails(this.label, failure),
      },
    );
  }

  /** Starts an attempt unless one is running, one is connected, or the source is closed; a pending retry is brought forward. */
  private connectNow(): void {
    if (this.closed || this.connecting || this.current?.isConnected()) return;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.connecting = this.connectOnce().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connectOnce(): Promise<Browser | undefined> {
    let browser: Browser;
    try {
      const type = playwright(this.loadPlaywright)[this.browserName];
      const connectOptions = { timeout: this.connectTimeout, ...defined({ headers: this.headers }) };
      browser = this.kind === 'cdp' ? await type.connectOverCDP(this.url, connectOptions) : await type.connect(this.url, connectOptions);
    } catch (error) {
      this.failed(classifyConnectError(error));
      return undefined;
    }
    if (this.closed) {
      await browser.close().catch(() => {});
      return undefined;
    }
    this.current = browser;
    this.connectedOnce = true;
    this.lastFailure = undefined;
    this.retryDelay = this.retryInitial;
    browser.on('disconnected', () => this.lost(browser));
    this.logger.info(`browser endpoint ${this.label} connected (${this.kind === 'cdp' ? 'CDP' : 'Playwright protocol'}, version ${browser.version()})`);
    this.listeners.launch(browser);
    return browser;
  }

  private lost(browser: Browser): void {
    if (this.current === browser) this.current = undefined;
    if (this.closed) return;
    this.lastFailure = { reason: 'browser_disconnected', message: 'the connection to the browser was lost' };
    this.logger.warn(`browser endpoint ${this.label} disconnected; its sessions are gone, new sessions go to other endpoints while it is retried`);
    this.listeners.disconnect(browser);
    this.scheduleRetry();
  }

  private failed(failure: SourceFailure): void {
    const changed = this.lastFailure?.reason !== failure.reason;
    this.lastFailure = failure;
    // Said once when the state changes; each retry after that only at debug level, so a dead endpoint does not flood stderr.
    const line = `browser endpoint ${this.label}: ${failure.message}; retrying in ${this.retryDelay} ms`;
    if (changed) this.logger.warn(line);
    else this.logger.debug(line);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer !== undefined) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, this.retryMax);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = undefined;
      this.connectNow();
    }, delay);
  }
}

/**
 * What a failed connect means. A Playwright server refuses a client of another version with HTTP 428 and a text naming
 * both versions; that status and text are all the client API exposes, so they are read here, and only here.
 */
function classifyConnectError(error: unknown): SourceFailure {
  const text = messageOf(error);
  if (/\b428\b/.test(text) || /version mismatch/i.test(text)) {
    const serverVersion = /server version:\s*v?(\d+\.\d+(?:\.\d+)?(?:-[\w.-]+)?)/i.exec(text)?.[1] ?? 'unknown';
    const clientVersion = playwrightVersion();
    return {
      reason: 'version_mismatch',
      message: `it runs Playwright ${serverVersion} but sessionwright uses Playwright ${clientVersion}; the major and minor versions must match`,
      serverVersion,
      clientVersion,
    };
  }
  return { reason: 'browser_unreachable', message: redactUrls(firstLine(text.replace(/^[\w.]+: /, ''))) };
}

/** The details of a BROWSER_ERROR about one endpoint (its reason is set by browserError). */
function failureDetails(label: string, failure: SourceFailure): Record<string, unknown> {
  return {
    endpoint: label,
    ...(failure.serverVersion === undefined ? {} : { serverVersion: failure.serverVersion, clientVersion: failure.clientVersion }),
    ...(failure.reason === 'version_mismatch' ? {} : { browserMessage: failure.message }),
  };
}
