// A session's files: its folder, the bytes and number of files it may write (downloads, traces, videos, saved files), and the downloads its pages start.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Page } from 'playwright';
import { orAfter, type TimerHandle, type Timers } from './clock.js';
import {
  DEFAULT_DOWNLOAD_LIMITS,
  DOWNLOAD_CHECK_MS,
  bytesSoFar,
  folderBytes,
  isInside,
  moveFile,
  safeFileName,
  uniqueName,
  type DownloadLimits,
  type DownloadRecord,
} from './downloads.js';
import { SessionError, browserError, messageOf } from './errors.js';

/** The recordings under way when the files are checked: the bytes they wrote so far, and how to stop them where they are. */
export interface RecordingsInProgress {
  bytes: number;
  /** Stops each recording measured, keeping what it wrote; `why` goes in its answer. */
  cut(why: string): Promise<void>;
}

interface SessionDownloadsInit {
  /** Makes the session's one folder, on first use; without it downloads fail and no trace can be saved. */
  folder?: (() => Promise<string>) | undefined;
  limits?: DownloadLimits | undefined;
  timers: Timers;
  /** Counts a download against the session's runaway bound: false when it is to be refused. */
  count: (download: Download) => boolean;
  /** Lists a download in the next call's result. */
  report: (record: DownloadRecord) => void;
  /** The recordings under way, measured (undefined when none runs). */
  recordings: () => Promise<RecordingsInProgress | undefined>;
  /** True while a trace or a video is being recorded. */
  recording: () => boolean;
}

/**
 * Every file the session writes counts here: the files started against maxCount, the bytes written (those still
 * arriving included, checked every DOWNLOAD_CHECK_MS while any file is being written) against maxBytes, and the identity's
 * folder against maxFolderBytes.
 */
export class SessionDownloads {
  readonly limits: DownloadLimits;
  private readonly makeFolder: (() => Promise<string>) | undefined;
  private readonly timers: Timers;
  private readonly init: SessionDownloadsInit;
  /** The session's folder, once made. */
  private made: Promise<string> | undefined;
  private readonly saving = new Set<Promise<void>>();
  private readonly names = new Set<string>();
  /** Files started (each counts against maxCount) and bytes of those written (against maxBytes). */
  private started = 0;
  private writtenBytes = 0;
  /** Bytes held for a trace or video being placed (withinRoom). */
  private reservedBytes = 0;
  /** Downloads in progress, with the bytes each had on disk at the last check. */
  private readonly downloading = new Map<Download, number>();
  /** Why a download was cancelled, for its record. */
  private readonly cancelled = new WeakMap<Download, string>();
  private timer: TimerHandle | undefined;
  private checking = false;

  constructor(init: SessionDownloadsInit) {
    this.init = init;
    this.limits = init.limits ?? DEFAULT_DOWNLOAD_LIMITS;
    this.makeFolder = init.folder;
    this.timers = init.timers;
  }

  /** Saves each download `page` starts (see save). */
  watch(page: Page): void {
    page.on('download', (download) => this.save(download));
  }

  /** Waits (at most `timeout` ms) for downloads still being saved, so the result of the call that started them lists them. */
  async settle(timeout = 30_000): Promise<void> {
    if (this.saving.size === 0) return;
    await orAfter(Promise.allSettled([...this.saving]), timeout, undefined, this.timers);
  }

  /**
   * Removes the session's folder (downloads, traces, videos), unless its files are to be kept; for a session that has
   * ended. Answers the folder removed.
   */
  async remove(): Promise<string | undefined> {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    // The handle stays: an ended session's files are not checked again.
    this.timer ??= 'stopped';
    if (this.limits.keep || this.made === undefined) return undefined;
    const folder = await this.made.catch(() => undefined);
    if (folder === undefined) return undefined;
    await rm(folder, { recursive: true, force: true }).catch(() => {});
    return folder;
  }

  /** True when the session has a folder to write files to. */
  get hasFolder(): boolean {
    return this.makeFolder !== undefined;
  }

  /** The session's folder of the output directory, made on first use. */
  folder(): Promise<string> {
    if (!this.makeFolder) return Promise.reject(browserError('unsupported', 'This session has no folder to write files to.'));
    this.made ??= this.makeFolder();
    return this.made;
  }

