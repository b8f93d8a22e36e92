// The playwright profile's browser_run_steps: the one run of several page tools in a call, over its browser_* tools.
import type { AnyTool } from '../../framework/define-tool.js';
import { defineRunSteps } from '../../framework/run-steps.js';
import { UNSAFE_CODE_TOOLS } from '../../tools/run-code.js';
import { stepsNotes } from '../../tools/steps.js';
import { optionalSessionIdSchema } from './adapter.js';

/** The playwright profile's browser_run_steps (--caps steps), whose steps are its browser_* page tools. */
export function browserRunSteps(tools: readonly AnyTool[]): AnyTool {
  return defineRunSteps({
    name: 'browser_run_steps',
    title: 'Run steps',
    description: 'Runs known steps (browser_* tools) in one call until one fails.',
    notes: stepsNotes('browser_navigate, browser_snapshot, browser_find, browser_click, browser_type, browser_fill_form, browser_wait_for…'),
    sessionId: optionalSessionIdSchema,
    tools,
    excluded: UNSAFE_CODE_TOOLS,
    capability: 'steps',
  });
}
