// The one response of a session call: the tool returns its own fields; this adds the page header, the snapshot, the session's events and what it holds open, and renders the result once.
import type { Session } from '@sessionwright/session-core';
import { orAfter, type SessionEvents, defined } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import { z } from 'zod';
import { modalSentence, modalStateFor, type ModalState } from './modal-state.js';
import { MAX_SNAPSHOT_MAX_CHARS, readSnapshot } from '../page/snapshot.js';
import { prepareTitle, readTitle } from '../page/title.js';

/** A snapshot file written for a call: where it is, and the resource link that names it. */
export interface SnapshotFile {
  path: string;
  link: { type: 'resource_link'; uri: string; name: string; mimeType: string };
}

/**
 * Something sent after the JSON in content[0]: an image, a file as an embedded resource (a PDF), or a link to a file
 * the client reads as an MCP resource (a snapshot file; sent to clients that cannot read the server's disk).
 */
export type Attachment =
  | { type: 'image'; data: string; mimeType: 'image/png' | 'image/jpeg' }
  | { type: 'resource'; uri: string; mimeType: string; blob: string }
  | SnapshotFile['link'];

/** The `filename` argument: checked before the call reaches its session (no --output-dir, or a name leading out of it). */
export const filenameSchema = z.string().min(1).max(1_000).optional().describe('Save to this file in --output-dir instead.');

export const FILENAME_NOTE =
  'With filename the result is written to that file inside --output-dir (never outside it; refused without --output-dir) and the answer says where (file).';

/** What a tool writes for its `filename` argument, from its result; undefined writes nothing (a dialog interrupted the call). */
export interface FileOutput<Args> {
  content(data: Record<string, unknown>, attachments: readonly Attachment[], args: Args): string | Uint8Array | undefined;
  /** The result's fields the file replaces, left out of the result (an image attachment is always left out). */
  omit: readonly string[];
}

/** The output field a tool with file output adds. */
export const fileResultField = { file: z.string().optional().describe('With filename: the file written.') };

/** One call's file output: what to write, from which arguments, and how (under --output-dir, counted against the session). */
export interface FileTarget {
  output: FileOutput<unknown>;
  args: unknown;
  write(content: string | Uint8Array): Promise<string>;
}

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

/** What an action's result carries instead of the snapshot when the snapshot goes to a file (the playwright profile). */
export const snapshotFileResultFields = {
  snapshotFile: z.string().optional().describe("The file holding the page's snapshot after the action (refs for the next call)."),
  snapshotNote: z.string().optional().describe('Why no snapshot file was written, when none was.'),
};

