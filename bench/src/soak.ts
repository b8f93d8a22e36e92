// Soak: one sessionwright process under steady churn (create, navigate, click, type, snapshot, close on 4 workers) for
// a long time: does its memory drift, does anything leak, and what is left once every session is closed.
import os from 'node:os';
import { descendants, treePss } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { createLatency, settledPss, waitForLine } from './measure.js';
import { slope, summarize } from './stats.js';
import { connectStdio, jsonOf, SESSIONWRIGHT_CLI, timedCall } from './systems.js';

export interface SoakSample {
  /** Seconds since the churn started. */
  at: number;
  pss: number;
  processes: number;
  cycles: number;
}

export interface SoakResult {
  date: string;
  load: number;
  minutes: number;
  workers: number;
  /** Browser up, the warm pool filled, no session: PSS and process count. */
  idlePss: number;
  idleProcesses: number;
  samples: SoakSample[];
  /** Seconds of warm-up left out of the drift. */
  warmupSeconds: number;
  /** Median PSS of the first and the last tenth of the churn after warm-up, and their relative difference. */
  earlyPss: number;
  latePss: number;
  drift: number;
  /** Least-squares slope of PSS after warm-up, bytes per minute. */
  slopePerMinute: number;
  cycles: number;
  cycleMs: number[];
  errors: number;
  /** After the last session closed: what list_sessions shows, the processes over the idle count, and PSS. */
  openAfter: number;
  leakedProcesses: number;
  closedPss: number;
  /** After the browser was recycled (no session open for the server's recycle delay): PSS, processes, and whether it happened. */
  recycled: boolean;
  recycledPss: number;
  recycledProcesses: number;
  /** create_session latency (ms): on the fresh server before the churn, and the first one after the recycle. */
  createBefore: number[];
  createAfterRecycle: number[];
}

const WORKERS = 4;
const SAMPLE_EVERY_MS = 5_000;
/** The server's recycle delay is 10 s; this leaves time for the relaunch and the warm pool's refill. */
const RECYCLE_WAIT_MS = 40_000;

export function soakArgs(executable: string): string[] {
  return [SESSIONWRIGHT_CLI, '--headless', '--executable-path', executable, '--max-sessions', '20'];
}

export async function runSoak(ctx: BenchContext, minutes: number): Promise<SoakResult> {
  const load = os.loadavg()[0] ?? Number.NaN;
  const { connection } = await connectStdio(soakArgs(ctx.executable));
  const { client } = connection;
  const pid = connection.pid ?? 0;
  let errors = 0;
  let cycles = 0;
  const cycleMs: number[] = [];
  const samples: SoakSample[] = [];
  try {
    // The first create waits for the browser to start; it is not what these figures are about.
    await createLatency(connection, 1);
    const createBefore = await createLatency(connection, 3);
    const idlePss = await settledPss(pid);
    const idleProcesses = await processCount(pid);
    ctx.log(`soak: idle ${mib(idlePss)}, ${idleProcesses} processes; ${WORKERS} workers for ${minutes} min`);

    const started = performance.now();
    const deadline = started + minutes * 60_000;
    let url = 0;
    const worker = async (w: number) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        let sessionId: string | undefined;
        try {
          sessionId = String(jsonOf(await timedCall(client, 'create_session')).sessionId);
          await timedCall(client, 'navigate', { sessionId, url: ctx.appUrl(url++) });
          await timedCall(client, 'click', { sessionId, selector: '#inc' });
          await timedCall(client, 'type', { sessionId, selector: '#note', text: `worker ${w}`, clear: cycles % 2 === 0 });
          await timedCall(client, 'snapshot', { sessionId });
          cycles += 1;
          cycleMs.push(performance.now() - t);
        } catch (error) {
          errors += 1;
          ctx.error('soak', error);
        } finally {
          if (sessionId !== undefined) await timedCall(client, 'close_session', { sessionId }).catch((error: unknown) => ctx.error('soak', error));
        }
      }
    };
    const sampler = (async () => {
      while (performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
        const sample = { at: (performance.now() - started) / 1000, pss: await treePss(pid), processes: await processCount(pid), cycles };
        samples.push(sample);
        if (samples.length % 12 === 0)
          ctx.log(`soak: ${(sample.at / 60).toFixed(1)} min, ${mib(sample.pss)}, ${sample.processes} processes, ${cycles} cycles, ${errors} errors`);
      }
    })();
    await Promise.all([...Array.from({ length: WORKERS }, (_, w) => worker(w)), sampler]);

    const openAfter = (jsonOf(await timedCall(client, 'list_sessions')).sessions as unknown[]).length;
    const closedPss = await settledPss(pid);
    const closedProcesses = await processCount(pid);
    ctx.log(`soak: every session closed: ${mib(closedPss)}, ${closedProcesses} processes; waiting for the browser to be recycled`);
    const recycled = await waitForLine(connection, /browser recycled/, RECYCLE_WAIT_MS);
    // The relaunched browser's warm pool fills after it is up.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const recycledPss = await settledPss(pid);
    const recycledProcesses = await processCount(pid);
    const createAfterRecycle = await createLatency(connection, 3);

    const warmupSeconds = Math.min(300, (minutes * 60) / 5);
    const steady = samples.filter((sample) => sample.at >= warmupSeconds);
    const tenth = Math.max(1, Math.floor(steady.length / 10));
    const earlyPss = summarize(steady.slice(0, tenth).map((s) => s.pss)).median;
    const latePss = summarize(steady.slice(-tenth).map((s) => s.pss)).median;
    return {
      date: new Date().toISOString(),
      load,
      minutes,
      workers: WORKERS,
      idlePss,
      idleProcesses,
      samples,
      warmupSeconds,
      earlyPss,
      latePss,
      drift: (latePss - earlyPss) / earlyPss,
      slopePerMinute: slope(steady.map((s) => [s.at / 60, s.pss] as const)),
      cycles,
      cycleMs,
      errors,
      openAfter,
      leakedProcesses: Math.max(0, closedProcesses - idleProcesses),
      closedPss,
      recycled,
      recycledPss,
      recycledProcesses,
      createBefore,
      createAfterRecycle,
    };
  } finally {
    await connection.close();
  }
}

async function processCount(pid: number): Promise<number> {
  return 1 + (await descendants(pid)).length;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}
