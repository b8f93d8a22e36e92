// A video of every tab of a session (Playwright's page screencast): the video tool's recording, and recordVideo's from the session's creation.
import { mkdtemp, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { defined } from './fields.js';
import { bytesSoFar, moveFile } from './downloads.js';
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

/** A video file placed where it was asked for: `cut` when its end was left out to stay within the bytes it had. */
export interface PlacedVideo {
  path: string;
  bytes: number;
  cut?: true;
}

/**
 * One recording: the tab open at the start writes `file`, each tab opened later `file` with -1, -2… before its
 * extension, so a popup is in the video too. Each tab's video is saved in a folder of its own outside the session's
 * (`staging`), and stopping moves every one where it belongs within the bytes the session may still write.
 */
export class PageVideo {
  /** Where each tab's video goes, in the order the tabs were recorded. */
  readonly files: string[] = [];
  /** Tabs left out because the session or the server already ran its most ffmpeg processes. */
  skipped = 0;
  /** Each tab's file as it is saved, outside the session's folder until stop() places it. */
  private readonly staged = new Map<string, string>();
  private staging: string | undefined;
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
    this.staging = await mkdtemp(path.join(tmpdir(), 'sessionwright-video-'));
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
      await this.stop(0);
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
    for (const file of this.staged.values()) if (!recording.has(file)) total += (await stat(file).catch(() => undefined))?.size ?? 0;
    for (const page of this.recording.keys()) total += (await bytesSoFar(page.screencast)) ?? 0;
    return total;
  }

  /**
   * Stops every tab's recording and places its file, in the order the tabs were recorded, within `room` bytes: a file
   * that does not fit whole is cut to what is left (a WebM plays as far as it got), and one with no room left is not
   * placed. Answers the files placed, with their sizes (a tab that never painted writes none).
   */
  async stop(room = Number.POSITIVE_INFINITY): Promise<PlacedVideo[]> {
    this.context.off('page', this.onPage);
    const pages = [...this.recording.keys()];
    this.recording.clear();
    await Promise.all([...pages.map((page) => page.screencast.stop().catch(() => {})), ...this.saving]);
    for (const _page of pages) this.slots.give();
    const placed: PlacedVideo[] = [];
    let left = room;
    try {
      for (const file of this.files) {
        const staged = this.staged.get(file) as string;
        const size = (await stat(staged).catch(() => undefined))?.size;
        if (size === undefined || left <= 0) continue;
        const cut = size > left;
        if (cut) await truncate(staged, left);
        await moveFile(staged, file);
        const bytes = Math.min(size, left);
        left -= bytes;
        placed.push({ path: file, bytes, ...(cut ? { cut: true as const } : {}) });
      }
    } finally {
      if (this.staging) await rm(this.staging, { recursive: true, force: true }).catch(() => {});
    }
    return placed;
  }

  /** A recorded tab closed: its file is saved and its ffmpeg slot given back. */
  private closed(page: Page): void {
    const staged = this.recording.get(page);
    if (staged === undefined) return;
    this.recording.delete(page);
    this.slots.give();
    this.saving.add(saveClosedScreencast(page.screencast, staged).catch(() => false));
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
    const staged = path.join(this.staging as string, `${index}${ext}`);
    this.files.push(file);
    this.staged.set(file, staged);
    this.recording.set(page, staged);
    const { cursor, ...options } = this.settings;
    try {
      await page.screencast.start({ path: staged, ...defined(options) });
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
