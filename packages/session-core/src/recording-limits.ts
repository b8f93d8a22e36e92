// What recordings may cost: video frame size and rate, ffmpeg processes per session and per server, and how big a trace being recorded is so far.
import { open, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionError } from './errors.js';

/** The largest video frame and rate the video tool records (a bigger one costs an ffmpeg hundreds of MB and a core). */
export const MAX_VIDEO = { width: 1_920, height: 1_080, fps: 30 } as const;

/** ffmpeg processes (one per tab recorded by the video tool) one session may run at once; later tabs are not recorded. */
export const MAX_FFMPEG_PER_SESSION = 4;

/** ffmpeg processes the video tool may run at once in this server, over all sessions. */
export const MAX_FFMPEG_PER_SERVER = 16;

/** INVALID_PARAMETERS for a frame size or rate past MAX_VIDEO; nothing for one within it. */
export function checkVideoSettings(settings: { size?: { width: number; height: number } | undefined; fps?: number | undefined }): void {
  const { size, fps } = settings;
  if (size !== undefined && (size.width > MAX_VIDEO.width || size.height > MAX_VIDEO.height)) {
    throw new SessionError('INVALID_PARAMETERS', `A video is at most ${MAX_VIDEO.width}×${MAX_VIDEO.height}; give a smaller size.`, {
      details: { reason: 'video_too_large', max: { width: MAX_VIDEO.width, height: MAX_VIDEO.height } },
    });
  }
  if (fps !== undefined && fps > MAX_VIDEO.fps) {
    throw new SessionError('INVALID_PARAMETERS', `A video has at most ${MAX_VIDEO.fps} frames a second; give a lower fps.`, {
      details: { reason: 'video_too_large', max: { fps: MAX_VIDEO.fps } },
    });
  }
}

/** The ffmpeg processes of this server's video recordings: taken per tab recorded, given back when it stops. */
export class FfmpegSlots {
  private used = 0;

  constructor(readonly max: number = MAX_FFMPEG_PER_SERVER) {}

  /** Takes a slot; false when every one is taken. */
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used += 1;
    return true;
  }

  give(): void {
    this.used = Math.max(0, this.used - 1);
  }

  get inUse(): number {
    return this.used;
  }
}

/** The one set of slots every session of this process shares. */
export const serverFfmpegSlots = new FfmpegSlots();

/**
 * How many bytes a trace being recorded holds so far: its event and network files, and the resources they name
 * (response bodies, screenshots), which Playwright keeps in its artifacts folder (`name` is the trace's name given
 * to tracing.start). Read from where the last look ended; undefined while the files cannot be found (a browser on
 * another machine), where only the written trace is counted.
 */
export class TraceSize {
  private folder: string | undefined;
  private searched = false;
  private readonly offsets = new Map<string, number>();
  private readonly resources = new Set<string>();
  private resourceBytes = 0;
  private pending = '';

  constructor(private readonly name: string) {}

  async bytes(): Promise<number | undefined> {
    if (this.folder === undefined && !this.searched) {
      this.searched = true;
      this.folder = await findArtifacts(this.name);
    }
    if (this.folder === undefined) return undefined;
    let total = 0;
    for (const file of [`${this.name}.trace`, `${this.name}.network`]) {
      const full = path.join(this.folder, file);
      const size = (await stat(full).catch(() => undefined))?.size ?? 0;
      total += size;
      await this.readNew(full, size);
    }
    return total + this.resourceBytes;
  }

  /** Reads what was appended to `file` since the last look, adding the size of each resource it names for the first time. */
  private async readNew(file: string, size: number): Promise<void> {
    const from = this.offsets.get(file) ?? 0;
    if (size <= from) return;
    const handle = await open(file, 'r').catch(() => undefined);
    if (!handle) return;
    try {
      const length = Math.min(size - from, 8 * 1024 * 1024);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, from);
      this.offsets.set(file, from + bytesRead);
      // The last characters of the previous read go before this one, so a name cut in two is still found.
      const text = this.pending + buffer.subarray(0, bytesRead).toString('latin1');
      this.pending = text.slice(-80);
      // A response body is `"_file":"resources/<sha1>.<ext>"`, a screenshot `"sha1":"<sha1>.jpeg"`.
      for (const match of text.matchAll(/(?:sha1":"|_file":"resources\/)([0-9a-f]{40}[.\w-]*)"/g)) {
        const resource = match[1] as string;
        if (this.resources.has(resource)) continue;
        this.resources.add(resource);
        this.resourceBytes += (await stat(path.join(this.folder as string, 'resources', resource)).catch(() => undefined))?.size ?? 0;
      }
    } finally {
      await handle.close();
    }
  }
}

/** The artifacts folder of a browser launched here that holds `<name>.trace` (Playwright's playwright-artifacts-* in the temporary folder). */
async function findArtifacts(name: string): Promise<string | undefined> {
  const root = tmpdir();
  const entries = await readdir(root).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith('playwright-artifacts-')) continue;
    const folder = path.join(root, entry);
    if (await stat(path.join(folder, `${name}.trace`)).catch(() => undefined)) return folder;
  }
  return undefined;
}

/** INVALID_PARAMETERS (reason `video_limit`) for a session to record video when none of the server's ffmpeg slots is free. */
export function checkVideoSlot(): void {
  if (serverFfmpegSlots.inUse < serverFfmpegSlots.max) return;
  throw new SessionError(
    'INVALID_PARAMETERS',
    `This server already records ${serverFfmpegSlots.max} videos, the most it encodes at once; create the session without recordVideo, or later.`,
    {
      details: { reason: 'video_limit', limit: serverFfmpegSlots.max },
    },
  );
}
