// Picks the browser source for a new session: the one with the fewest sessions among those available and under their cap.
import type { BrowserSource } from './browser-source.js';
import { SessionError, browserError } from './errors.js';

/** How long a creation with no browser available waits for the endpoints it has just asked again (a few seconds at most). */
const SOURCE_WAIT_MS = 3_000;

/**
 * The available source with the fewest sessions (`load`), ties to the first given. With none available, every source is
 * asked again at once (a retry brought forward) and the answers are awaited for at most `wait` ms; then BROWSER_ERROR
 * (no_browser_available, browser_unreachable or version_mismatch), or MAX_SESSIONS_REACHED when every available source
 * is at its own cap.
 */
export async function chooseSource(
  sources: readonly BrowserSource[],
  load: (source: BrowserSource) => number,
  wait: number = SOURCE_WAIT_MS,
): Promise<BrowserSource> {
  const chosen = leastLoaded(sources, load);
  if (chosen) return chosen;
  if (!sources.some((source) => source.available)) {
    for (const source of sources) source.start();
    await anyAvailable(sources, wait);
    const late = leastLoaded(sources, load);
    if (late) return late;
  }
  const up = sources.filter((source) => source.available);
  if (up.length > 0) {
    const caps = up.reduce((sum, source) => sum + (source.maxSessions ?? 0), 0);
    throw new SessionError('MAX_SESSIONS_REACHED', `Every available browser endpoint holds as many sessions as its maxSessions allows (${caps} in all).`, {
      details: {
        scope: 'endpoint',
        maxSessions: caps,
        endpoints: up.map((source) => ({ endpoint: source.label, maxSessions: source.maxSessions })),
        next: 'free_session',
      },
    });
  }
  throw unavailableError(sources);
}

/** The available source under its cap with the fewest sessions, ties to the first; undefined when there is none. */
export function leastLoaded(sources: readonly BrowserSource[], load: (source: BrowserSource) => number): BrowserSource | undefined {
  let best: BrowserSource | undefined;
  let bestLoad = Number.POSITIVE_INFINITY;
  for (const source of sources) {
    if (!source.available) continue;
    const sessions = load(source);
    if (source.maxSessions !== undefined && sessions >= source.maxSessions) continue;
    if (sessions < bestLoad) {
      best = source;
      bestLoad = sessions;
    }
  }
  return best;
}

/** Resolves when a source becomes available, when every attempt in flight has settled, or after `wait` ms. */
function anyAvailable(sources: readonly BrowserSource[], wait: number): Promise<void> {
  const attempts = sources.map((source) => source.attempt).filter((attempt) => attempt !== undefined);
  if (attempts.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, wait);
    let pending = attempts.length;
    const settled = () => {
      pending -= 1;
      if (pending === 0 || sources.some((source) => source.available)) {
        clearTimeout(timer);
        resolve();
      }
    };
    for (const attempt of attempts) attempt.then(settled, settled);
  });
}

/**
 * Why no browser could be had. version_mismatch when every endpoint refused us for our Playwright version;
 * browser_unreachable when the only endpoint has never been reached (most likely a wrong address or token);
 * otherwise no_browser_available: endpoints that may come back are down, and are being retried.
 */
export function unavailableError(sources: readonly BrowserSource[]): SessionError {
  const endpoints = sources.map((source) => ({
    endpoint: source.label,
    status: source.available ? 'up' : (source.failure?.reason ?? (source.attempt ? 'connecting' : 'down')),
    ...(source.failure?.serverVersion === undefined ? {} : { serverVersion: source.failure.serverVersion }),
  }));
  const failures = sources.map((source) => source.failure);
  const labels = sources.map((source) => source.label).join(', ');
  const [first] = failures;
  if (first && failures.every((failure) => failure?.reason === 'version_mismatch')) {
    return browserError(
      'version_mismatch',
      `The browser endpoint${sources.length === 1 ? '' : 's'} ${labels} ${first.message}. Run a browser server of Playwright ${first.clientVersion ?? ''} (or a sessionwright built on the server's version).`,
      {
        details: {
          serverVersion: first.serverVersion,
          clientVersion: first.clientVersion,
          ...(sources.length === 1 ? { endpoint: labels } : { endpoints }),
        },
      },
    );
  }
  const [only] = sources;
  if (only && sources.length === 1 && !only.everConnected) {
    return browserError(
      'browser_unreachable',
      `The browser endpoint ${only.label} cannot be reached${only.failure ? `: ${only.failure.message}` : ''}. Check that its browser server runs, and its address and token; it is retried in the background.`,
      { details: { endpoint: only.label, ...(only.failure ? { browserMessage: only.failure.message } : {}) } },
    );
  }
  return browserError(
    'no_browser_available',
    `No browser is available: every browser endpoint is down (${labels}). They are retried in the background; try again in a few seconds.`,
    { details: { endpoints } },
  );
}
