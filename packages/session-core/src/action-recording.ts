// The actions done on a session's pages, written down as Playwright test code while a recording runs (Playwright's codegen recorder, without its window).
import type { BrowserContext } from 'playwright';

/**
 * The context's recorder, which Playwright's client offers without typing it (@playwright/mcp records with it too).
 * Each action comes as a line of code; an action that is still going on (typing) is updated in place.
 */
interface RecordingContext {
  _startRecording?(
    params: { language: string },
    sink: {
      actionAdded(page: unknown, action: unknown, code: string): void;
      actionUpdated(page: unknown, action: unknown, code: string): void;
      signalAdded(page: unknown, signal: unknown, code: string): void;
    },
  ): Promise<void>;
  _stopRecording?(): Promise<void>;
}

/** The code generator Playwright's recorder writes with: TypeScript for Playwright Test. */
const LANGUAGE = 'playwright-test';

/** Whether this Playwright records actions at all (its client has the recorder). */
export function canRecordActions(context: BrowserContext): boolean {
  return typeof (context as unknown as RecordingContext)._startRecording === 'function';
}

/** One recording of the actions on a context's pages, whoever does them: a person in the live view, or the tools. */
export class ActionRecording {
  private readonly lines: string[] = [];

  constructor(private readonly context: BrowserContext) {}

  async start(): Promise<void> {
    const recorder = this.context as unknown as RecordingContext;
    if (recorder._startRecording === undefined) throw new Error('This Playwright has no action recorder.');
    await recorder._startRecording(
      { language: LANGUAGE },
      {
        actionAdded: (_page, _action, code) => this.lines.push(code),
        actionUpdated: (_page, _action, code) => {
          if (this.lines.length > 0) this.lines[this.lines.length - 1] = code;
          else this.lines.push(code);
        },
        // A signal (a popup, a navigation, a dialog) rewrites the action that caused it.
        signalAdded: (_page, _signal, code) => {
          if (this.lines.length > 0 && code) this.lines[this.lines.length - 1] = code;
        },
      },
    );
  }

  /** Stops recording; answers each action's code, in order, without its indentation. */
  async stop(): Promise<string[]> {
    await (this.context as unknown as RecordingContext)._stopRecording?.();
    return this.lines.filter((code) => code.trim() !== '').map(dedent);
  }
}

/** The code with its common indentation taken off (the recorder indents for a test body). */
function dedent(code: string): string {
  const lines = code.split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(indent)).join('\n');
}
