// Turns one run's figures into BENCHMARKS.md: targets with their ratios, tables per section, the machine and versions.
import type { StatesResult } from './states.js';
import type { BurstResult } from './burst.js';
import type { IdleResult } from './idle.js';
import type { BenchConfig } from './context.js';
import type { Environment } from './environment.js';
import type { MicroResult } from './micro.js';
import { DRESSED, type OptionsResult } from './options.js';
import type { ParallelRun, ParallelVariant } from './parallel.js';
import type { ScaleResult } from './scale.js';
import type { SoakResult } from './soak.js';
import { summarize } from './stats.js';
import { renderTasks, taskTargets } from './report-tasks.js';
import type { TasksResult } from './tasks/run.js';
import type { TokenResult } from './tokens.js';
import type { ToolListName, ToolListResult } from './toollist.js';

export interface BenchResults {
  environment: Environment;
  config: Omit<BenchConfig, 'sections'> & { sections: string[] };
  durationMs: number;
  micro?: MicroResult;
  options?: OptionsResult;
  spawn?: Record<string, number[]>;
  parallel?: ParallelRun[];
  scale?: ScaleResult;
  tokens?: TokenResult;
  toollist?: ToolListResult;
  /** What a model is billed for six tasks (docs/performance.md, "What a task costs"). */
  tasks?: TasksResult;
  burst?: BurstResult;
  /** Saved states and forks (docs/performance.md, "Saved states and forks"). */
  states?: StatesResult;
  idle?: IdleResult;
  /** From its own run (`--sections soak`, bench/results/soak.json). */
  soak?: SoakResult;
  errors: Record<string, string[]>;
  /** Sections measured again after the full run (`--sections … --merge`), each replacing that section's figures. */
  reruns?: Rerun[];
}

/** One `--merge` run: which sections it measured, when, on which commit, and how busy the machine was as it started. */
export interface Rerun {
  sections: string[];
  date: string;
  commit: string;
  load: number;
  minutes: number;
}

export interface Target {
  what: string;
  /** Ours and theirs, as printed. */
  measured: string;
  ratio: number;
  limit: number;
  /** Smaller is better for every target here. */
  met: boolean;
}

const median = (samples: number[] | undefined) => summarize(samples ?? []).median;

function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value < 10 ? value.toFixed(1) : value.toFixed(0);
}

function mib(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 2 ** 20).toFixed(0)} MiB` : '–';
}

function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

/** "median (min–max)" of a sample list, or – when there is none. */
function cell(samples: number[] | undefined): string {
  const s = summarize(samples ?? []);
  return s.n === 0 ? '–' : `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
}

const VARIANT_LABEL: Record<ParallelVariant, string> = {
  sw: '(a) sessionwright: 1 process, 1 stdio connection',
  pwStdio: '(b) @playwright/mcp: 10 stdio processes',
  pwHttp: '(c) @playwright/mcp: 1 HTTP server --isolated, 10 clients',
};

/** Medians over rounds of one parallel variant. */
export function parallelSummary(runs: ParallelRun[], variant: ParallelVariant) {
  const mine = runs.filter((run) => run.variant === variant);
  return {
    runs: mine.length,
    wallMs: median(mine.map((run) => run.wallMs)),
    peakPss: median(mine.map((run) => run.peakPss)),
    afterPss: median(mine.map((run) => run.afterPss)),
    processes: median(mine.map((run) => run.processes)),
    cycleSamples: mine.flatMap((run) => run.cycleSamples),
    errors: mine.reduce((a, run) => a + run.errors, 0),
  };
}

