// The `network` capability: network_requests lists a session's requests from its ring; network_request shows one in full.
import { SessionError, type Session } from '@sessionwright/session-core';
import { isStaticResource, orAfter, type RequestEntry, defined } from '@sessionwright/session-core/parts';
import type { Request } from 'playwright';
import { z } from 'zod';
import { cursorSchema, DEFAULT_LIMIT, limitSchema } from './console.js';
import type { AnyTool } from '../framework/define-tool.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** Bodies longer than this many characters are cut (docs/agent-tools.md). */
const MAX_BODY_CHARS = 100_000;

export const networkRequests = defineSessionTool({
  name: 'network_requests',
  title: 'List network requests',
  description: "Lists the requests the session's pages made, to see which API calls failed.",
  notes:
    'Every tab of the session, oldest first: id, method, url, resource type, status (null while pending or when it failed), failure and duration. ' +
    'resourceTypes keeps only those types (document, xhr, fetch, script, stylesheet, image, font, media, websocket, other, …). ' +
    'Images, fonts, stylesheets and media are left out unless includeStatic is true. filter keeps URLs containing a substring, ' +
    'or matching /regex/flags. ' +
    'Use it to see which API calls a page made and which failed; then network_request {id} for headers and bodies. Pass the ' +
    'returned cursor as since to get only newer requests. ' +
    'The session keeps the last 1000 requests; dropped counts those that fell out before you read them. Errors: ' +
    'INVALID_PARAMETERS (a bad /regex/), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    filter: z.string().min(1).max(1_000).optional().describe('URL substring, or /regex/flags.'),
    resourceTypes: z.array(z.string().min(1).max(50)).max(20).optional().describe('e.g. ["fetch", "xhr"].'),
    since: cursorSchema,
    limit: limitSchema,
    includeStatic: z.boolean().optional().describe('Also images, fonts, stylesheets, media.'),
  }),
  output: sessionOutput({
    requests: z.array(
      z.object({
        id: z.string().describe('Pass to network_request for headers and bodies.'),
        method: z.string(),
        url: z.string(),
        resourceType: z.string(),
        status: z.number().nullable().describe('HTTP status; null while pending or when the request failed.'),
        failure: z.string().optional().describe('Why it failed, e.g. net::ERR_CONNECTION_REFUSED.'),
        ms: z.number().optional().describe('Duration until the response ended or the request failed.'),
      }),
    ),
    cursor: z.number().describe('Pass as since to get only newer requests.'),
    dropped: z.number().describe('Requests after since that fell out of the 1000-request ring before this read.'),
  }),
  kind: 'read',
  capability: 'network',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  // A filter that is not a valid /regex/ is refused before the call waits for its session.
  prepare({ filter, resourceTypes, since, limit, includeStatic }) {
    const matches = urlMatcher(filter);
    const types = resourceTypes === undefined ? undefined : new Set(resourceTypes);
    const keep = (entry: RequestEntry) =>
      matches(entry.url) && (types ? types.has(entry.resourceType) : includeStatic === true || !isStaticResource(entry.resourceType));
    return { keep, since, limit: limit ?? DEFAULT_LIMIT };
  },
  async handler({ keep, since, limit }, _page, response) {
    const read = response.session.collectors.requests.read({ ...defined({ since }), limit, keep });
    const requests = read.items.map(({ id, method, url, resourceType, status, failure, ms }) => ({
      id,
      method,
      url,
      resourceType,
      status,
      ...defined({ failure, ms }),
    }));
    return { requests, cursor: read.cursor, dropped: read.dropped };
  },
});

export const networkRequest = defineSessionTool({
  name: 'network_request',
  title: 'Show one network request',
  description: 'Shows one request from network_requests in full: headers and bodies.',
  notes:
    'Method, the URL requested (requestUrl), status, request and response headers, and the bodies (text cut at 100000 characters ' +
    'with truncated: true; binary bodies as a note). ' +
    "Credentials in Authorization headers and the values of the session's own extraHTTPHeaders are hidden. Errors: " +
    'INVALID_PARAMETERS (no request has that id in this session, or it fell out of the 1000-request ring: list again), ' +
    'SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    id: z.string().min(1).max(50).describe('From network_requests, e.g. "r12".'),
  }),
  output: sessionOutput({
    id: z.string(),
    method: z.string(),
    requestUrl: z.string().describe('The URL requested (url is the page the session is on, as in every result).'),
    status: z.number().nullable(),
    failure: z.string().optional(),
    requestHeaders: z.record(z.string(), z.string()),
    responseHeaders: z.record(z.string(), z.string()).describe('Empty when there was no response.'),
    requestBody: z.string().optional().describe('The request body (POST data), when there was one.'),
    responseBody: z.string().optional().describe('The response body as text, or a note for a binary or unavailable body.'),
    truncated: z.boolean().optional().describe('True when a body was cut at 100000 characters.'),
  }),
  kind: 'read',
  capability: 'network',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ id }, _page, response) {
    const { collectors } = response.session;
    const found = collectors.request(id);
    if (!found) {
      const fellOut = collectors.issued(id);
      throw new SessionError(
        'INVALID_PARAMETERS',
        fellOut
          ? `Request ${id} is no longer kept: only the last 1000 requests are. List the requests again and pick a newer id.`
          : `No request has id ${JSON.stringify(id.slice(0, 50))} in this session. Use an id from this session's request list.`,
        { details: { id: id.slice(0, 50), reason: fellOut ? 'dropped' : 'unknown_id' } },
      );
    }
    return describeRequest(found.entry, found.request, response.session);
  },
});

