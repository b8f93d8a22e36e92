// A video of every tab of a session (Playwright's page screencast): the video tool's recording, and recordVideo's from the session's creation.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { defined } from './fields.js';
import { bytesSoFar } from './downloads.js';
import { SessionError } from './errors.js';
import { MAX_FFMPEG_PER_SESSION, serverFfmpegSlots, type FfmpegSlots } from './recording-limits.js';
import { saveClosedScreencast } from './playwright-internals.js';

/** How the video is recorded; `cursor` draws a pointer travelling to each action point. */
export interface VideoSettings {
  size?: { width: number; height: number } | undefined;
  fps?: number | undefined;
  cursor?: boolean | undefined;
}

/** How long each action's cursor animation lasts: long enough for the pointer to be seen travelling. */
const CURSOR_MS = 800;

/**
 * One recording: the tab open at the start writes `file`, each tab opened later `file` with -1, -2… before its
 * extension, so a popup is in the video too. Stopping saves every file (a tab closed meanwhile saved its own).
 */
export class PageVideo {
  readonly files: string[] = [];
  /** Tabs left out because the session or the server already ran its most ffmpeg processes. */
  skipped = 0;
  private readonly recording = new Map<Page, string>();
  /** The files of tabs closed while recorded, being saved. */
  private readonly saving = new Set<Promise<unknown>>();
  private readonly onPage = (page: Page) => void this.add(page).catch(() => {});

  constructor(
    private readonly context: BrowserContext,
    private readonly file: string,
    private readonly settings: VideoSettings,
    private readonly slots: FfmpegSlots = serverFfmpegSlots,
  ) {}

  /** Starts recording the open tabs and every tab opened from now on. */
  async start(pages: readonly Page[]): Promise<void> {
    this.context.on('page', this.onPage);
    try {
      for (const page of pages) await this.add(page);
      if (this.recording.size === 0 && this.skipped > 0) {
        throw new SessionError(
          'INVALID_PARAMETERS',
          `This server already records ${this.slots.max} tabs' videos, the most it encodes at once; stop a video or try later.`,
          { details: { reason: 'video_limit', limit: this.slots.max } },
        );
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /**
   * The bytes of its files so far: those of tabs no longer recorded as saved, the others' as Playwright's encoder has
   * written them so far (0 where that cannot be known: a browser on another machine).
   */
  async sizes(): Promise<number> {
    let total = 0;
    const recording = new Set(this.recording.values());
    for (const file of this.files) if (!recording.has(file)) total += (await stat(file).catch(() => undefined))?.size ?? 0;
    for (const page of this.recording.keys()) total += (await bytesSoFar(page.screencast)) ?? 0;
    return total;
  }

  /** Stops every tab's recording; answers the files written, with their sizes (a tab that never painted writes none). */
  async stop(): Promise<{ path: string; bytes: number }[]> {
    this.context.off('page', this.onPage);
    const pages = [...this.recording.keys()];
    this.recording.clear();
    await Promise.all([...pages.map((page) => page.screencast.stop().catch(() => {})), ...this.saving]);
    for (const _page of pages) this.slots.give();
    const written = await Promise.all(
      this.files.map(async (file) => {
        const info = await stat(file).catch(() => undefined);
        return info === undefined ? undefined : { path: file, bytes: info.size };
      }),
    );
    return written.filter((record) => record !== undefined);
  }

  /** A recorded tab closed: its file is saved and its ffmpeg slot given back. */
  private closed(page: Page): void {
    const file = this.recording.get(page);
    if (file === undefined) return;
    this.recording.delete(page);
    this.slots.give();
    this.saving.add(saveClosedScreencast(page.screencast, file).catch(() => false));
  }

  private async add(page: Page): Promise<void> {
    if (this.recording.has(page) || page.isClosed()) return;
    // Each tab recorded is an ffmpeg process: at most MAX_FFMPEG_PER_SESSION a session, and the server's slots.
    if (this.recording.size >= MAX_FFMPEG_PER_SESSION || !this.slots.take()) {
      this.skipped += 1;
      return;
    }
    const index = this.files.length;
    const { name, ext } = path.parse(this.file);
    const file = index === 0 ? this.file : path.join(path.dirname(this.file), `${name}-${index}${ext}`);
    this.files.push(file);
    this.recording.set(page, file);
    const { cursor, ...options } = this.settings;
    try {
      await page.screencast.start({ path: file, ...defined(options) });
    } catch (error) {
      this.recording.delete(page);
      this.slots.give();
      throw error;
    }
    // The pointer alone, without the action's title: the video shows where each action happens.
    page.once('close', () => this.closed(page));
    if (cursor) await page.screencast.showActions({ cursor: 'pointer', duration: CURSOR_MS, style: { title: 'display: none' } });
  }
}