export function targets(results: BenchResults): Target[] {
  const list: Target[] = [];
  const add = (what: string, ours: number, theirs: number, limit: number, unit: (v: number) => string = (v) => `${ms(v)} ms`) => {
    if (!Number.isFinite(ours) || !Number.isFinite(theirs)) return;
    const r = ours / theirs;
    list.push({ what, measured: `${unit(ours)} vs ${unit(theirs)}`, ratio: r, limit, met: r <= limit });
  };
  const m = results.micro?.samples;
  if (m) {
    add('create_session with the warm pool vs raw newContext()+newPage()', median(m['sw.create']), median(m['raw.create']), 0.2);
    add('create_session without a pool (--warm-sessions 0) vs raw newContext()+newPage()', median(m['swNoPool.create']), median(m['raw.create']), 1.1);
    add('navigate vs raw page.goto()', median(m['sw.navigate']), median(m['raw.navigate']), 1.15);
    add(
      '(for reference, no target) navigate vs raw page.goto() + page.title()',
      median(m['sw.navigate']),
      median(m['raw.navigateTitle']),
      Number.POSITIVE_INFINITY,
    );
    add('navigate vs browser_navigate', median(m['sw.navigate']), median(m['pw.navigate']), 0.9);
    add('click (no navigation) vs browser_click', median(m['sw.click']), median(m['pw.click']), 0.3);
    add('type vs browser_type', median(m['sw.type']), median(m['pw.type']), 1.0);
    add('type vs raw fill()', median(m['sw.type']), median(m['raw.type']), 2.0);
    add('type with clear: true vs browser_type', median(m['sw.typeClear']), median(m['pw.type']), 1.0);
    add('snapshot vs browser_snapshot', median(m['sw.snapshot']), median(m['pw.snapshot']), 1.0);
    add(
      '(for reference, no target) first snapshot in a new session vs browser_snapshot',
      median(m['swFresh.snapshot']),
      median(m['pw.snapshot']),
      Number.POSITIVE_INFINITY,
    );
  }
  const s = results.spawn;
  if (s) {
    add('spawn → initialize vs @playwright/mcp', median(s['sw.initialize']), median(s['pw.initialize']), 0.7);
    add('spawn → first navigate vs @playwright/mcp', median(s['sw.firstNavigate']), median(s['pw.firstNavigate']), 0.8);
  }
  const p = results.parallel;
  if (p && p.length > 0) {
    add(
      'parallel work: wall time vs (c) one HTTP server',
      parallelSummary(p, 'sw').wallMs,
      parallelSummary(p, 'pwHttp').wallMs,
      1.0,
      (v) => `${(v / 1000).toFixed(1)} s`,
    );
    add('parallel work: total PSS vs (b) 10 stdio processes', parallelSummary(p, 'sw').peakPss, parallelSummary(p, 'pwStdio').peakPss, 0.5, mib);
  }
  const t = results.tokens;
  if (t?.available && t.pages.length > 0) {
    add(
      'snapshot text vs browser_snapshot text (all pages together)',
      t.pages.reduce((a, page) => a + page.sessionwright, 0),
      t.pages.reduce((a, page) => a + page.playwrightMcp, 0),
      1.0,
      (v) => `${v} chars`,
    );
  }
  const l = results.toollist;
  const listed = (name: ToolListName) => l?.lists.find((entry) => entry.list === name);
  const theirList = listed('pw');
  if (theirList) {
    const chars = (v: number) => `${v.toFixed(0)} chars`;
    const ours = listed('sw');
    const profile = listed('swPlaywright');
    if (ours) add('tool list a model is sent, default profile, per tool vs @playwright/mcp per tool', ours.perTool, theirList.perTool, 1.0, chars);
    if (profile) add("tool list, --profile playwright, all of it vs @playwright/mcp's default list", profile.chars, theirList.chars, 1.15, chars);
    const theirAll = listed('pwAll');
    const profileAll = listed('swPlaywrightAll');
    if (theirAll && profileAll) add("tool list with every cap, --profile playwright vs @playwright/mcp's", profileAll.chars, theirAll.chars, 1.15, chars);
  }
  if (results.tasks) taskTargets(results.tasks, add);
  return list;
}

