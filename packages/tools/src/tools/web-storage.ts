// web_storage: the open page's localStorage or sessionStorage (its origin's), listed, read, written or cleared.
import { SessionError } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import { z } from 'zod';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** The longest key and value web_storage takes: a browser keeps about 5 MB per origin in all. */
const MAX_KEY = 10_000;
const MAX_VALUE = 5_000_000;

const itemSchema = z.object({ name: z.string(), value: z.string() });

/** The web storage areas, by the word the tools use. */
export const STORAGE_AREAS = ['local', 'session'] as const;
export type StorageArea = (typeof STORAGE_AREAS)[number];

export const webStorage = defineSessionTool({
  name: 'web_storage',
  title: 'Web storage',
  description: "Lists, gets, sets, deletes or clears the open page's localStorage or sessionStorage.",
  notes:
    'Acts on the storage of the open page\'s origin (navigate to the site first): area "local" is localStorage, "session" sessionStorage. ' +
    'action "list" answers every item; "get" the value of key (null when there is none); "set" stores value under key; "delete" ' +
    'removes key; "clear" removes every item. ' +
    'Every result says the origin and how many items it holds after the action. Other origins and other sessions are not touched. ' +
    'Errors: INVALID_PARAMETERS (key missing for get, set or delete, value missing for set, a page without storage such as ' +
    'about:blank), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    area: z.enum(STORAGE_AREAS).describe('localStorage or sessionStorage.'),
    action: z.enum(['list', 'get', 'set', 'delete', 'clear']).describe('get, delete need key; set key and value.'),
    key: z.string().max(MAX_KEY).optional().describe('Item key.'),
    value: z.string().max(MAX_VALUE).optional().describe('For set.'),
  }),
  output: sessionOutput({
    origin: z.string().describe('The origin whose storage this is.'),
    items: z.array(itemSchema).optional().describe('For list: every item.'),
    value: z.string().nullable().optional().describe('For get: the value, null when the key is not there.'),
    count: z.number().describe('How many items the storage holds after the action.'),
  }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  capability: 'storage',
  prepare(args) {
    const { action, key, value } = args;
    if (action !== 'list' && action !== 'clear' && key === undefined) throw invalid(`action "${action}" needs key.`);
    if (action === 'set' && value === undefined) throw invalid('action "set" needs value (a string).');
    if (action !== 'set' && value !== undefined) throw invalid(`value is only for action "set".`);
    return args;
  },
  async handler({ area, action, key = '', value = '' }, page) {
    const storage = area === 'local' ? page.localStorage : page.sessionStorage;
    return onStorage(page, area, async () => {
      const origin = new URL(page.url()).origin;
      if (action === 'set') await storage.setItem(key, value);
      if (action === 'delete') await storage.removeItem(key);
      if (action === 'clear') await storage.clear();
      const items = await storage.items();
      if (action === 'list') return { origin, items, count: items.length };
      if (action === 'get') return { origin, value: await storage.getItem(key), count: items.length };
      return { origin, count: items.length };
    });
  },
});

/** Runs `work` on a page's storage; a page that has none (about:blank, data:) is INVALID_PARAMETERS saying what to do. */
async function onStorage<T>(page: Page, area: StorageArea, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!/SecurityError|Access is denied|opaque origin/i.test(messageOf(error))) throw error;
    throw invalid(`The open page (${page.url().slice(0, 200)}) has no ${area}Storage: navigate to a page of the site first.`);
  }
}

function invalid(message: string): SessionError {
  return new SessionError('INVALID_PARAMETERS', message);
}
