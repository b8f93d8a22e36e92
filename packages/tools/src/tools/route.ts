// The `network` capability's routing: a session's requests matching a URL glob answered with a mocked response, or sent on with changed headers; profiles/playwright/network.ts names it for the playwright profile.
import { SessionError } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import type { BrowserContext, Route } from 'playwright';
import { z } from 'zod';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** Routes one session may hold: each one makes the browser stop every matching request, so a long list slows every page. */
const MAX_ROUTES = 50;
/** A mocked body's size in characters. */
export const MAX_ROUTE_BODY = 1_000_000;
export const MAX_PATTERN = 2_048;
export const MAX_HEADERS = 50;
export const MAX_HEADER_NAME = 256;
export const MAX_HEADER_VALUE = 8_192;

const headerName = z
  .string()
  .min(1)
  .max(MAX_HEADER_NAME)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and !#$%&'*+.^_`|~-");

/** One route as the session holds it; the handler is what Playwright calls, kept to remove exactly this route. */
interface RouteEntry {
  pattern: string;
  status?: number;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  removeHeaders?: string[];
  handler: (route: Route) => Promise<void>;
}

/** Each session's routes, in the order they were added, by the session's context: they end with it. */
const routesByContext = new WeakMap<BrowserContext, RouteEntry[]>();

function routesOf(context: BrowserContext): RouteEntry[] {
  let routes = routesByContext.get(context);
  if (!routes) {
    routes = [];
    routesByContext.set(context, routes);
  }
  return routes;
}

interface RouteSpec {
  pattern: string;
  status?: number | undefined;
  body?: string | undefined;
  contentType?: string | undefined;
  headers?: Record<string, string> | undefined;
  removeHeaders?: string[] | undefined;
}

/**
 * The handler of one route. With a status or a body it answers the request itself (the network is never reached) with
 * contentType and headers; without, it sends the request on with headers added and removeHeaders taken out, through the
 * session's other routes (its blocked origins and resource types still apply).
 */
function routeHandler(spec: RouteSpec): (route: Route) => Promise<void> {
  const mocks = spec.status !== undefined || spec.body !== undefined;
  const removed = new Set((spec.removeHeaders ?? []).map((name) => name.toLowerCase()));
  return async (route) => {
    if (mocks) {
      await route.fulfill({
        status: spec.status ?? 200,
        ...defined({ headers: spec.headers, contentType: spec.contentType }),
        body: spec.body ?? '',
      });
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(route.request().headers())) if (!removed.has(name.toLowerCase())) headers[name] = value;
    for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
    await route.fallback({ headers });
  };
}

/** Adds a route to the session's context; INVALID_PARAMETERS when it already holds MAX_ROUTES. */
async function addRoute(context: BrowserContext, spec: RouteSpec): Promise<number> {
  const routes = routesOf(context);
  if (routes.length >= MAX_ROUTES) {
    throw new SessionError('INVALID_PARAMETERS', `This session already has ${MAX_ROUTES} routes; remove some first (route action "remove").`, {
      details: { routes: routes.length },
    });
  }
  const entry: RouteEntry = { ...defined(spec), pattern: spec.pattern, handler: routeHandler(spec) };
  await context.route(spec.pattern, entry.handler);
  routes.push(entry);
  return routes.length;
}

/** Removes the routes added with exactly this pattern, or every route without one; answers how many. */
async function removeRoutes(context: BrowserContext, pattern?: string): Promise<number> {
  const routes = routesOf(context);
  const gone = routes.filter((entry) => pattern === undefined || entry.pattern === pattern);
  for (const entry of gone) {
    await context.unroute(entry.pattern, entry.handler);
    routes.splice(routes.indexOf(entry), 1);
  }
  return gone.length;
}

/** The session's routes as a result shows them: header values hidden, a body by its length and first characters. */
function listRoutes(context: BrowserContext) {
  return routesOf(context).map(({ pattern, status, body, contentType, headers, removeHeaders }) => ({
    pattern,
    mocked: status !== undefined || body !== undefined,
    ...defined({ status, contentType }),
    ...(body === undefined ? {} : { bodyLength: body.length, bodyStart: body.slice(0, 50) }),
    ...(headers === undefined ? {} : { headers: Object.keys(headers) }),
    ...defined({ removeHeaders }),
  }));
}

