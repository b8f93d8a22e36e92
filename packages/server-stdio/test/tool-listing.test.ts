// The tools/list answers made at build time: the same as describing the tools now, and what the CLI answers.
import { readFileSync } from 'node:fs';
import { playwrightProfile, sessionsProfile, toolsFor } from '@sessionwright/tools';
import { describe, expect, it } from 'vitest';
import { describeTool } from '../src/protocol/tool-surface.js';
import { TOOL_LISTING_FILE, type ToolListing } from '../src/protocol/tool-listing.js';
import { connectInProcess, startCli } from './helpers.js';

const built = JSON.parse(readFileSync(new URL(`../dist/${TOOL_LISTING_FILE}`, import.meta.url), 'utf8')) as ToolListing;

describe("the build's tool listing", () => {
  it("is what describing each packaged profile's tools gives now (rebuild when this fails)", () => {
    for (const profile of [sessionsProfile(toolsFor(['all'])), playwrightProfile(['all'])]) {
      expect(built[profile.name], profile.name).toEqual(Object.fromEntries(profile.tools.map((tool) => [tool.name, describeTool(tool)])));
    }
  });

  it('is what the CLI answers to tools/list, the same as a server in this process that describes its tools itself', async () => {
    for (const flags of [
      ['--caps', 'all'],
      ['--profile', 'playwright'],
    ]) {
      const cli = await startCli(flags);
      const local = await connectInProcess(flags);
      try {
        const [fromCli, fromLocal] = await Promise.all([cli.client.listTools(), local.client.listTools()]);
        expect(fromCli.tools.length).toBeGreaterThan(20);
        expect(fromCli.tools).toEqual(fromLocal.tools);
      } finally {
        await Promise.all([cli.close(), local.close()]);
      }
    }
  }, 60_000);
});
