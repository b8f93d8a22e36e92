// Where a browser comes from (launched here, a Playwright server, a CDP endpoint), and endpoint URLs made safe to show.
import type { Browser } from 'playwright';
import type { Timers } from './clock.js';
import { SessionError } from './errors.js';
import type { BrowserName } from './executable.js';

/** launch: started by this process; connect: a Playwright browser server (`browserType.connect`); cdp: `connectOverCDP`. */
export type BrowserSourceKind = 'launch' | 'connect' | 'cdp';

/** owned: this process closes the browser on shutdown; attached: it only disconnects, the browser stays up. */
export type BrowserOwnership = 'owned' | 'attached';

/** Why a source has no browser now, as `details.reason` of BROWSER_ERROR uses it. */
export type SourceFailureReason = 'browser_unreachable' | 'version_mismatch' | 'browser_disconnected';

export interface SourceFailure {
  reason: SourceFailureReason;
  /** One line without secrets. */
  message: string;
  /** Both Playwright versions, for version_mismatch. */
  serverVersion?: string;
  clientVersion?: string;
}

/**
 * One place sessions can be opened. The SessionManager holds one or several and spreads sessions over those that are
 * available. A source reports its browser coming and going through the two listeners.
 */
export interface BrowserSource {
  readonly kind: BrowserSourceKind;
  readonly ownership: BrowserOwnership;
  /** The browser type its sessions run in (a CDP endpoint is always Chromium). */
  readonly browserName: BrowserName;
  /** Names the source in results and logs; never a token, a path or a query string. */
  readonly label: string;
  /** At most this many sessions on this source (undefined: only the manager's own limit). */
  readonly maxSessions: number | undefined;
  /** True when a session could be opened now: a remote browser is connected, or a local one is up or can be launched. */
  readonly available: boolean;
  /** The connection attempt in flight, if any (a caller with nothing available may wait for it). */
  readonly attempt: Promise<unknown> | undefined;
  /** Why the last attempt to reach the browser failed, while it is not available; undefined otherwise. */
  readonly failure: SourceFailure | undefined;
  /** True once a browser has been reached at least once. */
  readonly everConnected: boolean;
  /** Begins launching or connecting in the background. */
  start(): this;
  /** The browser, launching it if that is how this source works; rejects with BROWSER_ERROR when there is none. */
  browser(): Promise<Browser>;
  /** Called with each browser launched or connected; at once if one is up already. */
  onLaunched(listener: (browser: Browser) => void): () => void;
  /** Called when the browser goes away without being asked to. */
  onDisconnected(listener: (browser: Browser) => void): () => void;
  /** Closes an owned browser, or disconnects from an attached one. Safe to call twice. */
  close(): Promise<void>;
}

/** The launch and disconnect listeners of one source: what its onLaunched and onDisconnected register, and how it tells them. */
export class BrowserListeners {
  private readonly launched = new Set<(browser: Browser) => void>();
  private readonly disconnected = new Set<(browser: Browser) => void>();

  /** Registers a launch listener, called at once with `current` when that one is up; returns the unsubscribe. */
  onLaunched(listener: (browser: Browser) => void, current: Browser | undefined): () => void {
    this.launched.add(listener);
    if (current?.isConnected()) listener(current);
    return () => this.launched.delete(listener);
  }

  onDisconnected(listener: (browser: Browser) => void): () => void {
    this.disconnected.add(listener);
    return () => this.disconnected.delete(listener);
  }

  launch(browser: Browser): void {
    for (const listener of this.launched) listener(browser);
  }

  disconnect(browser: Browser): void {
    for (const listener of this.disconnected) listener(browser);
  }
}

export interface ParsedEndpoint {
  /** The URL to connect to, the fragment removed; it may hold secrets and is never shown. */
  url: string;
  /** scheme://host:port, safe to show. */
  label: string;
  /** From the fragment `#maxSessions=<n>`. */
  maxSessions: number | undefined;
}

const ENDPOINT_PROTOCOLS = ['ws:', 'wss:', 'http:', 'https:'];

/**
 * Reads an endpoint URL. The fragment never reaches the server, so it carries sessionwright's own settings
 * (`#maxSessions=20`); it is removed before connecting. INVALID_PARAMETERS for anything unusable.
 */
export function parseEndpoint(text: string): ParsedEndpoint {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text itself may hold a token: name only its beginning.
    throw new SessionError('INVALID_PARAMETERS', `a browser endpoint must be a URL such as ws://host:3000/`);
  }
  if (!ENDPOINT_PROTOCOLS.includes(url.protocol)) {
    throw new SessionError('INVALID_PARAMETERS', `a browser endpoint must start with ws://, wss://, http:// or https:// (got ${url.protocol})`);
  }
  let maxSessions: number | undefined;
  for (const [key, value] of new URLSearchParams(url.hash.slice(1))) {
    if (key !== 'maxSessions') throw new SessionError('INVALID_PARAMETERS', `unknown endpoint setting "${key}" after # (only maxSessions=<n>)`);
    maxSessions = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) {
      throw new SessionError('INVALID_PARAMETERS', `maxSessions after # must be a whole number of at least 1 (got "${value}")`);
    }
  }
  url.hash = '';
  return { url: url.href, label: endpointLabel(url), maxSessions };
}

/** scheme://host:port of an endpoint: user names, passwords, paths (a launchServer path is its secret), queries and fragments dropped. */
function endpointLabel(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return `${parsed.protocol}//${parsed.host}`;
}

/** Every URL in a message (Playwright names the endpoint it failed on, path and all) shortened to its label. */
export function redactUrls(text: string): string {
  return text.replace(/\b(?:wss?|https?):\/\/[^\s'"<>)]+/g, (match) => {
    try {
      return endpointLabel(match);
    } catch {
      return '<url>';
    }
  });
}

/** Labels made unique in order (two endpoints on one host:port differ only by a secret path): the second gets " (2)". */
export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    return count === 1 ? label : `${label} (${count})`;
  });
}

/** True once the browser disconnects (at once if it has), false if it is still connected after `ms`. */
export function disconnectsWithin(browser: Browser, ms: number, timers: Timers): Promise<boolean> {
  if (!browser.isConnected()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const gone = () => {
      timers.clearTimeout(timer);
      resolve(true);
    };
    const timer = timers.setTimeout(() => {
      browser.off('disconnected', gone);
      resolve(false);
    }, ms);
    browser.once('disconnected', gone);
  });
}