const routeListSchema = z
  .array(
    z.object({
      pattern: z.string(),
      mocked: z.boolean().describe('true: answered with status/body; false: sent on with changed headers.'),
      status: z.number().optional(),
      contentType: z.string().optional(),
      bodyLength: z.number().optional(),
      bodyStart: z.string().optional().describe("The body's first 50 characters."),
      headers: z.array(z.string()).optional().describe('Names of the headers set; values hidden.'),
      removeHeaders: z.array(z.string()).optional(),
    }),
  )
  .describe("The session's routes, oldest first; the newest matching one acts first.");

export const route = defineSessionTool({
  name: 'route',
  title: 'Mock or change requests',
  description: "Answers the session's requests matching a URL pattern with a mocked response, or changes their headers.",
  notes:
    'action add: pattern is a URL glob (`**/api/users`, `**/*.{png,jpg}`; * within a path segment, ** across), matched against the full URL. ' +
    'With status or body, matching requests get that response (status default 200, contentType, headers) and never reach the ' +
    'network; without either, they are sent on with headers set and removeHeaders taken out. ' +
    'action remove: the routes added with exactly that pattern, or every route without one. action list: the routes (header values hidden). ' +
    `Routes act on every tab of this session only, until removed or the session ends; at most ${MAX_ROUTES}, a body at most ${MAX_ROUTE_BODY} characters. ` +
    'Errors: INVALID_PARAMETERS (pattern missing for add, too many routes, or fields remove/list do not take), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    action: z.enum(['add', 'remove', 'list']).describe('What to do.'),
    pattern: z.string().min(1).max(MAX_PATTERN).optional().describe('URL glob, e.g. **/api/*.'),
    status: z.number().int().min(100).max(599).optional().describe('Mock: status (default 200).'),
    body: z.string().max(MAX_ROUTE_BODY).optional().describe('Mock: response body.'),
    contentType: z.string().min(1).max(200).optional().describe('Mock: Content-Type.'),
    headers: z
      .record(headerName, z.string().max(MAX_HEADER_VALUE))
      .refine((headers) => Object.keys(headers).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`)
      .optional()
      .describe('Mock: response headers; else request headers to set.'),
    removeHeaders: z.array(headerName).max(MAX_HEADERS).optional().describe('Request headers to drop.'),
  }),
  output: sessionOutput({
    message: z.string(),
    removed: z.number().optional().describe('action remove: how many routes went.'),
    routes: routeListSchema.optional(),
  }),
  kind: 'action',
  capability: 'network',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  // A route without a pattern, or remove/list given a route's fields, is refused before the call waits for its session.
  prepare(args) {
    const { sessionId: _sessionId, action, pattern, ...spec } = args;
    if (action === 'add' && pattern === undefined) throw new SessionError('INVALID_PARAMETERS', 'route action "add" needs a pattern, e.g. "**/api/*".');
    const extra = Object.entries(action === 'add' ? {} : { ...spec, ...(action === 'list' ? { pattern } : {}) })
      .filter(([, value]) => value !== undefined)
      .map(([name]) => name);
    if (extra.length > 0) {
      throw new SessionError('INVALID_PARAMETERS', `route action "${action}" does not take ${extra.join(', ')}.`, { details: { action, extra } });
    }
    return { action, pattern, spec };
  },
  async handler({ action, pattern, spec }, page) {
    const context = page.context();
    if (action === 'add') {
      const count = await addRoute(context, { ...spec, pattern: pattern as string });
      const what = spec.status !== undefined || spec.body !== undefined ? 'answered with the mocked response' : 'sent on with the changed headers';
      return { message: `Requests matching ${pattern} are now ${what} (${count} route${count === 1 ? '' : 's'}).`, routes: listRoutes(context) };
    }
    if (action === 'remove') {
      const removed = await removeRoutes(context, pattern);
      return {
        message: `Removed ${removed} route${removed === 1 ? '' : 's'}${pattern === undefined ? '' : ` for ${pattern}`}.`,
        removed,
        routes: listRoutes(context),
      };
    }
    const routes = listRoutes(context);
    return { message: routes.length === 0 ? 'No routes.' : `${routes.length} route${routes.length === 1 ? '' : 's'}.`, routes };
  },
});
