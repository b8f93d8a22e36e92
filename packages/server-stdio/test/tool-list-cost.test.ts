// What the tool list costs a model, against the installed @playwright/mcp in the same run: the default list at most its size per tool, the playwright profile's whole list at most 1.15 times its whole default list; the live view app's own tools, hidden from the model, and what they add to a plain tools/list.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { connectStdio, isAppOnly, toolListCost, type StdioConnection, type ToolListCost } from '@sessionwright/test-kit';
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

/** The most characters the live view app's own tools may add to what a client that ignores their visibility sends a model. */
const APP_ONLY_BOUND = 3_000;

describe("the live view app's own tools", () => {
  for (const profile of ['default', 'playwright']) {
    it(`are marked app-only in the ${profile} profile, so hosts keep them from the model; listed whole they add at most ${APP_ONLY_BOUND} characters`, async () => {
      // The playwright profile takes @playwright/mcp's cap names, which have no live group: all brings it.
      const flags = profile === 'playwright' ? ['--profile', 'playwright', '--caps', 'all'] : ['--caps', 'live'];
      const connection = await startCli(flags);
      try {
        const { tools } = await connection.client.listTools();
        const appOnly = tools.filter((tool) => isAppOnly(tool));
        expect(appOnly.map((tool) => tool.name).sort()).toEqual(['live_view_control', 'live_view_frame', 'live_view_input']);
        const cost = toolListCost(tools);
        expect(cost.appOnly).toBe(3);
        expect(cost.appOnlyChars).toBeLessThanOrEqual(APP_ONLY_BOUND);
        const whole = JSON.stringify(tools).length;
        const theirs = JSON.stringify(appOnly).length;
        process.stderr.write(
          `${profile} profile ${flags.join(' ')}: the model is sent ${cost.chars} characters for ${cost.tools} tools; the 3 app-only tools would add ${cost.appOnlyChars}; ` +
            `in the plain tools/list (${whole} characters, output schemas and _meta included) they are ${theirs}\n`,
        );
      } finally {
        await connection.close();
      }
    });
  }
});
