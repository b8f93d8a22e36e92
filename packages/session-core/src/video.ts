// Video recording needs an ffmpeg where Playwright looks for its own; a system ffmpeg (Debian's package) is linked there when Playwright's is not installed.
import { constants, existsSync } from 'node:fs';
import { access, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { browserError, messageOf } from './errors.js';
import { registryFfmpegPath } from './playwright-internals.js';

/** The first `ffmpeg` on the PATH, if any. */
export function systemFfmpeg(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg';
  for (const directory of (env.PATH ?? '').split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

let ready: Promise<void> | undefined;

/**
 * Makes sure Playwright finds an ffmpeg before a session records video. Playwright's own download is used when it is
 * installed; otherwise a system ffmpeg is linked where Playwright looks for its own, as installing it would put it,
 * so Playwright runs it unchanged. Without either: BROWSER_ERROR `unsupported`, saying what to install.
 */
export function ensureFfmpeg(): Promise<void> {
  ready ??= linkFfmpeg().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

async function linkFfmpeg(): Promise<void> {
  const expected = registryFfmpegPath();
  if (expected === undefined) throw missing('Playwright records no video on this platform.');
  if (await executable(expected)) return;
  const system = systemFfmpeg();
  if (system === undefined) throw missing('No ffmpeg is installed.');
  try {
    await mkdir(path.dirname(expected), { recursive: true });
    await symlink(system, expected);
  } catch (error) {
    // Another session linked it at the same moment, which is as good.
    if (!(await executable(expected))) throw missing(`The system's ffmpeg (${system}) could not be linked where Playwright looks for it: ${messageOf(error)}.`);
  }
}

async function executable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function missing(why: string): Error {
  return browserError(
    'unsupported',
    `${why} Recording video needs ffmpeg: install Playwright's (npx playwright install ffmpeg) or the system's (Debian/Ubuntu: apt-get install ffmpeg), then create the session again.`,
    { details: { missing: 'ffmpeg' } },
  );
}
