// Scale: one sessionwright process with 1 up to 1 000 live sessions: total PSS, the per-session slope, navigate p50/p95 round-robin.
import { descendants } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { settledPss } from './measure.js';
import { slope, summarize, type Summary } from './stats.js';
import { connectStdio, jsonOf, SESSIONWRIGHT_CLI, timedCall } from './systems.js';

export interface ScaleLevel {
  sessions: number;
  /** PSS of the server and its browser tree, bytes (median of three readings a moment apart). */
  pss: number;
  processes: number;
  navigate: Summary;
  navigateSamples: number[];
  errors: number;
}

export interface ScaleResult {
  /** PSS with the browser up and no session open (the warm pool's context included). */
  idlePss: number;
  levels: ScaleLevel[];
  /** Least-squares slope of PSS over the levels, bytes per session. */
  slopePerSession: number;
  errors: number;
}

/** Sessions are opened this many at a time while filling a level (the figures are taken once the level is full). */
const FILL_CONCURRENCY = 8;
/** Round-robin navigates per level: max(scaleNavigates, 2 × sessions), at most this many. */
const MAX_NAVIGATES_PER_LEVEL = 200;
/** The pause before a level's PSS readings: live sessions' pages are loaded and idle, so a short one will do. */
const SETTLE_MS = 500;

/** A server that holds the largest level: no session limit in the way, and no session expiring during a long run. */
export function scaleArgs(executable: string, sessions: number): string[] {
  return [SESSIONWRIGHT_CLI, '--headless', '--executable-path', executable, '--max-sessions', String(sessions + 10), '--session-timeout', '7200000'];
}

export async function runScale(ctx: BenchContext): Promise<ScaleResult> {
  const { connection } = await connectStdio(scaleArgs(ctx.executable, Math.max(...ctx.config.scaleLevels)));
  const { client } = connection;
  const pid = connection.pid ?? 0;
  const ids: string[] = [];
  const levels: ScaleLevel[] = [];
  let errors = 0;
  try {
    // The browser starts in the background; one session opened and closed makes sure it is up before the idle reading.
    const probe = String(jsonOf(await timedCall(client, 'create_session')).sessionId);
    await timedCall(client, 'close_session', { sessionId: probe });
    const idlePss = await settledPss(pid, SETTLE_MS);
    let url = 0;
    for (const level of ctx.config.scaleLevels) {
      let opening = ids.length;
      const fill = async () => {
        while (opening < level) {
          opening += 1;
          try {
            const sessionId = String(jsonOf(await timedCall(client, 'create_session')).sessionId);
            ids.push(sessionId);
            // Every live session holds a loaded page, as it would in use.
            await timedCall(client, 'navigate', { sessionId, url: ctx.appUrl(url++) });
          } catch (error) {
            errors += 1;
            opening -= 1;
            ctx.error('scale', error);
            if (errors > 5) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(FILL_CONCURRENCY, level - ids.length) }, fill));
      const pss = await settledPss(pid, SETTLE_MS);
      const processes = 1 + (await descendants(pid)).length;
      const count = Math.max(ctx.config.scaleNavigates, Math.min(2 * level, MAX_NAVIGATES_PER_LEVEL));
      const samples: number[] = [];
      let levelErrors = 0;
      for (let n = 0; n < count; n += 1) {
        const sessionId = ids[n % ids.length] ?? '';
        try {
          samples.push((await timedCall(client, 'navigate', { sessionId, url: ctx.appUrl(url++) })).ms);
        } catch (error) {
          levelErrors += 1;
          ctx.error('scale', error);
        }
      }
      errors += levelErrors;
      levels.push({ sessions: level, pss, processes, navigate: summarize(samples), navigateSamples: samples, errors: levelErrors });
      ctx.log(`scale: ${level} sessions, ${(pss / 2 ** 20).toFixed(0)} MiB, navigate p50 ${summarize(samples).median.toFixed(1)} ms`);
    }
    return { idlePss, levels, slopePerSession: slope(levels.map((level) => [level.sessions, level.pss] as const)), errors };
  } finally {
    await connection.close();
  }
}
