// Showing a session to a person: live_view (a link to watch it and take control), request_human (hand it over and wait for it back), and the MCP App's own tools (frames, control, input).
import { type Session, browserError } from '@sessionwright/session-core';
import { type PersonInput, orAfter } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import type { GiveBackSource, LiveViewAccess, ToolContext } from '../framework/define-tool.js';
import { withAttachments } from '../framework/response.js';
import { readTitle } from '../page/title.js';
import { reportWaitForPerson } from '../framework/person-wait.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineBesideTool } from '../framework/define-session-tool.js';

/** The MCP App resource that shows live_view's result inline in hosts that render MCP Apps. */
export const LIVE_VIEW_RESOURCE_URI = 'ui://sessionwright/live-view.html';

/** How long request_human waits for a person by default, and at most. */
const DEFAULT_HAND_OFF_TIMEOUT = 300_000;
const MAX_HAND_OFF_TIMEOUT = 3_600_000;

const linkFields = {
  sessionId: z.string().describe('The session shown (the MCP App asks for its frames by it).'),
  url: z.string().describe("The live view's address: the session's current tab, live, with a Take control button."),
  expiresAt: z.number().describe('When the link stops working (ms since epoch); it stops earlier if the session ends.'),
};

export const liveView = defineBesideTool({
  name: 'live_view',
  title: 'Live view of a session',
  description: "A link where a person watches the session's current tab live and can take control.",
  notes:
    'Give the link to the user who wants to see or help. While the person has control your calls on the session wait until they ' +
    'give it back (each still ends at its time limit). ' +
    "The link works for an hour at most, and never past its session; only the session's own identity can get one. See docs/live-view.md. " +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; BROWSER_ERROR reason unsupported on a server without live views.',
  input: z.strictObject({ sessionId: sessionIdSchema }),
  output: z.object(linkFields),
  kind: 'read',
  capability: 'live',
  meta: { ui: { resourceUri: LIVE_VIEW_RESOURCE_URI } },
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  beside: async (_args, session, ctx) => ({ sessionId: session.id, ...(await liveViews(ctx).open(session)) }),
});

const OUTCOMES = ['returned', 'timeout', 'with_person', 'declined', 'session_ended', 'show_link'] as const;
type RequestOutcome = (typeof OUTCOMES)[number];

const OUTCOME_MESSAGES: Record<RequestOutcome, string> = {
  returned: 'Control was given back; the session is yours again.',
  timeout: 'Nobody opened the live view in time; control is back with you.',
  with_person: 'The person still has control: your calls on this session wait until they give it back. Call request_human again to keep waiting.',
  declined: 'The user declined to open the live view; control is back with you.',
  session_ended: 'The session ended while the person had it.',
  show_link:
    'Show the user liveUrl and what to do. They have control now: your next call on this session waits until they give it back, ' +
    'or until the timeout passes with nobody on the page.',
};

const GIVE_BACK_SOURCES = ['live_page', 'live_view_app'] as const satisfies readonly GiveBackSource[];

/**
 * What a hand-back is said to be, claiming no more than the server saw: a button press on the live page, or a call of
 * the live view app's tool (which the app's button makes, but so could anything its client runs).
 */
const RETURNED_MESSAGES: Record<GiveBackSource, string> = {
  live_page: "Control was given back with the live page's Give back control button; the session is yours again.",
  live_view_app: 'Control was given back through the live view app (a live_view_control call from a client that runs MCP Apps); the session is yours again.',
};

export const requestHuman = defineBesideTool({
  name: 'request_human',
  title: 'Ask a person to act on a session',
  description: 'Hands the session to the user (a CAPTCHA, a sign-in) and answers when they give control back.',
  notes:
    'The person gets a live-view link and control at once; your calls on the session wait meanwhile. With a client that can open ' +
    'links for its user (URL elicitation) the call waits for the hand-back, ' +
    'reporting progress; without one it answers at once with outcome show_link: show the user liveUrl yourself. Control comes ' +
    'back at timeout if nobody has the page open. ' +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; INVALID_PARAMETERS (reason control_taken) while someone else has control; ' +
    'BROWSER_ERROR reason cancelled when the call is cancelled.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    message: z.string().min(1).max(2_000).describe('What the person should do, shown beside the live view.'),
    timeout: z
      .number()
      .int()
      .min(1_000)
      .max(MAX_HAND_OFF_TIMEOUT)
      .optional()
      .describe(`How long to wait for the person, in ms (default ${DEFAULT_HAND_OFF_TIMEOUT}).`),
  }),
  output: z.object({
    outcome: z.enum(OUTCOMES).describe('How the hand-over ended; show_link: tell the user liveUrl yourself.'),
    returnedBy: z.enum(GIVE_BACK_SOURCES).optional().describe("With returned: given back with the live page's button, or by the live view app's tool call."),
    message: z.string(),
    sessionId: z.string().describe('The session handed over (the MCP App asks for its frames by it).'),
    liveUrl: z.string().describe('The live view the person uses.'),
    expiresAt: z.number().describe('When liveUrl stops working (ms since epoch).'),
    url: z.string().describe("The session's page URL now."),
    title: z.string().describe("That page's title."),
  }),
  kind: 'action',
  capability: 'live',
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  async beside({ message, timeout = DEFAULT_HAND_OFF_TIMEOUT }, session, ctx) {
    const live = liveViews(ctx);
    const link = await live.open(session);
    const handOff = live.handOff(session, { message, timeout });
    const answer = (outcome: RequestOutcome, returnedBy?: GiveBackSource) => result(session, link, outcome, returnedBy);
    // Where the client cannot open a link for the user, the agent does: control is already the person's.
    const asked = await askToOpen(ctx, message, link.url);
    if (asked === undefined) return answer('show_link');
    if (asked.action !== 'accept') {
      handOff.cancel();
      return answer('declined');
    }
    const lease = session.control.lease;
    const stopReporting = lease === undefined ? () => {} : reportWaitForPerson(ctx, lease, 'Waiting for the person to give control of the session back.');
    const cancel = () => handOff.cancel();
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      const end = await handOff.ended;
      asked.complete();
      if (end.outcome === 'cancelled' || ctx.signal.aborted) {
        throw browserError('cancelled', 'The request was cancelled; control of the session was taken back from the person.');
      }
      return answer(end.outcome, end.returnedBy);
    } finally {
      stopReporting();
      ctx.signal.removeEventListener('abort', cancel);
    }
  },
});

