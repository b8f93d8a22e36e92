// The `storage` capability: cookies, storage state export and load (objects or files), for carrying a sign-in from one session to another.
import { SessionError, isSessionError } from '@sessionwright/session-core';
import { checkStorageState, exportedStorageStateSchema } from '@sessionwright/session-core/parts';
import type { BrowserContext } from 'playwright';
import { z } from 'zod';
import type { AnyTool, ToolContext } from '../framework/define-tool.js';
import { outputPath, writeOutputFile } from '../framework/output-files.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import type { UploadPayload } from './drop.js';
import { readAllowedFile } from './upload.js';
import { webStorage } from './web-storage.js';

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

/** Most bytes a storage state file may have to be loaded (docs/tools.md). */
const MAX_STATE_FILE_BYTES = 10 * 1024 * 1024;

export const exportStorageState = defineSessionTool({
  name: 'export_storage_state',
  title: 'Export storage state',
  description: "Returns the session's cookies and localStorage, or writes them to a file, for create_session or load_storage_state.",
  notes:
    "The state is Playwright's: its cookies and each origin's localStorage. " +
    'Use it after signing in on a site, then pass the storageState to create_session to start other sessions already signed in ' +
    '(for several accounts, sign each session in once and keep its state). The result holds live credentials: treat it as a secret. ' +
    'With filename the state is written to that JSON file inside --output-dir (never outside it) instead, and the result says ' +
    'where; load_storage_state reads it back. ' +
    'Errors: INVALID_PARAMETERS (a filename without --output-dir or outside it), SESSION_NOT_FOUND / SESSION_EXPIRED (create a new session).',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    filename: z.string().min(1).max(1_000).optional().describe('Write to this file in --output-dir instead.'),
  }),
  output: sessionOutput({
    storageState: exportedStorageStateSchema.optional().describe('Cookies and localStorage per origin; give it to create_session as storageState.'),
    file: z.string().optional().describe('With filename: the file the state was written to.'),
  }),
  kind: 'read',
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS', 'BROWSER_ERROR'],
  capability: 'storage',
  // A filename outside --output-dir is refused before the call waits for its session.
  prepare: ({ filename }, ctx) => ({ file: filename === undefined ? undefined : outputPath(ctx.options, filename) }),
  async handler({ file }, page, response, ctx) {
    const storageState = await page.context().storageState();
    if (file === undefined) return { storageState };
    return { file: await writeOutputFile(ctx.options, file, JSON.stringify(storageState, null, 2), response.session.downloads) };
  },
});

