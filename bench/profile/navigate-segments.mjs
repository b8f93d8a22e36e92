// Where one navigate's time goes inside the server, split at its pipes: request read → Page.navigate written, the load,
// load event read → answer written; beside raw Playwright's goto() split the same way. 100 ms between calls, as the
// bench leaves between systems. Run after `pnpm build`: node bench/profile/navigate-segments.mjs [iterations] [cli.js]
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';

// A second argument runs another build of the CLI (e.g. a copy of dist/ from before a change).
const cli = process.argv[3] ?? path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const preload = fileURLToPath(new URL('./pipe-timestamps.cjs', import.meta.url));
const timestamps = path.join(tmpdir(), `navigate-segments-${process.pid}.json`);
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const fixture = await startFixtureServer({
  pages: { app: '<!doctype html><title>Bench app</title><h1>Orders</h1><button id="inc">Increment</button><input id="note">' },
});
const client = new Client({ name: 'profile', version: '0' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--require', preload, cli, '--headless', '--executable-path', executable],
    env: { ...process.env, PIPE_TIMESTAMPS: timestamps },
    stderr: 'ignore',
  }),
);
const sessionId = JSON.parse((await client.callTool({ name: 'create_session', arguments: {} })).content[0].text).sessionId;
const browser = await chromium.launch({ executablePath: executable });
const page = await (await browser.newContext()).newPage();
// Raw Playwright in this process: the goto's call and return against the browser pipe's traffic, seen from here.
const raw = { before: [], after: [] };
let rawPipe = [];
const pipeProto = (await import('node:net')).Socket.prototype;
const push = pipeProto.push;
pipeProto.push = function (chunk, ...rest) {
  if (chunk) rawPipe.push([performance.now(), String(chunk)]);
  return push.call(this, chunk, ...rest);
};
const write = pipeProto.write;
pipeProto.write = function (chunk, ...rest) {
  rawPipe.push([performance.now(), `W${String(chunk).slice(0, 120)}`]);
  return write.call(this, chunk, ...rest);
};
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
const iterations = Number(process.argv[2] ?? 60);
for (let i = 0; i < iterations; i += 1) {
  const url = fixture.urlFor(`/pages/app?i=${i}`);
  await pause();
  await client.callTool({ name: 'navigate', arguments: { sessionId, url } });
  await pause();
  rawPipe = [];
  const called = performance.now();
  await page.goto(url);
  const returned = performance.now();
  const sent = rawPipe.find(([, text]) => text.startsWith('W') && text.includes('Page.navigate'));
  const loaded = rawPipe.find(([, text]) => !text.startsWith('W') && text.includes('"name":"load"'));
  if (sent && loaded) {
    raw.before.push(sent[0] - called);
    raw.after.push(returned - loaded[0]);
  }
}
await client.close();
await new Promise((resolve) => setTimeout(resolve, 1500));
const log = JSON.parse(readFileSync(timestamps, 'utf8'));
const server = { before: [], load: [], after: [] };
for (const [index, [time, kind, text]] of log.entries()) {
  if (kind !== 'R0' || !text.includes('"navigate"')) continue;
  const rest = log.slice(index + 1);
  const sent = rest.find(([, k, t]) => k.startsWith('W') && k !== 'W1' && t.includes('Page.navigate'));
  const loaded = rest.find(([, k, t]) => k.startsWith('R') && k !== 'R0' && t.includes('"name":"load"'));
  const answered = rest.find(([, k]) => k === 'W1');
  if (!sent || !loaded || !answered) continue;
  server.before.push((sent[0] - time) / 1000);
  server.load.push((loaded[0] - sent[0]) / 1000);
  server.after.push((answered[0] - loaded[0]) / 1000);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]?.toFixed(2);
console.log(`sessionwright: request read → Page.navigate written   ${median(server.before)} ms`);
console.log(`sessionwright: Page.navigate written → load event read ${median(server.load)} ms`);
console.log(`sessionwright: load event read → answer written        ${median(server.after)} ms`);
console.log(`raw Playwright: goto() called → Page.navigate written  ${median(raw.before)} ms`);
console.log(`raw Playwright: load event read → goto() returned      ${median(raw.after)} ms`);
rmSync(timestamps, { force: true });
await browser.close();
await fixture.close();
