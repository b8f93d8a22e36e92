// One way to write a tool that acts on a session: its handler gets the session's page, its arguments and the one ToolResponse; the call's scope (which session, dialogs held or not, the snapshot) is decided by the profile, and runInSession is the one way such a call reaches its page.
import { SessionError, isSessionError, type Session } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolOptions } from './define-tool.js';
import { checkModal, letFileChooserArrive, type ModalPolicy } from './modal-state.js';
import { reportWaitForPerson } from './person-wait.js';
import { outputPath, writeOutputFile } from './output-files.js';
import { writeSnapshotFile } from './snapshot-file.js';
import { CallResponse, fileResultField, type FileOutput, type FileTarget, type PageHeader, type ToolResponse, type WithAttachments } from './response.js';

/** What a session tool does, written once; each profile offers it under its own name and arguments. */
export interface SessionToolWork<Args, Prepared, Fields> {
  /**
   * Checks and reads what the call needs before it waits for its session (a URL, a key name, the files to upload): a
   * bad argument is refused before any session is touched or made. Without it the handler gets the arguments as parsed.
   */
  prepare?(args: Args, ctx: ToolContext): Prepared | Promise<Prepared>;
  /**
   * Which of the server's default timeouts (ToolOptions.defaultTimeouts) the call's `timeout` takes when it gives none:
   * an element action's or a navigation's. Without a server default the handler's own default stands.
   */
  defaultTimeout?: 'element' | 'navigation';
  /** The call loads a page: it first waits for its turn among the page loads of every session. */
  loads?: boolean | ((args: Prepared) => boolean);
  /** A time limit of the call's own, shorter than the call ceiling (evaluate's timeout). */
  timeout?(args: Prepared): number;
  /** The work, in the session's queue: returns the tool's own fields; the response adds the rest. */
  handler(args: Prepared, page: Page, response: ToolResponse, ctx: ToolContext): Promise<Fields>;
}

/** How one call reaches its session, decided by the profile from the call's arguments. */
export interface CallScope {
  /** The session the call names; undefined: the connection's implicit session. */
  sessionId: string | undefined;
  /**
   * The page's snapshot after the call: in the result (true), or written to a file in the caller's folder that the
   * result names ('file', the playwright profile's actions; none with --snapshot-mode none).
   */
  snapshot: boolean | 'file';
  /**
   * Dialogs and file choosers are held open until a tool answers them, and this is what the call may do about one
   * (the playwright profile); undefined: they are answered at once, as the session does by default.
   */
  modal?: { tool: string; policy: ModalPolicy; acts: boolean };
}

/** The fields the response adds to every session tool's result; a handler returns the others. */
type ResponseFields =
  | 'url'
  | 'title'
  | 'snapshot'
  | 'snapshotTruncated'
  | 'snapshotFile'
  | 'snapshotNote'
  | 'expiresAt'
  | 'dialogs'
  | 'openedTabs'
  | 'closedTabs'
  | 'downloads';

/** A handler's own fields: its output without what the response adds. */
export type OwnFields<Output extends z.ZodObject> = Omit<z.infer<Output>, ResponseFields>;

export interface SessionToolSpec<Input extends z.ZodObject, Output extends z.ZodObject, Prepared>
  extends Omit<ToolDefinition<Input, Output>, 'handler'>,
    SessionToolWork<z.infer<Input>, Prepared, OwnFields<Output>> {
  /** The call's scope from its arguments; by default the session named by sessionId, with the snapshot when includeSnapshot asks for it. */
  scope?(args: z.infer<Input>): CallScope;
  /**
   * With a `filename` argument the result is written to that file under --output-dir instead of answered (the playwright
   * profile's tools): what the file takes from the result. The name is checked before the call reaches its session.
   */
  file?: FileOutput<z.infer<Input>>;
}

/** A session tool: a tool definition that also carries its work, for another profile to offer it under its own name. */
export interface SessionTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> extends ToolDefinition<Input, Output> {
  // biome-ignore lint/suspicious/noExplicitAny: another profile maps its own arguments onto these, checked by this tool's own input schema first.
  readonly work: SessionToolWork<any, any, OwnFields<Output>>;
  /** The call's scope from its parsed arguments (run_steps runs a step in it, on the run's session). */
  readonly scope: (args: z.infer<Input>) => CallScope;
  /** With a `filename` argument: what the file takes from the result. */
  readonly file?: FileOutput<z.infer<Input>> | undefined;
}

