// The command's code caches (its own bundle and Playwright's) are written on the first start and used, not rejected and
// rewritten, on the next: V8 rejects a cache made under other flags, and the CLI changes a flag once the browser is up.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, expectSuccess, sleep, startCli } from './helpers.js';

const home = mkdtempSync(path.join(tmpdir(), 'sessionwright-cli-cache-'));
const cacheDir = path.join(home, 'sessionwright', 'v8');
afterAll(() => rmSync(home, { recursive: true, force: true }));

/**
 * Starts the CLI with the test's cache home, opens a session (the browser launches), and stays up past the moment the
 * caches are written and the heap flag is set: a timer of the server's, 3 s after the launch, with no outward sign to
 * wait for, so the run lasts that long and a margin.
 */
async function startOnce(): Promise<void> {
  const connection = await startCli([], { env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: home } });
  try {
    expectSuccess(await call(connection.client, 'create_session'));
    await sleep(4_500);
  } finally {
    await connection.close();
  }
}

const cacheFiles = () =>
  new Map(
    readdirSync(cacheDir)
      .filter((name) => !name.endsWith('.tmp'))
      .map((name) => [name, statSync(path.join(cacheDir, name)).mtimeMs]),
  );

describe('the code caches of the command', () => {
  it('are written again, with what the run compiled, by a run that ends before their delay', async ({ skip }) => {
    const shortHome = mkdtempSync(path.join(tmpdir(), 'sessionwright-cli-cache-short-'));
    const dir = path.join(shortHome, 'sessionwright', 'v8');
    const written = () =>
      new Map(
        readdirSync(dir)
          .filter((name) => !name.endsWith('.tmp'))
          .map((name) => [name, statSync(path.join(dir, name)).mtimeMs]),
      );
    try {
      const spawned = performance.now();
      const connection = await startCli([], { env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: shortHome } });
      let first: Map<string, number>;
      let startedLate: boolean;
      try {
        // The command's bundle was loaded before it answered initialize, and its first cache written right after.
        first = written();
        // Its fuller cache is due 3 s after that load: a start slower than ~2.5 s (a loaded machine) may already have
        // written it, and then has nothing left to write at exit.
        startedLate = performance.now() - spawned > 2_500;
        expectSuccess(await call(connection.client, 'create_session'));
      } finally {
        await connection.close();
      }
      if (startedLate) return skip('the command took longer to start than the delay of its caches');
      expect(first.size).toBeGreaterThanOrEqual(1);
      // Each is written again, at exit (or, where the session took longer than the delay, when the delay ran out).
      const after = written();
      for (const [name, mtime] of first) expect(after.get(name), name).toBeGreaterThan(mtime);
    } finally {
      rmSync(shortHome, { recursive: true, force: true });
    }
  }, 60_000);

  it('are written by the first start and used as they are by the next one', async () => {
    await startOnce();
    const first = cacheFiles();
    // The CLI's bundle and Playwright's files at least.
    expect(first.size).toBeGreaterThanOrEqual(2);
    await startOnce();
    // A rejected cache would have been written again.
    expect(cacheFiles()).toEqual(first);
  }, 60_000);
});
