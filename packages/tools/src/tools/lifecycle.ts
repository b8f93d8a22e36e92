// Session lifecycle tools: create_session, close_session, list_sessions.
import { effectiveOptionsSchema, sessionOptionsShape } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { SessionError, imageOfStorageState, type SessionImage, type SessionOptions } from '@sessionwright/session-core';
import { defineTool, type ToolContext } from '../framework/define-tool.js';
import { savedStates, stateNameSchema } from './state.js';
import { includeSnapshotSchema, sessionIdSchema } from '../framework/schemas.js';
import { attachmentsOf, pageResultFields, snapshotResultFields } from '../framework/response.js';
import { checkUrl, navigate } from './navigation.js';
import { prepareTitle } from '../page/title.js';
import { fileSchema } from './trace.js';
import { refuseRecordingWithSecrets } from '../framework/recording-secrets.js';

export const createSession = defineTool({
  name: 'create_session',
  title: 'Create browser session',
  description: 'Opens an isolated browser session, optionally as another device, place or person.',
  notes:
    'Call this first, then pass the sessionId to navigate, click, type and the other tools. Sessions are isolated from each ' +
    'other (cookies, storage, cache) and run in parallel; ' +
    'each expires after a period without use (expiresAt, moved forward by every call), and close_session frees it early. ' +
    'Every argument is optional: give some to make this session a different device, place or person from the others (device, ' +
    'viewport, locale, timezoneId, proxy, ' +
    'state to start signed in from a state saved with save_state (the states caps group), storageState to start signed in from ' +
    'an export, blockResources to skip images…; each is described in docs/session-options.md); the result echoes them as ' +
    'options, without passwords or header values. ' +
    'With url the session opens that page in the same call, as navigate does (waiting for its load), and the result carries ' +
    'its url, title and status, and the snapshot with includeSnapshot: a task needs no navigate call to start. A URL ' +
    'navigate refuses is refused before any session is made; a page that cannot be opened (NAVIGATION_FAILED, or the call ' +
    'time limit) closes the new session again and answers that error with details.sessionClosed: true, so no session is ' +
    'left behind; call create_session again. ' +
    'Errors: INVALID_PARAMETERS for an unknown device (close names are suggested), time zone, locale, permission or malformed ' +
    'proxy URL, a state you have not saved (details.state not_found), state with storageState, or recordVideo on a server ' +
    'run with --secrets (details.reason secrets_set); ' +
    'MAX_SESSIONS_REACHED when all sessions of the server, or all your client may hold, are in use (details.scope says which; close one first); ' +
    'BROWSER_ERROR when the browser cannot start (details.reason launch_failed) or no session could be opened within the call ' +
    'time limit (call_timeout; nothing is left open, try again).',
  input: z.strictObject({
    ...sessionOptionsShape,
    // Shown to the model as any object: it passes on what export_storage_state gave, and a wrong one is refused with
    // the path of the wrong value. Its full shape would cost every turn about as much as the rest of the tool.
    storageState: z
      .looseObject({})
      .pipe(sessionOptionsShape.storageState.unwrap())
      .optional()
      .describe(sessionOptionsShape.storageState.description ?? ''),
    // No pattern: the default list is paid for on every turn, and SavedStates checks the name (STATE_NAME_PATTERN).
    state: stateNameSchema.optional().describe('Saved state.'),
    url: z.string().min(1).max(100_000).optional().describe('Page to open.'),
    includeSnapshot: includeSnapshotSchema,
  }),
  output: z.object({
    sessionId: z.string().describe('Pass this to every other tool.'),
    createdAt: z.number().describe('When the session was created (ms since epoch).'),
    expiresAt: z.number().describe('When the session expires if left idle (ms since epoch); every call moves it forward.'),
    message: z.string(),
    options: effectiveOptionsSchema,
    url: pageResultFields.url.optional().describe('With url: the page the session opened on (final, after redirects).'),
    title: pageResultFields.title.optional(),
    status: z.number().nullable().optional().describe('With url: the HTTP status of the page, or null without an HTTP response.'),
    ...snapshotResultFields,
  }),
  kind: 'lifecycle-create',
  errors: ['MAX_SESSIONS_REACHED', 'BROWSER_ERROR', 'INVALID_PARAMETERS', 'NAVIGATION_FAILED'],
  async handler({ state, url, includeSnapshot, ...options }, ctx) {
    if (options.recordVideo) refuseRecordingWithSecrets(ctx.options, 'video');
    // A URL the session may not open is refused before any session is made.
    if (url !== undefined) checkUrl(url, ctx.options);
    const session = await ctx.sessions.create(
      state === undefined ? { options, signal: ctx.signal } : { image: await imageOfState(state, options, ctx), signal: ctx.signal },
    );
    // The first result's title is read from the browser process; finding the page there overlaps the agent's next step.
    prepareTitle(session.page);
    const created = { sessionId: session.id, createdAt: session.createdAt, options: session.options };
    if (url === undefined) {
      return { ...created, expiresAt: session.expiresAt, message: 'Session created with a blank page. Next: navigate to a URL.' };
    }
    const opened = await openFirstPage(session.id, url, includeSnapshot, ctx);
    return { ...created, ...opened, message: `Session created on ${opened.url}. Next: snapshot or find to read it, then act.` };
  },
});

