// console_messages: what the session's pages logged, and their uncaught errors, read by cursor from the session's ring.
import { COLLECTOR_CAPACITY, atLeast, defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

export const cursorSchema = z.number().int().min(0).optional().describe('Earlier cursor.');

export const limitSchema = z.number().int().min(1).max(COLLECTOR_CAPACITY).optional().describe('Default 100.');

export const DEFAULT_LIMIT = 100;

export const consoleMessages = defineSessionTool({
  name: 'console_messages',
  title: 'Read console messages',
  description: "The console messages and page errors of the session's pages.",
  notes:
    'Every tab of the session, oldest first, with uncaught page errors as type "error". Use it to find out why a page misbehaves ' +
    '(a failed script, a rejected fetch). level is the lowest level included (default "info"; "error" for errors only). ' +
    'Pass the returned cursor as since next time to get only new messages; pass loadCursor as since for only what came after the ' +
    'current tab last loaded a page. The session keeps the last 1000; dropped counts those that fell out before you read them. ' +
    'Errors: INVALID_PARAMETERS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    level: z.enum(['error', 'warning', 'info', 'debug']).optional().describe('Lowest level (default info).'),
    since: cursorSchema,
    limit: limitSchema,
  }),
  output: sessionOutput({
    messages: z
      .array(
        z.object({
          type: z.string().describe('log, info, warning, error, debug, trace, …; uncaught exceptions are "error".'),
          text: z.string(),
          url: z.string().optional().describe('The script or page it came from.'),
          line: z.number().optional().describe('Line in that script (1-based).'),
          time: z.number().describe('When it was logged (ms since epoch).'),
        }),
      )
      .describe('Messages after since, oldest first.'),
    cursor: z.number().describe('Pass as since to get only what comes after these.'),
    loadCursor: z.number().describe('The cursor when the current tab last loaded a page: as since, only what the page logged since.'),
    dropped: z.number().describe('Messages after since that fell out of the 1000-message ring before this read.'),
  }),
  kind: 'read',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ level, since, limit = DEFAULT_LIMIT }, page, response, { options }) {
    // Without a level the server's default (the playwright profile's --console-level), else info.
    const keep = atLeast(level ?? options.consoleLevel ?? 'info');
    const { items, cursor, dropped } = response.session.collectors.console.read({ ...defined({ since }), limit, keep });
    return { messages: items.map((entry) => ({ ...entry })), cursor, dropped, loadCursor: response.session.collectors.consoleSinceNavigation(page) };
  },
});