const sessionResultFields = {
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

const { expiresAt: _expiresAt, ...events } = sessionResultFields;
/** What the pages did during a call besides its own work (dialogs, tabs, downloads), said in its result when there was any. */
export const eventResultFields = events;

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

/** The page part of a result, in the order it shows it. */
export interface PageHeader {
  url: string;
  title: string;
  snapshot?: string;
  snapshotTruncated?: true;
  snapshotFile?: string;
  snapshotNote?: string;
}

/** What a call's response carries besides the tool's own fields; decided by the call's scope, not by the tool. */
interface ResponseOptions {
  /** The page's snapshot after the call: in the result (true), or in a file the result names ('file', with writeSnapshot). */
  snapshot: boolean | 'file';
  /** Writes the snapshot file of a call whose snapshot goes to a file. */
  writeSnapshot?: ((text: string) => Promise<SnapshotFile>) | undefined;
  /** The session holds dialogs and file choosers open: the result says which is, in modalState and message. */
  holdsModals: boolean;
}

/** How long an interrupted call waits for the browser to say the page's title (the page itself waits for its dialog). */
const INTERRUPTED_TITLE_MS = 2_000;

/** What a session tool's handler may do with the response of its call; the rest of the result is not its business. */
export interface ToolResponse {
  /** The session the call runs on. */
  readonly session: Session;
  /** Sends a file after the JSON: an image, or an embedded resource (a PDF). */
  attach(attachment: Attachment): void;
  /**
   * Says the tool will not change the page any more (a tool that only reads it says so at its start): the title is read
   * now, alongside the tool's remaining reads, instead of after them; from the browser process, so that it does not
   * queue in the page's renderer behind those reads. `title`: a read the tool already started (navigate's, at the load).
   */
  pageSettled(title?: Promise<string>): void;
}

/**
 * The response of one session call. A tool returns its own fields and may attach files or say the page is settled;
 * everything else is read once, inside the session's queue at the end of the call (pageHeader, finish), from the tab
 * the session is on then, and the result is rendered once, after the call has left the queue (render): a tool never
 * reads the page header itself.
 */
export class CallResponse implements ToolResponse {
  readonly session: Session;
  private readonly options: ResponseOptions;
  private readonly attachments: Attachment[] = [];
  private readonly firstPage: Page;
  /** Pages (the session's, or a tab it opened) whose document finished loading during the call. */
  private readonly loaded = new WeakSet<Page>();
  private stopWatching: () => void = () => {};
  private earlyTitle: { page: Page; title: Promise<string> } | undefined;
  private header: PageHeader | undefined;
  private events: SessionEvents | undefined;
  private modalState: ModalState | undefined;

  constructor(session: Session, options: ResponseOptions) {
    this.session = session;
    this.options = options;
    this.firstPage = session.page;
    // After a load the title is read from the browser process; finding the page there overlaps the call.
    prepareTitle(session.page);
    this.watchLoads(session.page);
  }

  private watchLoads(page: Page): void {
    const onLoad = () => this.loaded.add(page);
    page.once('load', onLoad);
    this.stopWatching = () => page.off('load', onLoad);
  }

  attach(attachment: Attachment): void {
    this.attachments.push(attachment);
  }

  pageSettled(title?: Promise<string>): void {
    const page = this.session.page;
    this.earlyTitle = { page, title: title ?? readTitle(page) };
  }

  /**
   * Ends the call, still in the session's queue: keeps the page header the call read (pageHeader), or, for a call a
   * dialog interrupted, reads one without the snapshot (the page waits for the dialog); then the downloads the call
   * started (saved first, so the result lists them), the dialogs and tabs the pages opened, and what the session holds open.
   */
  async finish(header?: PageHeader): Promise<void> {
    this.header = header ?? (await this.interruptedHeader());
    await this.discard();
    const held = this.options.holdsModals ? this.session.modal.state : undefined;
    this.modalState = held === undefined ? undefined : modalStateFor(held);
  }

  /** Ends a call that failed: its error is the answer, and what the pages did meanwhile is not carried to the next one. */
  async discard(): Promise<void> {
    this.stopWatching();
    await this.session.downloads.settle();
    this.events = this.session.takeEvents();
  }

  /**
   * The result, once: the tool's fields (none when a dialog interrupted it), the page header, the session's new expiry
   * (read now: the manager marks the session used when the call leaves the queue) and events, and what it holds open;
   * attachments after the JSON. With a file target (a `filename` argument) the file takes the fields it replaces and any
   * image, and the result says where it is (file); a call with nothing to write answers as without one.
   */
  async render<T extends object>(fields: T | undefined, file?: FileTarget): Promise<Record<string, unknown> | WithAttachments<Record<string, unknown>>> {
    const events = this.events ?? { dialogs: [], openedTabs: [], closedTabs: [], downloads: [] };
    const data: Record<string, unknown> = {
      ...fields,
      ...this.header,
      expiresAt: this.session.expiresAt,
      ...(events.dialogs.length ? { dialogs: events.dialogs } : {}),
      ...(events.openedTabs.length ? { openedTabs: events.openedTabs } : {}),
      ...(events.closedTabs.length ? { closedTabs: events.closedTabs } : {}),
      ...(events.downloads.length ? { downloads: events.downloads } : {}),
    };
    const state = this.modalState;
    if (state !== undefined) {
      const said = typeof data.message === 'string' ? `${data.message} ` : '';
      Object.assign(data, { message: `${said}${modalSentence(state)}`, modalState: state });
    }
    const found = file?.output.content(data, this.attachments, file.args);
    if (file === undefined || found === undefined) return withAttachments(data, this.attachments);
    const written = await file.write(found);
    const kept = Object.fromEntries(Object.entries(data).filter(([key]) => !file.output.omit.includes(key)));
    return withAttachments(
      { ...kept, file: written },
      this.attachments.filter((attachment) => attachment.type !== 'image'),
    );
  }

  /** The url and title of the session's page now, and the snapshot when the call's scope asks for it: read once, at the end of the call. */
  async pageHeader(): Promise<PageHeader> {
    const page = this.session.page;
    this.stopWatching();
    // Right after a load the page's renderer answers slowly, and the browser's copy of the title is known to be current
    // (see readTitle); otherwise the page itself is asked, which is then as fast.
    const title = this.earlyTitle?.page === page ? this.earlyTitle.title : readTitle(page, { fromBrowser: this.loaded.has(page) || page !== this.firstPage });
    const state = { url: page.url(), title: await title };
    if (!this.options.snapshot) return state;
    try {
      const { writeSnapshot } = this.options;
      if (this.options.snapshot === 'file' && writeSnapshot !== undefined) return { ...state, ...(await this.snapshotFile(page, writeSnapshot)) };
      const { snapshot, truncated, note } = await readSnapshot(page);
      return { ...state, snapshot, ...(truncated ? { snapshotTruncated: true as const } : {}), ...defined({ snapshotNote: note }) };
    } catch (error) {
      // The action itself succeeded; a page still changing under the snapshot must not turn that into a failure.
      return {
        ...state,
        snapshotNote: `No snapshot could be taken after the action (${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}).`,
      };
    }
  }

  /**
   * The whole snapshot written to its file, and the file named in the result (and linked after it). A file that cannot be
   * written (the session's file limits, a full folder) costs the action nothing: the result says why there is none.
   */
  private async snapshotFile(page: Page, write: (text: string) => Promise<SnapshotFile>): Promise<Pick<PageHeader, 'snapshotFile' | 'snapshotNote'>> {
    const { snapshot } = await readSnapshot(page, { maxChars: MAX_SNAPSHOT_MAX_CHARS });
    try {
      const file = await write(snapshot);
      this.attach(file.link);
      return { snapshotFile: file.path };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { snapshotNote: `No snapshot file was written: ${why} Call browser_snapshot to see the page.` };
    }
  }

  /** The header of a call a dialog interrupted: the browser process knows the title; asking the page would wait for the dialog. */
  private async interruptedHeader(): Promise<PageHeader> {
    const page = this.session.page;
    return { url: page.url(), title: await orAfter(readTitle(page), INTERRUPTED_TITLE_MS, '') };
  }
}
