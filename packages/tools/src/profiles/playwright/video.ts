// The playwright profile's video tools: @playwright/mcp's browser_*_video names and fields, each an adapter over video.
import { z } from 'zod';
import { POSITIONS, descriptionSchema, durationSchema, filenameSchema, fpsSchema, sizeSchema, styleSchema, titleSchema, video } from '../../tools/video.js';
import { adapt, optionalSessionIdSchema } from './adapter.js';

const noInput = z.strictObject({ sessionId: optionalSessionIdSchema });

/** @playwright/mcp's video tools, each an adapter over `video`. */
export const playwrightVideoTools = [
  adapt({
    name: 'browser_start_video',
    title: 'Start video',
    description: 'Starts recording a .webm video of the page; browser_stop_video saves it.',
    input: z.strictObject({
      filename: filenameSchema.optional().describe('File under --output-dir.'),
      size: sizeSchema.optional().describe('Frame size.'),
      fps: fpsSchema.optional().describe('Frames a second (25).'),
      cursor: z.boolean().optional().describe('Draw the pointer at each action.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: video,
    toBase: (args) => ({ action: 'start', ...args }),
  }),
  adapt({
    name: 'browser_stop_video',
    title: 'Stop video',
    description: 'Stops the video and saves its files.',
    input: noInput,
    base: video,
    toBase: () => ({ action: 'stop' }),
  }),
  adapt({
    name: 'browser_video_chapter',
    title: 'Video chapter',
    description: 'Shows a full-page chapter card in the video.',
    input: z.strictObject({
      title: titleSchema.describe('Chapter title.'),
      description: descriptionSchema.optional().describe('Text under the title.'),
      duration: durationSchema.optional().describe('Ms the card shows (2000).'),
      sessionId: optionalSessionIdSchema,
    }),
    base: video,
    toBase: (args) => ({ action: 'chapter', ...args }),
  }),
  adapt({
    name: 'browser_video_show_actions',
    title: 'Show action overlays',
    description: 'Names each following action in a callout on the page, for a video or the live view.',
    input: z.strictObject({
      duration: durationSchema.optional().describe('Ms each callout shows (500).'),
      position: z.enum(POSITIONS).optional().describe('Callout place.'),
      cursor: z.enum(['none', 'pointer']).optional().describe('none hides the pointer.'),
      style: styleSchema.optional().describe('CSS of point, highlight, title.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: video,
    toBase: ({ cursor, ...args }) => ({ action: 'show_actions', ...args, ...(cursor === undefined ? {} : { cursor: cursor === 'pointer' }) }),
  }),
  adapt({
    name: 'browser_video_hide_actions',
    title: 'Hide action overlays',
    description: 'Stops calling out actions.',
    input: noInput,
    base: video,
    toBase: () => ({ action: 'hide_actions' }),
  }),
];
