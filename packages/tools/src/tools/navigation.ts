// Navigation tools: navigate, go_back, go_forward, reload.
import { fileURLToPath } from 'node:url';
import { SessionError } from '@sessionwright/session-core';
import type { Frame, Page, Response } from 'playwright';
import { z } from 'zod';
import type { ToolOptions } from '../framework/define-tool.js';
import { titleAtLoad } from '../page/title.js';
import { navigationError } from '../framework/errors.js';
import { isServerFile, realOrResolved } from '../framework/server-files.js';
import { sessionOutput } from '../framework/response.js';
import { includeSnapshotSchema, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

const DEFAULT_NAVIGATION_TIMEOUT = 30_000;

const waitUntilSchema = z.enum(['load', 'domcontentloaded', 'networkidle', 'commit']).optional().describe('Default "load".');

const navigationTimeoutSchema = z.number().int().min(0).max(300_000).optional().describe('Ms (default 30000).');

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
  const file = url.protocol === 'file:' ? fileOf(url) : '';
  if (file !== '' && isServerFile(realOrResolved(file), options.serverFiles)) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      "This file: URL names one of the server's own files (its data, tokens, secrets or config), which no tool opens.",
      {
        details: { url: raw.slice(0, 2000), reason: 'server_file' },
      },
    );
  }
  return url.href;
}

/** The path a file: URL names; one that names none (a remote host) is left to the browser. */
function fileOf(url: URL): string {
  try {
    return fileURLToPath(url);
  } catch {
    return '';
  }
}

