// The one response builder: a session tool returns its own fields and says what else its result carries; this assembles it.
import type { Session, SessionEvents } from '@sessionwright/session-core';
import type { Page } from 'playwright';
import { z } from 'zod';
import { readSnapshot } from './page-snapshot.js';
import { prepareTitle, readTitle } from './page-title.js';

/** Something sent after the JSON in content[0]: an image, or a file as an embedded resource (a PDF). */
export type Attachment =
  | { type: 'image'; data: string; mimeType: 'image/png' | 'image/jpeg' }
  | { type: 'resource'; uri: string; mimeType: string; blob: string };

const ATTACHMENTS = Symbol('attachments');

/** A result with attachments after its JSON (content[1…]). */
export interface WithAttachments<T> {
  readonly [ATTACHMENTS]: Attachment[];
  readonly data: T;
}

export function withAttachments<T>(data: T, attachments: Attachment[]): T | WithAttachments<T> {
  return attachments.length === 0 ? data : { [ATTACHMENTS]: attachments, data };
}

export function attachmentsOf<T>(value: T | WithAttachments<T>): { data: T; attachments: Attachment[] } {
  if (typeof value === 'object' && value !== null && ATTACHMENTS in value) {
    const reply = value as WithAttachments<T>;
    return { data: reply.data, attachments: reply[ATTACHMENTS] };
  }
  return { data: value as T, attachments: [] };
}

/** What every session tool's result carries besides its own fields; declared once for the output schemas. */
export const pageResultFields = {
  url: z.string().describe('The URL of the page the session is on after the call (a new tab if the call opened one).'),
  title: z.string().describe("That page's title."),
};

export const snapshotResultFields = {
  snapshot: z.string().optional().describe('With includeSnapshot: the accessibility snapshot of the page after the action, with [ref=…] refs.'),
  snapshotTruncated: z.boolean().optional().describe('With includeSnapshot: true when the snapshot was cut to the default size; see snapshotNote.'),
  snapshotNote: z.string().optional().describe('With includeSnapshot: what was cut from the snapshot and how to see the rest.'),
};

export const sessionResultFields = {
  expiresAt: z.number().describe('When the session now expires if left idle (ms since epoch).'),
  dialogs: z
    .array(z.object({ type: z.string(), message: z.string(), action: z.enum(['accepted', 'dismissed', 'pending']) }))
    .optional()
    .describe('JavaScript dialogs the page opened since the last call, and how they were answered.'),
  openedTabs: z.array(z.string()).optional().describe('URLs of tabs the page opened since the last call; the session now acts on the newest.'),
  closedTabs: z.array(z.string()).optional().describe('URLs of background tabs the tab limit closed.'),
  downloads: z
    .array(
      z.object({
        url: z.string(),
        suggestedFilename: z.string(),
        state: z.enum(['saved', 'failed', 'cancelled']).describe("cancelled: it passed the session's download limits (see failure)."),
        path: z.string(),
        bytes: z.number(),
        failure: z.string().optional(),
      }),
    )
    .optional()
    .describe("Files downloaded during the call, saved in the session's folder of the output directory."),
};

/**
 * A dialog or file chooser held open (ModalMode 'hold'), as the builder reports it. Not in sessionOutput: the default
 * profile never holds one, so its tools do not spend schema on it; a profile that holds them adds these fields.
 */
export const pendingResultFields = {
  pending: z
    .object({
      dialog: z.object({ type: z.string(), message: z.string() }).optional(),
      fileChooser: z.object({ multiple: z.boolean() }).optional(),
    })
    .optional()
    .describe('A dialog or file chooser held open, waiting for an answer.'),
};

/**
 * The output schema of a session tool: its own fields, then what the builder adds (url and title, the session's
 * expiry and events, and with `snapshot: true` the includeSnapshot fields).
 */
export function sessionOutput<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape & typeof pageResultFields & typeof sessionResultFields>;
export function sessionOutput<Shape extends z.ZodRawShape>(
  shape: Shape,
  options: { snapshot: true },
): z.ZodObject<Shape & typeof pageResultFields & typeof snapshotResultFields & typeof sessionResultFields>;
export function sessionOutput(shape: z.ZodRawShape, options: { snapshot?: true } = {}): z.ZodObject {
  return z.object({ ...shape, ...pageResultFields, ...(options.snapshot ? snapshotResultFields : {}), ...sessionResultFields });
}