  /**
   * Counts a file the session's caller has the session write by name (a filename output) of `bytes` against the
   * session's limits, before it is written: the bytes and the number of every file it wrote (downloads, traces,
   * videos, filename outputs) and of those being written. INVALID_PARAMETERS (details.reason `file_limit`) past them.
   */
  countFile(bytes: number): void {
    const { maxBytes } = this.limits;
    if (this.writtenBytes + this.reservedBytes + bytes > maxBytes) {
      throw new SessionError(
        'INVALID_PARAMETERS',
        `This file (${bytes} bytes) would pass the session's limit of ${maxBytes} bytes of files (downloads, traces, videos and saved files together).`,
        { details: { reason: 'file_limit', limit: maxBytes, written: this.writtenBytes } },
      );
    }
    this.claim('file');
    this.writtenBytes += bytes;
  }

  /** Counts one more file against maxCount; INVALID_PARAMETERS (details.reason `file_limit`) past it. */
  claim(what: 'trace' | 'video' | 'file'): void {
    const { maxCount, maxBytes } = this.limits;
    if (this.started >= maxCount) {
      throw new SessionError('INVALID_PARAMETERS', `The session already wrote ${maxCount} files, the most it may; no ${what} is written.`, {
        details: { reason: 'file_limit', limit: maxCount },
      });
    }
    if (what !== 'file' && this.writtenBytes >= maxBytes) {
      throw new SessionError('INVALID_PARAMETERS', `The session already wrote ${maxBytes} bytes of files, the most it may; no ${what} is written.`, {
        details: { reason: 'file_limit', limit: maxBytes },
      });
    }
    this.started += 1;
  }

  /** Gives back a file claimed for a recording that could not start. */
  unclaim(): void {
    this.started -= 1;
  }

  /**
   * Places a file of unknown size within the bytes the session may still write: `place` gets that room, held for it
   * while it runs (a file saved or counted meanwhile finds none of it free), and answers the bytes it used, which
   * then count as written. The weighing of files being written (check) leaves held room out: it is no bytes yet.
   */
  async withinRoom<T extends { bytes: number }>(place: (room: number) => Promise<T>): Promise<T> {
    const room = Math.max(0, this.limits.maxBytes - this.writtenBytes - this.reservedBytes);
    this.reservedBytes += room;
    try {
      const placed = await place(room);
      this.writtenBytes += Math.min(placed.bytes, room);
      return placed;
    } finally {
      this.reservedBytes -= room;
    }
  }

  /** INVALID_PARAMETERS (details.reason `output_full`) when the identity's folder is full. */
  async checkRoom(what: 'trace' | 'video'): Promise<void> {
    const full = await this.folderFull();
    if (full !== undefined) {
      throw new SessionError('INVALID_PARAMETERS', `No ${what} is written: ${full}. Remove files from it, or close sessions whose files it keeps.`, {
        details: { reason: 'output_full', limit: this.limits.maxFolderBytes },
      });
    }
  }

  /** Checks the files being written every DOWNLOAD_CHECK_MS while any is (downloads arriving, a trace or a video recording). */
  watchFiles(): void {
    if (this.timer !== undefined) return;
    const tick = () => {
      this.timer = this.timers.setTimeout(tick, DOWNLOAD_CHECK_MS);
      void this.check();
    };
    this.timer = this.timers.setTimeout(tick, DOWNLOAD_CHECK_MS);
  }

  /** Why no file may be started in the identity's folder (it holds maxFolderBytes), or undefined while it has room. */
  private async folderFull(): Promise<string | undefined> {
    const max = this.limits.maxFolderBytes;
    if (max === undefined || !this.makeFolder) return undefined;
    const identity = path.dirname(await this.folder());
    return (await folderBytes(identity)) >= max
      ? `the client's folder of the output directory holds ${max} bytes, the most it may (--output-max-size)`
      : undefined;
  }