export const navigate = defineSessionTool({
  name: 'navigate',
  title: 'Navigate to URL',
  description: 'Opens a URL and waits for it to load.',
  notes:
    'An HTTP error page (404, 500) is a success with that status. Next: snapshot to read the page (or pass includeSnapshot: true ' +
    'to get it in this result), then click/type to act on it. ' +
    'waitUntil says when the page counts as loaded: "load" (default), "domcontentloaded" (sooner), "networkidle" (no requests ' +
    'for 500 ms) or "commit" (the response arrived); ' +
    'timeout 0 waits without a limit of its own (the call still ends at the call ceiling). ' +
    'A page that asks before being left (beforeunload) is left anyway, and the result lists that dialog in dialogs. ' +
    'Errors: NAVIGATION_FAILED (unreachable host, refused connection, TLS error, timeout; details.reason says which), ' +
    "INVALID_PARAMETERS (not an absolute http(s), data: or about:blank URL; file: URLs only with --allow-file-urls, never to the server's own files), " +
    'SESSION_NOT_FOUND / SESSION_EXPIRED (create a new session).',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    url: z.string().min(1).max(100_000).describe('Absolute URL.'),
    waitUntil: waitUntilSchema,
    timeout: navigationTimeoutSchema,
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput(
    {
      success: z.literal(true),
      status: z.number().nullable().describe('The HTTP status of the main document, or null when there was no HTTP response (about:blank, data:).'),
    },
    { snapshot: true },
  ),
  kind: 'action',
  errors: ['NAVIGATION_FAILED', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  prepare: (args, ctx) => ({ ...args, url: checkUrl(args.url, ctx.options) }),
  defaultTimeout: 'navigation',
  loads: true,
  async handler({ url, waitUntil = 'load', timeout = DEFAULT_NAVIGATION_TIMEOUT }, page, response, ctx) {
    // Progress for clients that asked (progressToken): started, committed (the response arrived), loaded.
    ctx.progress(0, 2, `Navigating to ${url.slice(0, 200)}`);
    let committed = false;
    const onCommit = (frame: Frame) => {
      if (committed || frame !== page.mainFrame()) return;
      committed = true;
      ctx.progress(1, 2, `Response received; waiting for "${waitUntil}"`);
    };
    page.on('framenavigated', onCommit);
    // Waiting for the load event, the title is read as soon as the server side sees it (another condition may
    // end the wait long after the load, with a newer title).
    const atLoad = waitUntil === 'load' ? titleAtLoad(page) : undefined;
    let loaded;
    try {
      loaded = await page.goto(url, { waitUntil, timeout });
    } catch (error) {
      const failure = navigationError(error, { url, timeout });
      await errorPageShown(page, failure.details?.reason);
      throw failure;
    } finally {
      page.off('framenavigated', onCommit);
      atLoad?.stop();
    }
    const title = atLoad?.title();
    if (title) response.pageSettled(title);
    ctx.progress(2, 2, 'Loaded');
    return { success: true as const, status: loaded?.status() ?? null };
  },
});

/**
 * Chromium shows its error page a moment after a load fails at once (refused, blocked, an unsafe port): the next
 * navigation, started before that page commits, would be interrupted by it. So a failed navigation answers once the
 * error page is in (within a second); a timeout or an abort (a download, a 204) shows none.
 */
async function errorPageShown(page: Page, reason: unknown): Promise<void> {
  if (typeof reason !== 'string' || !reason.startsWith('ERR_') || reason === 'ERR_ABORTED') return;
  await page.waitForURL((url) => url.protocol === 'chrome-error:', { waitUntil: 'commit', timeout: 1_000 }).catch(() => {});
}

type HistoryMove = 'back' | 'forward' | 'reload';

const historyOutput = sessionOutput({
  success: z.literal(true),
  message: z.string().describe('What happened, including "nothing to go back to" when the history has no such entry.'),
  status: z
    .number()
    .nullable()
    .describe(
      'The HTTP status of the document loaded, or null when none was loaded (no history entry, a same-document step, or a page from the back/forward cache).',
    ),
});

async function moveInHistory(page: Page, move: HistoryMove, options: { waitUntil: 'load' | 'domcontentloaded' | 'networkidle' | 'commit'; timeout: number }) {
  const before = page.url();
  let response: Response | null;
  try {
    response = await (move === 'back' ? page.goBack(options) : move === 'forward' ? page.goForward(options) : page.reload(options));
  } catch (error) {
    throw navigationError(error, { url: move === 'reload' ? before : `the ${move === 'back' ? 'previous' : 'next'} page`, timeout: options.timeout });
  }
  const url = page.url();
  // Playwright answers null both when there is no entry and for a step that loads no document; only the URL tells them apart.
  const moved = response !== null || url !== before || move === 'reload';
  const message =
    move === 'reload'
      ? 'Reloaded.'
      : moved
        ? `Went ${move} to ${url}.`
        : `There is nothing to go ${move} to: the session's history has no ${move === 'back' ? 'earlier' : 'later'} page. The page did not change.`;
  return { success: true as const, message, status: response?.status() ?? null };
}

function historyTool(move: HistoryMove) {
  const names = { back: ['go_back', 'Go back'], forward: ['go_forward', 'Go forward'], reload: ['reload', 'Reload page'] } as const;
  const [name, title] = names[move];
  const what = move === 'reload' ? 'Reloads the page and waits for it to load.' : `Goes ${move} one page and waits for it to load.`;
  const nothing = move === 'reload' ? '' : `With nothing to go ${move} to it succeeds without changing the page, says so in message, and status is null. `;
  return defineSessionTool({
    name,
    title,
    description: what,
    notes:
      `${nothing}Refs from older snapshots are stale afterwards. Returns the URL, title and HTTP status. Next: snapshot. waitUntil and timeout are as for navigate. ` +
      'Errors: NAVIGATION_FAILED (the page could not be loaded, or did not load in time), SESSION_NOT_FOUND / SESSION_EXPIRED.',
    input: z.strictObject({ sessionId: sessionIdSchema, waitUntil: waitUntilSchema, timeout: navigationTimeoutSchema }),
    output: historyOutput,
    kind: 'action',
    errors: ['NAVIGATION_FAILED', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
    defaultTimeout: 'navigation',
    loads: true,
    handler: ({ waitUntil = 'load', timeout = DEFAULT_NAVIGATION_TIMEOUT }, page) => moveInHistory(page, move, { waitUntil, timeout }),
  });
}

export const goBack = historyTool('back');
export const goForward = historyTool('forward');
export const reload = historyTool('reload');
