// The tools/list answers of the packaged profiles, made at build time (scripts/tool-listing.mjs): turning every tool's
// zod schemas into JSON Schema costs CPU on the way to a client's first call, since clients list tools first.
import { readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/server';
import { playwrightProfile, sessionsProfile, toolsFor, type ProfileName } from '@sessionwright/tools';
import { describeTool } from './tool-surface.js';

/** Profile name → tool name → its tools/list entry. */
export type ToolListing = Partial<Record<ProfileName, Record<string, Tool>>>;

/** The file the build writes beside the built code. */
export const TOOL_LISTING_FILE = 'tool-listing.json';

/** What the build writes: every packaged profile's tools (all capabilities), described. */
export function packagedToolListing(): ToolListing {
  const profiles = [sessionsProfile(toolsFor(['all'])), playwrightProfile(['all'])];
  return Object.fromEntries(profiles.map((profile) => [profile.name, Object.fromEntries(profile.tools.map((tool) => [tool.name, describeTool(tool)]))]));
}

let built: ToolListing | null | undefined;

/**
 * The entry the build made for a packaged profile's tool; undefined when running from source (no build) or for a name
 * the build did not see, and the caller describes the tool itself.
 */
export function builtToolEntry(profile: ProfileName, name: string): Tool | undefined {
  if (built === undefined) {
    try {
      built = JSON.parse(readFileSync(new URL(`./${TOOL_LISTING_FILE}`, import.meta.url), 'utf8')) as ToolListing;
    } catch {
      built = null;
    }
  }
  return built?.[profile]?.[name];
}
