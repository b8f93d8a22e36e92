// The `storage` capability: export_storage_state and cookies, for carrying a sign-in from one session to another.
import { SessionError } from '@sessionwright/session-core';
import type { BrowserContext } from 'playwright';
import { z } from 'zod';
import type { AnyTool } from './define-tool.js';
import { sessionOutput } from './response.js';
import { sessionIdSchema } from './schemas.js';
import { defineSessionTool } from './session-tool.js';
import { exportedStorageStateSchema } from './session-options-schema.js';

// Loose: a newer Playwright may add fields (partitionKey) that the result passes through.
const cookieSchema = z.looseObject({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  expires: z.number().describe('Unix time in seconds; -1 for a session cookie.'),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
});

export const exportStorageState = defineSessionTool({
  name: 'export_storage_state',
  title: 'Export storage state',
  description: "Returns the session's cookies and localStorage, for create_session's storageState.",
  notes:
    "The state is Playwright's: its cookies and each origin's localStorage. " +
    'Use it after signing in on a site, then pass the storageState to create_session to start other sessions already signed in ' +
    '(for several accounts, sign each session in once and keep its state). The result holds live credentials: treat it as a secret. ' +
    'Errors: SESSION_NOT_FOUND / SESSION_EXPIRED (create a new session).',
  input: z.strictObject({ sessionId: sessionIdSchema }),
  output: sessionOutput({
    storageState: exportedStorageStateSchema.describe('Cookies and localStorage per origin; give it to create_session as storageState.'),
  }),
  kind: 'read',
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  capability: 'storage',
  async handler(_args, page) {
    return { storageState: await page.context().storageState() };
  },
});

/** A cookie to set; its limits are a storage state's (docs/session-options.md). */
const cookieInputSchema = z.strictObject({
  name: z.string().min(1).max(4_096),
  value: z.string().max(4_096),
  url: z.string().max(2_048).optional().describe('Or domain and path.'),
  domain: z.string().max(2_048).optional(),
  path: z.string().max(2_048).optional(),
  expires: z.number().optional().describe('Unix seconds.'),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
});

export const cookies = defineSessionTool({
  name: 'cookies',
  title: 'List, set or clear cookies',
  description: "Lists, sets or clears the session's cookies.",
  notes:
    'action "list" returns them (urls narrows to the cookies those URLs would send); ' +
    '"set" adds or replaces the given cookies (each with a url, or a domain and path); "clear" removes all cookies, or with urls only those the URLs would send. ' +
    'A cookie to set names a url, or a domain (".example.com" for subdomains too) and path; expires is Unix time in seconds (leave it out for a session cookie); sameSite defaults to "Lax". ' +
    'The result is the cookie list after the action. Use export_storage_state to copy a whole sign-in (cookies and localStorage) to another session. ' +
    'Errors: INVALID_PARAMETERS (set without cookies, a cookie with neither url nor domain and path, a URL that is not http/https), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    action: z.enum(['list', 'set', 'clear']).describe('set needs cookies.'),
    urls: z.array(z.string().min(1).max(2_048)).max(100).optional().describe('Only the cookies these URLs would send.'),
    cookies: z.array(cookieInputSchema).min(1).max(200).optional().describe('For set.'),
  }),
  output: sessionOutput({
    cookies: z.array(cookieSchema).describe('The cookies after the action (filtered by urls when given).'),
  }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  capability: 'storage',
  // A bad URL or cookie is refused before the call waits for its session.
  prepare({ action, urls, cookies: given }) {
    const filter = urls?.map((url, index) => httpUrl(url, `urls[${index}]`));
    if (action === 'set' && given === undefined) throw invalid('action "set" needs cookies: a list of { name, value, url } or { name, value, domain, path }.');
    if (action !== 'set' && given !== undefined) throw invalid(`cookies is only for action "set"; action "${action}" takes urls at most.`);
    const toSet = (given ?? []).map((cookie, index) => {
      if (cookie.url !== undefined) {
        if (cookie.domain !== undefined || cookie.path !== undefined) throw invalid(`cookies[${index}]: give url, or domain and path, not both.`);
        return { ...cookie, url: httpUrl(cookie.url, `cookies[${index}].url`) };
      }
      if (cookie.domain === undefined || cookie.domain === '' || cookie.path === undefined || cookie.path === '') {
        throw invalid(`cookies[${index}] needs a url, or both a domain and a path.`);
      }
      return cookie;
    });
    return { action, filter, toSet };
  },
  async handler({ action, filter, toSet }, page) {
    const context = page.context();
    if (action === 'set') await context.addCookies(toSet);
    if (action === 'clear') await clearCookies(context, filter);
    // Spread: Playwright's Cookie interface has no index signature, a copy does.
    return { cookies: (await context.cookies(filter)).map((cookie) => ({ ...cookie })) };
  },
});

/** All cookies, or only those the URLs would send (each removed by its name, domain and path). */
async function clearCookies(context: BrowserContext, urls: string[] | undefined): Promise<void> {
  if (urls === undefined) return context.clearCookies();
  for (const cookie of await context.cookies(urls)) await context.clearCookies({ name: cookie.name, domain: cookie.domain, path: cookie.path });
}

function httpUrl(raw: string, where: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalid(`${where} must be an absolute http or https URL, e.g. "https://example.com/"; got "${raw.slice(0, 200)}".`);
  }
  return url.href;
}

function invalid(message: string): SessionError {
  return new SessionError('INVALID_PARAMETERS', message);
}

/** The `storage` capability group, served only when the server is asked for it. */
export const storageTools: readonly AnyTool[] = [exportStorageState, cookies];
