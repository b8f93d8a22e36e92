// Files a tool writes for its caller (the playwright profile's filename arguments): only inside --output-dir, never outside it.
import { constants } from 'node:fs';
import { mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { SessionError, isInside } from '@sessionwright/session-core';
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

/**
 * Writes `content` to `target` (from outputPath): the folders on the way are made, then checked again where they
 * really lead, and the file is opened without following a link, so no symlink in the output directory leads outside it.
 */
export async function writeOutputFile(options: ToolOptions, target: string, content: string | Uint8Array): Promise<string> {
  const root = await realpath(path.resolve(options.outputDir ?? '.'));
  const folder = path.dirname(target);
  await mkdir(folder, { recursive: true });
  const realFolder = await realpath(folder);
  if (realFolder !== root && !isInside(root, realFolder)) {
    throw new SessionError('INVALID_PARAMETERS', `filename leads outside the output directory ${root} through a link; give a plain name such as "find.md".`, {
      details: { reason: 'outside the output directory', outputDir: root },
    });
  }
  const file = path.join(realFolder, path.basename(target));
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    throw new SessionError('INVALID_PARAMETERS', `Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Give another filename.`, {
      details: { reason: 'not writable' },
    });
  }
  try {
    await (typeof content === 'string' ? handle.writeFile(content, 'utf8') : handle.writeFile(content));
  } finally {
    await handle.close();
  }
  return file;
}
