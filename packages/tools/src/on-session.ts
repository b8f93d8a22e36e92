// How a tool acts on a session: its work runs in the session's queue and one response builder assembles the result.
import type { Session, SessionEvents } from '@sessionwright/session-core';
import type { Page } from 'playwright';
import type { ToolContext } from './define-tool.js';
import { reportWaitForPerson } from './person-wait.js';
import { ToolResponse, withAttachments, type Attachment, type PageResult, type SessionResult, type WithAttachments } from './response.js';

/**
 * Runs `fn` in the session's queue and assembles its result with the one response builder: the tool's own fields, then
 * the url and title of the tab the session is on after the call (and the snapshot when the tool asked for it), the new
 * `expiresAt`, and the dialogs and tabs the page opened meanwhile; attachments come after the JSON. The call ends when
 * the client cancels it (ctx.signal) and at the call ceiling, or at `options.timeout` if that is shorter (session-core's
 * Session.run does both). A tool that loads a page says so (`loads`): the load then waits for its turn among the loads
 * of every session (session-core's SessionManager.run). A call that waits for a person who has control of the session
 * (its live view) tells the client so through progress notifications while it waits.
 */
export async function onSession<T extends object>(
  ctx: ToolContext,
  sessionId: string,
  fn: (page: Page, response: ToolResponse) => Promise<T>,
  options: { timeout?: number; loads?: boolean } = {},
): Promise<WithAttachments<T & PageResult & SessionResult> | (T & PageResult & SessionResult)> {
  let used: Session | undefined;
  let events: SessionEvents = { dialogs: [], openedTabs: [], closedTabs: [], downloads: [] };
  let attachments: Attachment[] = [];
  let stopReporting = () => {};
  const result = await ctx.sessions
    .run(
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
      {
        signal: ctx.signal,
        loads: options.loads,
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        onWaitForPerson: (lease) => {
          stopReporting = reportWaitForPerson(ctx, lease);
        },
      },
    )
    .finally(() => stopReporting());
  // The session part is read after run() settled: the manager marks the session used again when the call ends.
  const data = { ...result, ...(used ? ToolResponse.sessionResult(used, events) : { expiresAt: 0 }) };
  return withAttachments(data, attachments);
}
