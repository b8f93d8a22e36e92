// A session's recordings: a Playwright trace, a video of its tabs and the actions written down as test code, each weighed against the session's files.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { ActionRecording, canRecordActions } from './action-recording.js';
import { orAfter, type Clock, type Timers } from './clock.js';
import { SessionError, browserError } from './errors.js';
import { CLOSE_TIMEOUT_MS } from './open-context.js';
import { PageVideo, type VideoSettings } from './page-video.js';
import { TraceSize, checkVideoSettings } from './recording-limits.js';
import type { RecordingsInProgress, SessionDownloads } from './session-downloads.js';
import { placeTraceZip } from './trace-zip.js';
import { ensureFfmpeg } from './video.js';

/** A file the session wrote (a trace, a video), in its folder of the output directory. */
export interface FileRecord {
  path: string;
  bytes: number;
  /** The file went with its session's folder as the session closed (no --keep-downloads). */
  removed?: true;
  /** Why the recording ended before it was asked to, or was cut or not written: it passed the session's byte limit. */
  stopped?: string;
  /** Not written at all: even cut, it would pass the session's byte limit (`stopped` says so). */
  dropped?: true;
}

/** How long closing may wait for the video being recorded to be written. */
const VIDEO_CLOSE_TIMEOUT_MS = 15_000;

interface RecordingsInit {
  context: BrowserContext;
  /** The session's id, for the trace's title. */
  id: string;
  /** "local" for a browser here (which needs an ffmpeg here to encode a video), else the remote endpoint's label. */
  endpoint: string;
  /** The session's open tabs (a video records each). */
  tabs: () => Page[];
  /** Where the files go and what they count against. */
  files: SessionDownloads;
  clock: Clock;
  timers: Timers;
}

/** The trace, the video and the action recording of one session: at most one of each at a time. */
export class Recordings {
  private tracing: { started: number; size: TraceSize } | undefined;
  private traceCount = 0;
  private video: PageVideo | undefined;
  private videoCount = 0;
  private actions: ActionRecording | undefined;
  /** A trace or video the byte limit stopped, until the call that stops it (or the close) answers it. */
  private readonly cutShort: { trace?: Promise<FileRecord | undefined> | undefined; videos?: Promise<FileRecord[]> | undefined } = {};

  constructor(private readonly init: RecordingsInit) {}

  /** When the trace being recorded started; undefined when none is. */
  get tracingSince(): number | undefined {
    return this.tracing?.started;
  }

  /** True while a trace or a video is being recorded. */
  get active(): boolean {
    return this.tracing !== undefined || this.video !== undefined;
  }

  /**
   * Starts recording a Playwright trace of the session: every action, a DOM snapshot and a screenshot around each, and
   * the network. INVALID_PARAMETERS (details.reason `trace_running`) if one is already being recorded.
   */
  async startTrace(): Promise<void> {
    if (this.tracing) {
      throw new SessionError('INVALID_PARAMETERS', 'A trace of this session is already being recorded; stop it first.', {
        details: { reason: 'trace_running' },
      });
    }
    const { files, context } = this.init;
    await files.checkRoom('trace');
    files.claim('trace');
    this.cutShort.trace = undefined;
    // Named, so that its files can be found and weighed while it records (TraceSize).
    const name = `sessionwright-trace-${randomBytes(8).toString('hex')}`;
    this.tracing = { started: this.init.clock.now(), size: new TraceSize(name) };
    try {
      await context.tracing.start({ name, screenshots: true, snapshots: true, sources: false, title: `session ${this.init.id.slice(0, 8)}` });
    } catch (error) {
      this.tracing = undefined;
      files.unclaim();
      throw error;
    }
    files.watchFiles();
  }