export function renderMarkdown(results: BenchResults, analysis: string): string {
  const env = results.environment;
  const out: string[] = [];
  const line = (text = '') => out.push(text);
  const quiet = (env.loadBefore[0] ?? 99) < 1.0;

  line('# Benchmarks');
  line();
  line(
    `sessionwright against raw Playwright (the floor: the same work with no server) and @playwright/mcp, measured in one run, interleaved, on the same browser binary. Written by \`pnpm bench\` on ${env.date.slice(0, 16).replace('T', ' ')} UTC (${(results.durationMs / 60_000).toFixed(0)} minutes, commit ${env.commit}); every table is generated (rerun rather than edit) and the raw figures are in [bench/results/latest.json](bench/results/latest.json). A ratio is ours ÷ theirs, of medians: smaller is better.`,
  );
  for (const rerun of results.reruns ?? []) {
    line();
    line(
      `Measured again on ${rerun.date.slice(0, 16).replace('T', ' ')} UTC (${rerun.minutes.toFixed(0)} minutes, commit ${rerun.commit}, 1-minute load average ${rerun.load.toFixed(2)} at its start), replacing their figures: ${rerun.sections.map((section) => `\`${section}\``).join(', ')}.`,
    );
  }
  if (!quiet) {
    line();
    line(
      `> **Busy machine:** the 1-minute load average was ${env.loadBefore[0]?.toFixed(2)} when the full run started, so absolute times are inflated; the systems were interleaved, so the ratios are fairer than the absolute numbers.`,
    );
  }
  line();
  line('## Targets');
  line();
  line('| target | measured (ours vs theirs) | ratio | limit | |');
  line('|---|---|---|---|---|');
  for (const target of targets(results)) {
    const limit = Number.isFinite(target.limit) ? `≤ ${target.limit}×` : '';
    const verdict = Number.isFinite(target.limit) ? (target.met ? 'met' : '**missed**') : '';
    line(`| ${target.what} | ${target.measured} | ${ratio(target.ratio)} | ${limit} | ${verdict} |`);
  }
  if (results.scale) {
    const last = results.scale.levels.at(-1);
    const ok = results.scale.errors === 0;
    line(
      `| ${last?.sessions ?? '–'} live sessions without an error | ${results.scale.errors} errors; ${mib(results.scale.slopePerSession)} PSS per extra session | | 0 errors | ${ok ? 'met' : '**missed**'} |`,
    );
  }
  const b = results.burst;
  if (b) {
    line(`| ${b.sessions} sessions opened, navigated and closed all at once | ${b.errors} errors | | 0 errors | ${b.errors === 0 ? 'met' : '**missed**'} |`);
    const r = b.recycledPss / b.idlePss;
    line(
      `| after the burst's sessions closed, PSS vs idle | ${mib(b.recycledPss)} vs ${mib(b.idlePss)} (${b.recycledDuringClose ? 'recycled while the closes were answered' : `${mib(b.closedPss)} before the recycle`}) | ${ratio(r)} | ≤ 1.5× | ${r <= 1.5 ? 'met' : '**missed**'} |`,
    );
  }
  const k = results.soak;
  if (k) {
    const r = k.recycledPss / k.idlePss;
    line(
      `| soak (${k.minutes} min): PSS drift after warm-up | ${mib(k.latePss)} vs ${mib(k.earlyPss)} | ${(k.drift * 100).toFixed(1)} % | ≤ 10 % | ${k.drift <= 0.1 ? 'met' : '**missed**'} |`,
    );
    const leaks = k.openAfter + k.leakedProcesses;
    line(
      `| soak: leaked sessions or processes, and errors | ${k.openAfter} sessions, ${k.leakedProcesses} processes; ${k.errors} errors in ${k.cycles} cycles | | 0 | ${leaks === 0 && k.errors === 0 ? 'met' : '**missed**'} |`,
    );
    line(
      `| soak: after closing everything, PSS vs idle | ${mib(k.recycledPss)} vs ${mib(k.idlePss)} (${mib(k.closedPss)} before the recycle) | ${ratio(r)} | ≤ 1.5× | ${r <= 1.5 ? 'met' : '**missed**'} |`,
    );
  }
  line();
  const errorSystems = Object.entries(results.errors).filter(([, list]) => list.length > 0);
  if (errorSystems.length === 0) line('Errors: none; every call of every system succeeded.');
  for (const [system, list] of errorSystems) line(`- errors of ${system}: ${list.length} (first: \`${(list[0] ?? '').slice(0, 200).replace(/`/g, "'")}\`)`);
  line();
  if (analysis.trim()) {
    line(analysis.trim());
    line();
  }

  if (results.micro) renderMicro(results.micro, results.config, line);
  if (results.options) renderOptions(results.options, line);
  if (results.spawn) renderSpawn(results.spawn, line);
  if (results.parallel) renderParallel(results, line);
  if (results.scale) renderScale(results.scale, results.config.scaleNavigates, line);
  if (results.burst) renderBurst(results.burst, line);
  if (results.idle) renderIdle(results.idle, line);
  if (results.soak) renderSoak(results.soak, line);
  if (results.tokens) renderTokens(results.tokens, line);
  if (results.toollist) renderToolList(results.toollist, line);
  if (results.tasks) renderTasks(results.tasks, line);

  line('## Running it, and how far to trust a figure');
  line();
  line('```sh');
  line(
    'pnpm bench                                                  # builds, runs every section (most of an hour on 2 cores), rewrites this page and latest.json',
  );
  line('pnpm --filter @sessionwright/bench bench -- --quick         # a few iterations: bench/results/quick.{md,json} only');
  line('pnpm --filter @sessionwright/bench bench -- --sections micro,spawn         # some sections (also quick.*; add --merge to replace them in latest.json)');
  line('pnpm --filter @sessionwright/bench bench -- --sections soak --soak-minutes 30   # the soak, a run of its own (bench/results/soak.json)');
  line('pnpm --filter @sessionwright/bench bench -- --render        # this page again from latest.json and soak.json (after editing bench/analysis.md)');
  line('node bench/profile/trace-call.mjs type                      # the CDP commands of one call; bench/profile/ holds the other profiles');
  line('```');
  line();
  line(
    `- Every figure is a median over ${results.config.iterations} measured iterations (after ${results.config.warmup} warm-up), the systems interleaved in an order that rotates every iteration. Single samples of one call spread by ±25 % on a two-core machine, and the same build's ratios move by a few percent between runs, so a ratio within a few percent of its limit is met or missed by the run, not by the code.`,
  );
  line(
    '- Absolute times depend on the machine and its load (recorded below; run it where the 1-minute load average is below 1); ' +
      'the ratios compare systems that ran side by side. A cost the machine adds to every system alike (a slow start of Chromium, ' +
      'say) moves the cold-start ratios towards 1 without either server changing.',
  );
  line();

  line('## Machine and versions');
  line();
  line(
    `- ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB; ${env.os}; Node ${env.node}; load average (1/5/15 min) ${env.loadBefore.map((v) => v.toFixed(2)).join(' / ')} at the start, ${env.loadAfter.map((v) => v.toFixed(2)).join(' / ')} at the end`,
  );
  line(
    `- ${Object.entries(env.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join('; ')}`,
  );
  line(`- browser for all three systems: \`${env.executable.path}\` (${env.executable.version})`);
  line(
    '- sessionwright: `--headless --executable-path <browser> --max-sessions 60` (warm pool at its default of 1, or ' +
      '`--warm-sessions 0` where said); @playwright/mcp: `--headless --isolated --no-sandbox --executable-path <browser>` (its 500 ' +
      'ms `--timeout-settle` included); raw Playwright: `chromium.launch({ executablePath, headless: true })` in the bench process',
  );
  return `${out.join('\n')}\n`;
}

