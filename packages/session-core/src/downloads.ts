// Where a session's downloads land: a folder per session under one output directory, with file names that cannot escape it, within per-session limits.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { downloadFile } from './playwright-internals.js';

/** A file a page downloaded, saved in the session's folder. */
export interface DownloadRecord {
  url: string;
  suggestedFilename: string;
  /** saved; failed (the browser or the disk failed); cancelled (it passed one of the session's download limits). */
  state: 'saved' | 'failed' | 'cancelled';
  /** Absolute path of the saved file (inside the session's folder of the output directory); '' unless saved. */
  path: string;
  /** Its size; 0 unless saved. */
  bytes: number;
  /** Why it failed or was cancelled. */
  failure?: string;
}

/** How much one session may download (docs/agent-tools.md). */
export interface DownloadLimits {
  /** Bytes over the session's life, files in progress included (`--max-download-bytes`). */
  maxBytes: number;
  /** Files over the session's life (`--max-downloads`). */
  maxCount: number;
  /** Keep a session's files when it ends (`--keep-downloads`); otherwise its folder goes with it. */
  keep: boolean;
  /**
   * Bytes the folder holding the session's folder (its identity's) may hold (`--output-max-size`): a file started once it
   * is full is refused or cancelled. Undefined: no bound but the session's own.
   */
  maxFolderBytes?: number | undefined;
}

/** What one session may download unless SessionManagerOptions.downloads says otherwise: 1 GiB, 100 files, removed with the session. */
export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { maxBytes: 1024 ** 3, maxCount: 100, keep: false };

/** How often the size of downloads in progress is checked against the byte limit, in ms. */
export const DOWNLOAD_CHECK_MS = 200;

/**
 * How many bytes of a download in progress are on disk now, or undefined where that cannot be known. Chromium writes
 * a download to `<file>.crdownload` until it completes; the file is Playwright's artifact, whose local path is in the
 * client object's initializer (a private field: for a browser reached over the network it names a file on that
 * machine, which then does not exist here, and only the finished size is checked).
 */
export async function bytesSoFar(download: object): Promise<number | undefined> {
  const file = downloadFile(download);
  if (file === undefined) return undefined;
  for (const candidate of [`${file}.crdownload`, file]) {
    const info = await stat(candidate).catch(() => undefined);
    if (info) return info.size;
  }
  return undefined;
}

const MAX_NAME = 120;

/**
 * A file name safe on every file system: no directory parts, no control or reserved characters, no leading dots,
 * not empty, at most 120 characters with the extension kept.
 */
export function safeFileName(suggested: string): string {
  const base = suggested.split(/[\\/]/).pop() ?? '';
  let name = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed.
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)) name = `_${name}`;
  if (name === '') name = 'download';
  if (name.length > MAX_NAME) {
    const extension = path.extname(name).slice(0, 20);
    name = `${name.slice(0, MAX_NAME - extension.length)}${extension}`;
  }
  return name;
}

/**
 * The output directory shared by all sessions: the one given (`--output-dir`), or a temporary folder made on first use
 * and removed by `dispose`. Each session gets its own folder with a random name: never the sessionId, nor a part of
 * it, which is a capability: anyone who can list the directory, or a page shown a file's path, must not learn it.
 */
export class DownloadDirectory {
  private root: Promise<string> | undefined;
  private readonly given: string | undefined;

  constructor(outputDir?: string) {
    this.given = outputDir === undefined ? undefined : path.resolve(outputDir);
  }

  /**
   * Makes and returns a new folder for one session, inside `owned` (the identity's folder, a single plain name; '' for the
   * output directory itself).
   */
  async sessionFolder(owned = ''): Promise<string> {
    if (owned !== '' && (owned !== path.basename(owned) || owned.startsWith('.'))) throw new RangeError('an identity folder is one plain name');
    this.root ??=
      this.given === undefined
        ? mkdtemp(path.join(tmpdir(), 'sessionwright-downloads-'))
        : mkdir(this.given, { recursive: true }).then(() => this.given as string);
    const folder = path.join(await this.root, owned, `session-${randomBytes(8).toString('hex')}`);
    await mkdir(folder, { recursive: true });
    return folder;
  }

  /** Removes the temporary folder (never a directory the user gave). */
  async dispose(): Promise<void> {
    if (this.given !== undefined || this.root === undefined) return;
    const root = await this.root.catch(() => undefined);
    if (root !== undefined) await rm(root, { recursive: true, force: true }).catch(() => {});
  }
}

/** How many files a folder walk looks at, at most: a folder of more counts as full. */
const MAX_WALK = 100_000;

/** The bytes of every file under `folder` (links not followed); Infinity past MAX_WALK entries, 0 for a folder not there. */
export async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  let seen = 0;
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      seen += 1;
      if (seen > MAX_WALK) return Number.POSITIVE_INFINITY;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) total += (await stat(full).catch(() => undefined))?.size ?? 0;
    }
  }
  return total;
}

/** `name`, or `name (1).ext`, `name (2).ext`, … : the first that `taken` does not hold. */
export function uniqueName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  const extension = path.extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 1; ; n += 1) {
    const candidate = `${stem} (${n})${extension}`;
    if (!taken(candidate)) return candidate;
  }
}

/** Whether `target` lies strictly inside `folder` (both absolute). */
export function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Renames `from` to `to`, copying where they are on different file systems. */
export async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
