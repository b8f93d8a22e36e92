// Profile of a cold start: spawn → initialize answered → create_session answered → first navigate answered, with the
// server's own "browser ready … in N ms" line; and @playwright/mcp's spawn → first browser_navigate beside it.
// Run after `pnpm build`: node bench/profile/cold-start.mjs [iterations]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer } from '@sessionwright/test-kit';

const sessionwright = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const playwrightMcp = path.join(path.dirname(fileURLToPath(import.meta.resolve('@playwright/mcp/package.json'))), 'cli.js');
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const fixture = await startFixtureServer({ pages: { app: '<!doctype html><title>App</title><p>x</p>' } });
const samples = {};
const add = (name, value) => {
  samples[name] ??= [];
  samples[name].push(value);
};
const iterations = Number(process.argv[2] ?? 5);
for (let i = 0; i < iterations; i += 1) {
  for (const system of i % 2 ? ['sw', 'pw'] : ['pw', 'sw']) {
    const started = performance.now();
    const args =
      system === 'sw'
        ? [sessionwright, '--headless', '--executable-path', executable]
        : [playwrightMcp, '--headless', '--isolated', '--no-sandbox', '--executable-path', executable];
    const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const client = new Client({ name: 'cold', version: '0' });
    await client.connect(transport);
    add(`${system} initialize`, performance.now() - started);
    const url = fixture.urlFor(`/pages/app?${i}`);
    if (system === 'sw') {
      const created = await client.callTool({ name: 'create_session', arguments: {} });
      add('sw create_session answered', performance.now() - started);
      await client.callTool({ name: 'navigate', arguments: { sessionId: JSON.parse(created.content[0].text).sessionId, url } });
      const ready = /browser ready: .* in (\d+) ms/.exec(stderr);
      if (ready) add('sw browser launch (its log)', Number(ready[1]));
    } else {
      await client.callTool({ name: 'browser_navigate', arguments: { url } });
    }
    add(`${system} first navigate answered`, performance.now() - started);
    await client.close();
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(samples))
  console.log(`${name.padEnd(40)} ${median(values).toFixed(0).padStart(6)} ms (median of ${values.length})`);
await fixture.close();
