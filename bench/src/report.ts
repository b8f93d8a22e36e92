// Turns one run's figures into BENCHMARKS.md: targets with their ratios, tables per section, the machine and versions.
import type { BurstResult } from './burst.js';
import type { BenchConfig } from './context.js';
import type { Environment } from './environment.js';
import type { MicroResult } from './micro.js';
import { DRESSED, type OptionsResult } from './options.js';
import type { ParallelRun, ParallelVariant } from './parallel.js';
import type { ScaleResult } from './scale.js';
import type { SoakResult } from './soak.js';
import { summarize } from './stats.js';
import type { TokenResult } from './tokens.js';

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
  burst?: BurstResult;
  /** From its own run (`--sections soak`, bench/results/soak.json). */
  soak?: SoakResult;
  errors: Record<string, string[]>;
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
  return list;
}

export function renderMarkdown(results: BenchResults, analysis: string): string {
  const env = results.environment;
  const out: string[] = [];
  const line = (text = '') => out.push(text);
  const loadBefore = env.loadBefore.map((v) => v.toFixed(2)).join(' / ');
  const loadAfter = env.loadAfter.map((v) => v.toFixed(2)).join(' / ');
  const quiet = (env.loadBefore[0] ?? 99) < 1.0;

  line('# Benchmarks');
  line();
  line(
    `Written by \`pnpm bench\` on ${env.date.slice(0, 16).replace('T', ' ')} UTC in ${(results.durationMs / 60_000).toFixed(1)} minutes; raw figures in [bench/results/latest.json](bench/results/latest.json).`,
  );
  line('Everything below the analysis is generated: rerun rather than edit. Ratios are ours ÷ theirs, of medians; smaller is better.');
  if (!quiet) {
    line();
    line(
      `> **Noisy machine:** the 1-minute load average was ${env.loadBefore[0]?.toFixed(2)} when the run started (other work was running), so absolute timings are inflated; the systems were interleaved, so ratios are fairer than absolute numbers.`,
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
  if (analysis.trim()) {
    line(analysis.trim());
    line();
  }

  line('## Machine and versions');
  line();
  line(`- ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB; ${env.os}; Node ${env.node}`);
  line(
    `- load average (1/5/15 min): ${loadBefore} at the start, ${loadAfter} at the end (the end includes the bench's own parallel phase of up to ten browsers)`,
  );
  line(`- sessionwright at commit ${env.commit}`);
  for (const [name, version] of Object.entries(env.versions)) line(`- ${name}: ${version}`);
  line(`- browser, the same binary for all three systems: \`${env.executable.path}\` (${env.executable.version}; ${env.executable.kind})`);
  line(
    `- sessionwright: \`--headless --executable-path <browser> --max-sessions 60\` (warm pool at its headless default of 1, or \`--warm-sessions 0\` where said)`,
  );
  line(`- @playwright/mcp: \`--headless --isolated --no-sandbox --executable-path <browser>\`, defaults otherwise (its 500 ms \`--timeout-settle\` included)`);
  line('- raw Playwright: `chromium.launch({ executablePath: <browser>, headless: true })` in the bench process');
  line(
    `- iterations: ${results.config.iterations} measured after ${results.config.warmup} warm-up per figure; systems interleaved (the order rotates every iteration)`,
  );
  line();

  if (results.micro) renderMicro(results.micro, line);
  if (results.options) renderOptions(results.options, line);
  if (results.spawn) renderSpawn(results.spawn, line);
  if (results.parallel) renderParallel(results, line);
  if (results.scale) renderScale(results.scale, results.config.scaleNavigates, line);
  if (results.burst) renderBurst(results.burst, line);
  if (results.soak) renderSoak(results.soak, line);
  if (results.tokens) renderTokens(results.tokens, line);

  const errorSystems = Object.entries(results.errors).filter(([, list]) => list.length > 0);
  line('## Errors');
  line();
  if (errorSystems.length === 0) line('None: every call of every system succeeded.');
  for (const [system, list] of errorSystems) line(`- ${system}: ${list.length} (first: \`${(list[0] ?? '').slice(0, 200).replace(/`/g, "'")}\`)`);
  line();

  line('## How to rerun');
  line();
  line('```sh');
  line('pnpm install');
  line('pnpm bench                          # builds, runs everything (~10 min), rewrites BENCHMARKS.md and bench/results/latest.json');
  line('pnpm --filter @sessionwright/bench bench -- --quick                 # a few iterations, writes bench/results/quick.{md,json} only');
  line('pnpm --filter @sessionwright/bench bench -- --sections micro,spawn  # some sections only (also written to quick.*)');
  line('pnpm --filter @sessionwright/bench bench -- --executable-path /path/to/chromium');
  line('pnpm --filter @sessionwright/bench bench -- --render                # rewrite BENCHMARKS.md from latest.json (after editing bench/analysis.md)');
  line(
    'pnpm --filter @sessionwright/bench bench -- --sections soak --soak-minutes 30   # the soak, a run of its own (bench/results/soak.json, in every render)',
  );
  line('pnpm --filter @sessionwright/bench bench -- --sections burst --merge          # rerun sections into the last full run (latest.json, BENCHMARKS.md)');
  line('node bench/profile/startup.mjs; node bench/profile/navigate.mjs      # the profiles behind the analysis');
  line('node bench/profile/title.mjs; node bench/profile/trace-call.mjs type  # the title read, and the CDP commands of one call');
  line('```');
  line();
  line('Run it on a quiet machine (1-minute load average below 1): the run records the load average before and after.');
  return `${out.join('\n')}\n`;
}

