// The playwright profile's routing and network-state tools: @playwright/mcp's names and fields, adapters over route and emulate.
import { SessionError } from '@sessionwright/session-core';
import { z } from 'zod';
import type { AnyTool } from '../../framework/define-tool.js';
import { emulate } from '../../tools/emulate.js';
import { MAX_HEADERS, MAX_HEADER_NAME, MAX_HEADER_VALUE, MAX_PATTERN, MAX_ROUTE_BODY, route } from '../../tools/route.js';
import { adapt, optionalSessionIdSchema } from './adapter.js';

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
