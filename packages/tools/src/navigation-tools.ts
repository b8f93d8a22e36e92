// Navigation tools: navigate.
import { SessionError, navigationError } from '@sessionwright/session-core';
import { z } from 'zod';
import { defineTool, type ToolOptions } from './define-tool.js';
import { pageState } from './page-helpers.js';
import { onSession } from './run-tool.js';
import { sessionIdSchema, sessionResultFields } from './schemas.js';

export const DEFAULT_NAVIGATION_TIMEOUT = 30_000;

const waitUntilSchema = z
  .enum(['load', 'domcontentloaded', 'networkidle', 'commit'])
  .optional()
  .describe('When to consider the page loaded: "load" (default), "domcontentloaded" (faster), "networkidle" (no requests for 500 ms), or "commit" (response received).');

const navigationTimeoutSchema = z
  .number()
  .int()
  .min(0)
  .max(300_000)
  .optional()
  .describe('Maximum time for the page to load, in ms (default 30000; 0 means no limit).');

/** Allowed URL schemes; file: only when the server was started with --allow-file-urls. */
export function checkUrl(raw: string, options: ToolOptions): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SessionError('INVALID_PARAMETERS', `"${raw.slice(0, 200)}" is not a valid absolute URL. Include the scheme, e.g. https://example.com/.`, {
      details: { url: raw.slice(0, 2000) },
    });
  }
  const allowed = ['http:', 'https:', 'data:', ...(options.allowFileUrls ? ['file:'] : [])];
  const isBlank = url.href === 'about:blank';
  if (!isBlank && !allowed.includes(url.protocol)) {
    const schemes = [...allowed.map((scheme) => scheme.slice(0, -1)), 'about:blank'].join(', ');
    const fileHint = url.protocol === 'file:' ? ' file: URLs are disabled unless the server runs with --allow-file-urls.' : '';
    throw new SessionError('INVALID_PARAMETERS', `The URL scheme "${url.protocol}" is not allowed. Allowed: ${schemes}.${fileHint}`, {
      details: { url: raw.slice(0, 2000), allowedSchemes: schemes },
    });
  }
  return url.href;
}

export const navigate = defineTool({
  name: 'navigate',
  title: 'Navigate to URL',
  description:
    'Loads a URL in the session\'s page and waits until it has loaded. Returns the final URL (after redirects), the title and the HTTP status. ' +
    'An HTTP error page (404, 500) is a success with that status. Next: snapshot to read the page, or click/type to act on it. ' +
    'Errors: NAVIGATION_FAILED (unreachable host, refused connection, TLS error, timeout; details.reason says which), ' +
    'INVALID_PARAMETERS (not an absolute http(s), data: or about:blank URL), SESSION_NOT_FOUND / SESSION_EXPIRED (create a new session).',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    url: z.string().min(1).max(100_000).describe('The absolute URL to open, e.g. https://example.com/ (http, https, data: and about:blank).'),
    waitUntil: waitUntilSchema,
    timeout: navigationTimeoutSchema,
  }),
  output: z.object({
    success: z.literal(true),
    url: z.string().describe('The final URL after redirects.'),
    title: z.string(),
    status: z.number().nullable().describe('The HTTP status of the main document, or null when there was no HTTP response (about:blank, data:).'),
    ...sessionResultFields,
  }),
  kind: 'action',
  errors: ['NAVIGATION_FAILED', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ sessionId, url, waitUntil, timeout }, ctx) {
    const target = checkUrl(url, ctx.options);
    const limit = timeout ?? DEFAULT_NAVIGATION_TIMEOUT;
    return onSession(ctx, sessionId, async (page) => {
      let response;
      try {
        response = await page.goto(target, { waitUntil: waitUntil ?? 'load', timeout: limit });
      } catch (error) {
        throw navigationError(error, { url: target, timeout: limit });
      }
      return { success: true as const, ...(await pageState(page)), status: response?.status() ?? null };
    });
  },
});
