// run_steps, built once over the tools' own definitions: several page tools' calls checked with their own schemas, then run in order as one entry of a session's queue.
import { SessionError, browserError, isSessionError, type Session } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { readTitle } from '../page/title.js';
import { defineTool, type AnyTool, type ToolCapability, type ToolContext } from './define-tool.js';
import {
  callOnPage,
  inSessionQueue,
  prepareCall,
  renderCall,
  type CallScope,
  type PageCall,
  type PreparedCall,
  type SessionTool,
} from './define-session-tool.js';
import { invalidArguments, toolError } from './errors.js';
import { SESSIONS_VOCABULARY } from './next-steps.js';
import { attachmentsOf, eventResultFields, pageResultFields, withAttachments, type Attachment, type WithAttachments } from './response.js';

/** The most steps one run takes. */
export const MAX_STEPS = 20;

/** The events a step's result lists; a step whose result is left out has them said at the run's top. */
const EVENT_FIELDS = Object.keys(eventResultFields);

/** The fields a run says once, at its top, and leaves out of each step's result. */
const TOP_FIELDS = ['url', 'title', 'expiresAt'] as const;

// Every field is sent to the model on every turn: the step's arguments are an open object here, checked with the
// named tool's own schema when the run is planned, and a step's other keys and its tool's name are checked there too,
// so that their errors name the step.
const stepSchema = z.looseObject({
  tool: z.string().max(64).describe('e.g. click'),
  args: z.looseObject({}).optional().describe('Arguments.'),
  return: z.boolean().optional().describe('Return it.'),
});

export const runStepsOutput = z.object({
  completed: z.number().describe('How many steps succeeded, from the first.'),
  results: z
    .array(
      z
        .looseObject({ step: z.number().describe('The index of the step in steps, from 0.'), tool: z.string() })
        .describe("That step's result, as the tool answers it, less url, title and expiresAt."),
    )
    .describe('The results of the steps marked return, and always of the last step that succeeded.'),
  failed: z
    .object({
      step: z.number().describe('The index of the step in steps, from 0.'),
      tool: z.string(),
      errorCode: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    })
    .optional()
    .describe('The step that failed and ended the run (the steps after it did not run): its error, as the tool answers it.'),
  ...pageResultFields,
  expiresAt: z.number().describe('When the session now expires if left idle (ms since epoch).'),
  // What the pages did during steps whose results are left out, so that no dialog, tab or download goes unsaid.
  ...eventResultFields,
});

type RunStepsResult = z.infer<typeof runStepsOutput>;

export interface RunStepsSpec {
  name: string;
  title: string;
  description: string;
  notes: string;
  /** The run's sessionId field: required in the default profile, optional where calls act on the connection's own session. */
  sessionId: z.ZodType<string> | z.ZodOptional<z.ZodType<string>>;
  /** The tools served beside it; a step may be any of them that acts on a session's page (see stepTools). */
  tools: readonly AnyTool[];
  /** Tools that are never steps although they act on a page (they run code in the server). */
  excluded: ReadonlySet<string>;
  capability?: ToolCapability;
}

/** The tools a step may name: those that act on one session's page in its queue, less the excluded ones and the runs themselves. */
function stepTools(spec: RunStepsSpec): Map<string, SessionTool> {
  const steps = new Map<string, SessionTool>();
  for (const tool of spec.tools) {
    if (!('work' in tool) || spec.excluded.has(tool.name) || tool.name === spec.name) continue;
    steps.set(tool.name, tool as SessionTool);
  }
  return steps;
}

/** One step, checked and prepared: ready to run on the run's session. */
interface PlannedStep {
  index: number;
  tool: SessionTool;
  args: Record<string, unknown>;
  call: PreparedCall<unknown>;
  scope: CallScope;
  returned: boolean;
}

/** A step that ran to its end, with what it did on the page. */
interface DoneStep {
  step: PlannedStep;
  done: PageCall;
}

/** The keys a step takes. */
const STEP_KEYS: readonly string[] = Object.keys(stepSchema.shape);

/** The step that ended the run. */
type FailedStep = NonNullable<RunStepsResult['failed']>;

/** Defines a run_steps tool over the given tools: every step is checked with its own tool's schema and run with its own tool's work. */
export function defineRunSteps(spec: RunStepsSpec): AnyTool {
  const steps = stepTools(spec);
  const allowed = [...steps.keys()];
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    notes: spec.notes,
    input: z.strictObject({
      sessionId: spec.sessionId,
      steps: z.array(stepSchema).min(1).max(MAX_STEPS).describe('In order.'),
    }),
    output: runStepsOutput,
    kind: 'action',
    errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
    ...defined({ capability: spec.capability }),
    async handler({ sessionId, steps: requested }, ctx) {
      const planned: PlannedStep[] = [];
      for (const [index, step] of requested.entries()) planned.push(await planStep(index, step, { steps, allowed, sessionId, ctx }));
      return runPlanned(planned, sessionId, ctx);
    },
  });
}