export interface PageResult {
  url: string;
  title: string;
  snapshot?: string;
  snapshotTruncated?: true;
  snapshotNote?: string;
}

export interface SessionResult {
  expiresAt: number;
  dialogs?: SessionEvents['dialogs'];
  openedTabs?: SessionEvents['openedTabs'];
  closedTabs?: SessionEvents['closedTabs'];
  downloads?: SessionEvents['downloads'];
  pending?: { dialog?: { type: string; message: string }; fileChooser?: { multiple: boolean } };
}

/**
 * Collects what a session call's result carries besides the tool's own fields. The page state is read once, at the end
 * of the call and inside the session's queue, from the tab the session is on then: a tool never reads it itself.
 */
export class ToolResponse {
  readonly session: Session;
  private snapshotWanted = false;
  private readonly attachments: Attachment[] = [];
  private earlyTitle: { page: Page; title: Promise<string> } | undefined;

  constructor(session: Session) {
    this.session = session;
    this.firstPage = session.page;
    // After a load the title is read from the browser process; finding the page there overlaps the call.
    prepareTitle(session.page);
    this.watchLoads(session.page);
  }

  /** Pages (the session's, or a tab it opened) whose document finished loading during the call. */
  private readonly loaded = new WeakSet<Page>();

  private watchLoads(page: Page): void {
    const onLoad = () => this.loaded.add(page);
    page.once('load', onLoad);
    this.stopWatching = () => page.off('load', onLoad);
  }

  private stopWatching: () => void = () => {};
  private readonly firstPage: Page;

  /** Adds the page's snapshot (capped) after the action, for tools called with includeSnapshot. */
  includeSnapshot(include: boolean | undefined): this {
    this.snapshotWanted ||= include === true;
    return this;
  }

  attach(attachment: Attachment): this {
    this.attachments.push(attachment);
    return this;
  }

  /**
   * Says the tool will not change the page any more (a tool that only reads it says so at its start): the title is read
   * now, alongside the tool's remaining reads, instead of after them; from the browser process, so that it does not
   * queue in the page's renderer behind those reads. `title`: a read the tool already started (navigate's, at the load).
   */
  pageSettled(title?: Promise<string>): this {
    const page = this.session.page;
    this.earlyTitle = { page, title: title ?? readTitle(page) };
    return this;
  }

  /** The page part of the result: url and title of the session's page now, and the snapshot when asked for. */
  async pageResult(): Promise<PageResult> {
    const page = this.session.page;
    this.stopWatching();
    // Right after a load the page's renderer answers slowly, and the browser's copy of the title is known to be current
    // (see readTitle); otherwise the page itself is asked, which is then as fast.
    const title = this.earlyTitle?.page === page ? this.earlyTitle.title : readTitle(page, { fromBrowser: this.loaded.has(page) || page !== this.firstPage });
    const state = { url: page.url(), title: await title };
    if (!this.snapshotWanted) return state;
    try {
      const { snapshot, truncated, note } = await readSnapshot(page);
      return { ...state, snapshot, ...(truncated ? { snapshotTruncated: true as const } : {}), ...(note === undefined ? {} : { snapshotNote: note }) };
    } catch (error) {
      // The action itself succeeded; a page still changing under the snapshot must not turn that into a failure.
      return {
        ...state,
        snapshotNote: `No snapshot could be taken after the action (${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}).`,
      };
    }
  }

  /**
   * The session part: the new expiry; the dialogs, tabs and downloads the pages opened during the call; and a dialog
   * or file chooser held open (hold mode only).
   */
  static sessionResult(session: Session, events: SessionEvents): SessionResult {
    const dialog = session.pendingDialog;
    const fileChooser = session.pendingFileChooser;
    return {
      expiresAt: session.expiresAt,
      ...(events.dialogs.length ? { dialogs: events.dialogs } : {}),
      ...(events.openedTabs.length ? { openedTabs: events.openedTabs } : {}),
      ...(events.closedTabs.length ? { closedTabs: events.closedTabs } : {}),
      ...(events.downloads.length ? { downloads: events.downloads } : {}),
      ...(dialog || fileChooser
        ? { pending: { ...(dialog ? { dialog: { type: dialog.type, message: dialog.message } } : {}), ...(fileChooser ? { fileChooser } : {}) } }
        : {}),
    };
  }

  get attached(): Attachment[] {
    return this.attachments;
  }
}
