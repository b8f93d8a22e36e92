// Runs one tool call: strict argument validation, the handler, and every failure turned into a SessionError.
import { SessionError, firstLine, isSessionError, messageOf, type Session, type SessionEvents } from '@sessionwright/session-core';
import type { Page } from 'playwright';
import type { z } from 'zod';
import type { AnyTool, ToolContext } from './define-tool.js';
import { ToolResponse, attachmentsOf, withAttachments, type Attachment, type PageResult, type SessionResult, type WithAttachments } from './response.js';

export type ToolOutcome =
  | { ok: true; data: Record<string, unknown>; attachments: Attachment[] }
  | { ok: false; error: SessionError };

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
    const mapped = isSessionError(error)
      ? error
      : new SessionError('BROWSER_ERROR', `${tool.name} failed: ${firstLine(messageOf(error))}`, {
          details: { browserMessage: messageOf(error).slice(0, 1000) },
        });
    return { ok: false, error: sessionId === undefined || mapped.sessionId !== undefined ? mapped : mapped.withSession(sessionId) };
  }
}

/**
 * Runs `fn` in the session's queue and assembles its result with the one response builder: the tool's own fields, then
 * the url and title of the tab the session is on after the call (and the snapshot when the tool asked for it), the new
 * `expiresAt`, and the dialogs and tabs the page opened meanwhile; attachments come after the JSON. A call the client
 * cancels (ctx.signal) stops the page loading and answers soon after; see untilCancelled.
 */
export async function onSession<T extends object>(
  ctx: ToolContext,
  sessionId: string,
  fn: (page: Page, response: ToolResponse) => Promise<T>,
): Promise<WithAttachments<T & PageResult & SessionResult> | (T & PageResult & SessionResult)> {
  let used: Session | undefined;
  let events: SessionEvents = { dialogs: [], openedTabs: [] };
  let attachments: Attachment[] = [];
  const queued = ctx.sessions.run(sessionId, async (page, session) => {
    // A call cancelled while it waited in the queue never starts.
    if (ctx.signal.aborted) throw cancelledError();
    used = session;
    const response = new ToolResponse(session);
    try {
      const fields = await fn(page, response);
      attachments = response.attached;
      return { ...fields, ...(await response.pageResult()) };
    } finally {
      events = session.takeEvents();
    }
  });
  const result = await untilCancelled(ctx.signal, () => used?.page, queued);
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

/** How long a cancelled call may take to end after the page was told to stop, before its caller is answered anyway. */
const CANCEL_GRACE_MS = 1_000;

/**
 * Waits for a queued call until the client cancels. Cancelling stops the page loading, as the browser's stop button
 * does: a navigation ends at once (net::ERR_ABORTED) and the page keeps the document it was on. The caller is answered
 * after a short grace period at the latest; the call itself keeps its place in the session's queue until it has
 * ended (a wait ends by its own timeout), so calls on one session never overlap.
 */
async function untilCancelled<T>(signal: AbortSignal, currentPage: () => Page | undefined, queued: Promise<T>): Promise<T> {
  let grace: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    onAbort = () => {
      const page = currentPage();
      if (page) void stopLoading(page);
      grace = setTimeout(() => reject(cancelledError()), CANCEL_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Whichever loses the race settles unobserved.
  queued.catch(() => {});
  cancelled.catch(() => {});
  try {
    return await Promise.race([queued, cancelled]);
  } finally {
    clearTimeout(grace);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Stops the page loading. Chromium through CDP, because page.evaluate waits while a navigation is pending. */
async function stopLoading(page: Page): Promise<void> {
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.stopLoading');
    await cdp.detach().catch(() => {});
  } catch {
    // Firefox and WebKit have no CDP: ask the page itself, without waiting for an answer.
    page.evaluate(() => window.stop()).catch(() => {});
  }
}

function cancelledError(): SessionError {
  return new SessionError('BROWSER_ERROR', 'The call was cancelled before it finished. The session is ready for the next call.', {
    details: { reason: 'cancelled' },
  });
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

