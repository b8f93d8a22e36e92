// browser_tabs: @playwright/mcp's tab tool over tabs, across the connection's own session and its named isolated contexts, each a session of ours.
import { SessionError, isSessionError } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { defineTool, type ImplicitSessionAccess, type ToolContext } from '../../framework/define-tool.js';
import { checkUrl } from '../../tools/navigation.js';
import { browserNavigate } from './tools.js';
import { adapt, optionalSessionIdSchema, playwrightOutput } from './adapter.js';
import { attachmentsOf, withAttachments } from '../../framework/response.js';
import { listTabs, tabSchema, tabs } from '../../tools/tabs.js';

const ACTIONS = ['list', 'new', 'select', 'close'] as const;
type Action = (typeof ACTIONS)[number];

/** The context @playwright/mcp calls the connection's own: naming it is naming no isolated context. */
const DEFAULT_CONTEXT = 'default';

const fields = {
  action: z.enum(ACTIONS).describe('select needs index.'),
  index: z.number().int().min(0).max(10_000).optional().describe('For select, close.'),
  url: z.string().min(1).max(100_000).optional().describe('For new.'),
};

/** tabs' work on one session in the profile's call scope: what each call below does in one context. */
const tabsInOneSession = adapt({
  name: 'browser_tabs',
  title: 'Manage tabs',
  description: 'Lists, opens, selects or closes tabs.',
  input: z.strictObject({ ...fields, sessionId: optionalSessionIdSchema }),
  base: tabs,
  snapshot: ({ action }) => action !== 'list',
  toBase: ({ action, index, url }) => ({ action, index, url }),
});

type TabsResult = Record<string, unknown> & { tabs?: z.infer<typeof tabSchema>[]; current?: number };

const contextTab = tabSchema.extend({
  isolatedContext: z.string().optional().describe('The named isolated context the tab is in; absent: the connection’s own.'),
});

export const browserTabs = defineTool({
  name: 'browser_tabs',
  title: 'Manage tabs',
  description: 'Lists, opens, selects or closes tabs, also in a named isolated context.',
  notes:
    'action "list"; "new" opens a tab (at url if given) and acts on it; "select" with index acts on that tab; "close" closes the ' +
    'tab at index (default the current one). ' +
    'isolatedContext (with "new") names an isolated context: made on first use as a session of this connection (listed by ' +
    'list_sessions, closed with the connection or browser_close), ' +
    'with its own cookies and storage; tabs in one context share them. "default" names the connection\'s own. The calls that ' +
    'name no sessionId act on the current tab, whichever context it is in. ' +
    "The result lists every tab of the connection (index, url, title, current, isolatedContext), the connection's own first; " +
    "after new, select and close it names the file holding the current tab's snapshot (snapshotFile). " +
    "Closing the last tab of an isolated context closes the context. With sessionId, acts on that session's tabs only. " +
    'Errors: INVALID_PARAMETERS (no tab at that index, select without index, isolatedContext without "new" or with sessionId, a ' +
    'bad url), NAVIGATION_FAILED (the new tab could not load url; it stays open).',
  input: z.strictObject({
    ...fields,
    isolatedContext: z.string().min(1).max(200).optional().describe('For new: named context (own cookies).'),
    sessionId: optionalSessionIdSchema,
  }),
  output: playwrightOutput(tabs.output as z.ZodObject, { snapshot: true }).extend({
    tabs: z.array(contextTab).optional().describe('Every tab of the connection after the action, its own session first.'),
  }),
  kind: 'action',
  errors: tabs.errors,
  async handler({ action, index, url, isolatedContext, sessionId }, ctx) {
    if (isolatedContext !== undefined && action !== 'new') throw invalid(`isolatedContext is for "new", not "${action}": select or close a tab by its index.`);
    const implicit = ctx.implicitSession;
    if (sessionId !== undefined || implicit === undefined) {
      if (isolatedContext !== undefined && isolatedContext !== DEFAULT_CONTEXT) {
        throw invalid('isolatedContext names a context of this connection, sessionId a session: give one of them.');
      }
      return inOneSession(ctx, { action, index, url, sessionId });
    }
    // The snapshot file's link rides beside the result (attachments): the tabs are numbered on the result itself.
    const { data, attachments } = attachmentsOf(await act(implicit, ctx, { action, index, url, isolatedContext }));
    return withAttachments(await withEveryTab(implicit, ctx, data), attachments);
  },
});

/** A context as the calls below address it: the connection's own session is reached without an id, so it is made again if it ended. */
interface Context {
  name: string | undefined;
  id: string;
}

function scopeOf(context: Context): { sessionId?: string } {
  return context.name === undefined ? {} : { sessionId: context.id };
}

async function inOneSession(
  ctx: ToolContext,
  args: { action: Action; index?: number | undefined; url?: string | undefined; sessionId?: string },
): Promise<TabsResult> {
  return (await tabsInOneSession.handler(args, ctx)) as TabsResult;
}