export const loadStorageState = defineSessionTool({
  name: 'load_storage_state',
  title: 'Load storage state',
  description: "Replaces the session's cookies and localStorage with a saved storage state, from an object or a file.",
  notes:
    'The state is what export_storage_state gives: an object (storageState) or a JSON file it wrote (filename). ' +
    "Everything the session held before is cleared first: its cookies and every origin's localStorage; sessionStorage and the " +
    'open page stay, so reload or navigate to see the page signed in. ' +
    "A filename is read only from --output-dir or the directories upload_file reads from (--file-root, the client's roots, over " +
    'stdio the working directory); ' +
    `relative names are taken from --output-dir when there is one. At most ${MAX_STATE_FILE_BYTES / 1024 / 1024} MB; what the file holds is never quoted back. ` +
    'Errors: INVALID_PARAMETERS (neither or both of storageState and filename, a file outside those directories, missing, too ' +
    'large or not a storage state), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z
    .strictObject({
      sessionId: sessionIdSchema,
      // Its shape is checked in prepare, as create_session checks it: the model reads one line, not the whole schema.
      storageState: z.looseObject({}).optional().describe('From export_storage_state.'),
      filename: z.string().min(1).max(4_096).optional().describe('Or a JSON file export_storage_state wrote.'),
    })
    .refine((args) => (args.storageState === undefined) !== (args.filename === undefined), {
      message: 'give exactly one of "storageState" or "filename"',
      path: ['storageState'],
    }),
  output: sessionOutput({
    success: z.literal(true),
    cookies: z.number().describe('How many cookies the session holds now.'),
    origins: z.number().describe('How many origins got localStorage.'),
  }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  capability: 'storage',
  // The file is read and checked before the call waits for its session.
  async prepare({ storageState, filename }, ctx) {
    return checkStorageState(filename === undefined ? storageState : await readStateFile(filename, ctx));
  },
  async handler(state, page) {
    const context = page.context();
    await context.setStorageState(state);
    return { success: true as const, cookies: (await context.cookies()).length, origins: state.origins.length };
  },
});

/**
 * The storage state in the file `filename` names, read only from --output-dir or upload_file's directories and parsed;
 * a file that is not one gets the same answer whatever it holds, so no content is ever quoted back.
 */
async function readStateFile(filename: string, ctx: ToolContext): Promise<unknown> {
  const roots = ctx.roots ? await ctx.roots() : { directories: [], source: 'none' as const };
  const directories = [...(ctx.options.outputDir === undefined ? [] : [ctx.options.outputDir]), ...roots.directories];
  let payload: UploadPayload;
  try {
    payload = await readAllowedFile(filename, { ...roots, directories });
  } catch (error) {
    if (!isSessionError(error)) throw error;
    const reason = (error.details as { reason?: string } | undefined)?.reason;
    if (reason === 'too large') throw tooLarge(filename);
    throw new SessionError(
      'INVALID_PARAMETERS',
      reason === 'no allowed directory'
        ? 'This server reads no storage state files for this client: pass the state itself as storageState, or start the server with --output-dir.'
        : `There is no storage state file at ${filename} inside --output-dir or the directories files are read from (${directories.join(', ') || 'none'}). Give a file export_storage_state wrote, or pass storageState.`,
      { details: { reason: reason ?? 'not readable', allowed: directories } },
    );
  }
  if (payload.buffer.length > MAX_STATE_FILE_BYTES) throw tooLarge(filename);
  try {
    return JSON.parse(payload.buffer.toString('utf8'));
  } catch {
    // The parser's message quotes the file; this one does not.
    throw new SessionError('INVALID_PARAMETERS', `${filename} is not a storage state: it is not JSON. Give a file export_storage_state wrote.`, {
      details: { reason: 'not a storage state' },
    });
  }
}

function tooLarge(filename: string): SessionError {
  return new SessionError(
    'INVALID_PARAMETERS',
    `${filename} is larger than ${MAX_STATE_FILE_BYTES / 1024 / 1024} MB, the most a storage state file may have.`,
    {
      details: { reason: 'too large', limit: MAX_STATE_FILE_BYTES },
    },
  );
}

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

/** Which cookies a call is about: those the URLs would send, then by name, domain (a part of it) and path (its start). */
interface CookieFilter {
  urls?: string[] | undefined;
  name?: string | undefined;
  domain?: string | undefined;
  path?: string | undefined;
}

export const cookies = defineSessionTool({
  name: 'cookies',
  title: 'Cookies',
  description: "Lists, gets, sets, deletes or clears the session's cookies.",
  notes:
    'action "list" returns them, narrowed by the filters given: urls (the cookies those URLs would send), name, domain (cookies ' +
    'whose domain contains it) and path (whose path starts with it); ' +
    '"get" is list for one name; "set" adds or replaces the given cookies; "delete" removes the cookies of that name (within the ' +
    'other filters); "clear" removes every cookie the filters match, all without filters. ' +
    'A cookie to set names a url, or a domain (".example.com" for subdomains too) and path (default "/"); with neither it is the open page\'s host. ' +
    'expires is Unix time in seconds (leave it out for a session cookie); sameSite defaults to "Lax". ' +
    'The result is the cookie list after the action, filtered the same way. Use export_storage_state to copy a whole sign-in ' +
    '(cookies and localStorage) to another session. ' +
    'Errors: INVALID_PARAMETERS (get or delete without name, set without cookies, a cookie with url and domain, a cookie without ' +
    'either on a page that has no host, a URL that is not http/https), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    action: z.enum(['list', 'get', 'set', 'delete', 'clear']).describe('get, delete need name; set needs cookies.'),
    name: z.string().min(1).max(4_096).optional().describe('Cookie name.'),
    domain: z.string().min(1).max(2_048).optional().describe('Only domains containing this.'),
    path: z.string().min(1).max(2_048).optional().describe('Only paths starting with this.'),
    urls: z.array(z.string().min(1).max(2_048)).max(100).optional().describe('Only the cookies these URLs would send.'),
    cookies: z.array(cookieInputSchema).min(1).max(200).optional().describe('For set.'),
  }),
  output: sessionOutput({
    cookies: z.array(cookieSchema).describe('The cookies after the action (filtered as asked).'),
  }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  capability: 'storage',
  // A bad URL or cookie is refused before the call waits for its session.
  prepare({ action, urls, name, domain, path, cookies: given }) {
    const filter: CookieFilter = { urls: urls?.map((url, index) => httpUrl(url, `urls[${index}]`)), name, domain, path };
    if ((action === 'get' || action === 'delete') && name === undefined) throw invalid(`action "${action}" needs name: the name of the cookie.`);
    if (action === 'set' && given === undefined) throw invalid('action "set" needs cookies: a list of { name, value, url } or { name, value, domain, path }.');
    if (action !== 'set' && given !== undefined) throw invalid(`cookies is only for action "set"; action "${action}" takes filters at most.`);
    const toSet = (given ?? []).map((cookie, index) => {
      if (cookie.url !== undefined) {
        if (cookie.domain !== undefined || cookie.path !== undefined) throw invalid(`cookies[${index}]: give url, or domain and path, not both.`);
        return { ...cookie, url: httpUrl(cookie.url, `cookies[${index}].url`) };
      }
      if (cookie.domain === '') throw invalid(`cookies[${index}].domain must not be empty; leave it out for the open page's host.`);
      return { ...cookie, path: cookie.path || '/' };
    });
    return { action, filter, toSet };
  },
  async handler({ action, filter, toSet }, page) {
    const context = page.context();
    if (action === 'set')
      await context.addCookies(toSet.map((cookie) => (cookie.url !== undefined || cookie.domain !== undefined ? cookie : onPageHost(cookie, page.url()))));
    if (action === 'delete' || action === 'clear') await clearCookies(context, filter);
    // Spread: Playwright's Cookie interface has no index signature, a copy does.
    return { cookies: (await matchingCookies(context, filter)).map((cookie) => ({ ...cookie })) };
  },
});

