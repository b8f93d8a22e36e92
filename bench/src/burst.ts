// Burst: 1 000 sessions at once on one sessionwright process: all created and navigated in parallel, navigated again
// all at once, then all closed; then what memory is left, and what the browser recycle gives back and costs.
import os from 'node:os';
import { descendants, treePss } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { scaleArgs } from './scale.js';
import { createLatency, settledPss, waitForLine } from './measure.js';
import { summarize, type Summary } from './stats.js';
import { CALL_LIMIT_MS, connectStdio, jsonOf, timedCall } from './systems.js';

export interface BurstPhase {
  wallMs: number;
  calls: Summary;
  errors: number;
}

export interface BurstResult {
  date: string;
  load: number;
  sessions: number;
  /** The server's --call-timeout and the client's request timeout, ms (a result file without it ran with 600 000). */
  callLimitMs?: number;
  idlePss: number;
  idleProcesses: number;
  /** create_session + navigate for every session, all at once. */
  open: BurstPhase;
  /** A navigate on every open session, all at once. */
  navigate: BurstPhase;
  /** close_session of every session, all at once. */
  close: BurstPhase;
  peakPss: number;
  peakProcesses: number;
  /** Right after the last close (settled a moment). */
  closedPss: number;
  closedProcesses: number;
  /** After the server recycled its browser (no session open for its recycle delay). */
  recycled: boolean;
  /**
   * The recycle began before the last close was answered: a session leaves the count when its close starts, and a
   * thousand contexts can take longer to close than the recycle's delay. The closed reading then comes after it.
   */
  recycledDuringClose?: boolean;
  recycledPss: number;
  recycledProcesses: number;
  /**
   * From the last close answered until the server's process tree was back at its idle count: a browser being replaced
   * first closes the contexts still closing in it, so after a burst of closes its memory comes back over a minute or so.
   */
  settledMs?: number;
  /** create_session latency, ms: on the fresh server, and right after the recycle. */
  createBefore: number[];
  createAfterRecycle: number[];
  /** The same creates as the server timed them (its --verbose log): a gap to the client's figure is spent outside it. */
  createAfterRecycleInServer?: number[];
  errors: number;
}

/** Per call: a thousand navigations share two cores, so each one's own load takes long; the burst measures completion. */
const BURST_NAVIGATE_TIMEOUT = 300_000;
/** From the first close: the closes, the 10 s recycle delay, and the old browser closing the last of its contexts (~60 s). */
const RECYCLE_WAIT_MS = 180_000;
const RECYCLED = /browser recycled/;
/** From the last close, for every browser being replaced to have closed. */
const SETTLE_WAIT_MS = 300_000;

export async function runBurst(ctx: BenchContext, sessions: number): Promise<BurstResult> {
  const load = os.loadavg()[0] ?? Number.NaN;
  // --verbose: the server's own time for each call, to tell its delays from the client's.
  const { connection } = await connectStdio([...scaleArgs(ctx.executable, sessions), '--call-timeout', String(CALL_LIMIT_MS), '--verbose']);
  const { client } = connection;
  const pid = connection.pid ?? 0;
  let errors = 0;
  let peakPss = 0;
  let peakProcesses = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakPss = Math.max(peakPss, await treePss(pid));
      peakProcesses = Math.max(peakProcesses, 1 + (await descendants(pid)).length);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  })();
  try {
    // The first create waits for the browser to start; it is not what these figures are about.
    await createLatency(connection, 1);
    const createBefore = await createLatency(connection, 3);
    const idlePss = await settledPss(pid);
    const idleProcesses = 1 + (await descendants(pid)).length;
    const ids: string[] = [];
    const phase = async (name: string, count: number, call: (i: number) => Promise<number>): Promise<BurstPhase> => {
      const started = performance.now();
      const times: number[] = [];
      let phaseErrors = 0;
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          try {
            times.push(await call(i));
          } catch (error) {
            phaseErrors += 1;
            ctx.error(`burst.${name}`, error);
          }
        }),
      );
      errors += phaseErrors;
      const result = { wallMs: performance.now() - started, calls: summarize(times), errors: phaseErrors };
      ctx.log(`burst: ${name} ×${count} in ${(result.wallMs / 1000).toFixed(1)} s, ${phaseErrors} errors`);
      return result;
    };
    const navigateArgs = (sessionId: string, i: number) => ({ sessionId, url: ctx.appUrl(i), timeout: BURST_NAVIGATE_TIMEOUT });
    const open = await phase('create_session + navigate', sessions, async (i) => {
      const created = await timedCall(client, 'create_session');
      const sessionId = String(jsonOf(created).sessionId);
      ids.push(sessionId);
      return created.ms + (await timedCall(client, 'navigate', navigateArgs(sessionId, i))).ms;
    });
    const navigate = await phase('navigate', ids.length, async (i) => (await timedCall(client, 'navigate', navigateArgs(ids[i] ?? '', sessions + i))).ms);
    const closing = connection.stderr().length;
    const close = await phase('close_session', ids.length, async (i) => (await timedCall(client, 'close_session', { sessionId: ids[i] ?? '' })).ms);
    const closed = performance.now();
    const recycledDuringClose = RECYCLED.test(connection.stderr().slice(closing));
    const closedPss = await settledPss(pid);
    const closedProcesses = 1 + (await descendants(pid)).length;
    ctx.log(`burst: all closed: ${(closedPss / 2 ** 20).toFixed(0)} MiB (idle ${(idlePss / 2 ** 20).toFixed(0)} MiB); waiting for the browser to be recycled`);
    const recycled = await waitForLine(connection, RECYCLED, RECYCLE_WAIT_MS, closing);
    // The recycled browser is gone; one rotated out during the burst may still be closing its last contexts.
    const deadline = closed + SETTLE_WAIT_MS;
    while (1 + (await descendants(pid)).length > idleProcesses && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1_000));
    const settledMs = performance.now() - closed;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const recycledPss = await settledPss(pid);
    const recycledProcesses = 1 + (await descendants(pid)).length;
    const beforeCreates = connection.stderr().length;
    const createAfterRecycle = await createLatency(connection, 3);
    const createLog = connection.stderr().slice(beforeCreates);
    const createAfterRecycleInServer = [...createLog.matchAll(/create_session ok in (\d+) ms/g)].map((m) => Number(m[1]));
    return {
      date: new Date().toISOString(),
      load,
      sessions,
      callLimitMs: CALL_LIMIT_MS,
      idlePss,
      idleProcesses,
      open,
      navigate,
      close,
      peakPss,
      peakProcesses,
      closedPss,
      closedProcesses,
      recycled,
      recycledDuringClose,
      recycledPss,
      recycledProcesses,
      settledMs,
      createBefore,
      createAfterRecycle,
      createAfterRecycleInServer,
      errors,
    };
  } finally {
    sampling = false;
    await sampler;
    await connection.close();
  }
}