type Line = (text?: string) => void;

function renderMicro(micro: MicroResult, line: Line): void {
  const s = micro.samples;
  const snapshot = (key: string) => (micro.snapshotTool ? cell(s[key]) : 'no snapshot tool yet');
  line('## Per call, one at a time');
  line();
  line(
    'Milliseconds, median (min–max). The fixture page is a small app page on 127.0.0.1 with a counter button that does not navigate and a text input. Each iteration: every system navigates to a new load of it, clicks, types (and takes a snapshot), one system after the other with a 200 ms pause between systems (an agent’s thinking time; the warm pool refills in it).',
  );
  line();
  line('In the steady state each system keeps one page (one session) across iterations, as an agent does during a task; the targets use these figures.');
  line();
  line('| operation | raw Playwright | sessionwright | @playwright/mcp |');
  line('|---|---|---|---|');
  line(`| navigate (goto / navigate / browser_navigate) | ${cell(s['raw.navigate'])} | ${cell(s['sw.navigate'])} | ${cell(s['pw.navigate'])} |`);
  line(`| navigate + read the title (goto + title() / –) | ${cell(s['raw.navigateTitle'])} | – | – |`);
  line(`| click, no navigation | ${cell(s['raw.click'])} | ${cell(s['sw.click'])} | ${cell(s['pw.click'])} |`);
  line(`| type / fill | ${cell(s['raw.type'])} | ${cell(s['sw.type'])} | ${cell(s['pw.type'])} |`);
  line(`| type with clear: true (the field holds text) / fill | – | ${cell(s['sw.typeClear'])} | – |`);
  line(`| snapshot | – | ${snapshot('sw.snapshot')} | ${cell(s['pw.snapshot'])} |`);
  line();
  line(
    'Opening and closing, and the same calls as the first ones in a context opened for the iteration (a new renderer process, which pays for its first script runs): raw Playwright and sessionwright open one per iteration; @playwright/mcp keeps one context per process.',
  );
  line();
  line('| operation | raw Playwright | sessionwright (warm pool) | sessionwright (--warm-sessions 0) |');
  line('|---|---|---|---|');
  line(`| create (newContext+newPage / create_session) | ${cell(s['raw.create'])} | ${cell(s['sw.create'])} | ${cell(s['swNoPool.create'])} |`);
  line(`| first navigate | ${cell(s['rawFresh.navigate'])} | ${cell(s['swFresh.navigate'])} | – |`);
  line(`| first click | ${cell(s['rawFresh.click'])} | ${cell(s['swFresh.click'])} | – |`);
  line(`| first type / fill | ${cell(s['rawFresh.type'])} | ${cell(s['swFresh.type'])} | – |`);
  line(`| first snapshot | – | ${snapshot('swFresh.snapshot')} | – |`);
  line(`| close (context.close / close_session) | ${cell(s['raw.close'])} | ${cell(s['sw.close'])} | ${cell(s['swNoPool.close'])} |`);
  line();
  const c = micro.responseChars;
  line('Characters of result text a model reads per call (median):');
  line();
  line('| call | sessionwright | @playwright/mcp |');
  line('|---|---|---|');
  for (const operation of ['navigate', 'click', 'type', 'snapshot']) {
    line(`| ${operation} | ${ms(median(c[`sw.${operation}`]))} | ${ms(median(c[`pw.${operation}`]))} |`);
  }
  line();
}