/** Checks one step with its tool's own schema and prepares it, as its single call would be; INVALID_PARAMETERS with details.step otherwise. */
async function planStep(
  index: number,
  step: z.infer<typeof stepSchema>,
  run: { steps: Map<string, SessionTool>; allowed: readonly string[]; sessionId: string | undefined; ctx: ToolContext },
): Promise<PlannedStep> {
  const unknown = Object.keys(step).filter((key) => !STEP_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      `Step ${index}: unknown key ${unknown.map((key) => `"${key.slice(0, 100)}"`).join(', ')}; a step is {tool, args, return?}.`,
      {
        details: { step: index },
      },
    );
  }
  const tool = run.steps.get(step.tool);
  if (tool === undefined) {
    const named = step.tool.slice(0, 100);
    throw new SessionError('INVALID_PARAMETERS', `Step ${index}: "${named}" cannot be a step. A step is one of: ${run.allowed.join(', ')}.`, {
      details: { step: index, tool: named, allowedTools: [...run.allowed] },
    });
  }
  const given = step.args ?? {};
  if ('sessionId' in given) {
    throw new SessionError('INVALID_PARAMETERS', `Step ${index} (${tool.name}): leave sessionId out; every step acts on the run's session.`, {
      details: { step: index, tool: tool.name },
    });
  }
  try {
    const shape = tool.input.shape as Record<string, unknown>;
    const parsed = tool.input.safeParse(run.sessionId !== undefined && 'sessionId' in shape ? { ...given, sessionId: run.sessionId } : given);
    if (!parsed.success) {
      const accepted = Object.keys(shape).filter((key) => key !== 'sessionId');
      throw invalidArguments(tool.name, parsed.error, { accepted });
    }
    const args = parsed.data as Record<string, unknown>;
    const call = await prepareCall(tool.work, args, run.ctx, tool.file as PreparedCall<unknown>['file']);
    return { index, tool, args, call, scope: tool.scope(args), returned: step.return === true };
  } catch (error) {
    throw ofStep(toolError(error, { tool: tool.name, vocabulary: run.ctx.vocabulary ?? SESSIONS_VOCABULARY }), index, tool.name);
  }
}

/** The error with the step it belongs to, said in its message and details. */
function ofStep(error: SessionError, index: number, tool: string, more: Record<string, unknown> = {}): SessionError {
  return new SessionError(error.code, `Step ${index} (${tool}): ${error.message}`, {
    ...defined({ sessionId: error.sessionId }),
    details: { ...error.details, step: index, tool, ...more },
    cause: error,
  });
}

/**
 * Runs the planned steps in order as one entry of the session's queue. A cancel before the entry starts leaves it
 * unstarted; once it runs, a cancel stops it before the next step. The entry is bounded by the call ceiling as any call is.
 */
async function runPlanned(planned: PlannedStep[], named: string | undefined, ctx: ToolContext): Promise<RunStepsResult | WithAttachments<RunStepsResult>> {
  let started = false;
  const queued = new AbortController();
  const cancelQueued = () => {
    if (!started) queued.abort();
  };
  if (ctx.signal.aborted) queued.abort();
  ctx.signal.addEventListener('abort', cancelQueued, { once: true });
  const done: DoneStep[] = [];
  let running: PlannedStep | undefined;
  try {
    const loads = planned.some((step) => step.call.loads);
    const ran = await inSessionQueue(ctx, named, { loads, timeout: undefined, signal: queued.signal }, async (_page, session, sessionId, stop) => {
      started = true;
      const failed = await runEach(planned, session, ctx, stop, done, (step) => {
        running = step;
      });
      return { failed, session, sessionId, header: failed === undefined ? undefined : await pageNow(session) };
    });
    return await answer(done, ran, ctx);
  } catch (error) {
    // The call ceiling (or the session's end) stopped the run during a step: the error says which.
    if (!isSessionError(error) || running === undefined) throw error;
    throw ofStep(error, running.index, running.tool.name, { completed: done.length });
  } finally {
    ctx.signal.removeEventListener('abort', cancelQueued);
  }
}

