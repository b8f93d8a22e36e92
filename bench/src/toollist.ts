// What the tool list costs a model on every turn: the JSON of each tool's name, description and input schema, sessionwright's lists against the installed @playwright/mcp's, listed in the same run.
import { toolListCost, type ToolListCost } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { connectStdio, playwrightMcpArgs, sessionwrightArgs } from './systems.js';

/** @playwright/mcp's capabilities, every one: its whole list. */
export const PLAYWRIGHT_MCP_ALL_CAPS = 'vision,pdf,devtools,network,storage,testing,config';

export interface ToolListEntry extends ToolListCost {
  list: ToolListName;
  /** The flags the server ran with (after the browser flags every system gets). */
  flags: string[];
}

export type ToolListName = 'pw' | 'pwAll' | 'sw' | 'swAll' | 'swPlaywright' | 'swPlaywrightAll';

export interface ToolListResult {
  lists: ToolListEntry[];
  /** Lists a server would not start with (the playwright profile before it takes @playwright/mcp's caps), and why. */
  notServed: { list: ToolListName; flags: string[]; reason: string }[];
}

const LISTS: { list: ToolListName; system: 'pw' | 'sw'; flags: string[] }[] = [
  { list: 'pw', system: 'pw', flags: [] },
  { list: 'pwAll', system: 'pw', flags: ['--caps', PLAYWRIGHT_MCP_ALL_CAPS] },
  { list: 'sw', system: 'sw', flags: [] },
  { list: 'swAll', system: 'sw', flags: ['--caps', 'all'] },
  { list: 'swPlaywright', system: 'sw', flags: ['--profile', 'playwright'] },
  { list: 'swPlaywrightAll', system: 'sw', flags: ['--profile', 'playwright', '--caps', PLAYWRIGHT_MCP_ALL_CAPS] },
];

export async function runToolList(ctx: BenchContext): Promise<ToolListResult> {
  const result: ToolListResult = { lists: [], notServed: [] };
  for (const { list, system, flags } of LISTS) {
    const args = system === 'pw' ? playwrightMcpArgs(ctx.executable, flags) : sessionwrightArgs(ctx.executable, flags);
    let connection: Awaited<ReturnType<typeof connectStdio>>['connection'] | undefined;
    try {
      connection = (await connectStdio(args)).connection;
      result.lists.push({ list, flags, ...toolListCost((await connection.client.listTools()).tools) });
    } catch (error) {
      // A server that refuses the flags exits before initialize; its own words are on its stderr.
      const reason = (connection?.stderr() || (error instanceof Error ? error.message : String(error))).trim().split('\n').at(-1) ?? '';
      result.notServed.push({ list, flags, reason: reason.slice(0, 300) });
    } finally {
      await connection?.close();
    }
  }
  return result;
}