type Line = (text?: string) => void;

function renderMicro(micro: MicroResult, config: BenchResults['config'], line: Line): void {
  const s = micro.samples;
  const c = micro.responseChars;
  const snapshot = (key: string) => (micro.snapshotTool ? cell(s[key]) : '–');
  const chars = (operation: string) => `${ms(median(c[`sw.${operation}`]))} / ${ms(median(c[`pw.${operation}`]))}`;
  line('## Per call, one at a time');
  line();
  line(
    `Milliseconds, median (min–max) of ${config.iterations}. Each iteration every system navigates to a new load of a small app page on 127.0.0.1, clicks a button that does not navigate, types into a field and takes a snapshot, one system after the other with 200 ms between them (an agent's thinking time). Each system keeps one page, as an agent does during a task. The last column is the characters of result text a model reads.`,
  );
  line();
  line('| operation | raw Playwright | sessionwright | @playwright/mcp | characters (ours / theirs) |');
  line('|---|---|---|---|---|');
  line(`| navigate | ${cell(s['raw.navigate'])} | ${cell(s['sw.navigate'])} | ${cell(s['pw.navigate'])} | ${chars('navigate')} |`);
  line(`| navigate, then read the title | ${cell(s['raw.navigateTitle'])} | – | – | |`);
  line(`| click, no navigation | ${cell(s['raw.click'])} | ${cell(s['sw.click'])} | ${cell(s['pw.click'])} | ${chars('click')} |`);
  line(`| type (raw: fill) | ${cell(s['raw.type'])} | ${cell(s['sw.type'])} | ${cell(s['pw.type'])} | ${chars('type')} |`);
  line(`| type with clear: true, into a field with text | – | ${cell(s['sw.typeClear'])} | – | |`);
  line(`| snapshot | – | ${snapshot('sw.snapshot')} | ${cell(s['pw.snapshot'])} | ${chars('snapshot')} |`);
  line();
  line(
    'Opening and closing, and the first calls in a context opened for the iteration (a new renderer, which pays for its first ' +
      'script runs); @playwright/mcp keeps one context per process.',
  );
  line();
  line('| operation | raw Playwright | sessionwright (warm pool) | sessionwright (--warm-sessions 0) |');
  line('|---|---|---|---|');
  line(`| create (newContext + newPage / create_session) | ${cell(s['raw.create'])} | ${cell(s['sw.create'])} | ${cell(s['swNoPool.create'])} |`);
  const firsts = (system: string, operations: string[]) => operations.map((operation) => ms(median(s[`${system}.${operation}`]))).join(' / ');
  line(
    `| first navigate / click / type / snapshot (medians) | ${firsts('rawFresh', ['navigate', 'click', 'type'])} / – | ${firsts('swFresh', ['navigate', 'click', 'type', 'snapshot'])} | – |`,
  );
  line(`| close (context.close / close_session) | ${cell(s['raw.close'])} | ${cell(s['sw.close'])} | ${cell(s['swNoPool.close'])} |`);
  line();
}

