// Writes dist/tool-listing.json after the build: each packaged profile's tools/list entries, described once here
// instead of at every start (src/tool-listing.ts reads it).
import { writeFileSync } from 'node:fs';
import { playwrightProfile, sessionsProfile, toolsFor } from '@sessionwright/tools';
import { describeTool } from '../dist/index.js';

const profiles = [sessionsProfile(toolsFor(['all'])), playwrightProfile()];
const listing = Object.fromEntries(profiles.map((profile) => [profile.name, Object.fromEntries(profile.tools.map((tool) => [tool.name, describeTool(tool)]))]));
writeFileSync(new URL('../dist/tool-listing.json', import.meta.url), JSON.stringify(listing));
