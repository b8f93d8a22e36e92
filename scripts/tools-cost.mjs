#!/usr/bin/env node
// Prints what tools/list costs a model: the characters of its JSON result (as the server sends it), in total and per tool.
//
// Usage (after pnpm build): node scripts/tools-cost.mjs [caps…]   e.g. node scripts/tools-cost.mjs all
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (file) => import(pathToFileURL(path.join(root, file)).href);
const [{ describeTool }, tools] = await Promise.all([load('packages/server-stdio/dist/index.js'), load('packages/tools/dist/index.js')]);
const listed = (tools.toolsFor ? tools.toolsFor(process.argv.slice(2)) : tools.allTools).map(describeTool);
for (const tool of listed) process.stdout.write(`${String(JSON.stringify(tool).length).padStart(7)}  ${tool.name}\n`);
process.stdout.write(`${String(JSON.stringify({ tools: listed }).length).padStart(7)}  total (${listed.length} tools)\n`);
