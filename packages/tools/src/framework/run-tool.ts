// Runs one tool call: strict argument validation, the handler, and every failure turned into a SessionError.
import { SessionError } from '@sessionwright/session-core';
import type { z } from 'zod';
import type { AnyTool, ToolContext } from './define-tool.js';
import { SESSIONS_VOCABULARY, withNextStep } from './next-steps.js';
import { playwrightError } from './errors.js';
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
    const mapped = withNextStep(playwrightError(error, tool.name), ctx.vocabulary ?? SESSIONS_VOCABULARY);
    return { ok: false, error: sessionId === undefined || mapped.sessionId !== undefined ? mapped : mapped.withSession(sessionId) };
  }
}

/**
 * INVALID_PARAMETERS for arguments a schema refused, one problem per issue: for the tool's own schema with the
 * arguments it accepts, or for the arguments another profile's tool mapped onto this one's (without that list, which
 * names the other tool's arguments).
 */
export function invalidArguments(toolName: string, error: z.ZodError, options: { accepted?: string[]; sessionId?: string } = {}): SessionError {
  const { accepted, sessionId } = options;
  const problems = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown argument ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'arguments';
    return `${where}: ${issue.message}`;
  });
  const listed = accepted === undefined ? '' : ` Accepted arguments: ${accepted.join(', ') || 'none'}.`;
  return new SessionError('INVALID_PARAMETERS', `Invalid arguments for ${toolName}: ${problems.join('; ')}.${listed}`, {
    ...(sessionId === undefined ? {} : { sessionId }),
    details: { issues: problems, ...(accepted === undefined ? {} : { acceptedArguments: accepted }) },
  });
}

function sessionIdOf(rawArgs: unknown): string | undefined {
  if (typeof rawArgs !== 'object' || rawArgs === null) return undefined;
  const value = (rawArgs as Record<string, unknown>).sessionId;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
