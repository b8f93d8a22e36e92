#!/usr/bin/env node
// Prints what a tool list costs a model on every turn: the characters of each tool's {name, description, inputSchema} as JSON (what clients hand the model), per tool and in all; app-only tools (MCP Apps' visibility) apart.
//
// Usage (after pnpm build): node scripts/tools-cost.mjs [--profile playwright] [caps…]   e.g. node scripts/tools-cost.mjs all
// `pnpm bench` (section toollist) measures the same against @playwright/mcp in one run; BENCHMARKS.md has the figures.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (file) => import(pathToFileURL(path.join(root, file)).href);
const [{ describeTool }, tools, { toolListCost }] = await Promise.all([
  load('packages/server-stdio/dist/index.js'),
  load('packages/tools/dist/index.js'),
  load('packages/test-kit/dist/index.js'),
]);
const args = process.argv.slice(2);
const playwright = args[0] === '--profile' && args[1] === 'playwright';
const listed = (playwright ? tools.playwrightProfile().tools : tools.toolsFor(args)).map(describeTool);
for (const tool of listed) {
  const one = toolListCost([tool]);
  process.stdout.write(
    one.appOnly === 0
      ? `${String(one.chars).padStart(7)}  ${tool.name}\n`
      : `${String(one.appOnlyChars).padStart(7)}  ${tool.name} (app only: not sent to the model)\n`,
  );
}
const cost = toolListCost(listed);
process.stdout.write(`${String(cost.chars).padStart(7)}  in all (${cost.tools} tools, ${cost.perTool.toFixed(0)} per tool)\n`);
if (cost.appOnly > 0)
  process.stdout.write(`${String(cost.appOnlyChars).padStart(7)}  more for ${cost.appOnly} app-only tools, where a client sends the model the whole list\n`);
