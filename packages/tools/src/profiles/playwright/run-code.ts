// The playwright profile's browser_run_code_unsafe: run_code_unsafe's work under @playwright/mcp's name, in no group.
import { z } from 'zod';
import type { AnyTool } from '../../framework/define-tool.js';
import { BROWSER_RUN_CODE_TOOL, runCodeUnsafe } from '../../tools/run-code.js';
import { adapt, optionalSessionIdSchema } from './adapter.js';

export const browserRunCodeUnsafe = withoutGroup(
  adapt({
    name: BROWSER_RUN_CODE_TOOL,
    title: 'Run Playwright code (unsafe)',
    description: 'Runs a Playwright function with the page in the server process. Unsafe: it can do what the server can.',
    notes: `${runCodeUnsafe.notes ?? ''} Acts on this connection's own browser page unless sessionId names a session from create_session.`,
    input: z.strictObject({
      code: z.string().min(1).max(100_000).optional().describe('async (page) => { … }'),
      filename: z.string().min(1).max(4_096).optional().describe('Load the code from this file instead.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: runCodeUnsafe,
    toBase: ({ code, filename }) => ({ code, filename }),
  }),
);

/** @playwright/mcp lists browser_run_code_unsafe in its core list, not in a group. */
function withoutGroup<Tool extends AnyTool>(tool: Tool): Tool {
  const { capability: _group, ...core } = tool;
  return core as Tool;
}
