// Dialogs and file choosers held open, as @playwright/mcp has them: an action that opens one returns and says so, other calls refuse until it is answered.
import { SessionError, type Session } from '@sessionwright/session-core';
import { z } from 'zod';
import { aroundRuns, type SessionAccess } from './define-tool.js';
import { readTitle } from './page-title.js';

/** What a call may do about a dialog or file chooser held open: refuse to run, or be the call that answers it. */
export type ModalPolicy = 'refuse' | 'answers-dialog' | 'answers-file-chooser';

/** The dialog or file chooser a session holds open, and the tool that answers it. */
export interface ModalState {
  type: 'dialog' | 'fileChooser';
  /** For a dialog: alert, confirm, prompt or beforeunload. */
  dialogType?: string;
  /** For a dialog: the text it shows. */
  dialogMessage?: string;
  /** For a prompt: the text it proposes. */
  defaultValue?: string;
  /** For a file chooser: whether it takes several files. */
  multiple?: boolean;
  /** The tool that answers it. */
  answerWith: string;
}

export const modalStateSchema = z
  .object({
    type: z.enum(['dialog', 'fileChooser']).describe('A JavaScript dialog or a file chooser is open and waits for an answer.'),
    dialogType: z.string().optional().describe('For a dialog: alert, confirm, prompt or beforeunload.'),
    dialogMessage: z.string().optional().describe('For a dialog: the text it shows.'),
    defaultValue: z.string().optional().describe('For a prompt: the text it proposes.'),
    multiple: z.boolean().optional().describe('For a file chooser: whether it takes several files.'),
    answerWith: z.string().describe('The tool that answers it: browser_handle_dialog or browser_file_upload.'),
  })
  .describe('Present when the page holds a dialog or file chooser open: answer it with answerWith before anything else.');

/** The result fields the playwright profile adds to every browser_* result. */
export const modalResultFields = {
  modalState: modalStateSchema.optional(),
};

export const HANDLE_DIALOG_TOOL = 'browser_handle_dialog';
export const FILE_UPLOAD_TOOL = 'browser_file_upload';

/** The dialog (first) or file chooser the session holds open, if any. */
export function modalStateOf(session: Session): ModalState | undefined {
  const dialog = session.pendingDialog;
  if (dialog !== undefined) {
    return {
      type: 'dialog',
      dialogType: dialog.type,
      dialogMessage: dialog.message,
      ...(dialog.type === 'prompt' ? { defaultValue: dialog.defaultValue } : {}),
      answerWith: HANDLE_DIALOG_TOOL,
    };
  }
  const chooser = session.pendingFileChooser;
  if (chooser !== undefined) return { type: 'fileChooser', multiple: chooser.multiple, answerWith: FILE_UPLOAD_TOOL };
  return undefined;
}

/** One sentence for the model: what is open and how to answer it. */
export function modalSentence(state: ModalState): string {
  if (state.type === 'dialog') {
    const what = `A ${state.dialogType ?? 'JavaScript'} dialog is open (${JSON.stringify((state.dialogMessage ?? '').slice(0, 200))})`;
    const how =
      state.dialogType === 'prompt'
        ? `answer it with ${HANDLE_DIALOG_TOOL} {accept: true, promptText: "…"} or {accept: false}`
        : state.dialogType === 'alert'
          ? `close it with ${HANDLE_DIALOG_TOOL} {accept: true}`
          : `answer it with ${HANDLE_DIALOG_TOOL} {accept: true} (OK) or {accept: false} (Cancel)`;
    return `${what}: ${how}. The page waits until then.`;
  }
  return `A file chooser is open${state.multiple ? ' (several files allowed)' : ''}: answer it with ${FILE_UPLOAD_TOOL} {paths: ["/absolute/path"]}, or ${FILE_UPLOAD_TOOL} {} to cancel it.`;
}

/** Thrown out of the session's queue when a dialog opened during the call: the action waits for its answer. */
export class ModalOpened extends Error {
  readonly session: Session;
  readonly state: ModalState;
  constructor(session: Session, state: ModalState) {
    super('A dialog opened during the call.');
    this.session = session;
    this.state = state;
  }
}

/** What holdingModals saw of one call. */
export interface ModalWatch {
  session?: Session;
  opened?: ModalOpened;
}

/** Actions that a dialog interrupted, still running until the dialog is answered: the next call waits for them to end. */
const interrupted = new WeakMap<Session, Promise<unknown>>();

