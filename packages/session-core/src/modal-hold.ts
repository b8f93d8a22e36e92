// How a session answers its pages' dialogs and file choosers: at once by default, or held open until a call answers them.
import type { Dialog, FileChooser, Page } from 'playwright';
import { orAfter, type Timers } from './clock.js';
import { SessionError } from './errors.js';

/** A JavaScript dialog the page opened, and how it was answered ('pending' while a held dialog waits for an answer). */
export interface DialogRecord {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed' | 'pending';
}

/**
 * How dialogs and file choosers are handled. 'auto' (the default): a dialog is answered at once (see ModalHold) and
 * a file chooser is left alone. 'hold': each is kept open and reported as pending until answerDialog /
 * answerFileChooser answers it, as clients of the playwright profile expect.
 */
export type ModalMode = 'auto' | 'hold';

/**
 * A dialog or file chooser the session holds open (ModalMode 'hold'), waiting for an answer: a dialog first, since the
 * page waits for it.
 */
export type ModalState = { type: 'dialog'; dialogType: string; message: string; defaultValue: string } | { type: 'fileChooser'; multiple: boolean };

/** How the next dialog (or, with persist, every dialog) is answered instead of the default. */
export interface DialogAnswer {
  accept: boolean;
  promptText?: string;
  persist?: boolean;
}

/** The longest the next call waits for an action a dialog interrupted to end, once the dialog has been answered. */
const INTERRUPTED_SETTLE_MS = 10_000;

interface ModalHoldInit {
  timers: Timers;
  /** Counts a dialog against the session's runaway bound: false when it is to be dismissed unlisted. */
  count: (dialog: Dialog) => boolean;
  /** Lists a dialog in the next call's result. */
  report: (record: DialogRecord) => void;
}

/** The dialogs and file choosers of a session's pages: answered at once, or held open until a call answers them. */
export class ModalHold {
  private mode: ModalMode = 'auto';
  private answer: DialogAnswer | undefined;
  private heldDialog: { dialog: Dialog; record: DialogRecord } | undefined;
  private heldChooser: FileChooser | undefined;
  /** Told when a dialog or file chooser starts being held open. */
  private readonly listeners = new Set<(state: ModalState) => void>();
  /** An action a held dialog interrupted, still running until the dialog is answered. */
  private interrupted: Promise<void> | undefined;

  constructor(private readonly init: ModalHoldInit) {}

  /** Answers or holds each dialog and file chooser `page` opens. */
  watch(page: Page): void {
    page.on('dialog', (dialog) => void this.onDialog(dialog));
    page.on('filechooser', (chooser) => {
      if (this.mode !== 'hold') return;
      this.heldChooser = chooser;
      this.announce();
    });
  }

  /** 'auto' answers dialogs at once (the default); 'hold' keeps dialogs and file choosers open until answered. */
  setMode(mode: ModalMode): void {
    this.mode = mode;
  }

  /** How the next dialog (every dialog, with persist) is answered, instead of the default. */
  setDialogAnswer(answer: DialogAnswer): void {
    this.answer = { ...answer };
  }

  /** The answer set for coming dialogs, if any. */
  get nextDialogAnswer(): DialogAnswer | undefined {
    return this.answer;
  }

  /** The dialog (first) or file chooser held open in hold mode, if any. */
  get state(): ModalState | undefined {
    const dialog = this.heldDialogNow();
    if (dialog !== undefined) return { type: 'dialog', dialogType: dialog.type(), message: dialog.message(), defaultValue: dialog.defaultValue() };
    const chooser = this.heldChooserNow();
    if (chooser !== undefined) return { type: 'fileChooser', multiple: chooser.isMultiple() };
    return undefined;
  }