/** The server's live views; BROWSER_ERROR `unsupported` from a server that has none (a custom server without them). */
function liveViews(ctx: ToolContext): LiveViewAccess {
  if (ctx.live === undefined) throw browserError('unsupported', 'This server does not serve live views of its sessions.');
  return ctx.live;
}

/** The user's answer to a URL elicitation; undefined when the client cannot be asked (no support, or the request failed). */
async function askToOpen(ctx: ToolContext, message: string, url: string) {
  if (ctx.elicitUrl === undefined) return undefined;
  try {
    return await ctx.elicitUrl({ message: `${message} Open the live view and use "Take control" if asked; press "Give back control" when done.`, url });
  } catch {
    return undefined;
  }
}

async function result(session: Session, link: { url: string; expiresAt: number }, outcome: RequestOutcome, returnedBy?: GiveBackSource) {
  const page = session.page;
  const title = page.isClosed() ? '' : await orAfter(readTitle(page), 1_000, '');
  return {
    outcome,
    ...(returnedBy === undefined ? {} : { returnedBy }),
    message: returnedBy === undefined ? OUTCOME_MESSAGES[outcome] : RETURNED_MESSAGES[returnedBy],
    sessionId: session.id,
    liveUrl: link.url,
    expiresAt: link.expiresAt,
    url: page.isClosed() ? '' : page.url(),
    title,
  };
}

// The MCP App's own tools. Hosts hide them from the model (`_meta.ui.visibility: ["app"]`); the app calls them through
// the host (callServerTool), so it needs no connection and no frame of its own. Each takes the session's id and acts
// only on the caller's sessions, as every tool does.

/** The `_meta` of a tool only the MCP App calls. */
const APP_ONLY = { ui: { resourceUri: LIVE_VIEW_RESOURCE_URI, visibility: ['app'] } };

/**
 * The most characters a live_view_frame result carries, its picture included: well under what hosts pass to an app
 * (some drop results near 150 000 characters). A picture that would not fit is left out and said so in `note`.
 */
export const MAX_APP_RESULT_CHARS = 100_000;

const viewerSchema = z.string().min(1).max(64).describe('From live_view_frame.');

const controlSchema = z.object({
  state: z.enum(['free', 'waiting', 'held']),
  mine: z.boolean().describe('Whether this viewer may act with it.'),
  by: z.enum(['person', 'agent']).describe('agent: handed over by request_human.'),
  message: z.string().describe('What the agent asks the person to do.'),
});

const point = { x: z.number().finite(), y: z.number().finite() };
const modifiers = z.number().int().min(0).max(15).optional();

/** One input event of a person's view, in the view's fractions (PersonInput); checked the same for the live page and the MCP App. */
export const personInputSchema: z.ZodType<PersonInput> = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('mouse'),
    type: z.enum(['down', 'up', 'move']),
    ...point,
    button: z.enum(['left', 'middle', 'right', 'none']).optional(),
    clickCount: z.number().int().min(0).max(3).optional(),
    modifiers,
  }),
  z.strictObject({ kind: z.literal('wheel'), ...point, deltaX: z.number().finite(), deltaY: z.number().finite(), modifiers }),
  z.strictObject({
    kind: z.literal('key'),
    type: z.enum(['down', 'up']),
    key: z.string().min(1).max(40),
    code: z.string().max(40),
    keyCode: z.number().int().min(0).max(255).optional(),
    modifiers,
  }),
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1).max(10_000) }),
]);

/** The most input events one call carries. */
export const MAX_INPUT_EVENTS = 200;

