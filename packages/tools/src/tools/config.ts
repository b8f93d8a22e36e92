// The `config` capability: get_config answers the settings the server runs with, where each came from, secrets masked.
import { orAfter } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { defineTool, type ToolContext } from '../framework/define-tool.js';

export const CONFIG_NOTES =
  "Answers the settings in effect after the command line, the environment and the config file were merged: each one's value and " +
  'its source (cli, env, file, default), ' +
  'as --print-config prints them. Secrets never appear: tokens, endpoint URLs, header values, proxy and HTTP passwords, storage ' +
  'state values are "***" or counted. ' +
  'Use it to see why the server behaves as it does (viewport, timeouts, caps, output directory).';

export const configField = z.record(z.string(), z.unknown()).describe('Each setting: {value, source}; secrets masked.');

export const getConfig = defineTool({
  name: 'get_config',
  title: 'Get config',
  description: "Answers the server's settings in effect and where each came from, secrets masked.",
  notes: CONFIG_NOTES,
  input: z.strictObject({}),
  output: z.object({ config: configField }),
  kind: 'read',
  capability: 'config',
  errors: [],
  handler: async (_args, ctx) => ({ config: readOut(ctx) }),
});

/** The read-out the server handed the tools (empty for a server that gives none). */
export function readOut(ctx: ToolContext): Record<string, unknown> {
  return { ...(ctx.options.config ?? {}) };
}

/** The url and title of the named session's page, or of the connection's own when it has one; a read-out opens no browser. */
export async function openPage(ctx: ToolContext, sessionId: string | undefined): Promise<{ url: string; title: string }> {
  const id = sessionId ?? ctx.implicitSession?.current;
  let page: import('playwright').Page | undefined;
  try {
    page = id === undefined ? undefined : ctx.sessions.get(id).page;
  } catch (error) {
    // The connection's own session ended by itself: there is no page, which is not the caller's mistake.
    if (sessionId !== undefined) throw error;
  }
  if (page === undefined) return { url: 'about:blank', title: '' };
  return {
    url: page.url(),
    title: await orAfter(
      page.title().catch(() => ''),
      1_000,
      '',
    ),
  };
}
