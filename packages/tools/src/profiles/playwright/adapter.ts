// How the playwright profile names the session tools: its call scope (the named or the implicit session, dialogs held open), and adapters that map its arguments onto a default tool's work.
import { z } from 'zod';
import type { ToolKind } from '../../framework/define-tool.js';
import { modalResultFields, type ModalPolicy } from '../../framework/modal-state.js';
import { pageResultFields, snapshotFileResultFields, snapshotResultFields, type FileOutput } from '../../framework/response.js';
import { invalidArguments } from '../../framework/errors.js';
import { MAX_SELECTOR, REF_PATTERN, refText, sessionIdSchema } from '../../framework/schemas.js';
import {
  defineBesideTool,
  defineSessionTool,
  type BesideTool,
  type CallScope,
  type SessionTool,
  type SessionToolSpec,
} from '../../framework/define-session-tool.js';
import { defined } from '@sessionwright/session-core/parts';

/** Said in the notes of every playwright-profile tool that acts on a page: which session it acts on. */
export const SESSION_NOTE = "Acts on this connection's own browser page (opened on the first call) unless sessionId names a session from create_session.";

/** Said in the notes of the tools whose result carries the page: the snapshot is in a file the result names. */
export const SNAPSHOT_NOTE =
  "The result JSON carries url, title and snapshotFile, the file holding the page's snapshot after the action (none with " +
  '--snapshot-mode none); browser_snapshot answers the snapshot itself.';

/** The optional sessionId of every adapted tool: without it, the call acts on the connection's own session. */
export const optionalSessionIdSchema = sessionIdSchema.optional().describe('Default: own page.');

/** The fields that name one element, in both spellings @playwright/mcp clients use: `ref` (older) and `target`. */
export const elementFields = {
  element: z.string().max(MAX_SELECTOR).optional().describe('For the log.'),
  ref: refText.optional().describe('Same as target (a ref).'),
  target: z.string().min(1).max(MAX_SELECTOR).optional().describe('Ref (e12) or selector.'),
};

type ElementArgs = { ref?: string | undefined; target?: string | undefined };

/** How many of ref and target name the element. */
export function elementCount(args: object): number {
  const named = args as ElementArgs;
  return [named.ref, named.target].filter((value) => value !== undefined).length;
}

/** The default tools' `{selector}` or `{ref}` from ref or target; a target that looks like a ref is one. */
export function toTarget(args: ElementArgs): { selector?: string; ref?: string } {
  if (args.ref !== undefined) return { ref: args.ref };
  if (args.target !== undefined) return REF_PATTERN.test(args.target) ? { ref: args.target } : { selector: args.target };
  return {};
}

/**
 * The one place a playwright-profile call's scope is decided: the session its sessionId names, else the connection's
 * own; dialogs and file choosers held open as @playwright/mcp holds them, with what this tool may do about one (by
 * default it refuses to run while one is open); and, when the tool shows it, the page's snapshot after the call,
 * written to a file the result names, as @playwright/mcp 0.0.83 writes its actions' snapshots.
 */
function playwrightScope(tool: { name: string; kind: ToolKind; modal?: ModalPolicy | undefined }, sessionId: string | undefined, snapshot: boolean): CallScope {
  return { sessionId, snapshot: snapshot ? 'file' : false, modal: { tool: tool.name, policy: tool.modal ?? 'refuse', acts: tool.kind === 'action' } };
}

/**
 * The output of a playwright-profile tool over `base`: the base tool's fields, any of which may be missing when a
 * dialog interrupted the action (the result then says what is open, in modalState and message); url and title always;
 * with `snapshot`, the snapshot file instead of an inline snapshot.
 */
export function playwrightOutput(base: z.ZodObject, options: { snapshot?: boolean } = {}): z.ZodObject {
  const inline = Object.fromEntries(Object.keys(snapshotResultFields).flatMap((key) => (key in base.shape ? [[key, true]] : []))) as Parameters<
    typeof base.omit
  >[0];
  const fields = options.snapshot ? base.omit(inline).extend(snapshotFileResultFields) : base;
  return fields.partial().extend({
    ...pageResultFields,
    message: z.string().optional().describe('What happened, and what to do about a dialog or file chooser left open.'),
    ...modalResultFields,
  });
}

type OwnArgs<Input extends z.ZodObject> = Omit<z.infer<Input>, 'sessionId'>;

