// run_steps: the one run of several page tools in a call (framework/run-steps.ts) over the default profile's tools, and the notes both profiles' runs share.
import type { AnyTool } from '../framework/define-tool.js';
import { MAX_STEPS, defineRunSteps } from '../framework/run-steps.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { UNSAFE_CODE_TOOLS } from './run-code.js';

/** What a run does and answers, the same under both names (docs/tools.md). */
export function stepsNotes(tools: string): string {
  return (
    `Each step is {tool, args, return?}: one of this server's page tools (${tools}, and the capability tools of that kind ` +
    "it serves) with that tool's own arguments, without sessionId. Every step's arguments are checked with its tool's own " +
    `schema before any runs: a bad one answers INVALID_PARAMETERS with details.step (the step's index in steps, from 0) and ` +
    `nothing runs. The steps then run in order as one call in the session's queue (no other call on the session comes ` +
    "between them), each with its own tool's defaults and timeouts (a step whose page stops answering past its own " +
    'time limit, such as evaluate in an endless loop, fails with call_timeout and the page is replaced), all of them ' +
    'within the call time limit; progress is ' +
    'reported per step, and a cancel stops the run before its next step. ' +
    'The run stops at the first step that fails and still answers normally: completed counts the steps that succeeded, ' +
    'failed holds the failed step (step, tool, errorCode, message, details) as its single call would have answered it. ' +
    'results holds the result of every step marked return: true and always of the last step that succeeded, each as its ' +
    'single call answers it (a snapshot too when that step asked for one) less url, title and expiresAt, which the run ' +
    'says once for the page it ended on, with the dialogs, tabs and downloads of the steps whose results are left out. ' +
    'Images a step answers come after the JSON. Elements are named as the tools ' +
    'name them: a ref from an earlier snapshot, or a Playwright selector (role=button[name="Add to cart"], text=…), so ' +
    'steps can be written before refs are known. A run that passes the call time limit answers BROWSER_ERROR reason ' +
    `call_timeout with details.step and details.completed. At most ${MAX_STEPS} steps; a step may not be a session tool, a run ` +
    'itself, or a tool that hands the session to a person or runs code in the server. ' +
    'Errors: INVALID_PARAMETERS (details.step), SESSION_NOT_FOUND / SESSION_EXPIRED, BROWSER_ERROR (call_timeout, cancelled).'
  );
}

/** The default profile's run_steps, whose steps are the page tools among `tools` (the list it is served with). */
export function runSteps(tools: readonly AnyTool[]): AnyTool {
  return defineRunSteps({
    name: 'run_steps',
    title: 'Run steps',
    description: 'Runs known steps (page tools) in one call until one fails.',
    notes: stepsNotes('navigate, snapshot, find, click, type, press_key, fill_form, wait_for, evaluate, screenshot, tabs…'),
    sessionId: sessionIdSchema,
    tools,
    excluded: UNSAFE_CODE_TOOLS,
  });
}
