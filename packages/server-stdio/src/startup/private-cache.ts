// Small files only this user can write, under ~/.cache/sessionwright: kept across starts, marked when used, pruned when not.
import { closeSync, fstatSync, futimesSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A directory only this user can write (~/.cache/sessionwright/<name>, or under $XDG_CACHE_HOME), or undefined. */
export function privateCacheDirectory(name: string): string | undefined {
  try {
    const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    const dir = path.join(base, 'sessionwright', name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    // What a cache holds runs as us (compiled code, a browser's command line): only a private directory of our own is used.
    if (typeof process.getuid === 'function' && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** A cache file's bytes, or undefined; a cache in use is marked as such (its time) about once a day, so pruning keeps it. */
export function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const data = readFileSync(fd);
    const now = new Date();
    if (now.getTime() - fstatSync(fd).mtimeMs > DAY_MS) futimesSync(fd, now, now);
    return data;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function writeCache(dir: string, file: string, data: Buffer): void {
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // A full disk or a read-only home: the next start does without it.
  }
  pruneCaches(dir);
}

/**
 * Every new version of a bundle (or command line) gets a new cache (a few MB for Playwright): those no start has used
 * for a month are removed when a new one is written, so the directory does not grow with each upgrade.
 */
function pruneCaches(dir: string): void {
  const cutoff = Date.now() - UNUSED_FOR_MS;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      const file = path.join(dir, name);
      if (statSync(file).mtimeMs < cutoff) unlinkSync(file);
    } catch {
      // Another process pruning at the same time, or a file going away: nothing to do.
    }
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
const UNUSED_FOR_MS = 30 * DAY_MS;