export const liveViewFrame = defineBesideTool({
  name: 'live_view_frame',
  title: 'Live view: the latest frame',
  description: "The live view app's picture of the session: the latest frame if it changed, the tab, the control.",
  notes:
    'Called by the live view MCP App, never by a model (hosts hide it: `_meta.ui.visibility` is `["app"]`; a client that declared no MCP Apps support gets INVALID_PARAMETERS reason app_only). The first call, ' +
    'without `viewer`, makes a viewer; later calls send it back with the last `cursor`. ' +
    'When no newer frame is there, the call waits up to a second for one, then answers without a picture; calls of one viewer ' +
    'are answered at most four times a second. ' +
    `A picture is a JPEG of at most 800 pixels a side, as an image after the JSON; a result stays under ${MAX_APP_RESULT_CHARS.toLocaleString('en')} characters, leaving out a picture that would not fit (note says so). ` +
    'Watching counts as use of the session, but only up to one idle timeout past its last other use: a session nobody acts on ' +
    'still expires. A viewer that stops calling is gone after 10 s, and a control it held goes back. See docs/live-view.md. ' +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; INVALID_PARAMETERS reason too_many_viewers; BROWSER_ERROR reason unsupported on a server without live views.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    viewer: viewerSchema.optional(),
    cursor: z.number().int().min(0).optional().describe('The last cursor answered.'),
  }),
  output: z.object({
    viewer: z.string().describe('Send it back with every later call.'),
    cursor: z.number().describe('Send it back with the next call; the same cursor means the same picture.'),
    changed: z.boolean().describe('Whether a picture newer than the cursor sent follows as an image.'),
    width: z.number().describe("The page's visible width in CSS pixels, which the picture shows (0 before the first)."),
    height: z.number().describe("The page's visible height in CSS pixels."),
    url: z.string().describe("The session's tab URL."),
    title: z.string().describe("That tab's title."),
    control: controlSchema,
    note: z.string().optional().describe('Why there is no picture.'),
  }),
  kind: 'read',
  capability: 'live',
  meta: APP_ONLY,
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  async beside({ viewer, cursor }, session, ctx) {
    const frame = await liveViews(ctx).frame(session, { viewer, cursor, signal: ctx.signal });
    const { jpeg, ...fields } = frame;
    const data = { ...fields, changed: jpeg !== undefined };
    return withAttachments(data, jpeg === undefined ? [] : [{ type: 'image', data: jpeg, mimeType: 'image/jpeg' }]);
  },
});

export const liveViewControl = defineBesideTool({
  name: 'live_view_control',
  title: 'Live view: take or give back control',
  description: "The live view app's Take control and Give back control buttons.",
  notes:
    "Called by the live view MCP App, never by a model (hosts hide it; other clients get reason app_only). take puts the person's control in the session's queue: " +
    "it is held once the call running now ends, and the agent's calls wait behind it until give_back. " +
    "The same control as the live page's: one person at a time; a session handed over by request_human is anyone's on its live " +
    "view. Taking or giving back counts as use of the session; a control given back here is request_human's returnedBy live_view_app. " +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; INVALID_PARAMETERS reason control_taken when someone else has control, ' +
    'viewer_gone for an unknown viewer (call live_view_frame without one).',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    viewer: viewerSchema,
    action: z.enum(['take', 'give_back']).describe('take: the person gets control; give_back: the agent does.'),
  }),
  output: z.object({
    control: controlSchema,
    returnedBy: z.enum(['live_view_app']).optional().describe('Set when this call gave control back; request_human answers the same.'),
  }),
  kind: 'action',
  capability: 'live',
  meta: APP_ONLY,
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  async beside({ viewer, action }, session, ctx) {
    const held = action === 'give_back' && session.control.lease !== undefined;
    const control = liveViews(ctx).control(session, { viewer, action });
    return { control, ...(held ? { returnedBy: 'live_view_app' as const } : {}) };
  },
});

export const liveViewInput = defineBesideTool({
  name: 'live_view_input',
  title: "Live view: a person's input",
  description: "The person's mouse and keyboard in the live view app, sent to the session's tab while they have control.",
  notes:
    "Called by the live view MCP App, never by a model (hosts hide it; other clients get reason app_only). Each event's x and y are fractions of the view (0 to 1), " +
    'so the view may show the page at any size. ' +
    `At most ${MAX_INPUT_EVENTS} events a call, in order; an event the tab cannot take (it closed) is counted in failed. ` +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; INVALID_PARAMETERS reason not_in_control unless this viewer has control, viewer_gone for an unknown viewer.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    viewer: viewerSchema,
    events: z.array(personInputSchema).min(1).max(MAX_INPUT_EVENTS).describe('Mouse, wheel, key and text events.'),
  }),
  output: z.object({
    delivered: z.number().describe('Events that reached the page.'),
    failed: z.number().describe('Events the tab could not take.'),
  }),
  kind: 'action',
  capability: 'live',
  meta: APP_ONLY,
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  beside: ({ viewer, events }, session, ctx) => liveViews(ctx).input(session, { viewer, events }),
});
