// How a profile serves another vocabulary over the same handlers: an adapter maps its arguments onto a default tool's and resolves the implicit session.
import { SessionError, isSessionError } from '@sessionwright/session-core';
import { z } from 'zod';
import { aroundRuns, defineTool, type AnyTool, type ToolContext, type ToolDefinition, type ToolKind } from './define-tool.js';
import { holdingModals, interruptedResult, modalResultFields, modalSentence, modalStateOf, type ModalPolicy, type ModalWatch } from './modal-state.js';
import { attachmentsOf, pageResultFields, snapshotResultFields, withAttachments } from './response.js';
import { refSchema, sessionIdSchema } from './schemas.js';

/** The optional sessionId of every adapted tool: without it, the call acts on the connection's own session. */
export const optionalSessionIdSchema = sessionIdSchema
  .optional()
  .describe("A sessionId from create_session, to act on that session. Leave it out to use this connection's own browser page (created on first use).");

/** A ref as snapshots print it: e12, or f3e12 inside a frame. */
const REF_PATTERN = /^(f\d+)?e\d+$/;

/** The fields that name one element, in both spellings @playwright/mcp clients use (and its selector field). */
export const elementFields = {
  element: z
    .string()
    .max(10_000)
    .optional()
    .describe('A human-readable description of the element (for the log and for permission prompts); the element itself is named by ref or target.'),
  ref: refSchema.optional().describe('The element\'s ref from the latest browser_snapshot, e.g. "e12".'),
  target: z
    .string()
    .min(1)
    .max(10_000)
    .optional()
    .describe(
      'The element: a ref from the latest browser_snapshot ("e12"), or else a Playwright selector ("#login", "text=Sign in", "role=button[name=Send]").',
    ),
  selector: z
    .string()
    .min(1)
    .max(10_000)
    .optional()
    .describe('A Playwright selector for the element, when there is no ref (same as a target that is not a ref).'),
};

type ElementArgs = { ref?: string | undefined; target?: string | undefined; selector?: string | undefined };

/** How many of ref, target and selector name the element. */
export function elementCount(args: object): number {
  const named = args as ElementArgs;
  return [named.ref, named.target, named.selector].filter((value) => value !== undefined).length;
}

/** The default tools' `{selector}` or `{ref}` from ref, target or selector; a target that looks like a ref is one. */
export function toTarget(args: ElementArgs): { selector?: string; ref?: string } {
  if (args.ref !== undefined) return { ref: args.ref };
  if (args.target !== undefined) return REF_PATTERN.test(args.target) ? { ref: args.target } : { selector: args.target };
  if (args.selector !== undefined) return { selector: args.selector };
  return {};
}

export interface AdapterSpec<Input extends z.ZodObject, Output extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** The adapter's own input; a `sessionId` field in it is taken out before `toBase`. */
  input: Input;
  /** The default tool whose handler does the work. */
  base: AnyTool;
  /** Arguments of the base tool (without sessionId) from the adapter's; checked with the base tool's own schema. */
  toBase(args: Omit<z.infer<Input>, 'sessionId'>): Record<string, unknown>;
  /** The result also carries the page's snapshot after the call, as @playwright/mcp's actions do (for some arguments only, with a function). */
  snapshot?: boolean | ((args: Omit<z.infer<Input>, 'sessionId'>) => boolean);
  output?: Output;
  kind?: ToolKind;
  /** What the call does about a dialog or file chooser held open (default: refuses to run while one is). */
  modal?: ModalPolicy;
}

/**
 * The output of a playwright-profile tool over `base`: the base tool's fields, any of which may be missing when a
 * dialog interrupted the action (the result then says what is open, in modalState and message); url and title always.
 */
export function playwrightOutput(base: z.ZodObject, options: { snapshot?: boolean } = {}): z.ZodObject {
  const fields = options.snapshot ? base.extend(snapshotResultFields) : base;
  return fields.partial().extend({
    ...pageResultFields,
    message: z.string().optional().describe('What happened, and what to do about a dialog or file chooser left open.'),
    ...modalResultFields,
  });
}

/**
 * A tool that runs `base`'s handler with mapped arguments on the session named by sessionId, or else on the connection's
 * implicit session. The base tool's schema checks the mapped arguments before any session is made, so both vocabularies
 * accept and refuse the same values.
 */
