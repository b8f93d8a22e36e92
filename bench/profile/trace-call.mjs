// Lists the CDP messages one sessionwright call sends to the browser, with their times: what a call costs in trips
// to the page, measured without depending on the machine's load. The server runs with DEBUG=pw:protocol.
// Run after `pnpm build`: node bench/profile/trace-call.mjs <tool> (type | navigate | snapshot | click)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer } from '@sessionwright/test-kit';

const cli = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const html = `<!doctype html><title>Bench app</title><h1>Orders</h1><button id="inc" onclick="this.textContent++">0</button><input id="note">`;
const fixture = await startFixtureServer({ pages: { app: html } });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, '--headless', '--executable-path', executable],
  env: { ...process.env, DEBUG: 'pw:protocol' },
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (chunk) => (stderr += chunk));
const client = new Client({ name: 'trace', version: '0' });
await client.connect(transport);
const call = async (name, args) => JSON.parse((await client.callTool({ name, arguments: args })).content[0].text);
const { sessionId } = await call('create_session', {});
const which = process.argv[2] ?? 'type';
const calls = {
  navigate: ['navigate', { sessionId, url: fixture.urlFor('/pages/app?2') }],
  click: ['click', { sessionId, selector: '#inc' }],
  type: ['type', { sessionId, selector: '#note', text: 'hello' }],
  snapshot: ['snapshot', { sessionId }],
};
await call('navigate', { sessionId, url: fixture.urlFor('/pages/app?1') });
if (which !== 'navigate') await call('click', { sessionId, selector: '#inc' });
await new Promise((resolve) => setTimeout(resolve, 300));
const from = stderr.length;
const started = performance.now();
await call(...calls[which]);
const ms = performance.now() - started;
await new Promise((resolve) => setTimeout(resolve, 100));
const lines = stderr
  .slice(from)
  .split('\n')
  .filter((line) => line.includes('SEND ►'));
for (const line of lines) console.log(line.replace(/^.*?T(\d\d:\d\d:[\d.]+)Z pw:protocol SEND ► /, '$1 ').slice(0, Number(process.env.WIDTH ?? 160)));
console.log(`${which}: ${lines.length} CDP commands, ${ms.toFixed(1)} ms seen by the client`);
await client.close();
await fixture.close();
