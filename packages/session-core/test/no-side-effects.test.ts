// Importing and using the built library, in a fresh Node process, changes nothing process-wide: the module loader and
// child_process.spawn stay as they were, nothing is written under the user's cache directory, no global is left behind.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Watches both for assignments (an accessor in place of each), then imports the package by its own name, launches a
 * browser, opens a session and loads a page in it (Playwright is loaded and spawns the browser on the way), and shuts down.
 */
const SCRIPT = `
import Module from 'node:module';
import childProcess from 'node:child_process';
const compile = Module.prototype._compile;
const spawn = childProcess.spawn;
const assigned = [];
Object.defineProperty(Module.prototype, '_compile', { configurable: true, get: () => compile, set: () => void assigned.push('Module.prototype._compile') });
Object.defineProperty(childProcess, 'spawn', { configurable: true, enumerable: true, get: () => spawn, set: () => void assigned.push('child_process.spawn') });
const globalsBefore = new Set(Reflect.ownKeys(globalThis));
const { BrowserHost, SessionManager } = await import('@sessionwright/session-core');
const manager = new SessionManager({ host: new BrowserHost({ headless: true }), warmSessions: 0 });
const session = await manager.create();
const title = await manager.run(session.id, async (page) => { await page.goto(process.argv[1]); return page.title(); });
await manager.shutdown();
const globalsAdded = Reflect.ownKeys(globalThis).filter((key) => !globalsBefore.has(key)).map(String);
console.log(JSON.stringify({ title, assigned, globalsAdded }));
`;

let fixture: FixtureServer;
let cacheHome: string;
beforeAll(async () => {
  if (!existsSync(path.join(packageDir, 'dist', 'index.js'))) {
    throw new Error('session-core is not built: run `pnpm --filter @sessionwright/session-core build` first');
  }
  fixture = await startFixtureServer({ pages: { plain: '<!doctype html><title>Plain page</title><p>hello</p>' } });
  cacheHome = mkdtempSync(path.join(tmpdir(), 'sessionwright-library-cache-'));
});
afterAll(async () => {
  await fixture.close();
  rmSync(cacheHome, { recursive: true, force: true });
});

function runScript(url: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '--eval', SCRIPT, url],
      { cwd: packageDir, timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: cacheHome } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr })),
    );
  });
}

describe('@sessionwright/session-core as a library', () => {
  it('leaves the module loader, child_process.spawn, the cache directory and the globals of the process that uses it alone', async () => {
    const { stdout } = await runScript(fixture.urlFor('/pages/plain'));
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { title: string; assigned: string[]; globalsAdded: string[] };
    // The session really ran: Playwright was loaded and a browser spawned while the watchers were in place.
    expect(report.title).toBe('Plain page');
    expect(report.assigned).toEqual([]);
    expect(report.globalsAdded.filter((key) => key.includes('sessionwright'))).toEqual([]);
    expect(readdirSync(cacheHome)).toEqual([]);
  }, 90_000);
});
