// Loads Playwright on first use: loading it costs much CPU, which a server should spend after answering initialize.
import { createRequire } from 'node:module';
import type * as Playwright from 'playwright';

/** How a program has Playwright loaded: it runs `require` (the plain load) its own way and returns what it returned. */
export type PlaywrightLoader = (require: () => typeof Playwright) => typeof Playwright;

let loaded: typeof Playwright | undefined;

/** Playwright, loaded by the first call: through `loader` when that call brings one (a browser source's launch hook). */
export function playwright(loader?: PlaywrightLoader): typeof Playwright {
  const require = () => createRequire(import.meta.url)('playwright') as typeof Playwright;
  loaded ??= loader ? loader(require) : require();
  return loaded;
}

/** Playwright's TimeoutError, recognised by its class name so that checking an error never loads Playwright. */
export function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}
