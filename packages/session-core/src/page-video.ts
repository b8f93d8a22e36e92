// A video of every tab of a session, started and stopped on demand (Playwright's page screencast), beside the whole-session video of recordVideo.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { defined } from './fields.js';

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
  private readonly recording = new Map<Page, string>();
  private readonly onPage = (page: Page) => void this.add(page).catch(() => {});

  constructor(
    private readonly context: BrowserContext,
    private readonly file: string,
    private readonly settings: VideoSettings,
  ) {}

  /** Starts recording the open tabs and every tab opened from now on. */
  async start(pages: readonly Page[]): Promise<void> {
    this.context.on('page', this.onPage);
    try {
      for (const page of pages) await this.add(page);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Stops every tab's recording; answers the files written, with their sizes (a tab that never painted writes none). */
  async stop(): Promise<{ path: string; bytes: number }[]> {
    this.context.off('page', this.onPage);
    const pages = [...this.recording.keys()];
    this.recording.clear();
    await Promise.all(pages.map((page) => page.screencast.stop().catch(() => {})));
    const written = await Promise.all(
      this.files.map(async (file) => {
        const info = await stat(file).catch(() => undefined);
        return info === undefined ? undefined : { path: file, bytes: info.size };
      }),
    );
    return written.filter((record) => record !== undefined);
  }

  private async add(page: Page): Promise<void> {
    if (this.recording.has(page) || page.isClosed()) return;
    const index = this.files.length;
    const { name, ext } = path.parse(this.file);
    const file = index === 0 ? this.file : path.join(path.dirname(this.file), `${name}-${index}${ext}`);
    this.files.push(file);
    this.recording.set(page, file);
    const { cursor, ...options } = this.settings;
    await page.screencast.start({ path: file, ...defined(options) });
    // The pointer alone, without the action's title: the video shows where each action happens.
    if (cursor) await page.screencast.showActions({ cursor: 'pointer', duration: CURSOR_MS, style: { title: 'display: none' } });
  }
}