/** A cookie without url or domain, for the open page's host. */
function onPageHost<Cookie extends object>(cookie: Cookie, pageUrl: string): Cookie & { domain: string } {
  let url: URL | undefined;
  try {
    url = new URL(pageUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.hostname === '' || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalid(
      `The open page (${pageUrl.slice(0, 200)}) has no host to set the cookie for: give the cookie a url or a domain, or navigate to the site first.`,
    );
  }
  return { ...cookie, domain: url.hostname };
}

async function matchingCookies(context: BrowserContext, filter: CookieFilter) {
  const all = await context.cookies(filter.urls);
  return all.filter(
    (cookie) =>
      (filter.name === undefined || cookie.name === filter.name) &&
      (filter.domain === undefined || cookie.domain.includes(filter.domain)) &&
      (filter.path === undefined || cookie.path.startsWith(filter.path)),
  );
}

/** The cookies the filter matches, each removed by its name, domain and path; all of them without a filter. */
async function clearCookies(context: BrowserContext, filter: CookieFilter): Promise<void> {
  if (Object.values(filter).every((value) => value === undefined)) return context.clearCookies();
  for (const cookie of await matchingCookies(context, filter)) await context.clearCookies({ name: cookie.name, domain: cookie.domain, path: cookie.path });
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
export const storageTools: readonly AnyTool[] = [exportStorageState, loadStorageState, cookies, webStorage];