export function adapt<Input extends z.ZodObject, Output extends z.ZodObject>(spec: AdapterSpec<Input, Output>): ToolDefinition<Input, z.ZodObject> {
  const { base } = spec;
  const output: z.ZodObject = spec.output ?? playwrightOutput(base.output as z.ZodObject, { snapshot: spec.snapshot !== undefined && spec.snapshot !== false });
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output,
    kind: spec.kind ?? base.kind,
    errors: base.errors,
    async handler(args, ctx) {
      const { sessionId, ...rest } = args as z.infer<Input> & { sessionId?: string };
      const own = rest as Omit<z.infer<Input>, 'sessionId'>;
      const mapped = baseArguments(spec.name, base, spec.toBase(own));
      const withSnapshot = typeof spec.snapshot === 'function' ? spec.snapshot(own) : spec.snapshot === true;
      const call = (id: string, context: ToolContext) =>
        base.handler({ ...mapped, sessionId: id }, withSnapshot ? { ...context, includeSnapshot: true } : context);
      return (await onSessionOrImplicit(ctx, sessionId, call, {
        tool: spec.name,
        policy: spec.modal ?? 'refuse',
        acts: (spec.kind ?? base.kind) === 'action',
      })) as z.infer<z.ZodObject>;
    },
  });
}

/** The base tool's parsed arguments; a value only the base schema refuses is INVALID_PARAMETERS under the adapter's name. */
function baseArguments(adapterName: string, base: AnyTool, mapped: Record<string, unknown>): Record<string, unknown> {
  const placeholder = 'implicit';
  const shape = (base.input as z.ZodObject).shape as Record<string, unknown>;
  const parsed = base.input.safeParse('sessionId' in shape ? { ...mapped, sessionId: placeholder } : mapped);
  if (parsed.success) {
    const { sessionId: _placeholder, ...data } = parsed.data as Record<string, unknown>;
    return data;
  }
  const problems = (parsed.error as z.ZodError).issues.map((issue) => `${issue.path.length ? `"${issue.path.join('.')}"` : 'arguments'}: ${issue.message}`);
  throw new SessionError('INVALID_PARAMETERS', `Invalid arguments for ${adapterName}: ${problems.join('; ')}.`, { details: { issues: problems } });
}

/** Which tool a call is, and what it does about a dialog or file chooser held open. */
export interface ModalHandling {
  tool: string;
  policy: ModalPolicy;
  /** The call acts on the page (it may open a file chooser), as opposed to reading it. */
  acts?: boolean;
}

/**
 * Runs `call` on the named session, or on the connection's implicit session, holding dialogs and file choosers open
 * as @playwright/mcp does (see holdingModals): a call during which a dialog opened returns at once with the page and
 * modalState; a result after which a dialog or file chooser is open says so too.
 */
export async function onSessionOrImplicit<T extends object>(
  ctx: ToolContext,
  sessionId: string | undefined,
  call: (sessionId: string, ctx: ToolContext) => Promise<T>,
  modal: ModalHandling,
): Promise<T | Record<string, unknown>> {
  const watched = async (id: string, context: ToolContext): Promise<T | Record<string, unknown>> => {
    const seen: ModalWatch = {};
    const sessions = holdingModals(context.sessions, { tool: modal.tool, policy: modal.policy, acts: modal.acts === true }, seen);
    let result: T;
    try {
      result = await call(id, { ...context, sessions });
    } catch (error) {
      if (seen.opened !== undefined) return interruptedResult(seen.opened);
      throw error;
    }
    const state = seen.session === undefined ? undefined : modalStateOf(seen.session);
    // The builder's own `pending` says the same as modalState, which is what this profile's clients read.
    const { data, attachments } = attachmentsOf(result as Record<string, unknown>);
    const { pending: _sameAsModalState, ...fields } = data;
    if (state === undefined) return withAttachments(fields, attachments) as Record<string, unknown>;
    const said = typeof fields.message === 'string' ? `${fields.message} ` : '';
    return withAttachments({ ...fields, message: `${said}${modalSentence(state)}`, modalState: state }, attachments) as Record<string, unknown>;
  };
  return onImplicitOrNamed(ctx, sessionId, watched);
}

/**
 * Runs `call` on the named session, or on the connection's implicit session. An implicit session that ended (idle
 * expiry, close_session, a browser that died) is replaced by a new one, as a one-page server opens a new page: the call
 * is retried on it only when it had not started on the old one, so nothing is done twice.
 */
async function onImplicitOrNamed<T>(ctx: ToolContext, sessionId: string | undefined, call: (sessionId: string, ctx: ToolContext) => Promise<T>): Promise<T> {
  if (sessionId !== undefined) return call(sessionId, ctx);
  const implicit = ctx.implicitSession;
  if (implicit === undefined) {
    throw new SessionError('INVALID_PARAMETERS', 'This server has no session for this connection: give a sessionId from create_session.');
  }
  for (let attempt = 0; ; attempt += 1) {
    const id = await implicit.resolve();
    let started = false;
    const sessions = aroundRuns(ctx.sessions, (work, page, session) => {
      started = true;
      return work(page, session);
    });
    try {
      return await call(id, { ...ctx, sessions });
    } catch (error) {
      const ended = isSessionError(error) && (error.code === 'SESSION_NOT_FOUND' || error.code === 'SESSION_EXPIRED') && error.sessionId === id;
      if (!ended) throw error;
      implicit.forget(id);
      if (started || attempt > 0) throw error;
    }
  }
}