/** The default profile's scope: the session the call names, dialogs answered at once, the snapshot with includeSnapshot. */
function namedScope(args: object): CallScope {
  const { sessionId, includeSnapshot } = args as { sessionId?: string; includeSnapshot?: boolean };
  return { sessionId, snapshot: includeSnapshot === true };
}

/** Defines a tool that acts on one session; its handler never resolves the session or assembles the result itself. */
export function defineSessionTool<Input extends z.ZodObject, Output extends z.ZodObject, Prepared = z.infer<Input>>(
  spec: SessionToolSpec<Input, Output, Prepared>,
): SessionTool<Input, Output> {
  const { prepare, defaultTimeout, loads, timeout, handler, scope = namedScope, file, ...definition } = spec;
  const work: SessionToolWork<z.infer<Input>, Prepared, OwnFields<Output>> = { prepare, defaultTimeout, loads, timeout, handler };
  return {
    ...definition,
    ...(file === undefined ? {} : { output: definition.output.extend(fileResultField) as unknown as Output }),
    work,
    scope,
    ...(file === undefined ? {} : { file }),
    handler: (args, ctx) => runInSession(work, args, ctx, scope(args), file as FileOutput<unknown> | undefined) as Promise<z.infer<Output>>,
  };
}

/**
 * What a tool does beside its session's queue rather than in it: it shows the session to a person or hands it over, and
 * a person's control is itself an entry in that queue, so such a tool must not wait behind it (live_view, request_human).
 * It gets the session, never its page: whatever it reads of the page, it reads without holding the queue.
 */
type BesideWork<Args, Result> = (args: Args, session: Session, ctx: ToolContext) => Promise<Result | WithAttachments<Result>>;

interface BesideToolSpec<Input extends z.ZodObject, Output extends z.ZodObject> extends Omit<ToolDefinition<Input, Output>, 'handler'> {
  /** The call's scope from its arguments (only its session counts here); by default the session named by sessionId. */
  scope?(args: z.infer<Input>): CallScope;
  beside: BesideWork<z.infer<Input>, z.infer<Output>>;
}

/** A tool that works beside its session's queue, carrying that work for another profile to offer it under its own scope. */
export interface BesideTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> extends ToolDefinition<Input, Output> {
  // biome-ignore lint/suspicious/noExplicitAny: another profile offers it with its own input (an optional sessionId), checked by that input's schema first.
  readonly beside: BesideWork<any, z.infer<Output>>;
}

/** Defines a tool that works beside one session's queue; the session is found as for any session tool (named, or the connection's own). */
export function defineBesideTool<Input extends z.ZodObject, Output extends z.ZodObject>(spec: BesideToolSpec<Input, Output>): BesideTool<Input, Output> {
  const { beside, scope = namedScope, ...definition } = spec;
  return {
    ...definition,
    beside,
    async handler(args, ctx) {
      const call = async (sessionId: string, started: () => void) => {
        // get() refuses an ended session before the work starts, so an ended implicit session is replaced.
        const session = ctx.sessions.get(sessionId);
        started();
        return beside(args, session, ctx);
      };
      const { sessionId } = scope(args);
      return sessionId === undefined ? onImplicitSession(ctx, call) : call(sessionId, () => {});
    },
  };
}

/**
 * Runs one call of `work` in its scope and renders its result: prepares the arguments, finds the session (the named
 * one, or the connection's implicit one), and in the session's queue applies the dialog policy, runs the handler with
 * the call's response, and lets the response read the page. The call ends when the client cancels it (ctx.signal) and
 * at the call ceiling, or at the work's own timeout if that is shorter (session-core's Session.run does both). A call
 * that waits behind a person who has control of the session (its live view) tells the client so through progress
 * notifications while it waits.
 */
