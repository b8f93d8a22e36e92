// The shape of a tool (data: name, schemas, annotations, plus a handler that sees only a narrow context) and runTool, which runs one call of it.
import type { ErrorCode, Logger, ManagerRunOptions, Session, SessionImage, SessionInfo, SessionOptions, SessionError } from '@sessionwright/session-core';
import type { ConsoleLevel, ImageStorageState, PersonInput, SavedStateInfo, SessionFiles } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import type { z } from 'zod';
import { invalidArguments, toolError } from './errors.js';
import { SESSIONS_VOCABULARY, type ToolVocabulary } from './next-steps.js';
import { attachmentsOf, type Attachment, type WithAttachments } from './response.js';
import { defined } from '@sessionwright/session-core/parts';

/**
 * What a handler may do with sessions: only what tools use, never the SDK server or the transport. The server hands
 * each call an access scoped to its caller, so which sessions a caller may see and use is decided there, not per tool.
 */
export interface SessionAccess {
  readonly maxSessions: number;
  /** Opens a session owned by the caller, with the given settings (none: a plain session), or as a copy of an image. */
  create(request?: { options?: SessionOptions; image?: SessionImage; signal?: AbortSignal | undefined }): Promise<Session>;
  /** Opens copies of the caller's session (SessionManager.fork); undefined where the server cannot. */
  fork?(sessionId: string, request: { count?: number; signal?: AbortSignal | undefined }): Promise<Session[]>;
  /** The caller's saved states; undefined where the server keeps none. */
  readonly states?: SavedStateAccess | undefined;
  /** Closes the session; answers the files it leaves (videos, a trace still recording). */
  close(sessionId: string): Promise<SessionFiles>;
  /** The caller's open session with this id, outside its queue (SESSION_NOT_FOUND / SESSION_EXPIRED otherwise); not a use of it. */
  get(sessionId: string): Session;
  /** The caller's open sessions. */
  list(): Promise<SessionInfo[]>;
  /**
   * Runs `fn` in the session's queue; it ends when `options.signal` aborts and at the call ceiling (or `options.timeout`).
   * With `options.loads` it waits for its turn among the page loads of every session first.
   */
  run<T>(sessionId: string, fn: SessionWork<T>, options?: Omit<ManagerRunOptions, 'identity'>): Promise<T>;
}

/** One caller's saved states (SavedStates, scoped to the caller's identity). */
export interface SavedStateAccess {
  /** Saves the session's cookies and every origin's localStorage and IndexedDB under `name`. */
  save(sessionId: string, name: string, signal?: AbortSignal): Promise<SavedStateInfo>;
  list(): Promise<SavedStateInfo[]>;
  delete(name: string): Promise<SavedStateInfo>;
  /** The storage state saved under `name` (INVALID_PARAMETERS, details.state not_found, when there is none). */
  load(name: string): Promise<ImageStorageState>;
}

/** What runs in a session's queue: a handler's work on the page; `stop` aborts when the call is cancelled or passes its time limit. */
type SessionWork<T> = (page: Page, session: Session, stop: AbortSignal) => Promise<T>;

export interface ToolOptions {
  /** Whether `navigate` may open file: URLs (off by default: an agent must not read the server's disk). */
  allowFileUrls: boolean;
  /** `--file-root` directories: when given, the only places upload_file reads files from. */
  fileRoots?: readonly string[];
  /**
   * The server's own files and folders (the data folder, the tokens, secrets and config files): no tool reads them,
   * even where they lie inside a directory it may read from.
   */
  serverFiles?: readonly string[];
  /** How long element actions and navigations wait when a call gives no timeout (each tool's own default otherwise). */
  defaultTimeouts?: { element?: number; navigation?: number };
  /** The lowest level console_messages includes when a call names none (default info). */
  consoleLevel?: ConsoleLevel;
  /**
   * The caller's own folder of `--output-dir`, when there is one: the only place a tool reads or writes a file its
   * caller names (filename arguments, storage state files).
   */
  outputDir?: string;
  /** `--output-max-size`: the most bytes outputDir may hold; a file that would pass it is refused. */
  outputMaxSize?: number;
  /**
   * The whole `--output-dir`, where outputDir is one client's folder inside it: no file in it outside outputDir is
   * read for this caller, even through a directory it may read from (a `--file-root` holding `--output-dir`).
   */
  outputRoot?: string;
  /** The settings in effect, each `{value, source}`, secrets masked (get_config answers it). */
  config?: Readonly<Record<string, unknown>>;
  /** Secret values by name (--secrets): text to type that is exactly a secret's name types its value. */
  secrets?: Readonly<Record<string, string>>;
  /**
   * `--snapshot-mode` (the playwright profile): full, each action writes the page's snapshot to a file its result names;
   * none, it writes and names none (browser_snapshot still answers one).
   */
  snapshotMode?: 'full' | 'none';
  /** Hides secrets and URL parameters in text a tool writes to a file (results are hidden by the server's serializer). */
  redact?: (text: string) => string;
  /** Hides from now on the part of secret `name` a page kept of it (a field's maxlength cut what was typed). */
  hideTyped?: (name: string, fragment: string) => void;
}

