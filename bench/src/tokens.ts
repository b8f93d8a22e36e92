// Snapshot size: the text a model reads from sessionwright's `snapshot` vs @playwright/mcp's `browser_snapshot`, same pages; and what `find` answers instead when the agent looks for one element.
import type { BenchContext } from './context.js';
import { findQueries } from './pages.js';
import { connectStdio, jsonOf, playwrightMcpArgs, sessionwrightArgs, timedCall } from './systems.js';

export interface TokenPage {
  page: string;
  /** Characters of all text content of the snapshot result. */
  sessionwright: number;
  playwrightMcp: number;
  ratio: number;
  /** sessionwright cut the snapshot at its default maxChars (so the two texts hold different amounts of the page). */
  truncated: boolean;
  /** What an agent looks for on the page, and the characters of the answers to it: sessionwright's find, @playwright/mcp's browser_find. */
  find?: { text: string; sessionwright: number; playwrightMcp: number; matches: number };
}

export interface TokenResult {
  available: boolean;
  pages: TokenPage[];
  /** One sample of each snapshot text, for the report's appendix. */
  examples: { page: string; sessionwright: string; playwrightMcp: string } | undefined;
}

export async function runTokens(ctx: BenchContext): Promise<TokenResult> {
  const sw = (await connectStdio(sessionwrightArgs(ctx.executable))).connection;
  const pw = (await connectStdio(playwrightMcpArgs(ctx.executable))).connection;
  try {
    const tools = await sw.client.listTools();
    if (!tools.tools.some((tool) => tool.name === 'snapshot')) return { available: false, pages: [], examples: undefined };
    const sessionId = String(jsonOf(await timedCall(sw.client, 'create_session')).sessionId);
    const pages: TokenPage[] = [];
    let examples: TokenResult['examples'];
    for (const page of ctx.config.tokenPages) {
      const url = ctx.fixture.urlFor(`/pages/${page}`);
      try {
        await timedCall(sw.client, 'navigate', { sessionId, url });
        const snapshot = await timedCall(sw.client, 'snapshot', { sessionId });
        const ours = snapshot.text;
        const truncated = jsonOf(snapshot).truncated === true;
        await timedCall(pw.client, 'browser_navigate', { url });
        const theirs = (await timedCall(pw.client, 'browser_snapshot', {})).text;
        const text = findQueries[page];
        let find: TokenPage['find'];
        if (text !== undefined) {
          const found = await timedCall(sw.client, 'find', { sessionId, text });
          const theirFind = await timedCall(pw.client, 'browser_find', { text });
          find = { text, sessionwright: found.text.length, playwrightMcp: theirFind.text.length, matches: Number(jsonOf(found).total) };
        }
        pages.push({
          page,
          sessionwright: ours.length,
          playwrightMcp: theirs.length,
          ratio: ours.length / theirs.length,
          truncated,
          ...(find ? { find } : {}),
        });
        if (page === 'bench-app') examples = { page, sessionwright: ours, playwrightMcp: theirs };
      } catch (error) {
        ctx.error('tokens', error);
      }
    }
    return { available: true, pages, examples };
  } finally {
    await Promise.all([sw.close(), pw.close()]);
  }
}
