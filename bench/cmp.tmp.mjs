import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFixtureServer } from '@sessionwright/test-kit';
const sessionwright = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const fixture = await startFixtureServer({ pages: { app: '<!doctype html><title>App</title><p>x</p>' } });
const variants = JSON.parse(process.argv[2]); // {name: {env:{}, args:[]}}
const n = Number(process.argv[3] ?? 8);
const s = {};
for (let i = 0; i < n + 1; i++) for (const [name, v] of Object.entries(variants)) {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(v.node ?? []), v.cli ?? sessionwright, '--headless', '--executable-path', '/usr/lib/chromium/chromium-headless-shell', ...(v.args ?? [])], stderr: 'pipe', env: { ...process.env, ...(v.env ?? {}) } });
  const client = new Client({ name: 'cold', version: '0' });
  await client.connect(transport); const init = performance.now() - started;
  const created = await client.callTool({ name: 'create_session', arguments: {} }); const cr = performance.now() - started;
  await client.callTool({ name: 'navigate', arguments: { sessionId: JSON.parse(created.content[0].text).sessionId, url: fixture.urlFor('/pages/app') } });
  const nav = performance.now() - started;
  await client.close();
  if (i === 0) continue;
  (s[name] ??= []).push([init, cr, nav]);
}
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const [name, rows] of Object.entries(s)) console.log(name.padEnd(12), ['init', 'created', 'navigated'].map((k, j) => `${k} ${med(rows.map((r) => r[j])).toFixed(0)}`).join('  '));
await fixture.close();