/** Does the action in the context it concerns, and answers that context's result. */
async function act(
  implicit: ImplicitSessionAccess,
  ctx: ToolContext,
  { action, index, url, isolatedContext }: { action: Action; index: number | undefined; url: string | undefined; isolatedContext: string | undefined },
): Promise<TabsResult> {
  if (action === 'new') {
    const name = isolatedContext === DEFAULT_CONTEXT ? undefined : isolatedContext;
    if (index !== undefined) throw invalid('index is for "select" and "close", not "new".');
    // Checked before a context is made for it.
    if (url !== undefined) checkUrl(url, ctx.options);
    if (name === undefined) {
      implicit.use(undefined);
      return inOneSession(ctx, { action, url });
    }
    const { id, created } = await implicit.isolated(name);
    implicit.use(name);
    if (!created) return inOneSession(ctx, { action, url, sessionId: id });
    // A new context's session opens with one blank tab: that is the new tab.
    if (url !== undefined) await browserNavigate.handler({ url, sessionId: id }, ctx);
    return inOneSession(ctx, { action: 'select', index: 0, sessionId: id });
  }
  if (action === 'list') return inOneSession(ctx, { action });
  if (action === 'select' && index === undefined) throw invalid('"select" needs index: the tab to switch to (list the tabs first).');
  const contexts = livingContexts(implicit, ctx);
  if (contexts.length === 0) return inOneSession(ctx, { action, index });
  const inUse = contexts.find((context) => context.id === implicit.current);
  const located = index === undefined ? inUse && { context: inUse, local: undefined } : locate(contexts, index);
  if (located === undefined) return inOneSession(ctx, { action, index });
  const { context, local } = located;
  if (action === 'select') {
    implicit.use(context.name);
    return inOneSession(ctx, { action, index: local, ...scopeOf(context) });
  }
  if (context.name !== undefined && ctx.sessions.get(context.id).tabs().length <= 1) {
    // The last tab of an isolated context: the context goes with it.
    await ctx.sessions.close(context.id);
    implicit.forget(context.id);
    return inOneSession(ctx, { action: 'list' });
  }
  const closed = await inOneSession(ctx, { action, index: local, ...scopeOf(context) });
  return context === inUse ? closed : inOneSession(ctx, { action: 'list' });
}

/** The contexts whose sessions are open, each with how many tabs it has; one that ended by itself is forgotten. */
function livingContexts(implicit: ImplicitSessionAccess, ctx: ToolContext): (Context & { count: number })[] {
  const living: (Context & { count: number })[] = [];
  for (const context of implicit.contexts()) {
    try {
      living.push({ ...context, count: ctx.sessions.get(context.id).tabs().length });
    } catch (error) {
      if (!ended(error)) throw error;
      implicit.forget(context.id);
    }
  }
  return living;
}

/** Which context's tab, and which of its tabs, a connection-wide index names. */
function locate(contexts: (Context & { count: number })[], index: number): { context: Context; local: number } {
  let offset = 0;
  for (const context of contexts) {
    if (index < offset + context.count) return { context, local: index - offset };
    offset += context.count;
  }
  throw new SessionError(
    'INVALID_PARAMETERS',
    `There is no tab ${index}: this connection has ${offset} tab${offset === 1 ? '' : 's'} (0 to ${offset - 1}); list them first.`,
    {
      details: { index, tabs: offset },
    },
  );
}

/** The result with every tab of the connection, numbered across its contexts: the connection's own first, then each isolated one. */
async function withEveryTab(implicit: ImplicitSessionAccess, ctx: ToolContext, result: TabsResult): Promise<TabsResult> {
  // A dialog interrupted the action: the result says so, without tabs.
  if (result.tabs === undefined) return result;
  const inUse = implicit.current;
  const every: z.infer<typeof contextTab>[] = [];
  let current = result.current ?? 0;
  for (const { name, id } of implicit.contexts()) {
    let listed: { tabs: z.infer<typeof tabSchema>[]; current: number };
    try {
      listed = id === inUse ? { tabs: result.tabs, current: result.current ?? 0 } : await ctx.sessions.run(id, (_page, session) => listTabs(session));
    } catch (error) {
      if (!ended(error)) throw error;
      implicit.forget(id);
      continue;
    }
    const offset = every.length;
    if (id === inUse) current = offset + listed.current;
    for (const tab of listed.tabs) {
      every.push({ ...tab, index: offset + tab.index, current: id === inUse && tab.current, ...defined({ isolatedContext: name }) });
    }
  }
  return { ...result, tabs: every, current };
}

function ended(error: unknown): boolean {
  return isSessionError(error) && (error.code === 'SESSION_NOT_FOUND' || error.code === 'SESSION_EXPIRED');
}

function invalid(message: string): SessionError {
  return new SessionError('INVALID_PARAMETERS', message);
}