function renderOptions(options: OptionsResult, line: Line): void {
  const s = options.samples;
  const dressed = median(s['options']);
  line('## create_session with options');
  line();
  line(
    `Milliseconds, median (min–max), measured ${options.date.slice(0, 16).replace('T', ' ')} UTC. "Dressed" is \`${JSON.stringify(DRESSED)}\`. A session with options opens its own context (${ratio(dressed / median(s['raw']))} raw Playwright's open); one without comes from the warm pool.`,
  );
  line();
  line('| create_session, no options | create_session, dressed | dressed + blockResources ["image", "font"] | raw newContext(same options) + newPage() |');
  line('|---|---|---|---|');
  line(`| ${cell(s['pool'])} | ${cell(s['options'])} | ${cell(s['blocking'])} | ${cell(s['raw'])} |`);
  line();
}

function renderSpawn(spawn: Record<string, number[]>, line: Line): void {
  const first = median(spawn['sw.firstNavigate']);
  const raw = spawn['raw.firstGoto'];
  line('## Cold start');
  line();
  line(
    "Milliseconds from spawning the process until the answer, median (min–max), a new process every iteration; sessionwright's " +
      'first navigate includes its `create_session`. The raw script (`bench/src/raw-cold-start.ts`) loads Playwright, launches, ' +
      'opens a context and a page and calls `goto()`: where a server that loads Playwright before it launches starts from.',
  );
  line();
  line('| | sessionwright | @playwright/mcp | raw Playwright script | vs @playwright/mcp | vs raw |');
  line('|---|---|---|---|---|---|');
  line(
    `| spawn → initialize answered | ${cell(spawn['sw.initialize'])} | ${cell(spawn['pw.initialize'])} | – | ${ratio(median(spawn['sw.initialize']) / median(spawn['pw.initialize']))} | – |`,
  );
  line(
    `| spawn → first navigate answered | ${cell(spawn['sw.firstNavigate'])} | ${cell(spawn['pw.firstNavigate'])} | ${raw ? cell(raw) : '–'} | ${ratio(first / median(spawn['pw.firstNavigate']))} | ${raw ? ratio(first / median(raw)) : '–'} |`,
  );
  line();
}

