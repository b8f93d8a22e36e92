// `pnpm bench`: runs every section against the same browser binary and writes BENCHMARKS.md and bench/results/latest.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '@sessionwright/test-kit';
import type { BenchConfig, BenchContext } from './context.js';
import { benchExecutable, describeCommit, describeEnvironment, repoRoot } from './environment.js';
import { runFleet } from './fleet.js';
import { runMicro } from './micro.js';
import { runBurst } from './burst.js';
import { runIdle } from './idle.js';
import { runOptions } from './options.js';
import { benchPages, tokenPages } from './pages.js';
import { runParallel } from './parallel.js';
import { renderMarkdown, targets, type BenchResults } from './report.js';
import { runScale } from './scale.js';
import { runSoak, type SoakResult } from './soak.js';
import { runSpawn } from './spawn.js';
import { runStates } from './states.js';
import { removeScratch } from './systems.js';
import { runTasks } from './tasks/run.js';
import { runTokens } from './tokens.js';
import { runToolList } from './toollist.js';

const SECTIONS = ['micro', 'options', 'spawn', 'parallel', 'scale', 'burst', 'idle', 'tokens', 'toollist', 'tasks', 'states'];
/**
 * Sections a full run leaves out: the soak takes half an hour and writes its own file (results/soak.json), which every
 * render includes; the fleet needs redis-server and HAProxy and writes results/fleet.json (docs/performance.md).
 */
const SEPARATE_SECTIONS = ['soak', 'fleet'];
/**
 * Measured iterations per figure. Single samples of one call spread widely on a two-core machine, and the median of
 * fewer moves by several percent from run to run; 60 keep it within a few.
 */