async function runInSession<Args, Prepared, Fields extends object>(
  work: SessionToolWork<Args, Prepared, Fields>,
  args: Args,
  ctx: ToolContext,
  scope: CallScope,
  file?: FileOutput<unknown>,
): Promise<Record<string, unknown> | WithAttachments<Record<string, unknown>>> {
  const call = await prepareCall(work, args, ctx, file);
  return inSessionQueue(ctx, scope.sessionId, { loads: call.loads, timeout: call.limit, signal: ctx.signal }, async (page, session, sessionId) => {
    const done = await callOnPage(work, call.prepared, page, session, ctx, scope);
    // Rendered after run() settled: the manager marks the session used again when the call leaves the queue.
    return () => renderCall(done, call, args, sessionId, ctx);
  }).then((render) => render());
}

/** A call of a session tool, ready to wait for its session: the prepared arguments, its bounds and its output file. */
export interface PreparedCall<Prepared> {
  prepared: Prepared;
  loads: boolean;
  /** The work's own time limit, when shorter than the call ceiling. */
  limit: number | undefined;
  file: FileOutput<unknown> | undefined;
  /** Where the file output goes (checked under --output-dir), when the call names one. */
  target: string | undefined;
}

/** Checks and prepares a call's arguments before it touches any session: its output file, `prepare`, the default timeout. */
export async function prepareCall<Args, Prepared>(
  work: SessionToolWork<Args, Prepared, unknown>,
  args: Args,
  ctx: ToolContext,
  file: FileOutput<unknown> | undefined,
): Promise<PreparedCall<Prepared>> {
  const filename = file === undefined ? undefined : (args as { filename?: string }).filename;
  const target = filename === undefined ? undefined : outputPath(ctx.options, filename);
  const prepared = withDefaultTimeout(work.prepare ? await work.prepare(args, ctx) : (args as unknown as Prepared), work.defaultTimeout, ctx.options);
  const loads = typeof work.loads === 'function' ? work.loads(prepared) : work.loads === true;
  return { prepared, loads, limit: work.timeout?.(prepared), file, target };
}

/**
 * Runs `fn` as one entry of the session's queue: the named session, or the connection's implicit one; `fn`'s stop
 * signal aborts when the entry is cancelled or passes its time limit (the entry then ends at once). A call that
 * waits behind a person who has control of the session (its live view) tells the client so through progress
 * notifications while it waits.
 */
export async function inSessionQueue<T>(
  ctx: ToolContext,
  named: string | undefined,
  options: { loads: boolean; timeout: number | undefined; signal: AbortSignal },
  fn: (page: Page, session: Session, sessionId: string, stop: AbortSignal) => Promise<T>,
): Promise<T> {
  const call = async (sessionId: string, started: () => void) => {
    let stopReporting = () => {};
    return ctx.sessions
      .run(
        sessionId,
        (page, session, stop) => {
          stopReporting();
          started();
          return fn(page, session, sessionId, stop);
        },
        {
          signal: options.signal,
          loads: options.loads,
          ...defined({ timeout: options.timeout }),
          onWaitForPerson: (lease) => {
            stopReporting = reportWaitForPerson(ctx, lease);
          },
        },
      )
      .finally(() => stopReporting());
  };
  return named === undefined ? onImplicitSession(ctx, call) : call(named, () => {});
}

/** One call's work done on its page, in the session's queue: its response and its fields (undefined when a dialog interrupted it). */
export interface PageCall {
  response: CallResponse;
  fields: object | undefined;
}

/** In the session's queue: applies the scope's dialog policy, runs the handler with the call's response, and lets the response read the page. */
export async function callOnPage<Prepared>(
  work: SessionToolWork<unknown, Prepared, unknown>,
  prepared: Prepared,
  page: Page,
  session: Session,
  ctx: ToolContext,
  scope: CallScope,
): Promise<PageCall> {
  if (scope.modal !== undefined) await admit(session, scope.modal);
  const response = new CallResponse(session, {
    snapshot: scope.snapshot === 'file' && ctx.options.snapshotMode === 'none' ? false : scope.snapshot,
    holdsModals: scope.modal !== undefined,
    writeSnapshot: (text) => writeSnapshotFile(ctx.options, session, text),
  });
  return { response, fields: (await runHandler(work, prepared, page, response, ctx, scope)) as object | undefined };
}

