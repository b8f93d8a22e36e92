// The server's own files (ToolOptions.serverFiles): whether a path a tool would read is one of them or lies inside one.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '@sessionwright/session-core/parts';

/** Whether `real` (a path with its symlinks resolved) is one of the server's own files or inside one of its folders. */
export function isServerFile(real: string, serverFiles: readonly string[] | undefined): boolean {
  return (serverFiles ?? []).some((given) => {
    const own = realOrResolved(given);
    return own === real || isInside(own, real);
  });
}

/** The path with every symlink resolved; as given (made absolute) when it does not exist. */
export function realOrResolved(given: string): string {
  try {
    return realpathSync(given);
  } catch {
    return path.resolve(given);
  }
}
