// Files a tool writes for its caller (a filename argument): only inside --output-dir, never outside it.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { SessionError } from '@sessionwright/session-core';
import { folderBytes, isInside } from '@sessionwright/session-core/parts';
import type { ToolOptions } from './define-tool.js';

/**
 * Where `filename` lands: resolved against the output directory, which it must stay inside (no `..` or absolute path
 * out of it). Checked before the call touches its session, so a bad name costs nothing.
 */
export function outputPath(options: ToolOptions, filename: string): string {
  if (options.outputDir === undefined) {
    throw new SessionError('INVALID_PARAMETERS', 'This server has no --output-dir to write files to: leave out filename to get the result in the answer.', {
      details: { reason: 'no output directory' },
    });
  }
  const root = path.resolve(options.outputDir);
  const target = path.resolve(root, filename);
  if (!isInside(root, target)) {
    throw new SessionError('INVALID_PARAMETERS', `filename must name a file inside the output directory ${root}; give a name such as "find.md".`, {
      details: { reason: 'outside the output directory', outputDir: root },
    });
  }
  return target;
}

/** What counts a file against its session's limits (Session.countFile); undefined where no session is known. */
interface FileCounter {
  countFile(bytes: number): void;
}

/**
 * Writes `content` to `target` (from outputPath) for `session`, whose limits count it: text with its secrets and URL
 * parameters hidden, as a result hides them. The folders on the way are made, then checked again where they really
 * lead, and the file is opened without following a link, so no symlink in the output directory leads outside it.
 */
export async function writeOutputFile(options: ToolOptions, target: string, given: string | Uint8Array, session: FileCounter | undefined): Promise<string> {
  const content = typeof given === 'string' && options.redact ? options.redact(given) : given;
  const file = await checkedOutputFile(options, target);
  const bytes = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  if (options.outputMaxSize !== undefined && (await folderBytes(path.resolve(options.outputDir ?? '.'))) + bytes > options.outputMaxSize) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      `This file (${bytes} bytes) would pass ${options.outputMaxSize} bytes, the most this client's folder of the output directory may hold (--output-max-size).`,
      { details: { reason: 'output_full', limit: options.outputMaxSize } },
    );
  }
  session?.countFile(bytes);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    throw new SessionError('INVALID_PARAMETERS', `Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Give another filename.`, {
      details: { reason: 'not writable' },
    });
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  return file;
}

/**
 * `target` (from outputPath) with its folders made and checked where they really lead, for a file written by someone
 * else (Playwright writes a video): no symlink in the output directory, nor one in the file's place, leads it outside.
 * The nearest folder on the way that exists is checked before any is made, so a refused name creates nothing.
 */
export async function checkedOutputFile(options: ToolOptions, target: string): Promise<string> {
  const given = path.resolve(options.outputDir ?? '.');
  // The caller's own folder of the output directory is made on its first file.
  await mkdir(given, { recursive: true });
  const root = await realpath(given);
  const outside = () =>
    new SessionError('INVALID_PARAMETERS', `filename leads outside the output directory ${given} through a link; give a plain name such as "find.md".`, {
      details: { reason: 'outside the output directory', outputDir: given },
    });
  const folder = path.dirname(target);
  let existing = folder;
  while (!(await lstat(existing).catch(() => undefined)) && existing !== path.dirname(existing)) existing = path.dirname(existing);
  const realExisting = await realpath(existing).catch(() => undefined);
  if (realExisting === undefined || (realExisting !== root && !isInside(root, realExisting))) throw outside();
  await mkdir(folder, { recursive: true });
  const realFolder = await realpath(folder);
  if (realFolder !== root && !isInside(root, realFolder)) throw outside();
  const file = path.join(realFolder, path.basename(target));
  if ((await lstat(file).catch(() => undefined))?.isSymbolicLink()) {
    throw new SessionError('INVALID_PARAMETERS', `${path.relative(given, target)} is a link; give another filename.`, {
      details: { reason: 'outside the output directory', outputDir: given },
    });
  }
  return file;
}

/** A default file name: `<stem>-<time>-<random>.<extension>`, which no one can guess from the time alone. */
export function defaultFileName(stem: string, extension: string): string {
  return `${stem}-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.${extension}`;
}
