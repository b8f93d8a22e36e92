// A V8 code cache for loading large CommonJS bundles (Playwright, the CLI): each is compiled once per machine, not at every start.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

type Compile = (this: Module, content: string, filename: string) => unknown;

/**
 * Runs `load` (a require) with V8's code cache for the CommonJS files `include` picks: each is compiled from the bytes
 * V8 kept from an earlier start when they still match (V8 checks the source, its own version and its flags), and the
 * cache is written after the first start. Compiling is a large part of what loading a big bundle costs (Playwright's,
 * the CLI's own), all of it on the way to the first answer. Anything unusual (no private cache directory, a read-only
 * home) falls back to a plain load: the cache only ever saves time.
 */
export function loadWithCodeCache<T>(load: () => T, include: (filename: string) => boolean): T {
  const dir = cacheDirectory();
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const original = prototype._compile;
  if (!dir || typeof original !== 'function') return load();
  const writes: Array<() => void> = [];
  prototype._compile = function compileWithCache(this: Module, content: string, filename: string) {
    if (!include(filename)) return original.call(this, content, filename);
    let script: vm.Script;
    const file = path.join(dir, createHash('sha256').update(`${filename}\0${content.length}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 32));
    try {
      const cachedData = readCache(file);
      script = new vm.Script(Module.wrap(content), {
        filename,
        ...(cachedData ? { cachedData } : {}),
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      if (!cachedData || script.cachedDataRejected) writes.push(() => writeCache(file, script.createCachedData()));
    } catch {
      return original.call(this, content, filename);
    }
    // From here on the module runs: an error it throws is its own, and it must not run twice.
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, path.dirname(filename));
  };
  try {
    return load();
  } finally {
    prototype._compile = original;
    // Written once the modules ran (the functions they compiled on the way are in it too), and before anything can
    // change V8's flags: V8 rejects a cache made under other flags, and the CLI sizes its heap once the browser is up.
    if (writes.length) {
      setImmediate(() => {
        for (const write of writes) write();
      }).unref();
    }
  }
}

/** A directory only this user can write (~/.cache/sessionwright/v8 or under $XDG_CACHE_HOME), or undefined. */
function cacheDirectory(): string | undefined {
  try {
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    const dir = path.join(base, 'sessionwright', 'v8');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    // Code from a cache someone else could write would run as us: only a private directory of our own is used.
    if (typeof process.getuid === 'function' && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(file: string, data: Buffer): void {
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A full disk or a read-only home: the next start compiles again.
  }
}
