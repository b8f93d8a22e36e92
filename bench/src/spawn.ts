// Cold start, interleaved: spawn → initialize answered, and spawn → first navigate result, for both MCP servers.
import { rotate, type BenchContext } from './context.js';
import { Samples } from './stats.js';
import { connectStdio, jsonOf, playwrightMcpArgs, sessionwrightArgs, timedCall } from './systems.js';

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