/** The directories upload_file may read from, and where that list came from (said in its errors). */
export interface AllowedRoots {
  directories: readonly string[];
  source: 'file-root' | 'client-roots' | 'working-directory' | 'none';
  /** Files inside `folder` are read only when inside `own` (other clients' folders of --output-dir). */
  fenced?: { folder: string; own: string } | undefined;
  /** Files and folders never read, wherever they lie (ToolOptions.serverFiles). */
  refused?: readonly string[] | undefined;
}

export interface ToolContext {
  sessions: SessionAccess;
  logger: Logger;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
  /** Reports progress on long calls; a no-op when the client asked for none. */
  progress(progress: number, total?: number, message?: string): void;
  options: ToolOptions;
  /** The tool names error messages use for what to do next (default: this profile's). */
  vocabulary?: ToolVocabulary;
  /** The connection's implicit session (the playwright profile's tools act on it when no sessionId is given). */
  implicitSession?: ImplicitSessionAccess;
  /** Live views of sessions, where the server serves them (live_view, request_human). */
  live?: LiveViewAccess;
  /**
   * Asks the user to open a URL, by URL-mode elicitation; undefined when the client did not declare support for it.
   * Answers the user's choice and a function that tells the client the interaction behind the URL is complete.
   */
  elicitUrl?(request: { message: string; url: string }): Promise<{ action: 'accept' | 'decline' | 'cancel'; complete(): void }>;
  /**
   * The directories upload_file may read: --file-root if given, else the client's MCP roots (asked of a local client
   * that declared the roots capability), else a local client's working directory; none for a remote client without
   * --file-root (it sends file contents inline).
   */
  roots?(): Promise<AllowedRoots>;
}

/**
 * One connection's implicit sessions: its own, and one per named isolated context; each created on first use, closed
 * with the connection (see ImplicitSession). Calls without a sessionId act on the context in use.
 */
export interface ImplicitSessionAccess {
  /** The id of the context in use, once it exists and has not been closed through this handle. */
  readonly current: string | undefined;
  /** The id of the context in use, creating its session when there is none (or the last one ended). */
  resolve(): Promise<string>;
  /** The session of the named isolated context, creating it on first use (`created`: by this call). */
  isolated(name: string): Promise<{ id: string; created: boolean }>;
  /** Makes the named isolated context (undefined: the connection's own session) the one calls without a sessionId act on. */
  use(name: string | undefined): void;
  /** The contexts whose sessions exist: the connection's own first (name undefined), then the named ones as first used. */
  contexts(): { name: string | undefined; id: string }[];
  /** Says that `sessionId` has ended, so the next resolve() creates a new session if it was the one in use (a named context falls back to the own one). */
  forget(sessionId: string): void;
  /** Closes every one of the connection's implicit sessions; true when one was closed. */
  close(): Promise<boolean>;
}

/** A URL that shows a session live, until `expiresAt` (ms since epoch) or the session's end. */
export interface LiveViewLink {
  url: string;
  expiresAt: number;
}

/**
 * How a handed-over session came back: given back (`returnedBy` says through what), taken back at the timeout because
 * nobody had opened the view, still with the person at the timeout (calls keep waiting until they give it back), taken
 * back by cancel(), or ended with the session.
 */
export type HandOffOutcome = 'returned' | 'timeout' | 'with_person' | 'cancelled' | 'session_ended';

/**
 * Through what a control was given back, as far as the server can tell: the live page's Give back control button, or
 * a live_view_control call of a client that declared MCP Apps support (the app's button, or anything that client runs).
 */
export type GiveBackSource = 'live_page' | 'live_view_app';

/** How a hand-off ended: its outcome and, when it was given back, through what. */
export interface HandOffEnd {
  outcome: HandOffOutcome;
  returnedBy?: GiveBackSource;
}

/** A session handed to a person: control is theirs from the start; `ended` settles as HandOffEnd says. */
export interface HandOff {
  readonly ended: Promise<HandOffEnd>;
  /** Takes control back at once (the user declined, the call was cancelled). */
  cancel(): void;
}

/** Where a person's control of a session stands, as one viewer sees it: `mine` when that viewer may act with it. */
export interface LiveControl {
  state: 'free' | 'waiting' | 'held';
  mine: boolean;
  by: 'person' | 'agent';
  /** What the agent asked the person to do (request_human), or empty. */
  message: string;
}

/** What an MCP App is shown of a session at one poll (live_view_frame). */
export interface LiveFrame {
  /** The app's viewer id: sent back with every later call, so its control is its own. */
  viewer: string;
  /** Counts the frames: the same cursor means the same picture. */
  cursor: number;
  /** The picture as base64 JPEG, when it changed since the cursor the app sent and fits the size cap. */
  jpeg?: string;
  /** The page's visible area in CSS pixels, which the picture shows (0 before the first one). */
  width: number;
  height: number;
  url: string;
  title: string;
  control: LiveControl;
  /** Why there is no picture (the screencast cannot run here, or a frame was over the size cap). */
  note?: string;
}