/** The longest a call waits for an interrupted action to end after its dialog was answered. */
const INTERRUPTED_SETTLE_MS = 10_000;

/**
 * The same session access, in which each call holds dialogs and file choosers open (modal mode 'hold'); a call that
 * finds one open refuses (unless it is the call that answers it), and a call during which a dialog opens gives its
 * place in the queue back at once by throwing ModalOpened, while the action it was doing waits for the answer.
 * `seen` learns which session the call ran on, and the ModalOpened it threw (even if a handler wrapped it).
 */
export function holdingModals(
  sessions: SessionAccess,
  { tool: toolName, policy, acts }: { tool: string; policy: ModalPolicy; acts: boolean },
  seen: ModalWatch,
): SessionAccess {
  return aroundRuns(sessions, async (work, page, session) => {
    seen.session = session;
    session.setModalMode('hold');
    checkModal(session, toolName, policy);
    if (policy === 'refuse') await settleInterrupted(session);
    const result = await raceDialogs(session, work(page, session), seen);
    if (acts && modalStateOf(session) === undefined) await letFileChooserArrive(session);
    return result;
  });
}

/** Refuses a call that cannot run while a dialog or file chooser is open, and an answer when nothing is open to answer. */
function checkModal(session: Session, toolName: string, policy: ModalPolicy): void {
  const state = modalStateOf(session);
  const wanted = policy === 'answers-dialog' ? 'dialog' : policy === 'answers-file-chooser' ? 'fileChooser' : undefined;
  if (state !== undefined && state.type !== wanted) {
    throw new SessionError('INVALID_PARAMETERS', `${toolName} cannot run now. ${modalSentence(state)}`, {
      sessionId: session.id,
      details: { reason: 'modal_state_open', modalState: state },
    });
  }
  if (wanted !== undefined && state === undefined) {
    const what = wanted === 'dialog' ? 'dialog' : 'file chooser';
    throw new SessionError(
      'INVALID_PARAMETERS',
      `No ${what} is open to answer. ${toolName} answers the ${what} that an action opened (its result carries modalState).`,
      {
        sessionId: session.id,
        details: { reason: wanted === 'dialog' ? 'no_dialog' : 'no_file_chooser' },
      },
    );
  }
}

/** The longest an action's result waits for the page to answer one round trip (see letFileChooserArrive). */
const ROUND_TRIP_WAIT_MS = 500;

/**
 * Playwright reports a file chooser a couple of round trips to the page after the click that opened it, which can be
 * after the click itself has returned: one more round trip to the page lets it arrive before the result is made.
 */
async function letFileChooserArrive(session: Session): Promise<void> {
  const page = session.page;
  if (page.isClosed()) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([page.evaluate(() => 0).catch(() => 0), new Promise((resolve) => (timer = setTimeout(resolve, ROUND_TRIP_WAIT_MS)))]);
  clearTimeout(timer);
}

async function settleInterrupted(session: Session): Promise<void> {
  const action = interrupted.get(session);
  if (action === undefined) return;
  interrupted.delete(session);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([action.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, INTERRUPTED_SETTLE_MS)))]);
  clearTimeout(timer);
}

/**
 * The action's result, or ModalOpened as soon as a dialog opens during it: a page that shows a dialog waits for its
 * answer, and so does the action (a click whose handler called confirm()), which would hold the queue until it timed out.
 */
function raceDialogs<T>(session: Session, action: Promise<T>, seen: ModalWatch): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onDialog = () => {
      // The session's own listener (which holds the dialog) runs after the context's: look once it has.
      setImmediate(() => {
        const state = modalStateOf(session);
        if (state?.type !== 'dialog') return;
        stop();
        interrupted.set(
          session,
          action.catch(() => undefined),
        );
        seen.opened = new ModalOpened(session, state);
        reject(seen.opened);
      });
    };
    const stop = () => session.context.off('dialog', onDialog);
    session.context.on('dialog', onDialog);
    action.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** The result of a call a dialog interrupted: the page it is on and what is open (url and title, as every result has). */
export async function interruptedResult(opened: ModalOpened): Promise<Record<string, unknown>> {
  const { session, state } = opened;
  const page = session.page;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The browser process knows the title; asking the page itself would wait for the dialog.
  const title = await Promise.race([readTitle(page), new Promise<string>((resolve) => (timer = setTimeout(() => resolve(''), 2_000)))]);
  clearTimeout(timer);
  return { url: page.url(), title, expiresAt: session.expiresAt, message: modalSentence(state), modalState: state };
}
