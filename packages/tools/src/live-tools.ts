// Showing a session to a person: live_view (a link to watch it and take control) and request_human (hand it over and wait for it back).
import { type Session, browserError, orAfter } from '@sessionwright/session-core';
import { z } from 'zod';
import type { LiveViewAccess, ToolContext } from './define-tool.js';
import { readTitle } from './page-title.js';
import { reportWaitForPerson } from './person-wait.js';
import { sessionIdSchema } from './schemas.js';
import { defineBesideTool } from './session-tool.js';

/** The MCP App resource that shows live_view's result inline in hosts that render MCP Apps. */
export const LIVE_VIEW_RESOURCE_URI = 'ui://sessionwright/live-view.html';

/** How long request_human waits for a person by default, and at most. */
export const DEFAULT_HAND_OFF_TIMEOUT = 300_000;
export const MAX_HAND_OFF_TIMEOUT = 3_600_000;

const linkFields = {
  url: z.string().describe("The live view's address: the session's current tab, live, with a Take control button."),
  expiresAt: z.number().describe('When the link stops working (ms since epoch); it stops earlier if the session ends.'),
};

export const liveView = defineBesideTool({
  name: 'live_view',
  title: 'Live view of a session',
  description: "A link where a person watches the session's current tab live and can take control.",
  notes:
    'Give the link to the user who wants to see or help. While the person has control your calls on the session wait until they give it back (each still ends at its time limit). ' +
    "The link works for an hour at most, and never past its session; only the session's owner can get one. See docs/live-view.md. " +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; BROWSER_ERROR reason unsupported on a server without live views.',
  input: z.strictObject({ sessionId: sessionIdSchema }),
  output: z.object(linkFields),
  kind: 'read',
  capability: 'live',
  meta: { ui: { resourceUri: LIVE_VIEW_RESOURCE_URI } },
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  beside: (_args, session, ctx) => liveViews(ctx).open(session),
});

const OUTCOMES = ['returned', 'timeout', 'with_person', 'declined', 'session_ended', 'show_link'] as const;
type RequestOutcome = (typeof OUTCOMES)[number];

const OUTCOME_MESSAGES: Record<RequestOutcome, string> = {
  returned: 'The person gave control back; the session is yours again.',
  timeout: 'Nobody opened the live view in time; control is back with you.',
  with_person: 'The person still has control: your calls on this session wait until they give it back. Call request_human again to keep waiting.',
  declined: 'The user declined to open the live view; control is back with you.',
  session_ended: 'The session ended while the person had it.',
  show_link:
    'Show the user liveUrl and what to do. They have control now: your next call on this session waits until they give it back, or until the timeout passes with nobody on the page.',
};

export const requestHuman = defineBesideTool({
  name: 'request_human',
  title: 'Ask a person to act on a session',
  description: 'Hands the session to the user (a CAPTCHA, a sign-in) and answers when they give control back.',
  notes:
    'The person gets a live-view link and control at once; your calls on the session wait meanwhile. With a client that can open links for its user (URL elicitation) the call waits for the hand-back, ' +
    'reporting progress; without one it answers at once with outcome show_link: show the user liveUrl yourself. Control comes back at timeout if nobody has the page open. ' +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED; INVALID_PARAMETERS (reason control_taken) while someone else has control; BROWSER_ERROR reason cancelled when the call is cancelled.',
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
    message: z.string(),
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
    const answer = (outcome: RequestOutcome) => result(session, outcome, link);
    // Where the client cannot open a link for the user, the agent does: control is already the person's.
    const asked = await askToOpen(ctx, message, link.url);
    if (asked === undefined) return answer('show_link');
    if (asked.action !== 'accept') {
      handOff.cancel();
      return answer('declined');
    }
    const lease = session.control;
    const stopReporting = lease === undefined ? () => {} : reportWaitForPerson(ctx, lease, 'Waiting for the person to give control of the session back.');
    const cancel = () => handOff.cancel();
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      const outcome = await handOff.outcome;
      asked.complete();
      if (outcome === 'cancelled' || ctx.signal.aborted) {
        throw browserError('cancelled', 'The request was cancelled; control of the session was taken back from the person.');
      }
      return answer(outcome);
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

async function result(session: Session, outcome: RequestOutcome, link: { url: string; expiresAt: number }) {
  const page = session.page;
  const title = page.isClosed() ? '' : await orAfter(readTitle(page), 1_000, '');
  return {
    outcome,
    message: OUTCOME_MESSAGES[outcome],
    liveUrl: link.url,
    expiresAt: link.expiresAt,
    url: page.isClosed() ? '' : page.url(),
    title,
  };
}
