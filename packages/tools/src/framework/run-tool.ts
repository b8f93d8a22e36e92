// Runs one tool call: strict argument validation, the handler, and every failure turned into a SessionError by the one mapping (toolError).
import type { SessionError } from '@sessionwright/session-core';
import type { AnyTool, ToolContext } from './define-tool.js';
import { invalidArguments, toolError } from './errors.js';
import { SESSIONS_VOCABULARY } from './next-steps.js';
import { attachmentsOf, type Attachment } from './response.js';

export type ToolOutcome = { ok: true; data: Record<string, unknown>; attachments: Attachment[] } | { ok: false; error: SessionError };

/** Never throws: whatever goes wrong comes back as an error outcome with a code. */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  const sessionId = sessionIdOf(rawArgs);
  if (!parsed.success) {
    return {
      ok: false,
      error: invalidArguments(tool.name, parsed.error, { accepted: Object.keys(tool.input.shape), ...(sessionId === undefined ? {} : { sessionId }) }),
    };
  }
  try {
    const { data, attachments } = attachmentsOf(await tool.handler(parsed.data, ctx));
    return { ok: true, data, attachments };
  } catch (error) {
    // Anything not already a SessionError is BROWSER_ERROR reason unknown, with the browser's own message.
    return {
      ok: false,
      error: toolError(error, { tool: tool.name, vocabulary: ctx.vocabulary ?? SESSIONS_VOCABULARY, ...(sessionId === undefined ? {} : { sessionId }) }),
    };
  }
}

function sessionIdOf(rawArgs: unknown): string | undefined {
  if (typeof rawArgs !== 'object' || rawArgs === null) return undefined;
  const value = (rawArgs as Record<string, unknown>).sessionId;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
