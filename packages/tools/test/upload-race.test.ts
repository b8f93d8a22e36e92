// upload_file's path check against a symlink swapped in a loop by another thread: no read ever lands outside the root.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSessionError } from '@sessionwright/session-core';
import { readAllowedFile } from '../src/tools/upload.js';

/**
 * Swaps `root/sub` between a real directory and a symlink to a directory outside the root, as fast as it can, until
 * told to stop: each swap is two renames, so the path is briefly missing too.
 */
const SWAPPER = `
const { renameSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { root, stop } = workerData;
const flag = new Int32Array(stop);
const at = (name) => root + '/' + name;
while (Atomics.load(flag, 0) === 0) {
  try {
    renameSync(at('sub'), at('sub-dir'));
    renameSync(at('sub-link'), at('sub'));
    renameSync(at('sub'), at('sub-link'));
    renameSync(at('sub-dir'), at('sub'));
  } catch {}
  Atomics.store(flag, 1, 1);
}
`;

describe('upload_file against a swapped symlink', () => {
  let dir: string;
  let root: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sw-upload-race-'));
    root = path.join(dir, 'root');
    await mkdir(path.join(root, 'sub'), { recursive: true });
    await writeFile(path.join(root, 'sub', 'file.txt'), 'inside');
    await mkdir(path.join(dir, 'secret'));
    await writeFile(path.join(dir, 'secret', 'file.txt'), 'SECRET outside the root');
    await symlink(path.join(dir, 'secret'), path.join(root, 'sub-link'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the file inside or refuses, 300 times, never the file outside', async () => {
    const stop = new SharedArrayBuffer(8);
    const flags = new Int32Array(stop);
    const worker = new Worker(SWAPPER, { eval: true, workerData: { root, stop } });
    const outcomes = { inside: 0, refused: 0, outside: 0 };
    try {
      // Reads start once the swapping has; at least 300, and on until both outcomes were seen (a slow thread start).
      await expect.poll(() => Atomics.load(flags, 1), { timeout: 10_000, interval: 5 }).toBe(1);
      for (let i = 0; i < 300 || ((outcomes.inside === 0 || outcomes.refused === 0) && i < 20_000); i += 1) {
        try {
          const file = await readAllowedFile('sub/file.txt', { directories: [root], source: 'file-root' });
          if (file.buffer.toString() === 'inside') outcomes.inside += 1;
          else outcomes.outside += 1;
        } catch (error) {
          if (!isSessionError(error) || error.code !== 'INVALID_PARAMETERS') throw error;
          outcomes.refused += 1;
        }
      }
    } finally {
      Atomics.store(flags, 0, 1);
      await worker.terminate();
    }
    expect(outcomes.outside, JSON.stringify(outcomes)).toBe(0);
    // The swap really happened under the reads: some found the directory, some did not.
    expect(outcomes.inside).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});
