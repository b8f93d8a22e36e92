// Parallel work: N sessions × M cycles of navigate + click + type, with wall time and the PSS of every process involved.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { descendants, treePss } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { summarize, type Summary } from './stats.js';
import { connectHttp, connectStdio, jsonOf, playwrightMcpArgs, sessionwrightArgs, startPlaywrightMcpHttp, timedCall, type Connection } from './systems.js';

export type ParallelVariant = 'sw' | 'pwStdio' | 'pwHttp';

export interface ParallelRun {
  variant: ParallelVariant;
  round: number;
  /** Wall time of all cycles of all sessions, ms (setup and browser launch not included). */
  wallMs: number;
  /** Milliseconds per cycle (navigate + click + type) across all sessions. */
  cycle: Summary;
  cycleSamples: number[];
  /** Total PSS in bytes of the servers and their browser trees: the largest sample taken during the work, and after it. */
  peakPss: number;
  afterPss: number;
  processes: number;
  errors: number;
}

interface Setup {
  /** Root pids whose trees make up the system (server processes; their browsers are descendants). */
  roots: number[];
  /** One function per session that runs one cycle. */
  sessions: Array<(cycle: number) => Promise<void>>;
  close(): Promise<void>;
}

const TYPED = 'hello';

export async function runParallel(ctx: BenchContext): Promise<ParallelRun[]> {
  const runs: ParallelRun[] = [];
  const order: ParallelVariant[] = ['sw', 'pwStdio', 'pwHttp'];
  for (let round = 0; round < ctx.config.parallelRounds; round += 1) {
    // Alternate the order between rounds, so no system always runs on the warmest (or most tired) machine.
    for (const variant of round % 2 ? [...order].reverse() : order) {
      ctx.log(`parallel: round ${round + 1}, ${variant}`);
      try {
        runs.push(await runVariant(ctx, variant, round));
      } catch (error) {
        ctx.error(`parallel.${variant}`, error);
      }
    }
  }
  return runs;
}

async function runVariant(ctx: BenchContext, variant: ParallelVariant, round: number): Promise<ParallelRun> {
  const setup = await (variant === 'sw' ? setUpSessionwright(ctx) : variant === 'pwStdio' ? setUpPlaywrightStdio(ctx) : setUpPlaywrightHttp(ctx));
  try {
    // Every session has loaded the page once (and every browser is up) before the clock starts.
    await Promise.all(setup.sessions.map((cycle) => cycle(-1)));
    let peakPss = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakPss = Math.max(peakPss, await totalPss(setup.roots));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    })();
    const cycleSamples: number[] = [];
    let errors = 0;
    const started = performance.now();
    await Promise.all(
      setup.sessions.map(async (cycle) => {
        for (let c = 0; c < ctx.config.parallelCycles; c += 1) {
          const t = performance.now();
          try {
            await cycle(c);
            cycleSamples.push(performance.now() - t);
          } catch (error) {
            errors += 1;
            ctx.error(`parallel.${variant}`, error);
          }
        }
      }),
    );
    const wallMs = performance.now() - started;
    sampling = false;
    await sampler;
    const afterPss = await totalPss(setup.roots);
    const processes = await processCount(setup.roots);
    return {
      variant,
      round,
      wallMs,
      cycle: summarize(cycleSamples),
      cycleSamples,
      peakPss: Math.max(peakPss, afterPss),
      afterPss,
      processes,
      errors,
    };
  } finally {
    await setup.close();
  }
}

async function totalPss(roots: number[]): Promise<number> {
  const sizes = await Promise.all(roots.map((pid) => treePss(pid)));
  return sizes.reduce((a, b) => a + b, 0);
}

async function processCount(roots: number[]): Promise<number> {
  const counts = await Promise.all(roots.map(async (pid) => 1 + (await descendants(pid)).length));
  return counts.reduce((a, b) => a + b, 0);
}

async function setUpSessionwright(ctx: BenchContext): Promise<Setup> {
  const { connection } = await connectStdio(sessionwrightArgs(ctx.executable));
  const ids: string[] = [];
  for (let s = 0; s < ctx.config.parallelSessions; s += 1) {
    ids.push(String(jsonOf(await timedCall(connection.client, 'create_session')).sessionId));
  }
  return {
    roots: [connection.pid ?? 0],
    sessions: ids.map((sessionId) => async (c: number) => {
      const { client } = connection;
      await timedCall(client, 'navigate', { sessionId, url: ctx.appUrl(c) });
      await timedCall(client, 'click', { sessionId, selector: '#inc' });
      await timedCall(client, 'type', { sessionId, selector: '#note', text: TYPED });
    }),
    close: () => connection.close(),
  };
}

function playwrightCycle(ctx: BenchContext, client: Client) {
  return async (c: number) => {
    await timedCall(client, 'browser_navigate', { url: ctx.appUrl(c) });
    await timedCall(client, 'browser_click', { element: 'Increment button', target: '#inc' });
    await timedCall(client, 'browser_type', { element: 'Note input', target: '#note', text: TYPED });
  };
}

async function setUpPlaywrightStdio(ctx: BenchContext): Promise<Setup> {
  const connections: Connection[] = await Promise.all(
    Array.from({ length: ctx.config.parallelSessions }, async () => (await connectStdio(playwrightMcpArgs(ctx.executable))).connection),
  );
  return {
    roots: connections.map((connection) => connection.pid ?? 0),
    sessions: connections.map((connection) => playwrightCycle(ctx, connection.client)),
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

async function setUpPlaywrightHttp(ctx: BenchContext): Promise<Setup> {
  const server = await startPlaywrightMcpHttp(ctx.executable);
  const connections: Connection[] = [];
  try {
    for (let s = 0; s < ctx.config.parallelSessions; s += 1) connections.push(await connectHttp(server.url, `bench-${s}`));
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    roots: [server.pid],
    sessions: connections.map((connection) => playwrightCycle(ctx, connection.client)),
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close().catch(() => {})));
      await server.close();
    },
  };
}