  /** Calls `listener` each time a dialog or file chooser starts being held open; returns how to stop. */
  onState(listener: (state: ModalState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The action's value, or the modal state as soon as a dialog is held open during it: a page that shows a dialog
   * waits for its answer, and so does the action that opened it (a click whose handler called confirm()), which would
   * otherwise hold the session's queue until it timed out. The interrupted action goes on in the background;
   * settleInterrupted() waits for it.
   */
  async race<T>(action: Promise<T>): Promise<{ value: T } | { interrupted: ModalState }> {
    let stop = () => {};
    const opened = new Promise<{ interrupted: ModalState }>((resolve) => {
      stop = this.onState((state) => {
        if (state.type === 'dialog') resolve({ interrupted: state });
      });
    });
    try {
      const first = await Promise.race([action.then((value) => ({ value })), opened]);
      if ('interrupted' in first) {
        this.interrupted = action.then(
          () => undefined,
          () => undefined,
        );
      }
      return first;
    } finally {
      stop();
    }
  }

  /** Waits, at most `timeout` ms, for an action a dialog interrupted to end, so that the next call does not run beside it. */
  async settleInterrupted(timeout = INTERRUPTED_SETTLE_MS): Promise<void> {
    const action = this.interrupted;
    if (action === undefined) return;
    this.interrupted = undefined;
    await orAfter(action, timeout, undefined, this.init.timers);
  }

  /** Answers the dialog held open; INVALID_PARAMETERS (details.reason 'no_dialog') when none is. */
  async answerDialog(accept: boolean, promptText?: string): Promise<DialogRecord> {
    const held = this.heldDialogNow() === undefined ? undefined : this.heldDialog;
    if (held === undefined) throw new SessionError('INVALID_PARAMETERS', 'No dialog is open on this session.', { details: { reason: 'no_dialog' } });
    this.heldDialog = undefined;
    await (accept ? held.dialog.accept(promptText) : held.dialog.dismiss()).catch(() => {});
    const record: DialogRecord = { type: held.record.type, message: held.record.message, action: accept ? 'accepted' : 'dismissed' };
    this.init.report(record);
    return record;
  }

  /** Answers the held file chooser with these files; INVALID_PARAMETERS (details.reason 'no_file_chooser') when none is open. */
  async answerFileChooser(files: Parameters<FileChooser['setFiles']>[0]): Promise<void> {
    const chooser = this.heldChooserNow();
    if (chooser === undefined)
      throw new SessionError('INVALID_PARAMETERS', 'No file chooser is open on this session.', { details: { reason: 'no_file_chooser' } });
    this.heldChooser = undefined;
    await chooser.setFiles(files);
  }

  /** Forgets a chooser that a caller answered itself (it waited for the event while clicking). */
  releaseFileChooser(chooser: FileChooser): void {
    if (this.heldChooser === chooser) this.heldChooser = undefined;
  }

  /** Forgets what is held open (its pages were stopped, so nothing there waits for an answer). */
  forget(): void {
    this.heldDialog = undefined;
    this.heldChooser = undefined;
  }

  /** The held dialog, forgotten once its page has closed. */
  private heldDialogNow(): Dialog | undefined {
    if (this.heldDialog?.dialog.page()?.isClosed()) this.heldDialog = undefined;
    return this.heldDialog?.dialog;
  }

  /** The held file chooser, forgotten once its page has closed. */
  private heldChooserNow(): FileChooser | undefined {
    if (this.heldChooser?.page().isClosed()) this.heldChooser = undefined;
    return this.heldChooser;
  }

  /** Tells the listeners what the session now holds open. */
  private announce(): void {
    const state = this.state;
    if (state !== undefined) for (const listener of this.listeners) listener(state);
  }

  /**
   * By default alerts and beforeunload are accepted, confirm and prompt dismissed: no dialog ever blocks a session.
   * beforeunload is accepted because dismissing it cancels the navigation the caller asked for, leaving the agent stuck on the page.
   * An answer set with setDialogAnswer overrides that; in hold mode the dialog stays open until answerDialog.
   */
  private async onDialog(dialog: Dialog): Promise<void> {
    // A page that loops on dialogs is stopped; the ones it still has open go unanswered and unlisted, closed with it.
    if (!this.init.count(dialog)) return void dialog.dismiss().catch(() => {});
    const type = dialog.type();
    const message = dialog.message().slice(0, 2_000);
    if (this.mode === 'hold' && this.heldDialogNow() === undefined) {
      const record: DialogRecord = { type, message, action: 'pending' };
      this.heldDialog = { dialog, record };
      this.init.report(record);
      this.announce();
      return;
    }
    const answer = this.answer;
    if (answer && !answer.persist) this.answer = undefined;
    const accept = answer ? answer.accept : type === 'alert' || type === 'beforeunload';
    this.init.report({ type, message, action: accept ? 'accepted' : 'dismissed' });
    const promptText = type === 'prompt' ? answer?.promptText : undefined;
    await (accept ? dialog.accept(promptText) : dialog.dismiss()).catch(() => {});
  }
}