function renderOptions(options: OptionsResult, line: Line): void {
  const s = options.samples;
  line('## create_session with options');
  line();
  line(
    `Milliseconds, median (min–max), measured ${options.date.slice(0, 16).replace('T', ' ')} UTC (\`--sections options\`, 1-minute load average ${options.load.toFixed(2)}). "Dressed" is \`${JSON.stringify(DRESSED)}\`; each create is followed by its close and a 200 ms pause, the four kinds interleaved.`,
  );
  line();
  line('| create | ms |');
  line('|---|---|');
  line(`| create_session, no options (from the warm pool) | ${cell(s['pool'])} |`);
  line(`| create_session, dressed (opens its own context) | ${cell(s['options'])} |`);
  line(`| create_session, dressed + blockResources ["image", "font"] | ${cell(s['blocking'])} |`);
  line(`| raw newContext(same options) + newPage() | ${cell(s['raw'])} |`);
  line();
  const dressed = median(s['options']);
  line(
    `A session with options never comes from the warm pool: its context is opened for it, so it costs what a context opening costs (${ms(dressed)} ms here, ${ratio(dressed / median(s['raw']))} raw Playwright's), against ${ms(median(s['pool']))} ms for a pooled one. Sessions without options keep the pool, and blockResources adds only its route.`,
  );
  line();
}

function renderSpawn(spawn: Record<string, number[]>, line: Line): void {
  line('## Cold start');
  line();
  line(
    "Milliseconds from spawning the process (`node <cli>`) until the answer, median (min–max). A new process every iteration. sessionwright's first navigate includes its `create_session`. The raw Playwright column is the floor: a script that loads Playwright, launches, opens a context and a page and calls `goto()` (`bench/src/raw-cold-start.ts`), timed from its spawn until it prints that `goto()` returned.",
  );
  line();
  line('| | sessionwright | @playwright/mcp | raw Playwright script | vs @playwright/mcp | vs raw |');
  line('|---|---|---|---|---|---|');
  line(
    `| spawn → initialize answered | ${cell(spawn['sw.initialize'])} | ${cell(spawn['pw.initialize'])} | – | ${ratio(median(spawn['sw.initialize']) / median(spawn['pw.initialize']))} | – |`,
  );
  const first = median(spawn['sw.firstNavigate']);
  const raw = spawn['raw.firstGoto'];
  line(
    `| spawn → first navigate result | ${cell(spawn['sw.firstNavigate'])} | ${cell(spawn['pw.firstNavigate'])} | ${raw ? cell(raw) : '–'} | ${ratio(first / median(spawn['pw.firstNavigate']))} | ${raw ? ratio(first / median(raw)) : '–'} |`,
  );
  if (raw) {
    line();
    line(
      `The raw script's own cold start is ${ratio(median(raw) / median(spawn['pw.firstNavigate']))} @playwright/mcp's: it is where any server starts from that loads Playwright before it launches the browser. sessionwright does neither as the script does: it reads Playwright through a V8 code cache, and it starts Chromium before Playwright has loaded, as its last start with the same settings launched it (the warm-up starts record that command).`,
    );
  }
  line();
}

