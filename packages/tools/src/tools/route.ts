// The `network` capability's routing: a session's requests matching a URL glob answered with a mocked response, or sent on with changed headers; `route` in the default profile, @playwright/mcp's browser_route, browser_route_list, browser_unroute and browser_network_state_set over it and emulate.
import { SessionError, defined } from '@sessionwright/session-core';
import type { BrowserContext, Route } from 'playwright';
import { z } from 'zod';
import type { AnyTool } from '../framework/define-tool.js';
import { emulate } from './emulate.js';
import { adapt, optionalSessionIdSchema } from '../framework/profile-adapter.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** Routes one session may hold: each one makes the browser stop every matching request, so a long list slows every page. */
const MAX_ROUTES = 50;
/** A mocked body's size in characters. */
const MAX_ROUTE_BODY = 1_000_000;
const MAX_PATTERN = 2_048;
const MAX_HEADERS = 50;
const MAX_HEADER_NAME = 256;
const MAX_HEADER_VALUE = 8_192;

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

/** @playwright/mcp's `"Name: Value"` header lines as a record; INVALID_PARAMETERS for a line without a name. */
function headerLines(lines: readonly string[] | undefined): Record<string, string> | undefined {
  if (lines === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SessionError('INVALID_PARAMETERS', `Header "${line.slice(0, 100)}" is not "Name: Value".`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** @playwright/mcp's comma-separated header names as a list. */
function headerNames(list: string | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  return list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The playwright profile's routing and network-state tools: @playwright/mcp's names and fields over route and emulate. */
export const playwrightNetworkTools: readonly AnyTool[] = [
  adapt({
    name: 'browser_route',
    title: 'Mock network requests',
    description: 'Mocks the responses of requests matching a URL pattern, or changes their headers.',
    notes:
      'pattern is a URL glob (`**/api/users`, `**/*.{png,jpg}`). With status or body the requests get that response (contentType, headers as "Name: Value"); ' +
      'without, they are sent on with headers added and removeHeaders (comma-separated names) taken out. Routes act on this ' +
      'session only, until browser_unroute.',
    input: z.strictObject({
      pattern: z.string().max(MAX_PATTERN).describe('URL glob, e.g. **/api/*.'),
      status: z.number().optional().describe('Status (default 200).'),
      body: z.string().max(MAX_ROUTE_BODY).optional().describe('Response body.'),
      contentType: z.string().max(200).optional().describe('Content-Type.'),
      headers: z
        .array(z.string().max(MAX_HEADER_NAME + MAX_HEADER_VALUE + 2))
        .max(MAX_HEADERS)
        .optional()
        .describe('"Name: Value" lines.'),
      removeHeaders: z
        .string()
        .max(MAX_HEADERS * (MAX_HEADER_NAME + 1))
        .optional()
        .describe('Request headers to drop, comma-separated.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: route,
    toBase: ({ headers, removeHeaders, ...rest }) => ({ action: 'add', ...rest, headers: headerLines(headers), removeHeaders: headerNames(removeHeaders) }),
  }),
  adapt({
    name: 'browser_route_list',
    title: 'List network routes',
    description: 'Lists the routes browser_route added.',
    input: z.strictObject({ sessionId: optionalSessionIdSchema }),
    base: route,
    toBase: () => ({ action: 'list' }),
  }),
  adapt({
    name: 'browser_unroute',
    title: 'Remove network routes',
    description: 'Removes the routes added with a pattern, or every route without one.',
    input: z.strictObject({ pattern: z.string().max(MAX_PATTERN).optional().describe('As given to browser_route.'), sessionId: optionalSessionIdSchema }),
    base: route,
    toBase: ({ pattern }) => ({ action: 'remove', pattern }),
  }),
  {
    ...adapt({
      name: 'browser_network_state_set',
      title: 'Set network state',
      description: 'Takes the browser offline, where every request fails, or back online.',
      input: z.strictObject({ state: z.enum(['online', 'offline']).describe('offline: every request fails.'), sessionId: optionalSessionIdSchema }),
      base: emulate,
      toBase: ({ state }) => ({ offline: state === 'offline' }),
    }),
    // emulate is a default tool; its network-state face belongs to the `network` group, as @playwright/mcp groups it.
    capability: 'network',
  },
];
