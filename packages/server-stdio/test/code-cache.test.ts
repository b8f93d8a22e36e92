// The code cache for loading Playwright: modules behave exactly as under a plain require, the cache is written once to a
// private directory and used after, and anything unusual falls back to a plain load.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '@sessionwright/test-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWithCodeCache, writeCodeCaches } from '../src/startup/code-cache.js';

let root: string;
let previous: string | undefined;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sessionwright-code-cache-'));
  previous = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = path.join(root, 'cache');
});
afterEach(() => {
  if (previous === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = previous;
  rmSync(root, { recursive: true, force: true });
});

/** A small CommonJS package: a module that requires a sibling and reports what a module sees. */
function writePackage(name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'helper.js'), 'module.exports = { twice: (n) => 2 * n };\n');
  writeFileSync(
    path.join(dir, 'index.js'),
    "const { twice } = require('./helper.js');\nexports.value = twice(21);\nexports.dirname = __dirname;\nexports.filename = " +
      "__filename;\nexports.resolved = require.resolve('./helper.js');\n",
  );
  writeFileSync(path.join(dir, 'throws.js'), "globalThis.__codeCacheRuns = (globalThis.__codeCacheRuns ?? 0) + 1;\nthrow new Error('boom');\n");
  return dir;
}

const load = (file: string) => () => {
  const require = createRequire(import.meta.url);
  delete require.cache[file];
  delete require.cache[path.join(path.dirname(file), 'helper.js')];
  return require(file) as Record<string, unknown>;
};

describe('loadWithCodeCache', () => {
  it('loads modules as a plain require does, writes the cache to a private directory, and loads from it next time', async () => {
    const dir = writePackage('pkg');
    const index = path.join(dir, 'index.js');
    const first = loadWithCodeCache(load(index), (file) => file.startsWith(dir));
    expect(first).toEqual({ value: 42, dirname: dir, filename: index, resolved: path.join(dir, 'helper.js') });
    const cacheDir = path.join(root, 'cache', 'sessionwright', 'v8');
    // Written right after the load (and again a few seconds later).
    await waitFor(() => readdirSync(cacheDir).filter((name) => !name.endsWith('.tmp')).length === 2, { timeout: 10_000 });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const second = loadWithCodeCache(load(index), (file) => file.startsWith(dir));
    expect(second).toEqual(first);
  });

  it('writes, when asked, a cache that also holds the functions that ran after the load', () => {
    // A function compiled only when called: a cache written before the call lacks it, one written after holds it.
    const body = Array.from({ length: 200 }, (_, i) => `  total += ${i} * n;`).join('\n');
    const source = `exports.work = (n) => {\n  let total = 0;\n${body}\n  return total;\n};\n`;
    const cacheSize = (name: string, callFirst: boolean) => {
      process.env.XDG_CACHE_HOME = path.join(root, `cache-${name}`);
      const dir = path.join(root, name);
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, 'lazy.js');
      writeFileSync(file, source);
      const loaded = loadWithCodeCache(load(file), (filename) => filename === file) as { work: (n: number) => number };
      if (callFirst) expect(loaded.work(1)).toBe(19_900);
      writeCodeCaches();
      const cacheDir = path.join(root, `cache-${name}`, 'sessionwright', 'v8');
      const [entry] = readdirSync(cacheDir);
      return statSync(path.join(cacheDir, String(entry))).size;
    };
    expect(cacheSize('called', true)).toBeGreaterThan(cacheSize('not-called', false));
  });

  it('keeps the caches starts use and removes, when it writes a new one, those unused for a month', () => {
    const dir = writePackage('pruned');
    const index = path.join(dir, 'index.js');
    const cacheDir = path.join(root, 'cache', 'sessionwright', 'v8');
    loadWithCodeCache(load(index), (file) => file.startsWith(dir));
    writeCodeCaches();
    const used = readdirSync(cacheDir);
    expect(used).toHaveLength(2);
    // Both caches last used 40 days ago, and a stranger cache (an old version's) too.
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    const stale = path.join(cacheDir, 'an-old-version');
    writeFileSync(stale, 'old');
    for (const name of [...used, 'an-old-version']) utimesSync(path.join(cacheDir, name), longAgo, longAgo);
    // A start uses the two (which marks them), and then writes a cache for a new file, which prunes.
    loadWithCodeCache(load(index), (file) => file.startsWith(dir));
    const other = path.join(dir, 'other.js');
    writeFileSync(other, 'exports.other = 1;\n');
    loadWithCodeCache(load(other), (file) => file === other);
    writeCodeCaches();
    expect(readdirSync(cacheDir).sort()).toEqual(expect.arrayContaining(used));
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(cacheDir)).toHaveLength(3);
  });

  it('runs a module that throws once, and passes its error on', () => {
    const dir = writePackage('throwing');
    const before = (globalThis as { __codeCacheRuns?: number }).__codeCacheRuns ?? 0;
    expect(() => loadWithCodeCache(load(path.join(dir, 'throws.js')), (file) => file.startsWith(dir))).toThrow('boom');
    expect((globalThis as { __codeCacheRuns?: number }).__codeCacheRuns).toBe(before + 1);
  });

  it('falls back to a plain load when there is no private cache directory', () => {
    const dir = writePackage('plain');
    // The cache home is a file: no directory can be made there.
    writeFileSync(path.join(root, 'cache'), 'not a directory');
    expect(loadWithCodeCache(load(path.join(dir, 'index.js')), () => true).value).toBe(42);
  });
});
