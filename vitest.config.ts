// One vitest run over every package's tests: real Chromium, real stdio servers, a fixture web server on 127.0.0.1.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: a few files at a time keeps browser-heavy tests from starving each other.
    maxWorkers: 3,
    coverage: {
      provider: 'v8',
      // The tools and the server run in spawned processes in most tests, where v8 coverage does not reach; session-core runs in-process.
      include: ['packages/session-core/src/**'],
      reporter: ['text-summary', 'text'],
    },
  },
});