function renderParallel(results: BenchResults, line: Line): void {
  const runs = results.parallel ?? [];
  const cfg = results.config;
  line('## Parallel work');
  line();
  line(
    `${cfg.parallelSessions} sessions × ${cfg.parallelCycles} cycles of navigate + click + type, all sessions at once, timed from the first cycle to the last answer (servers, browsers and pages ready before). PSS sums the server processes and all their descendants (the peak of 1-second samples); medians over ${cfg.parallelRounds} round(s), the order alternating.`,
  );
  line();
  line('| system | wall time | per cycle, ms: median (min–max) | peak PSS | processes | errors |');
  line('|---|---|---|---|---|---|');
  for (const variant of ['sw', 'pwStdio', 'pwHttp'] as const) {
    const v = parallelSummary(runs, variant);
    if (v.runs === 0) continue;
    line(`| ${VARIANT_LABEL[variant]} | ${(v.wallMs / 1000).toFixed(1)} s | ${cell(v.cycleSamples)} | ${mib(v.peakPss)} | ${v.processes} | ${v.errors} |`);
  }
  line();
}

function renderScale(scale: ScaleResult, minimumCalls: number, line: Line): void {
  line('## Scale: live sessions in one process');
  line();
  line(
    `Every session holds the loaded page; PSS of the server and its browser tree (idle: ${mib(scale.idlePss)}; least-squares slope **${mib(scale.slopePerSession)} per session**); navigate timed round-robin over all sessions, one call at a time (max(${minimumCalls}, 2 × sessions) calls, at most 200).`,
  );
  line();
  line('| live sessions | total PSS | processes | navigate p50 | navigate p95 | errors |');
  line('|---|---|---|---|---|---|');
  for (const level of scale.levels) {
    line(`| ${level.sessions} | ${mib(level.pss)} | ${level.processes} | ${ms(level.navigate.median)} ms | ${ms(level.navigate.p95)} ms | ${level.errors} |`);
  }
  line();
}

function renderIdle(idle: IdleResult, line: Line): void {
  line('## Idle cost: quiet sessions and the runaway watch');
  line();
  line(
    `${idle.sessions} sessions, each on a quiet page, no calls: CPU of the server and every process of its browser over the window, % of one core, with the memory watch (the default) and without it (\`--max-page-memory 0\`), alternated.`,
  );
  line();
  line('| round | sessions | server + browser | server alone | window | errors |');
  line('|---|---:|---:|---:|---:|---:|');
  for (const round of idle.rounds) {
    line(
      `| ${round.variant} | ${round.sessions} | ${round.cpuPercent.toFixed(1)} % | ${round.serverCpuPercent.toFixed(1)} % | ${(round.windowMs / 1000).toFixed(0)} s | ${round.errors} |`,
    );
  }
  line();
  line(
    `The watch costs ${idle.watchCostPoints.toFixed(1)} points of one core. ${idle.fill.sessions} live sessions: ${idle.fill.created} created (each on the quiet page) in ${(idle.fill.fillMs / 1000).toFixed(0)} s, ${idle.fill.answered} answered an \`evaluate\` afterwards, ${idle.fill.errors} errors.`,
  );
  line();
}

