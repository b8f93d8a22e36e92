// tabs: list, open, select and close the tabs of one session.
import { SessionError, type Session } from '@sessionwright/session-core';
import { orAfter } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { checkUrl } from './navigation.js';
import { navigationError } from '../framework/errors.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

export const tabSchema = z.object({
  index: z.number().describe('Position of the tab, oldest first; pass it to select or close.'),
  url: z.string(),
  title: z.string(),
  current: z.boolean().describe('True for the tab the session acts on.'),
});

export const tabs = defineSessionTool({
  name: 'tabs',
  title: 'List, open, select or close tabs',
  description: "Lists, opens, selects or closes the session's tabs.",
  notes:
    'action "list" shows them; "new" opens a tab (at url if given) and makes it current; "select" makes tab index current; ' +
    '"close" closes tab index (default: the current one; the newest remaining tab becomes current, and closing the last tab leaves one blank tab). ' +
    'Every other tool acts on the current tab. A page that opens a tab (target=_blank, window.open) switches the session to it by itself. ' +
    'A session keeps at most --max-tabs tabs: past that, the oldest background tab is closed and the result lists it in closedTabs. ' +
    'Errors: INVALID_PARAMETERS (an index that is not a tab — list first; index or url where the action takes none; a bad url), ' +
    'NAVIGATION_FAILED (the new tab could not load url; the tab stays open), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    action: z.enum(['list', 'new', 'select', 'close']).describe('select needs index.'),
    index: z.number().int().min(0).optional().describe('For select, close.'),
    url: z.string().min(1).max(100_000).optional().describe('For new.'),
  }),
  output: sessionOutput({
    tabs: z.array(tabSchema).describe('The tabs after the action, oldest first.'),
    current: z.number().describe('Index of the current tab.'),
  }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'NAVIGATION_FAILED', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  prepare({ action, index, url }, ctx) {
    if (index !== undefined && action !== 'select' && action !== 'close') throw invalid(`index is for "select" and "close", not "${action}".`);
    if (url !== undefined && action !== 'new') throw invalid(`url is for "new", not "${action}"; use navigate to load a URL in the current tab.`);
    if (action === 'select' && index === undefined) throw invalid('"select" needs index: the tab to switch to (list the tabs first).');
    const target = url === undefined ? undefined : checkUrl(url, ctx.options);
    return { action, index, toLoad: target !== 'about:blank' ? target : undefined };
  },
  // A URL other than about:blank is a page load: the call waits for its turn among the loads of every session.
  loads: ({ toLoad }) => toLoad !== undefined,
  async handler({ action, index, toLoad }, _page, response) {
    const session = response.session;
    if (action === 'new') {
      const page = await session.newTab();
      if (toLoad !== undefined) {
        await page.goto(toLoad, { timeout: 30_000 }).catch((error: unknown) => {
          throw navigationError(error, { url: toLoad, timeout: 30_000 });
        });
      }
    }
    if (action === 'select') await session.selectTab(index as number);
    if (action === 'close') await session.closeTab(index);
    return listTabs(session);
  },
});

/** The session's tabs as the result lists them. */
export async function listTabs(session: Session): Promise<{ tabs: z.infer<typeof tabSchema>[]; current: number }> {
  const pages = session.tabs();
  const list = await Promise.all(
    pages.map(async (page, position) => ({
      index: position,
      url: page.url(),
      title: await titleWithin(page),
      current: page === session.page,
    })),
  );
  return { tabs: list, current: Math.max(0, pages.indexOf(session.page)) };
}

/** A busy or held-up tab answers an empty title rather than holding the call. */
async function titleWithin(page: import('playwright').Page): Promise<string> {
  return orAfter(
    page.title().catch(() => ''),
    1_000,
    '',
  );
}

function invalid(message: string): SessionError {
  return new SessionError('INVALID_PARAMETERS', message);
}
