// What the tool list costs a model, against the installed @playwright/mcp in the same run: the default list at most its size per tool, the playwright profile's whole list at most 1.15 times its whole default list.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { connectStdio, toolListCost, type StdioConnection, type ToolListCost } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCli } from './helpers.js';

/** The @playwright/mcp the bench compares against (a devDependency of bench/, installed with the workspace). */
const PLAYWRIGHT_MCP_CLI = path.join(REPO_ROOT, 'bench', 'node_modules', '@playwright', 'mcp', 'cli.js');

/** The playwright profile's whole list may cost at most this many times @playwright/mcp's default list. */
const PLAYWRIGHT_PROFILE_BOUND = 1.15;

async function costOf(connection: StdioConnection): Promise<ToolListCost> {
  try {
    return toolListCost((await connection.client.listTools()).tools);
  } finally {
    await connection.close();
  }
}

describe('the tool list a model is sent on every turn', () => {
  let theirs: ToolListCost;
  let ours: ToolListCost;
  let playwrightProfile: ToolListCost;
  beforeAll(async () => {
    expect(existsSync(PLAYWRIGHT_MCP_CLI), `${PLAYWRIGHT_MCP_CLI} is missing: run pnpm install`).toBe(true);
    [theirs, ours, playwrightProfile] = await Promise.all([
      connectStdio({ command: process.execPath, args: [PLAYWRIGHT_MCP_CLI, '--headless'] }).then(costOf),
      startCli().then(costOf),
      startCli(['--profile', 'playwright']).then(costOf),
    ]);
  });
  afterAll(() => {
    const line = (name: string, cost: ToolListCost) => `${name}: ${cost.tools} tools, ${cost.chars} characters, ${Math.round(cost.perTool)} per tool`;
    process.stderr.write(`${[line('@playwright/mcp', theirs), line('default profile', ours), line('playwright profile', playwrightProfile)].join('\n')}\n`);
  });

  it("costs per tool, in the default profile, at most what @playwright/mcp's default list costs per tool", () => {
    expect(theirs.tools).toBeGreaterThan(20);
    expect(ours.perTool / theirs.perTool).toBeLessThanOrEqual(1);
  });

  it(`costs in the playwright profile, all of it, at most ${PLAYWRIGHT_PROFILE_BOUND} times @playwright/mcp's default list`, () => {
    expect(playwrightProfile.chars / theirs.chars).toBeLessThanOrEqual(PLAYWRIGHT_PROFILE_BOUND);
  });
});