/** How long network_request waits for a response or a body still loading before it answers without it. */
const DETAIL_WAIT_MS = 3_000;

async function describeRequest(entry: RequestEntry, request: Request, session: Session) {
  const hideCredentials = (headers: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADER.test(name) || session.emulation.hidesHeaderValue(name) ? '(hidden)' : value]),
    );
  // A pending request has no response yet, and a body still streaming is not complete: neither may hold the call.
  const answer = await orAfter(
    request.response().catch(() => null),
    entry.status === null ? 0 : DETAIL_WAIT_MS,
    null,
  );
  const requestHeaders = hideCredentials(await orAfter(request.allHeaders(), DETAIL_WAIT_MS, request.headers()).catch(() => request.headers()));
  const responseHeaders = answer ? hideCredentials(await orAfter(answer.allHeaders(), DETAIL_WAIT_MS, answer.headers()).catch(() => answer.headers())) : {};
  const posted = request.postDataBuffer();
  const requestBody = posted ? bodyText(posted, requestHeaders['content-type']) : undefined;
  let responseBody: { text: string; truncated: boolean } | undefined;
  if (answer) {
    const body = await orAfter(
      answer.body().then(
        (buffer) => bodyText(buffer, responseHeaders['content-type']),
        (error: unknown) => ({ text: `(body not available: ${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)})`, truncated: false }),
      ),
      DETAIL_WAIT_MS,
      { text: '(body not available: the response has not finished loading)', truncated: false },
    );
    responseBody = body;
  }
  const truncated = (requestBody?.truncated ?? false) || (responseBody?.truncated ?? false);
  return {
    id: entry.id,
    method: entry.method,
    requestUrl: entry.url,
    status: entry.status,
    ...defined({ failure: entry.failure }),
    requestHeaders,
    responseHeaders,
    ...(requestBody === undefined ? {} : { requestBody: requestBody.text }),
    ...(responseBody === undefined ? {} : { responseBody: responseBody.text }),
    ...(truncated ? { truncated: true } : {}),
  };
}

const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql)|image\/svg\+xml)/i;

/** Text bodies decoded and capped; anything else as a note with its size and type. */
export function bodyText(buffer: Buffer, contentType: string | undefined): { text: string; truncated: boolean } {
  const type = contentType?.split(';')[0]?.trim() ?? '';
  const looksText = type === '' ? !buffer.subarray(0, 1_000).includes(0) : TEXT_TYPE.test(type);
  if (!looksText) return { text: `(binary body, ${buffer.length} bytes${type ? `, ${type}` : ''})`, truncated: false };
  const text = buffer.subarray(0, MAX_BODY_CHARS * 4).toString('utf8');
  return text.length > MAX_BODY_CHARS ? { text: text.slice(0, MAX_BODY_CHARS), truncated: true } : { text, truncated: buffer.length > MAX_BODY_CHARS * 4 };
}

const CREDENTIAL_HEADER = /^(authorization|proxy-authorization)$/i;

/** A substring test, or a regular expression when written /…/flags; INVALID_PARAMETERS for one that does not compile. */
export function urlMatcher(filter: string | undefined): (url: string) => boolean {
  if (filter === undefined) return () => true;
  const literal = /^\/(.+)\/([dgimsuvy]*)$/.exec(filter);
  if (!literal) return (url) => url.includes(filter);
  let pattern: RegExp;
  try {
    pattern = new RegExp(literal[1] as string, (literal[2] ?? '').replace('g', ''));
  } catch (error) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      `filter ${filter} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}.`,
      {
        details: { filter },
      },
    );
  }
  return (url) => pattern.test(url);
}

/** The `network` capability group. */
export const networkTools: readonly AnyTool[] = [networkRequests, networkRequest];

/**
 * Whether any of these tools reads a session's request list (network_requests, network_request, and the playwright
 * profile's browser_network_request(s)): without one, sessions need not collect it (session-core's collectNetwork).
 */
export function readsRequestList(tools: readonly { name: string }[]): boolean {
  return tools.some((tool) => /(^|_)network_requests?$/.test(tool.name));
}