/** What the server offers tools for showing sessions to people. */
export interface LiveViewAccess {
  /** A new URL showing the session live, where a person can take control. */
  open(session: Session): Promise<LiveViewLink>;
  /** Hands the session to a person (their control enters its queue at once); INVALID_PARAMETERS if someone already has it. */
  handOff(session: Session, request: { message: string; timeout: number }): HandOff;
  /**
   * The session as an MCP App draws it: a new viewer when `viewer` is absent (or gone), the latest frame when it is
   * newer than `cursor` (waiting a moment for one when it is not), the tab and the control. INVALID_PARAMETERS
   * (reason `too_many_viewers`) when the session or the server has as many viewers as it serves.
   */
  frame(session: Session, request: { viewer?: string | undefined; cursor?: number | undefined; signal: AbortSignal }): Promise<LiveFrame>;
  /** Takes or gives back a person's control for this viewer, as the live page's buttons do; INVALID_PARAMETERS when another has it or the viewer is gone. */
  control(session: Session, request: { viewer: string; action: 'take' | 'give_back' }): LiveControl;
  /** A person's input from this viewer, which must have control; INVALID_PARAMETERS otherwise. */
  input(session: Session, request: { viewer: string; events: readonly PersonInput[] }): Promise<{ delivered: number; failed: number }>;
}

/** How a tool touches the world; mapped to MCP annotations in one place. */
export type ToolKind = 'read' | 'action' | 'lifecycle-create' | 'lifecycle-close';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export function annotationsFor(kind: ToolKind): ToolAnnotations {
  switch (kind) {
    case 'read':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
    case 'action':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
    case 'lifecycle-create':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    case 'lifecycle-close':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
  }
}

/** The capability groups `--caps` may name (docs/agent-tools.md); `all` names every one. */
export const CAPABILITIES = ['network', 'storage', 'states', 'pdf', 'live', 'devtools', 'testing', 'vision', 'config', 'unsafe', 'steps'] as const;

/** An optional group of tools served only when `--caps` asks for it (docs/agent-tools.md); without one a tool is in the default list. */
export type ToolCapability = (typeof CAPABILITIES)[number];

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /**
   * Written for a model, which is sent it on every turn: what the tool does and when to use it, in a sentence or two.
   * What its errors mean is said by the errors themselves, and at length in `notes`.
   */
  description: string;
  /** Written for people (docs/tools.md): how the tool behaves in detail, its arguments' fine points, what each error means and what to do about it. */
  notes?: string;
  input: Input;
  output: Output;
  kind: ToolKind;
  /** Error codes this tool can answer with, listed in the README. */
  errors: readonly ErrorCode[];
  /** The capability group the tool belongs to; undefined for a default tool. */
  capability?: ToolCapability;
  /** The tool's `_meta` in tools/list (an MCP App's `ui.resourceUri`). */
  meta?: Record<string, unknown>;
  handler(args: z.infer<Input>, ctx: ToolContext): Promise<z.infer<Output> | WithAttachments<z.infer<Output>>>;
}

/** Identity at run time; it exists so each tool's handler gets its argument and result types inferred. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(definition: ToolDefinition<Input, Output>): ToolDefinition<Input, Output> {
  return definition;
}

/** A list of tools of different schemas, as the server sees them. */
// biome-ignore lint/suspicious/noExplicitAny: a handler's argument type is contravariant, so only `any` lets tools of different schemas share one list; each tool is checked where defineTool infers it.
export type AnyTool = ToolDefinition<any, any>;

export type ToolOutcome = { ok: true; data: Record<string, unknown>; attachments: Attachment[] } | { ok: false; error: SessionError };

/** Never throws: whatever goes wrong comes back as an error outcome with a code. */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  const sessionId = sessionIdOf(rawArgs);
  if (!parsed.success) {
    return {
      ok: false,
      error: invalidArguments(tool.name, parsed.error, { accepted: Object.keys(tool.input.shape), ...defined({ sessionId }) }),
    };
  }
  try {
    const { data, attachments } = attachmentsOf(await tool.handler(parsed.data, ctx));
    return { ok: true, data, attachments };
  } catch (error) {
    // Anything not already a SessionError is BROWSER_ERROR reason unknown, with the browser's own message.
    return {
      ok: false,
      error: toolError(error, { tool: tool.name, vocabulary: ctx.vocabulary ?? SESSIONS_VOCABULARY, ...defined({ sessionId }) }),
    };
  }
}

function sessionIdOf(rawArgs: unknown): string | undefined {
  if (typeof rawArgs !== 'object' || rawArgs === null) return undefined;
  const value = (rawArgs as Record<string, unknown>).sessionId;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
