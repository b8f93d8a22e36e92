// Runs one tool call: strict argument validation, the handler, and every failure turned into a SessionError.
import { SessionError, playwrightError, type Session, type SessionEvents } from '@sessionwright/session-core';
import type { Page } from 'playwright';
import type { z } from 'zod';
import type { AnyTool, ToolContext } from './define-tool.js';
import { SESSIONS_VOCABULARY, withNextStep } from './next-steps.js';
import { ToolResponse, attachmentsOf, withAttachments, type Attachment, type PageResult, type SessionResult, type WithAttachments } from './response.js';

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

/**
 * Runs `fn` in the session's queue and assembles its result with the one response builder: the tool's own fields, then
 * the url and title of the tab the session is on after the call (and the snapshot when the tool asked for it), the new
 * `expiresAt`, and the dialogs and tabs the page opened meanwhile; attachments come after the JSON. The call ends when
 * the client cancels it (ctx.signal) and at the call ceiling, or at `options.timeout` if that is shorter (session-core's
 * Session.run does both).
 */
export async function onSession<T extends object>(
  ctx: ToolContext,
  sessionId: string,
  fn: (page: Page, response: ToolResponse) => Promise<T>,
  options: { timeout?: number } = {},
): Promise<WithAttachments<T & PageResult & SessionResult> | (T & PageResult & SessionResult)> {
  let used: Session | undefined;
  let events: SessionEvents = { dialogs: [], openedTabs: [], closedTabs: [], downloads: [] };
  let attachments: Attachment[] = [];
  const result = await ctx.sessions.run(
    sessionId,
    async (page, session) => {
      used = session;
      const response = new ToolResponse(session).includeSnapshot(ctx.includeSnapshot);
      try {
        const fields = await fn(page, response);
        attachments = response.attached;
        return { ...fields, ...(await response.pageResult()) };
      } finally {
        // A download the call started is saved before the result is assembled, so the result lists it.
        await session.settleDownloads();
        events = session.takeEvents();
      }
    },
    { signal: ctx.signal, ...(options.timeout === undefined ? {} : { timeout: options.timeout }) },
  );
  // The session part is read after run() settled: the manager marks the session used again when the call ends.
  const data = { ...result, ...(used ? ToolResponse.sessionResult(used, events) : { expiresAt: 0 }) };
  return withAttachments(data, attachments);
}

/**
 * Runs a wait on the page, sending progress once a second to a client that asked for it:
 * progress is the time waited and total the timeout (none when the timeout is 0, no limit), both in ms.
 */
export async function reportWaiting<T>(ctx: ToolContext, timeout: number, wait: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const total = timeout > 0 ? timeout : undefined;
  const report = () => {
    const waited = Date.now() - started;
    ctx.progress(waited, total, `Waited ${Math.round(waited / 1000)} s${total === undefined ? '' : ` of ${Math.round(total / 1000)} s`}`);
  };
  report();
  const ticker = setInterval(report, 1_000);
  try {
    return await wait();
  } finally {
    clearInterval(ticker);
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
