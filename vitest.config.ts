// One vitest run over every package's tests: real Chromium, real stdio servers, a fixture web server on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (pkg: string, entry = 'index') => fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // In-process tests load the packages' sources, so coverage counts them; spawned servers run the built dist/ as users do.
    // Whole names only, so that an entry's subpath (session-core/parts) is not read as a file under the root entry's path.
    alias: [
      { find: /^@sessionwright\/session-core$/, replacement: source('session-core') },
      { find: /^@sessionwright\/session-core\/parts$/, replacement: source('session-core', 'parts') },
      { find: /^@sessionwright\/tools$/, replacement: source('tools') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    // Hang guards, not speed checks: sized for a loaded two-core machine, where a browser-heavy test can take a minute.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores, two files at a time: with more, browser-heavy tests starve each other of CPU (a click waits seconds for
    // a page to settle, a context takes seconds to open).
    maxWorkers: 2,
    coverage: {
      provider: 'v8',
      // Measured in-process only: what spawned servers run (the CLI entry, the HTTP transports) is tested end to end instead.
      include: ['packages/session-core/src/**', 'packages/tools/src/**', 'packages/server-stdio/src/**'],
      reporter: ['text-summary', 'text'],
      // Per package, a little under what the suite reaches, so a change that leaves code untested fails CI.
      thresholds: {
        'packages/session-core/src/**': { lines: 92 },
        'packages/tools/src/**': { lines: 90 },
        'packages/server-stdio/src/**': { lines: 63 },
      },
    },
  },
});