  /**
   * Stops the trace and writes it (trace-N.zip in the session's folder, which `npx playwright show-trace` opens).
   * INVALID_PARAMETERS (details.reason `no_trace`) when none is being recorded.
   */
  async stopTrace(): Promise<FileRecord> {
    const cut = this.cutShort.trace;
    if (!this.tracing && cut) {
      this.cutShort.trace = undefined;
      const trace = await cut;
      if (trace) return trace;
    }
    if (!this.tracing) {
      throw new SessionError('INVALID_PARAMETERS', 'No trace of this session is being recorded; start one first.', { details: { reason: 'no_trace' } });
    }
    this.tracing = undefined;
    const { files, context } = this.init;
    if (!files.hasFolder) {
      await context.tracing.stop();
      throw browserError('unsupported', 'This session has no folder to write a trace to.');
    }
    const folder = await files.folder();
    this.traceCount += 1;
    const target = path.join(folder, `trace-${this.traceCount}.zip`);
    // Saved outside the session's folder first: what lands there is weighed against what the session may still
    // write before it does, so the folder never holds more than the byte limit, even for a moment.
    const staging = await mkdtemp(path.join(tmpdir(), 'sessionwright-trace-'));
    try {
      const staged = path.join(staging, 'trace.zip');
      await context.tracing.stop({ path: staged });
      const { placed } = await files.withinRoom(async (room) => {
        const zip = await placeTraceZip(staged, target, room);
        return { placed: zip, bytes: zip?.bytes ?? 0 };
      });
      const limit = limitOf(files);
      if (placed === undefined) return { path: target, bytes: 0, dropped: true, stopped: `it was not written: it would pass ${limit}` };
      if (placed.leftOut === 0) return { path: target, bytes: placed.bytes };
      return {
        path: target,
        bytes: placed.bytes,
        stopped: `it was cut: ${placed.leftOut} of its resources (response bodies, screenshots, screencast frames) were left out, which would pass ${limit}`,
      };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** Whether a video is being recorded (startVideo). */
  get recordingVideo(): boolean {
    return this.video !== undefined;
  }

  /**
   * Starts a video of every tab (those opened later too) into `file`, by default video-N.webm in the session's folder;
   * answers the file. INVALID_PARAMETERS (details.reason `video_running`) while one is being recorded.
   */
  async startVideo(file: string | undefined, settings: VideoSettings = {}): Promise<string> {
    if (this.video) {
      throw new SessionError('INVALID_PARAMETERS', 'A video of this session is already being recorded; stop it first.', {
        details: { reason: 'video_running' },
      });
    }
    checkVideoSettings(settings);
    // A remote browser encodes where it runs; only a browser here needs an ffmpeg here.
    if (this.init.endpoint === 'local') await ensureFfmpeg();
    const { files } = this.init;
    const target = file ?? path.join(await files.folder(), `video-${++this.videoCount}.webm`);
    await files.checkRoom('video');
    files.claim('video');
    this.cutShort.videos = undefined;
    const video = new PageVideo(this.init.context, target, settings);
    this.video = video;
    try {
      await video.start(this.init.tabs());
    } catch (error) {
      this.video = undefined;
      files.unclaim();
      throw error;
    }
    files.watchFiles();
    return target;
  }

  /** Stops the video and answers its files (one per tab). INVALID_PARAMETERS (details.reason `no_video`) when none is being recorded. */
  async stopVideo(): Promise<FileRecord[]> {
    const video = this.video;
    const cut = this.cutShort.videos;
    if (!video && cut) {
      this.cutShort.videos = undefined;
      return cut;
    }
    if (!video)
      throw new SessionError('INVALID_PARAMETERS', 'No video of this session is being recorded; start one first.', { details: { reason: 'no_video' } });
    this.video = undefined;
    const { files } = this.init;
    const { placed } = await files.withinRoom(async (room) => {
      const videos = await video.stop(room);
      return { placed: videos, bytes: videos.reduce((total, file) => total + file.bytes, 0) };
    });
    return placed.map(({ path: file, bytes, cut }) =>
      cut ? { path: file, bytes, stopped: `its end was cut, which would pass ${limitOf(files)}` } : { path: file, bytes },
    );
  }

  /**
   * Starts writing down the actions done on the session's pages (a person's in the live view, or the tools') as
   * Playwright test code. INVALID_PARAMETERS (details.reason `recording_running`) while a recording runs.
   */
  async startActions(): Promise<void> {
    if (this.actions) {
      throw new SessionError('INVALID_PARAMETERS', 'Actions are already being recorded; stop the recording first.', {
        details: { reason: 'recording_running' },
      });
    }
    if (!canRecordActions(this.init.context)) throw browserError('unsupported', 'This Playwright version cannot record actions.');
    const recording = new ActionRecording(this.init.context);
    this.actions = recording;
    try {
      await recording.start();
    } catch (error) {
      this.actions = undefined;
      throw error;
    }
  }

  /** Stops the recording and answers each recorded action's code. INVALID_PARAMETERS (details.reason `no_recording`) when none runs. */
  async stopActions(): Promise<string[]> {
    const recording = this.actions;
    if (!recording)
      throw new SessionError('INVALID_PARAMETERS', 'No actions are being recorded; start a recording first.', { details: { reason: 'no_recording' } });
    this.actions = undefined;
    return recording.stop();
  }

  /**
   * The trace and video being recorded, weighed (see SessionDownloads): a cut stops each, keeping it as far as it got;
   * each is taken out of its place at once (stopTrace and stopVideo do so before they wait), so a stop asked for
   * meanwhile gets this one.
   */
  async measure(): Promise<RecordingsInProgress | undefined> {
    const tracing = this.tracing;
    const video = this.video;
    if (!tracing && !video) return undefined;
    let bytes = 0;
    if (tracing) bytes += (await tracing.size.bytes()) ?? 0;
    if (video) bytes += await video.sizes();
    const cut = async (why: string): Promise<void> => {
      if (tracing && this.tracing === tracing) {
        this.cutShort.trace = this.stopTrace().then(
          (trace) => ({ ...trace, stopped: trace.stopped === undefined ? why : `${why}; ${trace.stopped}` }),
          () => undefined,
        );
      }
      if (video && this.video === video) {
        this.cutShort.videos = this.stopVideo().then(
          (videos) => videos.map((file) => ({ ...file, stopped: file.stopped === undefined ? why : `${why}; ${file.stopped}` })),
          () => [],
        );
      }
      await Promise.all([this.cutShort.trace, this.cutShort.videos]);
    };
    return { bytes, cut };
  }

  /**
   * Ends what is still being recorded as the session closes: the trace is saved (within CLOSE_TIMEOUT_MS) and the
   * video written (within VIDEO_CLOSE_TIMEOUT_MS); answers their files, those the byte limit cut short included.
   */
  async finish(): Promise<{ traces: FileRecord[]; videos: FileRecord[] }> {
    const { timers } = this.init;
    const cutTrace = await this.cutShort.trace;
    this.cutShort.trace = undefined;
    const traces: FileRecord[] = cutTrace ? [cutTrace] : [];
    if (this.tracing) {
      const saved = await orAfter(
        this.stopTrace().catch(() => undefined),
        CLOSE_TIMEOUT_MS,
        undefined,
        timers,
      );
      if (saved) traces.push(saved);
    }
    const videos =
      this.video || this.cutShort.videos
        ? await orAfter(
            this.stopVideo().catch(() => []),
            VIDEO_CLOSE_TIMEOUT_MS,
            [],
            timers,
          )
        : [];
    return { traces, videos };
  }
}

/** The session's byte limit, as a result's `stopped` names it. */
function limitOf(files: SessionDownloads): string {
  return `the session's limit of ${files.limits.maxBytes} bytes of files (downloads, traces, videos and saved files together)`;
}
