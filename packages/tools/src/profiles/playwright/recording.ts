// The playwright profile's recorder and debugger tools: @playwright/mcp's names over record_actions and resume, and browser_annotate, which refuses.
import { browserError } from '@sessionwright/session-core';
import { z } from 'zod';
import { recordActions, resume } from '../../tools/recording.js';
import { adapt, besideInProfile, optionalSessionIdSchema, playwrightOutput, playwrightSessionTool } from './adapter.js';

const noInput = z.strictObject({ sessionId: optionalSessionIdSchema });

/** @playwright/mcp's recorder tools, adapters over record_actions. */
export const playwrightRecordingTools = [
  adapt({
    name: 'browser_start_recording',
    title: 'Start recording user actions',
    description: 'Records the actions a user does in the browser as Playwright code, until browser_stop_recording.',
    input: noInput,
    base: recordActions,
    toBase: () => ({ action: 'start' }),
  }),
  adapt({
    name: 'browser_stop_recording',
    title: 'Stop recording user actions',
    description: 'Stops the recording and answers the recorded actions as Playwright code.',
    input: noInput,
    base: recordActions,
    snapshot: true,
    toBase: () => ({ action: 'stop' }),
  }),
];

/** @playwright/mcp's browser_resume: the same work, with an optional sessionId. */
export const browserResume = besideInProfile({
  ...resume,
  name: 'browser_resume',
  title: 'Resume paused script execution',
  description: 'Resumes a paused script; step pauses again before the next action.',
});

/**
 * @playwright/mcp's browser_annotate opens Playwright's dashboard window on the server's own display for a person
 * sitting there to draw on; a server here has no such person (they reach a session through live_view), so it refuses.
 */
export const browserAnnotate = playwrightSessionTool({
  name: 'browser_annotate',
  title: 'Annotate the current page',
  description: 'Not available here: use live_view to show the page to a person instead.',
  notes: "Answers BROWSER_ERROR reason unsupported: annotating needs a window on the server's own screen. live_view gives a person the page in their browser.",
  input: noInput,
  output: playwrightOutput(z.object({ message: z.string() })),
  kind: 'read',
  capability: 'devtools',
  errors: ['BROWSER_ERROR', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED'],
  // Refused before any session is touched or made.
  prepare(): never {
    throw browserError(
      'unsupported',
      "Annotating needs Playwright's dashboard window on the server's own screen, which this server does not open; use live_view to show the page to a person.",
    );
  },
  async handler() {
    return { message: '' };
  },
});