function renderParallel(results: BenchResults, line: Line): void {
  const runs = results.parallel ?? [];
  const cfg = results.config;
  line('## Parallel work');
  line();
  line(
    `${cfg.parallelSessions} sessions × ${cfg.parallelCycles} cycles of navigate + click + type, all sessions at once. Wall time from the first cycle to the last answer (servers started, browsers up and every session on the page before the clock starts). PSS is the sum over the server processes and all their descendants from /proc (peak of 1-second samples during the work); ${cfg.parallelRounds} round(s), the order alternating, medians over rounds.`,
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
  line('## Scale: live sessions in one sessionwright process');
  line();
  line(
    `Every session holds the loaded fixture page. PSS of the server and its browser tree; sessions opened 8 at a time to fill each level; navigate timed round-robin over all sessions, one call at a time (max(${minimumCalls}, 2 × sessions) calls per level, at most 200). Idle (browser up, no session): ${mib(scale.idlePss)}. Slope (least squares over the levels): **${mib(scale.slopePerSession)} per session**.`,
  );
  line();
  line('| live sessions | total PSS | processes | navigate p50 | navigate p95 | calls | errors |');
  line('|---|---|---|---|---|---|---|');
  for (const level of scale.levels) {
    line(
      `| ${level.sessions} | ${mib(level.pss)} | ${level.processes} | ${ms(level.navigate.median)} ms | ${ms(level.navigate.p95)} ms | ${level.navigate.n} | ${level.errors} |`,
    );
  }
  line();
}

function renderBurst(burst: BurstResult, line: Line): void {
  line('## Burst: a thousand sessions at once');
  line();
  line(
    `One sessionwright process (\`--max-sessions ${burst.sessions + 10}\`, \`--call-timeout ${burst.callLimitMs ?? 600_000}\`), measured ${burst.date.slice(0, 16).replace('T', ' ')} UTC (1-minute load average ${burst.load.toFixed(2)} at its start). Each phase sends every call at once; navigate is given a 300 s timeout because a thousand page loads share two cores. Per-call figures in ms: median (p95).`,
  );
  line();
  line('| phase | calls | wall time | per call | errors |');
  line('|---|---|---|---|---|');
  const row = (name: string, phase: BurstResult['open']) =>
    line(`| ${name} | ${phase.calls.n} | ${(phase.wallMs / 1000).toFixed(1)} s | ${ms(phase.calls.median)} (${ms(phase.calls.p95)}) | ${phase.errors} |`);
  row('create_session + navigate, each session', burst.open);
  row('navigate every open session', burst.navigate);
  row('close_session every session', burst.close);
  line();
  line(
    `PSS: idle ${mib(burst.idlePss)} (${burst.idleProcesses} processes); peak ${mib(burst.peakPss)} (${burst.peakProcesses} processes); right after the last close ${mib(burst.closedPss)} (${burst.closedProcesses} processes${burst.recycledDuringClose ? '; taken after the recycle, which began before the last close was answered' : ''}); after the idle browser was recycled ${burst.recycled ? '' : '(**no recycle seen**) '}${mib(burst.recycledPss)} (${burst.recycledProcesses} processes${burst.settledMs === undefined ? '' : `; every replaced browser closed ${(burst.settledMs / 1000).toFixed(0)} s after the last close`}).`,
  );
  line(
    `create_session latency, ms: on the fresh server ${burst.createBefore.map(ms).join(', ')}; right after the recycle ${burst.createAfterRecycle.map(ms).join(', ')}${burst.createAfterRecycleInServer ? ` (in the server: ${burst.createAfterRecycleInServer.map(ms).join(', ')})` : ''}.`,
  );
  line();
}

function renderSoak(soak: SoakResult, line: Line): void {
  line('## Soak: steady churn for a long time');
  line();
  line(
    `Its own run (\`--sections soak\`), ${soak.date.slice(0, 16).replace('T', ' ')} UTC, 1-minute load average ${soak.load.toFixed(2)} at its start: **${soak.minutes} minutes**, ${soak.workers} workers each repeating create_session, navigate, click, type (clear: true every other cycle), snapshot, close_session on one sessionwright process (\`--max-sessions 20\`). PSS of the server and its browser tree sampled every 5 s; the first ${soak.warmupSeconds >= 60 ? `${Math.round(soak.warmupSeconds / 60)} min` : `${Math.round(soak.warmupSeconds)} s`} are warm-up, left out of the drift, which compares the median of the first and the last tenth of the rest.`,
  );
  line();
  line('| | |');
  line('|---|---|');
  line(`| cycles, errors | ${soak.cycles}, ${soak.errors} |`);
  line(`| per cycle, ms: median (p95) | ${ms(summarize(soak.cycleMs).median)} (${ms(summarize(soak.cycleMs).p95)}) |`);
  line(`| idle (browser up, warm pool filled, no session) | ${mib(soak.idlePss)}, ${soak.idleProcesses} processes |`);
  line(
    `| after warm-up: first tenth → last tenth | ${mib(soak.earlyPss)} → ${mib(soak.latePss)} (${(soak.drift * 100).toFixed(1)} %; slope ${(soak.slopePerMinute / 2 ** 20).toFixed(2)} MiB/min) |`,
  );
  line(`| every session closed | ${soak.openAfter} sessions listed, ${mib(soak.closedPss)}, ${soak.leakedProcesses} processes over idle |`);
  line(
    `| after the idle browser was recycled | ${soak.recycled ? '' : '**no recycle seen**, '}${mib(soak.recycledPss)}, ${soak.recycledProcesses} processes |`,
  );
  line(
    `| create_session latency, ms: fresh server / right after the recycle | ${soak.createBefore.map(ms).join(', ')} / ${soak.createAfterRecycle.map(ms).join(', ')} |`,
  );
  line();
}

function renderTokens(tokens: TokenResult, line: Line): void {
  line('## Snapshot size');
  line();
  if (!tokens.available) {
    line('Skipped: this build of sessionwright has no `snapshot` tool yet.');
    line();
    return;
  }
  line('Characters of all text in the result (what the model reads; about 4 characters per token), same pages, after navigating there.');
  line();
  line('| page | sessionwright `snapshot` | @playwright/mcp `browser_snapshot` | ratio |');
  line('|---|---|---|---|');
  for (const page of tokens.pages) {
    const cut = page.truncated ? ' (cut at its default maxChars, with a note)' : '';
    line(`| ${page.page} | ${page.sessionwright}${cut} | ${page.playwrightMcp} | ${ratio(page.ratio)} |`);
  }
  const ours = tokens.pages.reduce((a, page) => a + page.sessionwright, 0);
  const theirs = tokens.pages.reduce((a, page) => a + page.playwrightMcp, 0);
  line(`| **all** | ${ours} | ${theirs} | ${ratio(ours / theirs)} |`);
  line();
  if (tokens.examples) {
    line(`<details><summary>Both snapshots of ${tokens.examples.page}</summary>`);
    line();
    line('sessionwright:');
    line();
    line('````');
    line(tokens.examples.sessionwright);
    line('````');
    line();
    line('@playwright/mcp:');
    line();
    line('````');
    line(tokens.examples.playwrightMcp);
    line('````');
    line();
    line('</details>');
    line();
  }
}
