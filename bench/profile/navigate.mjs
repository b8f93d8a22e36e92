// Profile of one navigate: raw page.goto, the same plus reading the title, sessionwright's handler time as it logs it
// (--verbose), and the time its MCP client sees; plus a bare list_sessions round trip (the stdio hop).
// Run after `pnpm build`: node bench/profile/navigate.mjs [iterations]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';

const cli = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const page = `<!doctype html><title>Bench app</title><h1>Orders</h1><button id="inc">Increment</button><input id="note">`;
const fixture = await startFixtureServer({ pages: { app: page } });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, '--headless', '--verbose', '--executable-path', executable],
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (chunk) => (stderr += chunk));
const client = new Client({ name: 'profile', version: '0' });
await client.connect(transport);
const browser = await chromium.launch({ executablePath: executable });
const raw = await (await browser.newContext()).newPage();
const sessionId = JSON.parse((await client.callTool({ name: 'create_session', arguments: {} })).content[0].text).sessionId;

const samples = {};
const time = async (name, fn) => {
  const started = performance.now();
  await fn();
  (samples[name] ??= []).push(performance.now() - started);
};
const iterations = Number(process.argv[2] ?? 40);
for (let i = 0; i < iterations; i += 1) {
  const url = fixture.urlFor(`/pages/app?i=${i}`);
  await time('raw page.goto', () => raw.goto(url));
  await raw.goto(`${url}&again`);
  await time('raw page.title right after goto', () => raw.title());
  await time('raw page.title a moment later', () => raw.title());
  await time('sessionwright navigate, seen by the client', () => client.callTool({ name: 'navigate', arguments: { sessionId, url } }));
  await time('sessionwright list_sessions round trip', () => client.callTool({ name: 'list_sessions', arguments: {} }));
}
samples['sessionwright navigate, handler time (its log)'] = [...stderr.matchAll(/navigate ok in (\d+) ms/g)].map((match) => Number(match[1]));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(samples))
  console.log(`${name.padEnd(48)} ${median(values).toFixed(1).padStart(6)} ms (median of ${values.length})`);
await client.close();
await browser.close();
await fixture.close();
