// Cold start, interleaved: spawn → initialize answered, and spawn → first navigate result, for both MCP servers; and the
// floor beside them, a plain Playwright script's spawn → first goto() returned.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rotate, type BenchContext } from './context.js';
import { Samples } from './stats.js';
import { connectStdio, jsonOf, playwrightMcpArgs, scratchDir, sessionwrightArgs, timedCall } from './systems.js';

const RAW_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'raw-cold-start.js');

/** Spawns the raw script; resolves with spawn → "ready" in ms once the script (and its browser) has exited. */
function rawColdStart(url: string, executable: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [RAW_SCRIPT, url, executable], { cwd: scratchDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let readyMs: number | undefined;
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += String(chunk);
    if (readyMs === undefined && output.includes('ready\n')) readyMs = performance.now() - started;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  // A script stuck on a broken browser must not hold the bench: the servers' calls have their timeouts, this has one too.
  // SIGTERM, because Playwright's handler for it closes the browser it launched, which SIGKILL would leave behind.
  const stuck = setTimeout(() => child.kill('SIGTERM'), 120_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(stuck);
      if (readyMs !== undefined && code === 0) resolve(readyMs);
      else reject(new Error(`raw cold start exited with ${code}: ${output.slice(-500)}`));
    });
  });
}

export async function runSpawn(ctx: BenchContext): Promise<Record<string, number[]>> {
  const samples = new Samples();
  const steps: Array<[string, (record: Samples | undefined, i: number) => Promise<void>]> = [
    [
      'sw',
      async (record, i) => {
        const started = performance.now();
        const { connection, initMs } = await connectStdio(sessionwrightArgs(ctx.executable));
        try {
          // The first navigate of a sessionwright client needs a session first: both calls are in the figure.
          const created = await timedCall(connection.client, 'create_session');
          await timedCall(connection.client, 'navigate', { sessionId: String(jsonOf(created).sessionId), url: ctx.appUrl(i) });
          record?.add('sw.initialize', initMs);
          record?.add('sw.firstNavigate', performance.now() - started);
        } finally {
          await connection.close();
        }
      },
    ],
    [
      'pw',
      async (record, i) => {
        const started = performance.now();
        const { connection, initMs } = await connectStdio(playwrightMcpArgs(ctx.executable));
        try {
          await timedCall(connection.client, 'browser_navigate', { url: ctx.appUrl(i) });
          record?.add('pw.initialize', initMs);
          record?.add('pw.firstNavigate', performance.now() - started);
        } finally {
          await connection.close();
        }
      },
    ],
    [
      'raw',
      async (record, i) => {
        const readyMs = await rawColdStart(ctx.appUrl(i), ctx.executable);
        record?.add('raw.firstGoto', readyMs);
      },
    ],
  ];
  const total = ctx.config.warmup + ctx.config.iterations;
  for (let i = 0; i < total; i += 1) {
    for (const [system, step] of rotate(steps, i)) {
      try {
        await step(i >= ctx.config.warmup ? samples : undefined, i);
      } catch (error) {
        ctx.error(system, error);
      }
    }
    if ((i + 1) % 5 === 0) ctx.log(`spawn: ${i + 1}/${total}`);
  }
  return samples.toJSON();
}
