// Dialogs and file choosers held open, as @playwright/mcp's clients know them: how a result shows one, the tool that answers it, and which calls may run meanwhile.
import { SessionError, type Session } from '@sessionwright/session-core';
import { orAfter, type ModalState as HeldModal } from '@sessionwright/session-core/parts';
import { z } from 'zod';

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

const modalStateSchema = z
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

/** How a result shows what the session holds open: session-core's state plus the tool that answers it. */
export function modalStateFor(held: HeldModal): ModalState {
  if (held.type === 'fileChooser') return { type: 'fileChooser', multiple: held.multiple, answerWith: FILE_UPLOAD_TOOL };
  return {
    type: 'dialog',
    dialogType: held.dialogType,
    dialogMessage: held.message,
    ...(held.dialogType === 'prompt' ? { defaultValue: held.defaultValue } : {}),
    answerWith: HANDLE_DIALOG_TOOL,
  };
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

/** Refuses a call that cannot run while a dialog or file chooser is open, and an answer when nothing is open to answer. */
export function checkModal(session: Session, toolName: string, policy: ModalPolicy): void {
  const held = session.modal.state;
  const state = held === undefined ? undefined : modalStateFor(held);
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
export async function letFileChooserArrive(session: Session): Promise<void> {
  const page = session.page;
  if (page.isClosed()) return;
  await orAfter(
    page.evaluate(() => 0).catch(() => 0),
    ROUND_TRIP_WAIT_MS,
    0,
  );
}