function renderBurst(burst: BurstResult, line: Line): void {
  line('## Burst: a thousand sessions at once');
  line();
  line(
    `One process (\`--call-timeout ${burst.callLimitMs ?? 600_000}\`), measured ${burst.date.slice(0, 16).replace('T', ' ')} UTC (load average ${burst.load.toFixed(2)} at its start). Each phase sends every call at once, navigate with a 300 s timeout; per call: median (p95) ms, mostly waiting for a turn.`,
  );
  line();
  line('| phase | calls | wall time | per call | errors |');
  line('|---|---|---|---|---|');
  const row = (name: string, phase: BurstResult['open']) =>
    line(`| ${name} | ${phase.calls.n} | ${(phase.wallMs / 1000).toFixed(1)} s | ${ms(phase.calls.median)} (${ms(phase.calls.p95)}) | ${phase.errors} |`);
  row('create_session + navigate', burst.open);
  row('navigate every session', burst.navigate);
  row('close_session every session', burst.close);
  line();
  line(
    `PSS: idle ${mib(burst.idlePss)}; peak ${mib(burst.peakPss)} (${burst.peakProcesses} processes); after the last close ${mib(burst.closedPss)}${burst.recycledDuringClose ? ' (after the recycle, which began before the last close was answered)' : ''}; after the idle browser was recycled ${burst.recycled ? '' : '(**no recycle seen**) '}${mib(burst.recycledPss)}${burst.settledMs === undefined ? '' : `, ${(burst.settledMs / 1000).toFixed(0)} s after the last close`}. create_session right after the recycle: ${burst.createAfterRecycle.map(ms).join(', ')} ms (fresh server: ${burst.createBefore.map(ms).join(', ')}).`,
  );
  line();
}

function renderSoak(soak: SoakResult, line: Line): void {
  const cycle = summarize(soak.cycleMs);
  const warmup = soak.warmupSeconds >= 60 ? `${Math.round(soak.warmupSeconds / 60)} min` : `${Math.round(soak.warmupSeconds)} s`;
  line('## Soak: steady churn');
  line();
  line(
    `Its own run (\`--sections soak\`), ${soak.date.slice(0, 16).replace('T', ' ')} UTC: ${soak.minutes} minutes of ${soak.workers} workers each repeating create_session, navigate, click, type, snapshot, close_session on one process. PSS sampled every 5 s; the drift compares the first and the last tenth after ${warmup} of warm-up. ${soak.cycles} cycles, ${soak.errors} errors, ${ms(cycle.median)} ms per cycle (p95 ${ms(cycle.p95)}). PSS idle ${mib(soak.idlePss)}; after warm-up ${mib(soak.earlyPss)} → ${mib(soak.latePss)} (${(soak.drift * 100).toFixed(1)} %, ${(soak.slopePerMinute / 2 ** 20).toFixed(2)} MiB/min); every session closed: ${soak.openAfter} listed, ${soak.leakedProcesses} processes over idle, ${mib(soak.closedPss)}; ${soak.recycled ? 'after the recycle' : '**no recycle seen**'} ${mib(soak.recycledPss)}. create_session: ${soak.createBefore.map(ms).join(', ')} ms on the fresh server, ${soak.createAfterRecycle.map(ms).join(', ')} ms after the recycle.`,
  );
  line();
}