/** The result of a call done on its page, with its file output written when it names one. */
export function renderCall(
  done: PageCall,
  call: PreparedCall<unknown>,
  args: unknown,
  sessionId: string,
  ctx: ToolContext,
): Promise<Record<string, unknown> | WithAttachments<Record<string, unknown>>> {
  const { file, target } = call;
  return done.response.render(done.fields, file === undefined || target === undefined ? undefined : fileTarget(file, target, args, sessionId, ctx));
}

/** Where a call's file output goes: `target` (from outputPath), redacted like any result (writeOutputFile), counted against the session's limits. */
function fileTarget(output: FileOutput<unknown>, target: string, args: unknown, sessionId: string, ctx: ToolContext): FileTarget {
  return {
    output,
    args,
    async write(content) {
      // The file counts against the limits of the session the call acted on, while it is open.
      let session: Session | undefined;
      try {
        session = ctx.sessions.get(sessionId);
      } catch {
        session = undefined;
      }
      return writeOutputFile(ctx.options, target, content, session?.downloads);
    },
  };
}

/**
 * The prepared arguments with the server's default for `timeout` when the call gave none. It is filled in after
 * `prepare`, so a profile's adapter, which maps its own arguments onto the tool's there, gets it too.
 */
function withDefaultTimeout<Prepared>(prepared: Prepared, kind: SessionToolWork<unknown, Prepared, unknown>['defaultTimeout'], options: ToolOptions): Prepared {
  const fallback = kind === undefined ? undefined : options.defaultTimeouts?.[kind];
  if (fallback === undefined || typeof prepared !== 'object' || prepared === null) return prepared;
  return (prepared as { timeout?: unknown }).timeout === undefined ? { ...prepared, timeout: fallback } : prepared;
}

/**
 * Lets a call run on a session that holds dialogs and file choosers open: one that finds one open is refused unless it
 * answers it, and an answer is refused when nothing is open; a call that does not answer first lets an action the
 * last dialog interrupted finish.
 */
async function admit(session: Session, modal: NonNullable<CallScope['modal']>): Promise<void> {
  session.modal.setMode('hold');
  checkModal(session, modal.tool, modal.policy);
  if (modal.policy === 'refuse') await session.modal.settleInterrupted();
}

/**
 * The handler's fields, or undefined when a dialog held open interrupted the call: the action goes on, waiting for the
 * answer, while the call returns at once. The page is read within the same race, since a dialog may open while it is.
 */
async function runHandler<Prepared, Fields>(
  work: SessionToolWork<unknown, Prepared, Fields>,
  args: Prepared,
  page: Page,
  response: CallResponse,
  ctx: ToolContext,
  scope: CallScope,
): Promise<Fields | undefined> {
  const { session } = response;
  const modal = scope.modal;
  const act = async () => {
    const fields = await work.handler(args, page, response, ctx);
    if (modal?.acts && session.modal.state === undefined) await letFileChooserArrive(session);
    return { fields, header: await response.pageHeader() };
  };
  let outcome: { value: { fields: Fields; header: PageHeader } } | { interrupted: unknown };
  try {
    outcome = modal === undefined ? { value: await act() } : await session.modal.race(act());
  } catch (error) {
    await response.discard();
    throw error;
  }
  if (!('value' in outcome)) {
    await response.finish();
    return undefined;
  }
  await response.finish(outcome.value.header);
  return outcome.value.fields;
}

/**
 * Runs `call` on the connection's implicit session. One that ended (idle expiry, close_session, a browser that died)
 * is replaced by a new one, as a one-page server opens a new page: the call is retried on it only when it had not
 * started on the old one, so nothing is done twice.
 */
async function onImplicitSession<T>(ctx: ToolContext, call: (sessionId: string, started: () => void) => Promise<T>): Promise<T> {
  const implicit = ctx.implicitSession;
  if (implicit === undefined) {
    throw new SessionError('INVALID_PARAMETERS', 'This server has no session for this connection: give a sessionId from create_session.');
  }
  for (let attempt = 0; ; attempt += 1) {
    const id = await implicit.resolve();
    let started = false;
    try {
      return await call(id, () => {
        started = true;
      });
    } catch (error) {
      const ended = isSessionError(error) && (error.code === 'SESSION_NOT_FOUND' || error.code === 'SESSION_EXPIRED') && error.sessionId === id;
      if (!ended) throw error;
      implicit.forget(id);
      if (started || attempt > 0) throw error;
    }
  }
}
