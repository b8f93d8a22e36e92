import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveExecutable } from '@sessionwright/session-core';
import { startFixtureServer } from '@sessionwright/test-kit';
const sessionwright = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const fixture = await startFixtureServer({ pages: { app: '<!doctype html><title>App</title><p>x</p>' } });
for (let i=0;i<3;i++){
const started = performance.now();
const t = () => (performance.now()-started).toFixed(0).padStart(5);
const transport = new StdioClientTransport({ command: process.execPath, args: [sessionwright, '--headless', '--executable-path', executable, '--verbose'], stderr: 'pipe' });
transport.stderr?.on('data', (c) => { for (const l of String(c).split('\n')) if (l) console.log(t(), 'ERR', l.slice(0,150)); });
const client = new Client({ name: 'cold', version: '0' });
await client.connect(transport); console.log(t(), 'initialized');
const created = await client.callTool({ name: 'create_session', arguments: {} }); console.log(t(), 'created');
await client.callTool({ name: 'navigate', arguments: { sessionId: JSON.parse(created.content[0].text).sessionId, url: fixture.urlFor('/pages/app') } });
console.log(t(), 'navigated');
await client.close();
}
await fixture.close();
