// What every bench section shares: the browser binary, the fixture server, the iteration counts, a log, and error tallies.
import type { FixtureServer } from '@sessionwright/test-kit';
import type { Samples } from './stats.js';

export interface BenchConfig {
  /** Measured iterations per figure (after the warm-up). */
  iterations: number;
  warmup: number;
  /** Parallel work: sessions × cycles of navigate + click + type. */
  parallelSessions: number;
  parallelCycles: number;
  /** How often the three parallel variants run (the order alternates). */
  parallelRounds: number;
  /** Live-session counts for the scale figures. */
  scaleLevels: number[];
  /** Sessions opened at once in the burst section. */
  burstSessions: number;
  /** Round-robin navigates per scale level: max(this, 2 × level). */
  scaleNavigates: number;
  tokenPages: string[];
  sections: Set<string>;
}

export interface BenchContext {
  executable: string;
  fixture: FixtureServer;
  config: BenchConfig;
  /** The app page with a query that makes every load a real load. */
  appUrl(iteration: number): string;
  log(message: string): void;
  /** A failed call counted against its system (figures are only reported for the calls that succeeded). */
  error(system: string, error: unknown): void;
  errors: Record<string, string[]>;
}

/** Rotates a list by `by` places, so each system takes each position in turn across iterations. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** One timed step of a section: it adds its figure under `name` to `record`, or records nothing in a warm-up round. */
export type Step = (record: Samples | undefined, name: string) => Promise<void>;

/**
 * Runs `rounds` rounds of the named steps, each round in a rotated order and the first `warmup` unrecorded; a failed
 * step is counted against `section.name` and the rest go on. `between` runs after each step.
 */
export async function interleave(
  ctx: BenchContext,
  section: string,
  steps: ReadonlyArray<readonly [string, Step]>,
  samples: Samples,
  plan: { rounds: number; warmup: number; logEvery?: number; between?: () => Promise<void> },
): Promise<void> {
  for (let i = 0; i < plan.rounds; i += 1) {
    for (const [name, step] of rotate(steps, i)) {
      try {
        await step(i >= plan.warmup ? samples : undefined, name);
      } catch (error) {
        ctx.error(`${section}.${name}`, error);
      }
      await plan.between?.();
    }
    if ((i + 1) % (plan.logEvery ?? 1) === 0) ctx.log(`${section}: ${i + 1}/${plan.rounds}`);
  }
}
