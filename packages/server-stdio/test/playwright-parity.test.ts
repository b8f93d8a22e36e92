// The playwright profile against the installed @playwright/mcp and Playwright's own `playwright mcp`, listed live in the same run: every tool they list, by default and with each cap, with every argument they declare, under the same --caps name, at no more than 1.15 times their list's cost.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { connectStdio, toolListCost, type StdioConnection } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCli } from './helpers.js';

const PLAYWRIGHT_MCP_CLI = path.join(REPO_ROOT, 'bench', 'node_modules', '@playwright', 'mcp', 'cli.js');
/** The Playwright sessionwright runs on, whose CLI serves the same tools as `playwright mcp`. */
const PLAYWRIGHT_CLI = path.join(
  path.dirname(createRequire(path.join(REPO_ROOT, 'packages', 'session-core', 'package.json')).resolve('playwright/package.json')),
  'cli.js',
);

/** The servers a @playwright/mcp user may switch from, each started as its users start it. */
const REFERENCES = [
  { name: '@playwright/mcp', args: [PLAYWRIGHT_MCP_CLI, '--headless'] },
  { name: 'playwright mcp', args: [PLAYWRIGHT_CLI, 'mcp', '--headless'] },
] as const;

/** @playwright/mcp's capability groups; '' is its default list. */
const CAPS = ['', 'vision', 'pdf', 'devtools', 'network', 'storage', 'testing', 'config'] as const;

/** The playwright profile's list may cost at most this many times @playwright/mcp's with the same caps (spec §3.4). */
const COST_BOUND = 1.15;

interface Listed {
  tools: Map<string, { properties: Set<string>; required: Set<string> }>;
  chars: number;
}

async function listed(connection: StdioConnection): Promise<Listed> {
  try {
    const { tools } = await connection.client.listTools();
    const byName = new Map(
      tools.map((tool) => {
        const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
        return [tool.name, { properties: new Set(Object.keys(schema.properties ?? {})), required: new Set(schema.required ?? []) }] as const;
      }),
    );
    return { tools: byName, chars: toolListCost(tools).chars };
  } finally {
    await connection.close();
  }
}

/** Keyed by reference name and cap. */
const theirs = new Map<string, Listed>();
const ours = new Map<string, Listed>();
const key = (reference: string, cap: string) => `${reference}|${cap}`;

beforeAll(async () => {
  expect(existsSync(PLAYWRIGHT_MCP_CLI), `${PLAYWRIGHT_MCP_CLI} is missing: run pnpm install`).toBe(true);
  // One cap at a time, its servers at once: each is a server start, and the machine may be small.
  for (const cap of CAPS) {
    const capArgs = cap === '' ? [] : ['--caps', cap];
    const [our, ...their] = await Promise.all([
      startCli(['--profile', 'playwright', ...capArgs]).then(listed),
      ...REFERENCES.map((reference) => connectStdio({ command: process.execPath, args: [...reference.args, ...capArgs] }).then(listed)),
    ]);
    ours.set(cap, our as Listed);
    for (const [index, reference] of REFERENCES.entries()) theirs.set(key(reference.name, cap), their[index] as Listed);
  }
}, 180_000);

const cases = REFERENCES.flatMap((reference) => CAPS.map((cap) => [reference.name, cap === '' ? 'the default list' : `--caps ${cap}`, cap] as const));

describe.each(cases)('against %s, %s', (reference, _label, cap) => {
  it('has every tool it lists, with every argument it declares and none required that it leaves optional', () => {
    const their = theirs.get(key(reference, cap)) as Listed;
    const our = ours.get(cap) as Listed;
    expect(their.tools.size).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const [name, tool] of their.tools) {
      const mine = our.tools.get(name);
      if (!mine) {
        missing.push(name);
        continue;
      }
      for (const property of tool.properties) if (!mine.properties.has(property)) missing.push(`${name}.${property}`);
      for (const property of mine.required) if (!tool.required.has(property)) missing.push(`${name}.${property} (required here only)`);
    }
    expect(missing).toEqual([]);
  });

  it("offers a cap's tools only under that cap's name", () => {
    if (cap === '') return;
    const theirDefault = theirs.get(key(reference, '')) as Listed;
    const onlyWithCap = [...(theirs.get(key(reference, cap)) as Listed).tools.keys()].filter((name) => !theirDefault.tools.has(name));
    expect(onlyWithCap.length).toBeGreaterThan(0);
    const ourDefault = ours.get('') as Listed;
    expect(onlyWithCap.filter((name) => ourDefault.tools.has(name))).toEqual([]);
  });

  it(`costs a model at most ${COST_BOUND} times what its list costs`, () => {
    expect((ours.get(cap) as Listed).chars / (theirs.get(key(reference, cap)) as Listed).chars).toBeLessThanOrEqual(COST_BOUND);
  });
});
