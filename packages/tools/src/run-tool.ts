// Runs one tool call: strict argument validation, the handler, and every failure turned into a SessionError.
import { SessionError, playwrightError } from '@sessionwright/session-core';
import type { z } from 'zod';
import type { AnyTool, ToolContext } from './define-tool.js';
import { SESSIONS_VOCABULARY, withNextStep } from './next-steps.js';
import { attachmentsOf, type Attachment } from './response.js';

export type ToolOutcome = { ok: true; data: Record<string, unknown>; attachments: Attachment[] } | { ok: false; error: SessionError };

/** Never throws: whatever goes wrong comes back as an error outcome with a code. */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  const sessionId = sessionIdOf(rawArgs);
  if (!parsed.success) {
    return { ok: false, error: invalidArguments(tool, parsed.error, sessionId) };
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

function invalidArguments(tool: AnyTool, error: z.ZodError, sessionId: string | undefined): SessionError {
  const accepted = Object.keys(tool.input.shape);
  const problems = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown argument ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'arguments';
    return `${where}: ${issue.message}`;
  });
  return new SessionError(
    'INVALID_PARAMETERS',
    `Invalid arguments for ${tool.name}: ${problems.join('; ')}. Accepted arguments: ${accepted.join(', ') || 'none'}.`,
    {
      ...(sessionId === undefined ? {} : { sessionId }),
      details: { issues: problems, acceptedArguments: accepted },
    },
  );
}

function sessionIdOf(rawArgs: unknown): string | undefined {
  if (typeof rawArgs !== 'object' || rawArgs === null) return undefined;
  const value = (rawArgs as Record<string, unknown>).sessionId;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
