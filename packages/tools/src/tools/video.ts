// The `devtools` capability's video: a recording of a session's tabs started and stopped at will, with chapter cards and action callouts drawn into the page; profiles/playwright/video.ts names it for the playwright profile.
import { SessionError } from '@sessionwright/session-core';
import { MAX_FFMPEG_PER_SERVER, MAX_FFMPEG_PER_SESSION, MAX_VIDEO, checkVideoSettings, defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { checkedOutputFile, outputPath } from '../framework/output-files.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { refuseRecordingWithSecrets } from '../framework/recording-secrets.js';
import { fileSchema } from './trace.js';

const VIDEO_ACTIONS = ['start', 'stop', 'chapter', 'show_actions', 'hide_actions'] as const;
export const POSITIONS = ['top-left', 'top', 'top-right', 'bottom-left', 'bottom', 'bottom-right'] as const;
const MAX_CSS = 2_000;
const MAX_FILENAME = 1_000;

// Past MAX_VIDEO the session refuses it (INVALID_PARAMETERS, reason video_too_large): one check, in one place.
export const sizeSchema = z.strictObject({
  width: z.number().int().min(16).max(7_680),
  height: z.number().int().min(16).max(4_320),
});
export const filenameSchema = z.string().min(1).max(MAX_FILENAME);
export const fpsSchema = z.number().int().min(1).max(60);
export const durationSchema = z.number().int().min(0).max(60_000);
export const titleSchema = z.string().min(1).max(200);
export const descriptionSchema = z.string().max(1_000);
export const styleSchema = z.strictObject({
  point: z.string().max(MAX_CSS).optional(),
  highlight: z.string().max(MAX_CSS).optional(),
  title: z.string().max(MAX_CSS).optional(),
});

/** Which fields each action takes; any other is refused, so a misplaced argument is never silently dropped. */
const FIELDS_OF: Record<(typeof VIDEO_ACTIONS)[number], readonly string[]> = {
  start: ['filename', 'size', 'fps', 'cursor'],
  stop: [],
  chapter: ['title', 'description', 'duration'],
  show_actions: ['duration', 'position', 'cursor', 'style'],
  hide_actions: [],
};

const videoInput = z.strictObject({
  sessionId: sessionIdSchema,
  action: z.enum(VIDEO_ACTIONS).describe('What to do.'),
  filename: filenameSchema.optional().describe('start: file under --output-dir.'),
  size: sizeSchema.optional().describe('start: frame size.'),
  fps: fpsSchema.optional().describe('start: frames a second (25).'),
  cursor: z.boolean().optional().describe('start, show_actions: draw the pointer.'),
  title: titleSchema.optional().describe('chapter: its title.'),
  description: descriptionSchema.optional().describe('chapter: text under the title.'),
  duration: durationSchema.optional().describe('Ms a card or callout shows.'),
  position: z.enum(POSITIONS).optional().describe('show_actions: callout place.'),
  style: styleSchema.optional().describe('show_actions: CSS of point, highlight, title.'),
});

type VideoArgs = Omit<z.infer<typeof videoInput>, 'sessionId'>;

/** Refuses a field the action does not take, and a chapter without its title, before the session is touched. */
function checkFields(args: VideoArgs): void {
  const allowed = new Set(['action', ...FIELDS_OF[args.action]]);
  const stray = Object.keys(args).filter((key) => !allowed.has(key) && args[key as keyof VideoArgs] !== undefined);
  if (stray.length > 0) {
    const takes = FIELDS_OF[args.action].length > 0 ? `it takes ${FIELDS_OF[args.action].join(', ')}` : 'it takes no other field';
    throw new SessionError('INVALID_PARAMETERS', `action "${args.action}" does not take ${stray.join(', ')}: ${takes}.`, {
      details: { reason: 'unexpected_field', fields: stray },
    });
  }
  if (args.action === 'chapter' && args.title === undefined) {
    throw new SessionError('INVALID_PARAMETERS', 'action "chapter" needs a title.', { details: { reason: 'missing_field', fields: ['title'] } });
  }
}

export const video = defineSessionTool({
  name: 'video',
  title: 'Record a video',
  description: "Records a .webm video of the session's tabs (start, stop) and draws chapter cards or action callouts into it.",
  notes:
    'start records every tab, those opened later too (each its own file, -1, -2… added to the name), into filename under ' +
    "--output-dir, or video-N.webm in the session's folder; " +
    'cursor draws a pointer travelling to each action point. stop saves the files and lists them; closing the session also does. ' +
    'chapter shows a full-page card (title, description) for duration ms (2000); show_actions names each later action in a ' +
    'callout on the current tab (position, duration 500, style: CSS of the point marker, the target box and the title; cursor: ' +
    'false hides the pointer), hide_actions ends that. ' +
    `size is at most ${MAX_VIDEO.width}×${MAX_VIDEO.height} and fps at most ${MAX_VIDEO.fps}; each tab recorded is an ffmpeg process, at most ${MAX_FFMPEG_PER_SESSION} a session (later tabs are left out) and ${MAX_FFMPEG_PER_SERVER} in the server. ` +
    "A video counts against the session's limits on files (--max-download-bytes, --max-downloads, shared with downloads, traces " +
    'and saved files): past the byte limit it is stopped and kept as far as it got, and the stop (or close_session) lists it ' +
    'with stopped saying why. ' +
    'Errors: INVALID_PARAMETERS (reason video_running, no_video, unexpected_field, missing_field, video_too_large, video_limit, ' +
    'file_limit, secrets_set on a server run with --secrets, which records no video; a filename outside --output-dir), BROWSER_ERROR reason unsupported (no ffmpeg), SESSION_NOT_FOUND / ' +
    'SESSION_EXPIRED.',
  input: videoInput,
  output: sessionOutput({
    action: z.enum(VIDEO_ACTIONS),
    file: z.string().optional().describe('start: where the video is written.'),
    videos: z.array(fileSchema).optional().describe('stop: the files written.'),
    message: z.string(),
  }),
  kind: 'action',
  capability: 'devtools',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  prepare(args, ctx) {
    const { sessionId: _sessionId, ...rest } = args;
    checkFields(rest);
    checkVideoSettings(args);
    return { ...args, target: args.filename === undefined ? undefined : outputPath(ctx.options, args.filename) };
  },
  async handler(args, page, response, ctx) {
    const { action } = args;
    switch (action) {
      case 'start': {
        refuseRecordingWithSecrets(ctx.options, 'video');
        const target = args.target === undefined ? undefined : await checkedOutputFile(ctx.options, args.target);
        const file = await response.session.recordings.startVideo(target, { size: args.size, fps: args.fps, cursor: args.cursor });
        return { action, file, message: `Recording a video of this session's tabs into ${file}; video with action "stop" saves it.` };
      }
      case 'stop': {
        const videos = await response.session.recordings.stopVideo();
        const message =
          videos.length === 0
            ? 'Stopped; no tab painted a frame, so no video was written.'
            : `Saved ${videos.length} video file${videos.length === 1 ? '' : 's'}.`;
        const early = videos.find((video) => video.stopped !== undefined)?.stopped;
        return { action, videos, message: early === undefined ? message : `${message} It was stopped early or cut: ${early}.` };
      }
      case 'chapter': {
        await page.screencast.showChapter(args.title ?? '', { ...defined({ description: args.description, duration: args.duration }) });
        return { action, message: `Chapter "${args.title}" shown.` };
      }
      case 'show_actions': {
        const style = args.style === undefined ? undefined : defined(args.style);
        await page.screencast.showActions({
          ...defined({ duration: args.duration, position: args.position, style }),
          ...(args.cursor === undefined ? {} : { cursor: args.cursor ? 'pointer' : 'none' }),
        });
        return { action, message: 'Each following action on this tab is named in a callout.' };
      }
      case 'hide_actions': {
        await page.screencast.hideActions();
        return { action, message: 'Actions are no longer called out.' };
      }
    }
  },
});
