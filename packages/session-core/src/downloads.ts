// Where a session's downloads land: a folder per session under one output directory, with file names that cannot escape it.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A file a page downloaded, saved in the session's folder. */
export interface DownloadRecord {
  url: string;
  suggestedFilename: string;
  /** Absolute path of the saved file (inside the session's folder of the output directory). */
  path: string;
  bytes: number;
  /** Set when the download failed (then path is '' and bytes 0). */
  failure?: string;
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
 * and removed by `dispose`. Each session gets its own folder, named with a random part (never the sessionId, which is
 * a capability: anyone who can list the directory must not learn it).
 */
export class DownloadDirectory {
  private root: Promise<string> | undefined;
  private readonly given: string | undefined;

  constructor(outputDir?: string) {
    this.given = outputDir === undefined ? undefined : path.resolve(outputDir);
  }

  /** Makes and returns a new folder for one session. */
  async sessionFolder(label: string): Promise<string> {
    this.root ??=
      this.given === undefined
        ? mkdtemp(path.join(tmpdir(), 'sessionwright-downloads-'))
        : mkdir(this.given, { recursive: true }).then(() => this.given as string);
    const folder = path.join(await this.root, `session-${label.replace(/[^a-zA-Z0-9-]/g, '')}-${randomBytes(4).toString('hex')}`);
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