/** A playwright-profile tool with work of its own (not a default tool's), in the profile's call scope. */
export function playwrightSessionTool<Input extends z.ZodObject, Output extends z.ZodObject, Prepared = z.infer<Input>>(
  spec: Omit<SessionToolSpec<Input, Output, Prepared>, 'scope'> & { modal?: ModalPolicy; snapshot?: boolean },
): SessionTool<Input, Output> {
  const { modal, snapshot, ...definition } = spec;
  return defineSessionTool({
    ...definition,
    scope: (args) => playwrightScope({ name: spec.name, kind: spec.kind, modal }, (args as { sessionId?: string }).sessionId, snapshot === true),
  });
}

interface AdapterSpec<Input extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  notes?: string;
  /** The adapter's own input; a `sessionId` field in it is taken out before `toBase`. */
  input: Input;
  /** The default tool whose work this is. */
  base: SessionTool;
  /** Arguments of the base tool (without sessionId) from the adapter's; checked with the base tool's own schema. */
  toBase(args: OwnArgs<Input>): Record<string, unknown>;
  /** The result also carries the page's snapshot after the call, as @playwright/mcp's actions do (for some arguments only, with a function). */
  snapshot?: boolean | ((args: OwnArgs<Input>) => boolean);
  output?: z.ZodObject;
  kind?: ToolKind;
  /** What the call does about a dialog or file chooser held open (default: refuses to run while one is). */
  modal?: ModalPolicy;
  /** With a `filename` argument: what the file takes from the result (defineSessionTool's file). */
  file?: FileOutput<z.infer<Input>>;
}

/**
 * A tool that does `base`'s work with mapped arguments, in the profile's call scope. The base tool's schema checks the
 * mapped arguments before any session is made, so both vocabularies accept and refuse the same values.
 */
export function adapt<Input extends z.ZodObject>(spec: AdapterSpec<Input>): SessionTool<Input, z.ZodObject> {
  const { base } = spec;
  const kind = spec.kind ?? base.kind;
  const own = (args: z.infer<Input>) => {
    const { sessionId: _named, ...rest } = args as z.infer<Input> & { sessionId?: string };
    return rest as OwnArgs<Input>;
  };
  return defineSessionTool<Input, z.ZodObject, unknown>({
    ...base.work,
    name: spec.name,
    title: spec.title,
    description: spec.description,
    // An adapter says what its base tool says unless it has more to say.
    ...((spec.notes ?? base.notes) === undefined ? {} : { notes: spec.notes ?? base.notes }),
    input: spec.input,
    output: spec.output ?? playwrightOutput(base.output as z.ZodObject, { snapshot: spec.snapshot !== undefined && spec.snapshot !== false }),
    kind,
    errors: base.errors,
    // A capability's tool is in the same group under every name (--caps names the group, not the tool).
    ...defined({ capability: base.capability, file: spec.file }),
    scope(args) {
      const snapshot = typeof spec.snapshot === 'function' ? spec.snapshot(own(args)) : spec.snapshot === true;
      return playwrightScope({ name: spec.name, kind, modal: spec.modal }, (args as { sessionId?: string }).sessionId, snapshot);
    },
    async prepare(args, ctx) {
      const mapped = baseArguments(spec.name, base, spec.toBase(own(args)));
      return base.work.prepare ? base.work.prepare(mapped, ctx) : mapped;
    },
  });
}

/** The base tool's parsed arguments; a value only the base schema refuses is INVALID_PARAMETERS under the adapter's name. */
function baseArguments(adapterName: string, base: SessionTool, mapped: Record<string, unknown>): Record<string, unknown> {
  const placeholder = 'implicit';
  const shape = (base.input as z.ZodObject).shape as Record<string, unknown>;
  const parsed = base.input.safeParse('sessionId' in shape ? { ...mapped, sessionId: placeholder } : mapped);
  if (!parsed.success) throw invalidArguments(adapterName, parsed.error as z.ZodError);
  const { sessionId: _placeholder, ...data } = parsed.data as Record<string, unknown>;
  return data;
}

/**
 * A tool that works beside its session's queue (live_view, request_human) in the profile's call scope: the same tool,
 * under the same name, with an optional sessionId (the connection's own session without one).
 */
export function besideInProfile(base: BesideTool): BesideTool {
  const shape = (base.input as z.ZodObject).shape;
  return defineBesideTool({
    ...base,
    input: z.strictObject({ ...shape, sessionId: optionalSessionIdSchema }),
    scope: (args) => playwrightScope(base, (args as { sessionId?: string }).sessionId, false),
  });
}