  /**
   * Saves a download in the session's folder and lists it in the next result. A download past the session's limits is
   * cancelled and listed as such: the files it may start (maxCount), and the bytes of its files, those still arriving
   * included (maxBytes, checked every DOWNLOAD_CHECK_MS while any is in progress, and again when each is saved).
   */
  private save(download: Download): void {
    if (!this.init.count(download)) return void download.cancel().catch(() => {});
    const url = download.url();
    const suggestedFilename = download.suggestedFilename();
    const record = (state: DownloadRecord['state'], fields: Partial<DownloadRecord> = {}) =>
      this.init.report({ url, suggestedFilename, state, path: '', bytes: 0, ...fields });
    const { maxCount, maxBytes } = this.limits;
    if (this.started >= maxCount) {
      void download.cancel().catch(() => {});
      record('cancelled', { failure: `the session already wrote ${maxCount} files (downloads, traces, videos and saved files), the most it may` });
      return;
    }
    this.started += 1;
    this.downloading.set(download, 0);
    this.watchFiles();
    const tooLarge = `it passed the session's limit of ${maxBytes} bytes of downloads`;
    const saving = (async () => {
      let target: string | undefined;
      let staging: string | undefined;
      let counted = 0;
      try {
        if (!this.makeFolder) throw new Error('downloads are not saved by this session');
        const folder = await this.folder();
        const full = await this.folderFull();
        if (full !== undefined) {
          this.cancelled.set(download, full);
          void download.cancel().catch(() => {});
          throw new Error(full);
        }
        const name = uniqueName(safeFileName(suggestedFilename), (candidate) => this.names.has(candidate) || existsSync(path.join(folder, candidate)));
        this.names.add(name);
        const final = path.join(folder, name);
        if (!isInside(folder, final)) throw new Error('unsafe file name');
        // Saved outside the session's folder and weighed before it goes in, so the folder never passes maxBytes;
        // also where its size could not be watched while it arrived (a browser on another machine).
        staging = await mkdtemp(path.join(tmpdir(), 'sessionwright-download-'));
        const staged = path.join(staging, name);
        await download.saveAs(staged);
        const { size } = await stat(staged);
        if (this.writtenBytes + this.reservedBytes + size > maxBytes) {
          this.cancelled.set(download, tooLarge);
          throw new Error(tooLarge);
        }
        this.writtenBytes += size;
        counted = size;
        target = final;
        await moveFile(staged, target);
        record('saved', { path: target, bytes: size });
      } catch (error) {
        this.writtenBytes -= counted;
        if (target !== undefined) await rm(target, { force: true }).catch(() => {});
        const cancelled = this.cancelled.get(download);
        if (cancelled !== undefined) record('cancelled', { failure: cancelled });
        else record('failed', { failure: (await download.failure().catch(() => null)) ?? messageOf(error).split('\n', 1)[0] ?? 'failed' });
        await download.delete().catch(() => {});
      } finally {
        this.downloading.delete(download);
        if (staging !== undefined) await rm(staging, { recursive: true, force: true }).catch(() => {});
      }
    })();
    this.saving.add(saving);
    void saving.finally(() => this.saving.delete(saving));
  }

  /**
   * Once the session's files, those being written included, pass maxBytes: cancels every download in progress, and
   * stops the trace and the video being recorded, keeping them as far as they got (their answer says why).
   */
  private async check(): Promise<void> {
    if (this.downloading.size === 0 && !this.init.recording()) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    if (this.checking) return;
    this.checking = true;
    try {
      for (const download of this.downloading.keys()) this.downloading.set(download, (await bytesSoFar(download)) ?? 0);
      let total = this.writtenBytes;
      for (const bytes of this.downloading.values()) total += bytes;
      const recordings = await this.init.recordings();
      total += recordings?.bytes ?? 0;
      const { maxBytes } = this.limits;
      if (total <= maxBytes) return;
      const why = `it passed the session's limit of ${maxBytes} bytes of files (downloads, traces, videos and saved files together)`;
      for (const download of this.downloading.keys()) {
        this.cancelled.set(download, `it passed the session's limit of ${maxBytes} bytes of downloads`);
        void download.cancel().catch(() => {});
      }
      await recordings?.cut(why);
    } finally {
      this.checking = false;
    }
  }
}