const ITERATIONS = 60;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      quick: { type: 'boolean', default: false },
      sections: { type: 'string' },
      iterations: { type: 'string' },
      rounds: { type: 'string' },
      'executable-path': { type: 'string' },
      render: { type: 'boolean', default: false },
      'soak-minutes': { type: 'string' },
      merge: { type: 'boolean', default: false },
    },
  });
  const analysisFile = path.join(repoRoot, 'bench', 'analysis.md');
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : '';
  const resultsDir = path.join(repoRoot, 'bench', 'results');
  if (values.render) {
    // Rewrites BENCHMARKS.md from the last full run, e.g. after editing bench/analysis.md.
    const last = JSON.parse(readFileSync(path.join(resultsDir, 'latest.json'), 'utf8')) as BenchResults;
    writeFileSync(path.join(repoRoot, 'BENCHMARKS.md'), renderMarkdown({ ...last, soak: readSoak(resultsDir) }, analysis));
    process.stderr.write('[bench] BENCHMARKS.md rendered from bench/results/latest.json\n');
    return;
  }
  const quick = values.quick === true;
  const sections = new Set((values.sections ?? SECTIONS.join(',')).split(',').map((s) => s.trim()));
  for (const section of sections) {
    if (!SECTIONS.includes(section) && !SEPARATE_SECTIONS.includes(section))
      throw new Error(`unknown section ${section}; one of ${[...SECTIONS, ...SEPARATE_SECTIONS].join(', ')}`);
  }
  const partial = quick || SECTIONS.some((section) => !sections.has(section)) || values.iterations !== undefined;
  const config: BenchConfig = {
    iterations: Number(values.iterations ?? (quick ? 3 : ITERATIONS)),
    warmup: quick ? 1 : 3,
    parallelSessions: 10,
    parallelCycles: quick ? 3 : 20,
    parallelRounds: Number(values.rounds ?? (quick ? 1 : 2)),
    scaleLevels: quick ? [1, 5] : [1, 10, 100, 250, 500, 1000],
    burstSessions: quick ? 20 : 1000,
    scaleNavigates: quick ? 5 : 20,
    tokenPages,
    sections,
  };

  const loadBefore = os.loadavg();
  const commit = describeCommit();
  const executable = benchExecutable(values['executable-path']);
  const fixture = await startFixtureServer({ pages: benchPages });
  const errors: Record<string, string[]> = {};
  const started = performance.now();
  const ctx: BenchContext = {
    executable: executable.path,
    fixture,
    config,
    appUrl: (iteration) => fixture.urlFor(`/pages/bench-app?i=${iteration}`),
    log: (message) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`),
    error(system, error) {
      const message = error instanceof Error ? error.message : String(error);
      (errors[system] ??= []).push(message);
      process.stderr.write(`[bench] ${system} error: ${message.split('\n')[0]}\n`);
    },
    errors,
  };
  ctx.log(`browser for every system: ${executable.path} (${executable.kind}); load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')}`);

  const results: Partial<BenchResults> = {};
  try {
    if (sections.has('micro')) {
      ctx.log('micro: raw Playwright, sessionwright (pool / no pool), @playwright/mcp, interleaved');
      results.micro = await runMicro(ctx);
    }
    if (sections.has('options')) {
      ctx.log('options: create_session with options vs from the warm pool vs raw newContext(options), interleaved');
      results.options = await runOptions(ctx);
    }
    if (sections.has('spawn')) {
      ctx.log('spawn: cold starts, interleaved');
      results.spawn = await runSpawn(ctx);
    }
    if (sections.has('parallel')) results.parallel = await runParallel(ctx);
    if (sections.has('scale')) {
      ctx.log(`scale: ${config.scaleLevels.join(', ')} live sessions`);
      results.scale = await runScale(ctx);
    }
    if (sections.has('burst')) {
      ctx.log(`burst: ${config.burstSessions} sessions at once`);
      results.burst = await runBurst(ctx, config.burstSessions);
    }
    if (sections.has('idle')) {
      ctx.log('idle: quiet sessions with the memory watch and without, then a thousand live sessions');
      results.idle = await runIdle(ctx, quick);
    }
    if (sections.has('soak')) {
      const minutes = Number(values['soak-minutes'] ?? (quick ? 1 : 30));
      ctx.log(`soak: ${minutes} min of churn`);
      results.soak = await runSoak(ctx, minutes);
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(path.join(resultsDir, 'soak.json'), `${JSON.stringify(results.soak, null, 2)}\n`);
    }
    if (sections.has('fleet')) {
      ctx.log('fleet: three replicas on Redis behind HAProxy');
      const fleet = await runFleet(ctx);
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(path.join(resultsDir, 'fleet.json'), `${JSON.stringify(fleet, null, 2)}\n`);
      process.stdout.write(`${JSON.stringify(fleet, null, 2)}\n`);
    }
    if (sections.has('tokens')) {
      ctx.log('tokens: snapshot sizes');
      results.tokens = await runTokens(ctx);
    }
    if (sections.has('states')) {
      ctx.log('states: save_state and create_session {state} vs raw storageState(); fork_session {count: 5} vs five sign-ins, interleaved');
      results.states = await runStates(ctx);
    }
    if (sections.has('toollist')) {
      ctx.log('toollist: what each tool list costs a model');
      results.toollist = await runToolList(ctx);
    }
    if (sections.has('tasks')) {
      ctx.log('tasks: six scripted tasks on a local site, billed turn by turn');
      results.tasks = await runTasks(ctx);
    }
  } finally {
    await fixture.close();
    removeScratch();
  }

  const full: BenchResults = {
    ...results,
    soak: results.soak ?? readSoak(resultsDir),
    environment: describeEnvironment(executable, loadBefore, commit),
    config: { ...config, sections: [...sections] },
    durationMs: performance.now() - started,
    errors,
  };
  if (partial && values.merge) {
    // A section rerun on its own replaces that section of the last full run; everything else stays as it was measured.
    const last = JSON.parse(readFileSync(path.join(resultsDir, 'latest.json'), 'utf8')) as BenchResults;
    const merged: BenchResults = { ...last, ...results, soak: results.soak ?? readSoak(resultsDir) };
    const rerun = {
      sections: [...sections],
      date: full.environment.date,
      commit: full.environment.commit,
      load: loadBefore[0] ?? 0,
      minutes: full.durationMs / 60_000,
    };
    // A section measured again leaves an earlier rerun's list; a rerun left with no section goes.
    merged.reruns = [
      ...(last.reruns ?? [])
        .map((earlier) => ({ ...earlier, sections: earlier.sections.filter((section) => !sections.has(section)) }))
        .filter((earlier) => earlier.sections.length > 0),
      rerun,
    ];
    for (const section of sections)
      merged.errors = {
        ...Object.fromEntries(Object.entries(merged.errors).filter(([system]) => !system.startsWith(`${section}.`) && system !== section)),
        ...Object.fromEntries(Object.entries(errors).filter(([system]) => system.startsWith(`${section}.`) || system === section)),
      };
    writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(merged, null, 2)}\n`);
    writeFileSync(path.join(repoRoot, 'BENCHMARKS.md'), renderMarkdown(merged, analysis));
    ctx.log(`merged ${[...sections].join(', ')} into bench/results/latest.json and BENCHMARKS.md`);
    return;
  }
  const markdown = renderMarkdown(full, partial ? '' : analysis);
  mkdirSync(resultsDir, { recursive: true });
  const name = partial ? 'quick' : 'latest';
  writeFileSync(path.join(resultsDir, `${name}.json`), `${JSON.stringify(full, null, 2)}\n`);
  if (partial) writeFileSync(path.join(resultsDir, 'quick.md'), markdown);
  else writeFileSync(path.join(repoRoot, 'BENCHMARKS.md'), markdown);

  for (const target of targets(full).filter((t) => Number.isFinite(t.limit))) {
    process.stdout.write(`${target.met ? 'met   ' : 'MISSED'} ${target.ratio.toFixed(2)}× (≤ ${target.limit}×)  ${target.what}: ${target.measured}\n`);
  }
  ctx.log(
    `done in ${(full.durationMs / 60_000).toFixed(1)} min; wrote ${partial ? 'bench/results/quick.{md,json}' : 'BENCHMARKS.md and bench/results/latest.json'}`,
  );
}

/** The last soak's figures (its own run, `--sections soak`), if there is one. */
function readSoak(resultsDir: string): SoakResult | undefined {
  const file = path.join(resultsDir, 'soak.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SoakResult) : undefined;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