/**
 * Navigates a new session to its first page, as navigate does. A session whose first page fails to open is closed, and
 * the call answers the navigation's error: no session is left that the caller was never told of.
 */
async function openFirstPage(sessionId: string, url: string, includeSnapshot: boolean | undefined, ctx: ToolContext) {
  try {
    const { data } = attachmentsOf(await navigate.handler({ sessionId, url, ...(includeSnapshot === undefined ? {} : { includeSnapshot }) }, ctx));
    const { success: _success, ...page } = data;
    return page;
  } catch (error) {
    await ctx.sessions.close(sessionId).catch(() => undefined);
    throw error instanceof SessionError ? new SessionError(error.code, error.message, { details: { ...error.details, sessionClosed: true } }) : error;
  }
}

/** A new session's image from a saved state and the call's options: one blank tab, signed in. */
async function imageOfState(name: string, options: SessionOptions, ctx: ToolContext): Promise<SessionImage> {
  if (options.storageState !== undefined) {
    throw new SessionError('INVALID_PARAMETERS', 'Give state or storageState, not both.', { details: { option: 'state' } });
  }
  return imageOfStorageState(await savedStates(ctx).load(name), options);
}

export const closeSession = defineTool({
  name: 'close_session',
  title: 'Close browser session',
  description: 'Closes a session when its task is done.',
  notes:
    "The sessionId cannot be used afterwards. The session's folder (its downloads, traces and videos) goes with it unless the " +
    'server runs with --keep-downloads; ' +
    'the files it lists are then marked removed. Errors: SESSION_NOT_FOUND (unknown or already closed), SESSION_EXPIRED (it had already expired).',
  input: z.strictObject({ sessionId: sessionIdSchema }),
  output: z.object({
    success: z.literal(true),
    sessionId: z.string(),
    message: z.string(),
    videos: z.array(fileSchema).optional().describe('With recordVideo: the video of each tab (.webm).'),
    traces: z.array(fileSchema).optional().describe('A trace that was still recording, written as the session closed.'),
  }),
  kind: 'lifecycle-close',
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS'],
  async handler({ sessionId }, ctx) {
    const { videos, traces } = await ctx.sessions.close(sessionId);
    return {
      success: true as const,
      sessionId,
      message: 'Session closed.',
      ...(videos.length === 0 ? {} : { videos }),
      ...(traces.length === 0 ? {} : { traces }),
    };
  },
});

export const listSessions = defineTool({
  name: 'list_sessions',
  title: 'List browser sessions',
  description: 'Lists your open sessions and the page each is on.',
  notes:
    'Your sessions are those created on this connection; on a server that knows clients by token, all of your sessions, from any connection. ' +
    'Each entry has the URL and title its page is on, its device or viewport, when it expires and which browser endpoint it runs on. ' +
    'Use it to recover a sessionId or to see how many of maxSessions are in use.',
  input: z.strictObject({}),
  output: z.object({
    sessions: z.array(
      z.object({
        sessionId: z.string(),
        createdAt: z.number(),
        expiresAt: z.number(),
        url: z.string(),
        title: z.string(),
        device: z.string().optional().describe('The device the session was created as, if any.'),
        viewport: z.object({ width: z.number(), height: z.number() }).nullable().describe('The page size in CSS pixels.'),
        endpoint: z.string().describe('Where the session\'s browser runs: "local", or a browser endpoint as scheme://host:port.'),
        replica: z.string().optional().describe('In a fleet: the replica that holds the session (host:port of its --advertise-url).'),
      }),
    ),
    maxSessions: z.number().describe('How many sessions the server allows open at once (across all connections).'),
  }),
  kind: 'read',
  errors: ['INVALID_PARAMETERS'],
  async handler(_args, ctx) {
    return { sessions: await ctx.sessions.list(), maxSessions: ctx.sessions.maxSessions };
  },
});
