// The playwright profile's `storage` tools: @playwright/mcp's cookie, localStorage, sessionStorage and storage state tools, each over the default profile's storage tool.
import { z } from 'zod';
import type { AnyTool } from '../../framework/define-tool.js';
import { defaultFileName, outputPath } from '../../framework/output-files.js';
import { adapt, optionalSessionIdSchema, playwrightOutput, playwrightSessionTool } from './adapter.js';
import { cookies, exportStorageState, loadStorageState } from '../../tools/storage.js';
import { STORAGE_AREAS, type StorageArea, webStorage } from '../../tools/web-storage.js';

const SESSION_NOTE = "Acts on this connection's own browser page unless sessionId names a session from create_session.";

const nameSchema = z.string().min(1).max(4_096).describe('Cookie name.');
const keySchema = z.string().max(10_000).describe('Item key.');
const valueSchema = z.string().max(5_000_000).describe('Item value.');

const cookieTools = [
  adapt({
    name: 'browser_cookie_list',
    title: 'List cookies',
    description: 'Lists cookies, optionally filtered by domain and path.',
    notes: `domain keeps the cookies whose domain contains it, path those whose path starts with it. ${SESSION_NOTE}`,
    input: z.strictObject({
      domain: z.string().min(1).max(2_048).optional().describe('Only domains containing this.'),
      path: z.string().min(1).max(2_048).optional().describe('Only paths starting with this.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: cookies,
    toBase: (filter) => ({ action: 'list', ...filter }),
  }),
  adapt({
    name: 'browser_cookie_get',
    title: 'Get cookie',
    description: 'Gets the cookies of one name.',
    notes: `The result lists every cookie of that name (one per domain and path); an empty list when there is none. ${SESSION_NOTE}`,
    input: z.strictObject({ name: nameSchema, sessionId: optionalSessionIdSchema }),
    base: cookies,
    toBase: ({ name }) => ({ action: 'get', name }),
  }),
  adapt({
    name: 'browser_cookie_set',
    title: 'Set cookie',
    description: "Sets a cookie; domain defaults to the page's host and path to /.",
    notes: `expires is Unix time in seconds (leave it out for a session cookie); sameSite defaults to "Lax". The result lists the cookies of that name. ${SESSION_NOTE}`,
    input: z.strictObject({
      name: nameSchema,
      value: z.string().max(4_096).describe('Cookie value.'),
      domain: z.string().min(1).max(2_048).optional().describe('Default: the page host.'),
      path: z.string().min(1).max(2_048).optional().describe('Default: /.'),
      expires: z.number().optional().describe('Unix seconds.'),
      httpOnly: z.boolean().optional().describe('Hidden from page scripts.'),
      secure: z.boolean().optional().describe('HTTPS only.'),
      sameSite: z.enum(['Strict', 'Lax', 'None']).optional().describe('Default: Lax.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: cookies,
    toBase: (cookie) => ({ action: 'set', name: cookie.name, cookies: [cookie] }),
  }),
  adapt({
    name: 'browser_cookie_delete',
    title: 'Delete cookie',
    description: 'Deletes the cookies of one name.',
    notes: `Removes every cookie of that name, or only those whose domain contains domain and whose path starts with path. ${SESSION_NOTE}`,
    input: z.strictObject({
      name: nameSchema,
      domain: z.string().min(1).max(2_048).optional().describe('Only on this domain.'),
      path: z.string().min(1).max(2_048).optional().describe('Only on this path.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: cookies,
    toBase: ({ name, domain, path }) => ({ action: 'delete', name, domain, path }),
  }),
  adapt({
    name: 'browser_cookie_clear',
    title: 'Clear cookies',
    description: 'Clears all cookies.',
    notes: SESSION_NOTE,
    input: z.strictObject({ sessionId: optionalSessionIdSchema }),
    base: cookies,
    toBase: () => ({ action: 'clear' }),
  }),
];

/** browser_localstorage_* and browser_sessionstorage_*: the five actions of web_storage for one area. */
function webStorageTools(area: StorageArea): AnyTool[] {
  const word = area === 'local' ? 'localStorage' : 'sessionStorage';
  const prefix = `browser_${word.toLowerCase()}`;
  const notes = `Acts on the ${word} of the open page's origin. ${SESSION_NOTE}`;
  return [
    adapt({
      name: `${prefix}_list`,
      title: `List ${word}`,
      description: `Lists the page's ${word} items.`,
      notes,
      input: z.strictObject({ sessionId: optionalSessionIdSchema }),
      base: webStorage,
      toBase: () => ({ area, action: 'list' }),
    }),
    adapt({
      name: `${prefix}_get`,
      title: `Get ${word} item`,
      description: `Gets a ${word} item by key.`,
      notes: `value is null when the key is not there. ${notes}`,
      input: z.strictObject({ key: keySchema, sessionId: optionalSessionIdSchema }),
      base: webStorage,
      toBase: ({ key }) => ({ area, action: 'get', key }),
    }),
    adapt({
      name: `${prefix}_set`,
      title: `Set ${word} item`,
      description: `Sets a ${word} item.`,
      notes,
      input: z.strictObject({ key: keySchema, value: valueSchema, sessionId: optionalSessionIdSchema }),
      base: webStorage,
      toBase: ({ key, value }) => ({ area, action: 'set', key, value }),
    }),
    adapt({
      name: `${prefix}_delete`,
      title: `Delete ${word} item`,
      description: `Deletes a ${word} item.`,
      notes,
      input: z.strictObject({ key: keySchema, sessionId: optionalSessionIdSchema }),
      base: webStorage,
      toBase: ({ key }) => ({ area, action: 'delete', key }),
    }),
    adapt({
      name: `${prefix}_clear`,
      title: `Clear ${word}`,
      description: `Clears the page's ${word}.`,
      notes,
      input: z.strictObject({ sessionId: optionalSessionIdSchema }),
      base: webStorage,
      toBase: () => ({ area, action: 'clear' }),
    }),
  ];
}

const browserStorageState = playwrightSessionTool({
  name: 'browser_storage_state',
  title: 'Save storage state',
  description: 'Saves cookies and localStorage to a JSON file in --output-dir, for browser_set_storage_state.',
  notes:
    'Without filename the file is storage-state-<time>-<random>.json in --output-dir; a filename must stay inside --output-dir. ' +
    `A server without --output-dir answers the state itself instead (without filename) or refuses (with one). The file holds live credentials. ${SESSION_NOTE} ` +
    'Errors: INVALID_PARAMETERS (a filename without --output-dir or outside it).',
  input: z.strictObject({
    filename: z.string().min(1).max(1_000).optional().describe('File in --output-dir.'),
    sessionId: optionalSessionIdSchema,
  }),
  output: playwrightOutput(exportStorageState.output as z.ZodObject),
  kind: 'read',
  errors: exportStorageState.errors,
  capability: 'storage',
  prepare: ({ filename }, ctx) => {
    const name = filename ?? (ctx.options.outputDir === undefined ? undefined : defaultFileName('storage-state', 'json'));
    return { file: name === undefined ? undefined : outputPath(ctx.options, name) };
  },
  handler: (prepared, page, response, ctx) => exportStorageState.work.handler(prepared, page, response, ctx),
});

const browserSetStorageState = adapt({
  name: 'browser_set_storage_state',
  title: 'Restore storage state',
  description: 'Restores cookies and localStorage from a storage state file, clearing what the session held.',
  notes:
    'The file must lie inside --output-dir (relative names are taken from there) or a directory browser_file_upload reads from; ' +
    'at most 10 MB, and what it holds is never quoted back. ' +
    `${SESSION_NOTE} Errors: INVALID_PARAMETERS (a file outside those directories, missing, too large or not a storage state).`,
  input: z.strictObject({ filename: z.string().min(1).max(4_096).describe('Storage state JSON file.'), sessionId: optionalSessionIdSchema }),
  base: loadStorageState,
  toBase: ({ filename }) => ({ filename }),
});

/** The playwright profile's `storage` group, in @playwright/mcp's order. */
export const playwrightStorageTools: readonly AnyTool[] = [
  ...cookieTools,
  browserStorageState,
  browserSetStorageState,
  ...STORAGE_AREAS.flatMap((area) => webStorageTools(area)),
];
