// The `states` capability: sign-ins kept on the server under a name (save, list, delete) and forks of a live session.
import { browserError } from '@sessionwright/session-core';
import { type SavedStateInfo, defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import type { SavedStateAccess, ToolContext } from '../framework/define-tool.js';
import { defineTool } from '../framework/define-tool.js';
import { prepareTitle } from '../page/title.js';
import { sessionIdSchema } from '../framework/schemas.js';

/**
 * A state's name as a tool takes it; the rest of the rule (STATE_NAME_PATTERN) is checked by SavedStates, which answers
 * INVALID_PARAMETERS saying it, so the pattern is not sent to the model on every turn.
 */
export const stateNameSchema = z.string().max(100);

const stateInfoSchema = z.object({
  name: z.string(),
  savedAt: z.number().describe('ms since epoch.'),
  cookies: z.number().describe('How many cookies; never their values.'),
  origins: z.array(z.string()).describe('Origins with localStorage or IndexedDB.'),
});

/** The caller's saved states; BROWSER_ERROR store_unavailable on a server that keeps none. */
export function savedStates(ctx: ToolContext): SavedStateAccess {
  const states = ctx.sessions.states;
  if (states === undefined) throw browserError('store_unavailable', 'This server keeps no saved states.');
  return states;
}

const info = (state: SavedStateInfo) => ({ name: state.name, savedAt: state.savedAt, cookies: state.cookies, origins: state.origins });

const saveState = defineTool({
  name: 'save_state',
  title: 'Save sign-in state',
  description: "Keeps the session's sign-ins (cookies, localStorage, IndexedDB) on the server under a name, for create_session {state}.",
  notes:
    'What is kept: the cookies, and every origin’s localStorage and IndexedDB; not sessionStorage, open tabs or what a page holds in memory. ' +
    'It is stored encrypted, outlives the server, and belongs to your client: no other client can see or use it. The result ' +
    'names what was kept, never a value. ' +
    'Saving under an existing name replaces that state. Limits (docs/sign-ins.md): a state of at most 5 MiB, at most 50 states ' +
    'per client; past either INVALID_PARAMETERS with details.state too_large or too_many. ' +
    'Errors: INVALID_PARAMETERS (a name that is not 1 to 100 letters, digits, spaces and _ . @ -), SESSION_NOT_FOUND / ' +
    'SESSION_EXPIRED, BROWSER_ERROR store_unavailable (the store cannot be written).',
  input: z.strictObject({ sessionId: sessionIdSchema, name: stateNameSchema.describe('Your name for it.') }),
  output: stateInfoSchema.extend({ message: z.string() }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  capability: 'states',
  async handler({ sessionId, name }, ctx) {
    const saved = await savedStates(ctx).save(sessionId, name, ctx.signal);
    return { ...info(saved), message: `Saved as "${saved.name}". Start a session signed in with create_session {state: "${saved.name}"}.` };
  },
});

const listStates = defineTool({
  name: 'list_states',
  title: 'List saved states',
  description: 'Lists your saved sign-in states: names, when saved, origins; never values.',
  notes:
    'Only your own client’s states are listed. A state the server cannot read (damaged, or sealed with another key) is left out ' +
    'and reported in the server log.',
  input: z.strictObject({}),
  output: z.object({ states: z.array(stateInfoSchema) }),
  kind: 'read',
  errors: ['INVALID_PARAMETERS', 'BROWSER_ERROR'],
  capability: 'states',
  async handler(_args, ctx) {
    return { states: (await savedStates(ctx).list()).map(info) };
  },
});

const deleteState = defineTool({
  name: 'delete_state',
  title: 'Delete saved state',
  description: 'Deletes one of your saved states.',
  notes: 'Errors: INVALID_PARAMETERS with details.state not_found when you have no state of that name (list_states names them).',
  input: z.strictObject({ name: stateNameSchema.describe('As list_states names it.') }),
  output: z.object({ name: z.string(), deleted: z.literal(true), message: z.string() }),
  kind: 'lifecycle-close',
  errors: ['INVALID_PARAMETERS', 'BROWSER_ERROR'],
  capability: 'states',
  async handler({ name }, ctx) {
    await savedStates(ctx).delete(name);
    return { name, deleted: true as const, message: `Deleted the saved state "${name}".` };
  },
});

const forkSession = defineTool({
  name: 'fork_session',
  title: 'Fork browser session',
  description: 'Opens copies of a session as it is now (sign-ins, storage, current page, options), each then on its own.',
  notes:
    'Each copy starts with the session’s cookies, localStorage, sessionStorage and IndexedDB, its current tab’s URL and the ' +
    'options it was created with (device, locale, proxy, headers…), ' +
    'and is then isolated like any session: use it to try several branches of a signed-in flow in parallel. What a page holds ' +
    'only in memory (a form typed into, scroll) is not copied: each copy loads the page afresh. ' +
    'Each copy counts against every session limit: MAX_SESSIONS_REACHED answers for the whole fork when they do not all fit, and nothing is opened. ' +
    'Errors: INVALID_PARAMETERS (count outside 1 to 10), SESSION_NOT_FOUND / SESSION_EXPIRED, MAX_SESSIONS_REACHED, BROWSER_ERROR.',
  input: z.strictObject({ sessionId: sessionIdSchema, count: z.number().int().min(1).max(10).optional().describe('Copies, 1-10 (default 1).') }),
  output: z.object({
    sessions: z.array(z.object({ sessionId: z.string(), url: z.string(), title: z.string() })).describe('The copies, each with the page it is on.'),
    message: z.string(),
  }),
  kind: 'lifecycle-create',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'MAX_SESSIONS_REACHED', 'BROWSER_ERROR'],
  capability: 'states',
  async handler({ sessionId, count }, ctx) {
    if (ctx.sessions.fork === undefined) throw browserError('unsupported', 'This server cannot fork sessions.');
    const copies = await ctx.sessions.fork(sessionId, { ...defined({ count }), signal: ctx.signal });
    const sessions = await Promise.all(
      copies.map(async (copy) => {
        prepareTitle(copy.page);
        return { sessionId: copy.id, url: copy.page.url(), title: await copy.page.title().catch(() => '') };
      }),
    );
    return { sessions, message: `${sessions.length} ${sessions.length === 1 ? 'copy' : 'copies'} opened; each is a session of its own.` };
  },
});

export const stateTools = [saveState, listStates, deleteState, forkSession];
