// The one door to Playwright's internals: everything sessionwright reads that Playwright does not export or type.
//
// A Playwright object used in the process that runs Playwright (launch, connectOverCDP) forwards each call to its
// server-side twin through two event-loop turns, a stack capture and protocol validation. The in-process connection
// keeps the link to that twin (`toImpl`). The fast paths (the title read, the page snapshot) call the twin directly;
// where there is none (a Playwright server reached over the wire) or it does not look as expected (a version that
// moved things), they take the public API. Beside it: a download's local file, the context's action recorder and
// Playwright's registry (where it expects ffmpeg). docs/decisions.md lists every internal used, and
// test/playwright-internals.test.ts fails if the pinned Playwright stops offering one.
import { createRequire } from 'node:module';
import type { BrowserContext } from 'playwright';

/** The object's server-side twin, or undefined where it cannot be reached; callers check its shape before use. */
export function serverSide(object: object): unknown {
  try {
    const connection = (object as { _connection?: { toImpl?: (object: unknown) => unknown } })._connection;
    return connection?.toImpl?.(object);
  } catch {
    return undefined;
  }
}

/**
 * The local file a download is being written to (Chromium's `.crdownload` beside it while it grows): the client
 * object's record of its artifact. Undefined where the record is missing or not a path (a version that moved it).
 */
export function downloadFile(download: object): string | undefined {
  const file = (download as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath;
  return typeof file === 'string' ? file : undefined;
}

/**
 * Saves the video of a tab that closed while its screencast recorded it to `file` (`screencast.stop()`, which saves it,
 * fails on a closed page): the client object's record of its artifact, which outlives the page. False where the
 * record is missing (a version that moved it).
 */
export async function saveClosedScreencast(screencast: object, file: string): Promise<boolean> {
  const artifact = (screencast as { _artifact?: { saveAs?: unknown } })._artifact;
  if (typeof artifact?.saveAs !== 'function') return false;
  await (artifact.saveAs as (path: string) => Promise<void>).call(artifact, file);
  return true;
}

/** What the context's recorder reports: each action as a line of code, updated in place while it goes on (typing). */
interface RecorderSink {
  actionAdded(page: unknown, action: unknown, code: string): void;
  actionUpdated(page: unknown, action: unknown, code: string): void;
  signalAdded(page: unknown, signal: unknown, code: string): void;
}

/** The context's recorder, which Playwright's client offers without typing it (@playwright/mcp records with it too). */
interface RecordingContext {
  _startRecording?(params: { language: string }, sink: RecorderSink): Promise<void>;
  _stopRecording?(): Promise<void>;
}

/** The context's action recorder (Playwright's codegen, without its window), or undefined where the client has none. */
export function actionRecorder(context: BrowserContext): { start(language: string, sink: RecorderSink): Promise<void>; stop(): Promise<void> } | undefined {
  const recording = context as unknown as RecordingContext;
  if (typeof recording._startRecording !== 'function') return undefined;
  return {
    start: (language, sink) => recording._startRecording?.call(recording, { language }, sink) ?? Promise.resolve(),
    stop: () => recording._stopRecording?.call(recording) ?? Promise.resolve(),
  };
}

/** Playwright's registry, as its bundle exports it: where each of its downloads (ffmpeg among them) is expected. */
interface Registry {
  findExecutable(name: 'ffmpeg'): { executablePath(): string | undefined } | undefined;
}

/**
 * Where Playwright runs ffmpeg from to encode a tab's video (its own download, `npx playwright install ffmpeg`);
 * undefined where its registry cannot be read (a version that moved it) or names none.
 */
export function registryFfmpegPath(): string | undefined {
  try {
    const require = createRequire(createRequire(import.meta.url).resolve('playwright'));
    const bundle = require('playwright-core/lib/coreBundle') as { registry?: { registry?: Registry } };
    return bundle.registry?.registry?.findExecutable('ffmpeg')?.executablePath();
  } catch {
    return undefined;
  }
}
