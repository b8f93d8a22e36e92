// A V8 code cache for loading large CommonJS bundles (Playwright, the CLI): each is compiled once per machine, not at every start.
import { createHash } from 'node:crypto';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { privateCacheDirectory, readCache, writeCache } from './private-cache.js';

type Compile = (this: Module, content: string, filename: string) => unknown;

/**
 * Runs `load` (a require) with V8's code cache for the CommonJS files `include` picks: each is compiled from the bytes
 * V8 kept from an earlier start when they still match (V8 checks the source, its own version and its flags), and a
 * missing cache is written (see writeCodeCaches). Compiling is a large part of what loading a big bundle costs
 * (Playwright's, the CLI's own), all of it on the way to the first answer. Anything unusual (no private cache
 * directory, a read-only home) falls back to a plain load: the cache only ever saves time.
 */
export function loadWithCodeCache<T>(load: () => T, include: (filename: string) => boolean): T {
  const dir = privateCacheDirectory('v8');
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const original = prototype._compile;
  if (!dir || typeof original !== 'function') return load();
  const writes = pendingWrites();
  const pendingBefore = writes.length;
  prototype._compile = function compileWithCache(this: Module, content: string, filename: string) {
    if (!include(filename)) return original.call(this, content, filename);
    let script: vm.Script;
    const file = path.join(
      dir,
      createHash('sha256').update(`${FORMAT}\0${filename}\0${content.length}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 32),
    );
    try {
      const cachedData = readCache(file);
      script = new vm.Script(Module.wrap(content), {
        filename,
        ...(cachedData ? { cachedData } : {}),
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      if (!cachedData || script.cachedDataRejected) writes.push(() => writeCache(dir, file, script.createCachedData()));
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
    if (writes.length > pendingBefore) {
      // A first cache at once, for a process that does not live long; the fuller one later (writeCodeCaches).
      const due = writes.slice(pendingBefore);
      setImmediate(() => {
        for (const write of due) write();
      }).unref();
      setTimeout(writeCodeCaches, WRITE_AFTER_MS).unref();
    }
  }
}

/**
 * Writes the code caches that are due (a bundle loaded without one, or with one V8 rejected) again, each with every
 * function compiled so far. Written a few seconds after the load (WRITE_AFTER_MS), or by the program when it ends
 * sooner, a cache also holds what the program's first steps compiled (for the CLI: launching the browser, the first
 * session, the first navigation), which the next start then does not compile on its way to its first answer. A program that
 * changes V8's flags calls this first: V8 rejects a cache made under other flags, and would be sent back to compiling
 * at every start.
 */
export function writeCodeCaches(): void {
  for (const write of pendingWrites().splice(0)) write();
}

/** Bumped when what a cache holds changes, so that caches written the old way are not kept forever. */
const FORMAT = 'after-first-steps';
/** Long enough for a client's first calls after the handshake; short enough that most runs get to write the cache. */
const WRITE_AFTER_MS = 3_000;

/**
 * The writes waiting for writeCodeCaches, kept per process rather than per module: the CLI's entry and its bundle each
 * carry a copy of this module, and one call must write the caches of both.
 */
const PENDING = Symbol.for('sessionwright.codeCacheWrites');
function pendingWrites(): Array<() => void> {
  const registry = globalThis as { [PENDING]?: Array<() => void> };
  registry[PENDING] ??= [];
  return registry[PENDING];
}
