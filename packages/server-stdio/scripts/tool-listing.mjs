// Writes dist/tool-listing.json after the build: each packaged profile's tools/list entries, described once here
// instead of at every start (src/protocol/tool-listing.ts reads it).
import { writeFileSync } from 'node:fs';
import { TOOL_LISTING_FILE, packagedToolListing } from '../dist/index.js';

writeFileSync(new URL(`../dist/${TOOL_LISTING_FILE}`, import.meta.url), JSON.stringify(packagedToolListing()));