/** Runs the steps until one fails or the call is cancelled; answers that step, or undefined when all ran. */
async function runEach(
  planned: PlannedStep[],
  session: Session,
  ctx: ToolContext,
  stop: AbortSignal,
  done: DoneStep[],
  starting: (step: PlannedStep) => void,
): Promise<FailedStep | undefined> {
  const progress = runProgress(ctx, planned.length);
  for (const step of planned) {
    // Past the call ceiling the entry has ended already: the error it ended with names the step under way.
    if (stop.aborted) throw new Error('stopped');
    if (ctx.signal.aborted) {
      const cancelled = browserError('cancelled', `The call was cancelled before step ${step.index}; the steps before it ran.`);
      return failure(step, cancelled);
    }
    starting(step);
    progress.start(step);
    let call: PageCall;
    try {
      // Each step acts on the tab the session is on when it starts (a step may have opened or selected another).
      const page = session.page;
      const work = callOnPage(step.tool.work, step.call.prepared, page, session, { ...ctx, progress: progress.within(step) }, step.scope);
      call = step.call.limit === undefined ? await work : await withinLimit(work, step.call.limit, () => session.replaceInBackground(page));
    } catch (error) {
      return failure(step, toolError(error, { tool: step.tool.name, vocabulary: ctx.vocabulary ?? SESSIONS_VOCABULARY }));
    }
    // A step that ends after the ceiling ended the entry did not complete within the call.
    if (stop.aborted) throw new Error('stopped');
    done.push({ step, done: call });
  }
  progress.end();
  return undefined;
}

/**
 * The run's progress: step i starts at i of the steps, and a step's own progress p of t moves it on to i + p/t. A value
 * is sent only when it is larger than the last, as MCP asks of progress.
 */
function runProgress(ctx: ToolContext, total: number) {
  let last = -1;
  const report = (value: number, message: string) => {
    if (value <= last) return;
    last = value;
    ctx.progress(value, total, message);
  };
  const name = (step: PlannedStep) => `step ${step.index}: ${step.tool.name}`;
  return {
    start: (step: PlannedStep) => report(step.index, name(step)),
    within:
      (step: PlannedStep): ToolContext['progress'] =>
      (progress, of, message) => {
        if (of === undefined || of <= 0) return;
        report(step.index + Math.min(progress / of, 0.99), message === undefined ? name(step) : `${name(step)}: ${message}`);
      },
    end: () => report(total, 'done'),
  };
}

/** How long past its own time limit a step may take to answer before its page counts as stuck. */
const STUCK_GRACE_MS = 2_000;

/**
 * A step with a time limit of its own (evaluate's timeout), as its single call is bounded: its tool answers at the limit
 * while the page still answers; a page that does not answer (a script in a loop) is replaced, and the step fails with
 * call_timeout, as the single call's ceiling would do.
 */
async function withinLimit(work: Promise<PageCall>, limit: number, replacePage: () => void): Promise<PageCall> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      replacePage();
      reject(
        browserError(
          'call_timeout',
          `The step did not finish within ${limit} ms and its page stopped answering; the page was replaced by a fresh one (cookies and storage kept).`,
          {
            details: { timeout: limit, pageReplaced: true },
          },
        ),
      );
    }, limit + STUCK_GRACE_MS);
  });
  try {
    return await Promise.race([work, stuck]);
  } finally {
    clearTimeout(timer);
    // The replaced page's step ends in an error nobody waits for any more.
    work.catch(() => {});
  }
}

/** The step that ended the run, as its single call would have answered its error. */
function failure(step: PlannedStep, error: SessionError): FailedStep {
  return { step: step.index, tool: step.tool.name, errorCode: error.code, message: error.message, details: error.details ?? {} };
}

/** The page the session is on now, for a run that ended on a failed step (no step's result says it). */
async function pageNow(session: Session): Promise<{ url: string; title: string }> {
  return { url: session.page.url(), title: await readTitle(session.page) };
}

/**
 * The run's answer: each step's result rendered as its single call renders it (files written for every step), those
 * marked `return` and the last that succeeded kept, less the fields the top says once; their attachments after the JSON.
 */
async function answer(
  done: DoneStep[],
  ran: { failed: FailedStep | undefined; session: Session; sessionId: string; header: { url: string; title: string } | undefined },
  ctx: ToolContext,
): Promise<RunStepsResult | WithAttachments<RunStepsResult>> {
  const results: RunStepsResult['results'] = [];
  const attachments: Attachment[] = [];
  const events: Record<string, unknown[]> = {};
  let top: { url: string; title: string } | undefined;
  for (const [position, { step, done: call }] of done.entries()) {
    const { data, attachments: own } = attachmentsOf(await renderCall(call, step.call, step.args, ran.sessionId, ctx));
    const last = position === done.length - 1;
    if (last) top = { url: String(data.url), title: String(data.title) };
    if (!step.returned && !last) {
      for (const key of EVENT_FIELDS) if (Array.isArray(data[key])) events[key] = [...(events[key] ?? []), ...data[key]];
      continue;
    }
    const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !(TOP_FIELDS as readonly string[]).includes(key)));
    results.push({ step: step.index, tool: step.tool.name, ...rest });
    attachments.push(...own);
  }
  const page = ran.header ?? top ?? { url: '', title: '' };
  const result: RunStepsResult = {
    completed: done.length,
    results,
    ...defined({ failed: ran.failed }),
    url: page.url,
    title: page.title,
    // Read after the entry left the queue, when the manager has marked the session used.
    expiresAt: ran.session.expiresAt,
    ...events,
  };
  return withAttachments(result, attachments);
}
