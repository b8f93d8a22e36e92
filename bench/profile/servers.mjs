// What the side-by-side profile scripts share: sessionwright and @playwright/mcp started over stdio on the same browser
// executable, in a scratch working directory (@playwright/mcp writes snapshot files there), and closed together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';

export const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const sessionwright = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const playwrightMcp = path.join(path.dirname(fileURLToPath(import.meta.resolve('@playwright/mcp/package.json'))), 'cli.js');

/** Both servers, connected; `swArgs` are added to sessionwright's command line; `stderr()` is what sessionwright logged. */
export async function startBoth({ swArgs = [] } = {}) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sessionwright-profile-'));
  let stderr = '';
  const connect = async (args, onStderr) => {
    const client = new Client({ name: 'profile', version: '0' });
    const transport = new StdioClientTransport({ command: process.execPath, args, stderr: onStderr ? 'pipe' : 'ignore', cwd: scratch });
    if (onStderr) transport.stderr?.on('data', onStderr);
    await client.connect(transport);
    return client;
  };
  const sw = await connect([sessionwright, '--headless', ...swArgs, '--executable-path', executable], (chunk) => (stderr += chunk));
  const pw = await connect([playwrightMcp, '--headless', '--isolated', '--no-sandbox', '--executable-path', executable]);
  return {
    sw,
    pw,
    stderr: () => stderr,
    async close() {
      await Promise.all([sw.close(), pw.close()]);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Named timings: `time(name, fn)` runs fn and keeps how long it took (returning its value); `print()` lists the medians. */
export function timings() {
  const samples = {};
  return {
    samples,
    async time(name, fn) {
      const started = performance.now();
      const value = await fn();
      samples[name] ??= [];
      samples[name].push(performance.now() - started);
      return value;
    },
    print() {
      const width = Math.max(...Object.keys(samples).map((name) => name.length)) + 2;
      const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
      for (const [name, values] of Object.entries(samples))
        console.log(`${name.padEnd(width)} ${median(values).toFixed(1).padStart(6)} ms (median of ${values.length})`);
    },
  };
}
