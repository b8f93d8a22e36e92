// The `devtools` capability's recorder and debugger: actions written down as Playwright code while a person (or the agent) does them, and resuming a paused script; profiles/playwright/recording.ts names them for the playwright profile.
import { SessionError, type Session } from '@sessionwright/session-core';
import { orAfter, defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { pageResultFields, sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineBesideTool, defineSessionTool } from '../framework/define-session-tool.js';
import type { ToolContext } from '../framework/define-tool.js';

export const recordActions = defineSessionTool({
  name: 'record_actions',
  title: 'Record actions as code',
  description: "Writes down the actions done on the session's pages as Playwright code, e.g. a flow a person shows in the live view.",
  notes:
    "start begins recording every click, fill, press and navigation on the session's tabs, whoever does them (a person with " +
    'control in live_view, or your own calls); stop ends it and answers each action as a line of TypeScript for Playwright Test. ' +
    '' +
    'Errors: INVALID_PARAMETERS (reason recording_running, no_recording), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({ sessionId: sessionIdSchema, action: z.enum(['start', 'stop']).describe('start or stop.') }),
  output: sessionOutput({
    recording: z.boolean(),
    actions: z.array(z.string()).optional().describe('stop: each action as Playwright code.'),
    message: z.string(),
  }),
  kind: 'action',
  capability: 'devtools',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ action }, page, response) {
    if (action === 'start') {
      await response.session.recordings.startActions();
      await page.bringToFront().catch(() => {});
      return { recording: true, message: 'Recording the actions on this session; record_actions with action "stop" answers them as code.' };
    }
    const actions = await response.session.recordings.stopActions();
    return {
      recording: false,
      actions,
      message:
        actions.length === 0 ? 'Stopped; no action was done meanwhile.' : `Stopped; ${actions.length} action${actions.length === 1 ? '' : 's'} recorded.`,
    };
  },
});

/** A `file:line` place in a script, as the debugger takes it. */
const LOCATION = /^(.+?)(?::(\d+))?$/;

const resumeOutput = z.object({
  paused: z.boolean().describe('Paused again (step, location) rather than run to its end.'),
  pausedAt: z.object({ file: z.string(), line: z.number().optional(), column: z.number().optional(), title: z.string() }).optional(),
  message: z.string(),
  ...pageResultFields,
});

/**
 * Resumes a script the session's debugger paused (Playwright's debugger.requestPause, or a breakpoint), beside the
 * session's queue: the paused script holds the queue, so waiting in it would wait for itself. Answers when the script
 * pauses again or its call ends.
 */
async function resumeScript(
  args: { step?: boolean | undefined; location?: string | undefined },
  session: Session,
  ctx: ToolContext,
): Promise<z.infer<typeof resumeOutput>> {
  const debug = session.context.debugger;
  if (debug.pausedDetails() === null) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      'No script of this session is paused: resume continues a script that the debugger stopped (debugger.requestPause() or a breakpoint in run code).',
      {
        details: { reason: 'not_paused' },
      },
    );
  }
  const place = args.location === undefined ? undefined : LOCATION.exec(args.location);
  const stop = new AbortController();
  const abort = () => stop.abort();
  ctx.signal?.addEventListener('abort', abort, { once: true });
  try {
    const pausedAgain = new Promise<true>((resolve) => {
      const listener = () => {
        if (debug.pausedDetails() === null) return;
        debug.off('pausedstatechanged', listener);
        resolve(true);
      };
      debug.on('pausedstatechanged', listener);
      stop.signal.addEventListener('abort', () => debug.off('pausedstatechanged', listener), { once: true });
    });
    // A call queued behind the paused one runs once that call has ended: the script ran to its end.
    const ended = ctx.sessions.run(session.id, async () => false as const, { signal: stop.signal }).catch(() => false as const);
    if (place?.[1] !== undefined) await debug.runTo(place[2] === undefined ? { file: place[1] } : { file: place[1], line: Number(place[2]) });
    else if (args.step === true) await debug.next();
    else await debug.resume();
    const paused = await Promise.race([pausedAgain, ended]);
    const details = debug.pausedDetails();
    const page = session.page;
    const header = {
      url: page.url(),
      title: await orAfter(
        page.title().catch(() => ''),
        1_000,
        '',
      ),
    };
    if (paused && details !== null) {
      const { file, line, column } = details.location;
      const pausedAt = { file, title: details.title, ...defined({ line }), ...defined({ column }) };
      return { paused: true, pausedAt, message: `Paused again before: ${details.title}.`, ...header };
    }
    return { paused: false, message: 'The script ran on to the end of its call.', ...header };
  } finally {
    ctx.signal?.removeEventListener('abort', abort);
    stop.abort();
  }
}

const resumeFields = {
  step: z.boolean().optional().describe('Pause again before the next action.'),
  location: z.string().min(1).max(1_000).optional().describe('Run to file:line, e.g. "example.spec.ts:42".'),
};

export const resume = defineBesideTool({
  name: 'resume',
  title: 'Resume a paused script',
  description: 'Resumes a script the debugger paused; step pauses again before the next action, location runs to file:line.',
  notes:
    "It works beside the session's queue (the paused script holds it) and answers when the script pauses again (paused, pausedAt) or its call ends. " +
    'Errors: INVALID_PARAMETERS (reason not_paused) when nothing is paused, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({ sessionId: sessionIdSchema, ...resumeFields }),
  output: resumeOutput,
  kind: 'action',
  capability: 'devtools',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  beside: (args, session, ctx) => resumeScript(args, session, ctx),
});
