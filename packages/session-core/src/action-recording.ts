// The actions done on a session's pages, written down as Playwright test code while a recording runs (Playwright's codegen recorder, without its window).
import type { BrowserContext } from 'playwright';
import { actionRecorder } from './playwright-internals.js';

/** The code generator Playwright's recorder writes with: TypeScript for Playwright Test. */
const LANGUAGE = 'playwright-test';

/** Whether this Playwright records actions at all (its client has the recorder). */
export function canRecordActions(context: BrowserContext): boolean {
  return actionRecorder(context) !== undefined;
}

/** One recording of the actions on a context's pages, whoever does them: a person in the live view, or the tools. */
export class ActionRecording {
  private readonly lines: string[] = [];

  constructor(private readonly context: BrowserContext) {}

  async start(): Promise<void> {
    const recorder = actionRecorder(this.context);
    if (recorder === undefined) throw new Error('This Playwright has no action recorder.');
    await recorder.start(LANGUAGE, {
      actionAdded: (_page, _action, code) => this.lines.push(code),
      actionUpdated: (_page, _action, code) => {
        if (this.lines.length > 0) this.lines[this.lines.length - 1] = code;
        else this.lines.push(code);
      },
      // A signal (a popup, a navigation, a dialog) rewrites the action that caused it.
      signalAdded: (_page, _signal, code) => {
        if (this.lines.length > 0 && code) this.lines[this.lines.length - 1] = code;
      },
    });
  }

  /** Stops recording; answers each action's code, in order, without its indentation. */
  async stop(): Promise<string[]> {
    await actionRecorder(this.context)?.stop();
    return this.lines.filter((code) => code.trim() !== '').map(dedent);
  }
}

/** The code with its common indentation taken off (the recorder indents for a test body). */
function dedent(code: string): string {
  const lines = code.split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(indent)).join('\n');
}