function renderTokens(tokens: TokenResult, line: Line): void {
  line('## Snapshot size');
  line();
  if (!tokens.available) {
    line('Skipped: this build of sessionwright has no `snapshot` tool.');
    line();
    return;
  }
  line(
    `Characters of all text in the result (what the model reads; about 4 per token), after navigating to each page; "(cut)": at the default maxChars, with a note.${tokens.examples ? ` Both texts of ${tokens.examples.page} are in latest.json (\`tokens.examples\`).` : ''}`,
  );
  line();
  const ours = tokens.pages.reduce((a, page) => a + page.sessionwright, 0);
  const theirs = tokens.pages.reduce((a, page) => a + page.playwrightMcp, 0);
  const row = (cells: string[]) => line(`| ${cells.join(' | ')} |`);
  row(['', ...tokens.pages.map((page) => page.page), '**all**']);
  row(['---', ...tokens.pages.map(() => '---'), '---']);
  row(['sessionwright `snapshot`', ...tokens.pages.map((page) => `${page.sessionwright}${page.truncated ? ' (cut)' : ''}`), `${ours}`]);
  row(['@playwright/mcp `browser_snapshot`', ...tokens.pages.map((page) => `${page.playwrightMcp}`), `${theirs}`]);
  row(['ratio', ...tokens.pages.map((page) => ratio(page.ratio)), ratio(ours / theirs)]);
  const found = tokens.pages.filter((page) => page.find !== undefined);
  if (found.length > 0) {
    line();
    line(
      `Looking for one element instead (\`find {text}\`, \`browser_find {text}\`; the text looked for on each page: ${found.map((page) => `${page.page} "${page.find?.text}"`).join(', ')}), characters of the answer, and of our snapshot for comparison:`,
    );
    line();
    row(['', ...found.map((page) => page.page)]);
    row(['---', ...found.map(() => '---')]);
    row(['sessionwright `find`', ...found.map((page) => `${page.find?.sessionwright} (${page.find?.matches} found)`)]);
    row(['@playwright/mcp `browser_find`', ...found.map((page) => `${page.find?.playwrightMcp}`)]);
    row(['`find` ÷ `snapshot`', ...found.map((page) => percent((page.find?.sessionwright ?? Number.NaN) / page.sessionwright))]);
  }
  line();
}

function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(value < 0.1 ? 1 : 0)} %` : '–';
}

function renderToolList(result: ToolListResult, line: Line): void {
  line('## What the tool list costs');
  line();
  line(
    "A client hands the model every tool's name, description and input schema on every turn: characters of that JSON, each list " +
      "as the installed servers answered `tools/list` in this run. The last column compares with @playwright/mcp's list of the " +
      "same caps: per tool for the default profile's default list, the whole list for the others (a group of ours is fewer tools " +
      'doing as much).',
  );
  line();
  line('| server | flags | tools | characters | per tool | vs @playwright/mcp |');
  line('|---|---|---|---|---|---|');
  const server = (list: ToolListName) => (list.startsWith('pw') ? '@playwright/mcp' : 'sessionwright');
  const flags = (list: string[]) => (list.length === 0 ? 'none' : `\`${list.join(' ')}\``);
  for (const entry of result.lists) {
    const whole = entry.list !== 'sw';
    // Every list with caps is compared with @playwright/mcp's with all of them, the others with its default list.
    const theirs = result.lists.find((other) => other.list === (entry.list.endsWith('All') ? 'pwAll' : 'pw'));
    const versus =
      !theirs || entry.list.startsWith('pw')
        ? ''
        : whole
          ? `${ratio(entry.chars / theirs.chars)} (whole list)`
          : `${ratio(entry.perTool / theirs.perTool)} (per tool)`;
    line(`| ${server(entry.list)} | ${flags(entry.flags)} | ${entry.tools} | ${entry.chars} | ${entry.perTool.toFixed(0)} | ${versus} |`);
  }
  for (const entry of result.notServed) line(`| ${server(entry.list)} | ${flags(entry.flags)} | not served: ${entry.reason.replaceAll('|', '\\|')} | | | |`);
  line();
}
