// Loads Playwright on first use: loading it costs much CPU, which a server should spend after answering initialize.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Playwright from 'playwright';
import { loadWithCodeCache } from './code-cache.js';

let loaded: typeof Playwright | undefined;

export function playwright(): typeof Playwright {
  loaded ??= loadWithCodeCache(
    () => createRequire(import.meta.url)('playwright') as typeof Playwright,
    (filename) => filename.includes(`${path.sep}playwright-core${path.sep}`) || filename.includes(`${path.sep}playwright${path.sep}`),
  );
  return loaded;
}

/** Playwright's TimeoutError, recognised by its class name so that checking an error never loads Playwright. */
export function isTimeoutError(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}
