// Idle cost: CPU of the server and its browser while many sessions sit on quiet pages, with the runaway memory watch and without; then 1 000 live sessions filled and each called once.
import { readFileSync } from 'node:fs';
import { descendants } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { connectStdio, jsonOf, timedCall } from './systems.js';
import { scaleArgs } from './scale.js';

export interface IdleVariant {
  /** `watch`: the default memory watch; `off`: the same server with --max-page-memory 0 (no memory watch). */
  variant: 'watch' | 'off';
  sessions: number;
  /** CPU of the server and every process of its browser while nothing is called, % of one core (mean over the window). */
  cpuPercent: number;
  /** The server process alone, % of one core. */
  serverCpuPercent: number;
  windowMs: number;
  errors: number;
}

export interface IdleResult {
  sessions: number;
  rounds: IdleVariant[];
  /** The watch's mean CPU minus the server without it, in points of one core. */
  watchCostPoints: number;
  /** 1 000 (or the quick run's count) live sessions: how long filling them took, and whether each answered a call. */
  fill: { sessions: number; fillMs: number; created: number; answered: number; errors: number; firstErrors: string[] };
}

/** Sessions opened at once while filling. */
const FILL_CONCURRENCY = 8;
/** A page with nothing running: no timer, no animation, no request after its load. */
const QUIET_PAGE = '/pages/bench-article';
/** The pause after filling, before the window: the last loads finish and the browser settles. */
const SETTLE_MS = 10_000;

/** utime + stime of a process, in clock ticks (0 once it is gone). */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Linux's clock ticks per second as /proc/<pid>/stat counts them (USER_HZ, 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100;

/** CPU of `pid` and its descendants over `windowMs`, as % of one core: the server alone and the whole tree. */
async function treeCpu(pid: number, windowMs: number): Promise<{ tree: number; server: number }> {
  const before = new Map<number, number>();
  for (const child of [pid, ...(await descendants(pid)).map((proc) => proc.pid)]) before.set(child, cpuTicks(child));
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const after = [pid, ...(await descendants(pid)).map((proc) => proc.pid)];
  const elapsed = (performance.now() - started) / 1000;
  let ticks = 0;
  let server = 0;
  for (const child of after) {
    const used = cpuTicks(child) - (before.get(child) ?? 0);
    ticks += Math.max(0, used);
    if (child === pid) server = Math.max(0, used);
  }
  return { tree: (100 * ticks) / TICKS_PER_SECOND / elapsed, server: (100 * server) / TICKS_PER_SECOND / elapsed };
}

/** Opens `count` sessions, each on the quiet page, `FILL_CONCURRENCY` at a time; their ids and the errors. */
async function fill(ctx: BenchContext, call: typeof timedCall, client: Parameters<typeof timedCall>[0], count: number) {
  const ids: string[] = [];
  const errors: string[] = [];
  let opening = 0;
  const worker = async () => {
    while (opening < count) {
      opening += 1;
      try {
        const sessionId = String(jsonOf(await call(client, 'create_session')).sessionId);
        ids.push(sessionId);
        await call(client, 'navigate', { sessionId, url: ctx.fixture.urlFor(QUIET_PAGE) });
      } catch (error) {
        errors.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
        if (errors.length > 20) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
  return { ids, errors };
}

/** One server with `sessions` quiet sessions: its idle CPU over `windowMs`. */
async function idleRound(ctx: BenchContext, variant: IdleVariant['variant'], sessions: number, windowMs: number): Promise<IdleVariant> {
  const extra = variant === 'off' ? ['--max-page-memory', '0'] : [];
  const { connection } = await connectStdio([...scaleArgs(ctx.executable, sessions), ...extra]);
  try {
    const { errors } = await fill(ctx, timedCall, connection.client, sessions);
    for (const error of errors) ctx.error(`idle.${variant}`, error);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const cpu = await treeCpu(connection.pid ?? 0, windowMs);
    ctx.log(`idle: ${variant}, ${sessions} sessions: ${cpu.tree.toFixed(1)} % of a core (server ${cpu.server.toFixed(1)} %)`);
    return { variant, sessions, cpuPercent: cpu.tree, serverCpuPercent: cpu.server, windowMs, errors: errors.length };
  } finally {
    await connection.close();
  }
}

export async function runIdle(ctx: BenchContext, quick: boolean): Promise<IdleResult> {
  const sessions = quick ? 20 : 200;
  const windowMs = quick ? 5_000 : 30_000;
  const rounds: IdleVariant[] = [];
  // Alternated, so a change in the machine's load falls on both.
  for (const variant of quick ? (['watch', 'off'] as const) : (['watch', 'off', 'off', 'watch'] as const)) {
    rounds.push(await idleRound(ctx, variant, sessions, windowMs));
  }
  const mean = (variant: IdleVariant['variant']) => {
    const of = rounds.filter((round) => round.variant === variant);
    return of.reduce((sum, round) => sum + round.cpuPercent, 0) / of.length;
  };

  const live = quick ? 50 : 1_000;
  const { connection } = await connectStdio(scaleArgs(ctx.executable, live));
  try {
    const started = performance.now();
    const { ids, errors } = await fill(ctx, timedCall, connection.client, live);
    const fillMs = performance.now() - started;
    let answered = 0;
    for (const sessionId of ids) {
      try {
        // What counts is that each answers; on a loaded machine a call may wait long for its turn.
        await timedCall(connection.client, 'evaluate', { sessionId, function: '() => document.title', timeout: 120_000 });
        answered += 1;
      } catch (error) {
        errors.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
      }
    }
    for (const error of errors) ctx.error('idle.fill', error);
    ctx.log(`idle: ${ids.length} of ${live} sessions filled in ${(fillMs / 1000).toFixed(0)} s; ${answered} answered a call`);
    return {
      sessions,
      rounds,
      watchCostPoints: mean('watch') - mean('off'),
      fill: { sessions: live, fillMs, created: ids.length, answered, errors: errors.length, firstErrors: errors.slice(0, 5) },
    };
  } finally {
    await connection.close();
  }
}
