// Loads Playwright on first use: it costs about half a second of CPU, which a server should spend after answering initialize.
import { createRequire } from 'node:module';
import type * as Playwright from 'playwright';

let loaded: typeof Playwright | undefined;

export function playwright(): typeof Playwright {
  loaded ??= createRequire(import.meta.url)('playwright') as typeof Playwright;
  return loaded;
}

/** Playwright's TimeoutError, recognised by its class name so that checking an error never loads Playwright. */
export function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}
