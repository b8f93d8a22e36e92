// Saved states and forks: save_state and create_session {state} against raw storageState() + newContext({storageState}), and fork_session {count: 5} against five fresh sign-ins, interleaved.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright';
import { type BenchContext, interleave, type Step } from './context.js';
import { Samples, summarize } from './stats.js';
import { connectStdio, jsonOf, sessionwrightArgs, timedCall, type Connection } from './systems.js';

export interface StatesResult {
  /** Milliseconds per step, keyed `save`, `rawSave`, `start`, `rawStart`, `fork5`, `signIn5`. */
  samples: Record<string, number[]>;
  date: string;
  load: number;
}

/** Forks and five sign-ins open ten sessions a round: fewer rounds than the one-call figures. */
const FORK_ROUNDS_MAX = 10;

export async function runStates(ctx: BenchContext): Promise<StatesResult> {
  const samples = new Samples();
  const load = os.loadavg()[0] ?? Number.NaN;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sessionwright-bench-states-'));
  const sw: Connection = (
    await connectStdio(sessionwrightArgs(ctx.executable, ['--caps', 'states', '--data-dir', dataDir, '--state-key', 'bench-state-key-0123456789abcdef']))
  ).connection;
  const raw = await chromium.launch({ executablePath: ctx.executable, headless: true });
  const call = async (name: string, args: Record<string, unknown> = {}) => timedCall(sw.client, name, args);
  const signIn = async (user: string): Promise<string> => {
    const sessionId = String(jsonOf(await call('create_session')).sessionId);
    await call('navigate', { sessionId, url: ctx.fixture.urlFor('/login') });
    await call('type', { sessionId, selector: '#user', text: user });
    await call('click', { sessionId, selector: '#sign-in' });
    return sessionId;
  };
  try {
    // One signed-in session of each kind, with some localStorage beside the cookie.
    const source = await signIn('bench');
    await call('evaluate', { sessionId: source, function: '() => { for (let i = 0; i < 20; i++) localStorage.setItem("k" + i, "v".repeat(200)); }' });
    await call('navigate', { sessionId: source, url: ctx.fixture.urlFor('/account') });
    const rawContext = await raw.newContext();
    const rawPage = await rawContext.newPage();
    await rawPage.goto(ctx.fixture.urlFor('/sign-in?user=bench'));
    await rawPage.evaluate(() => {
      for (let i = 0; i < 20; i++) localStorage.setItem(`k${i}`, 'v'.repeat(200));
    });
    let rawState = await rawContext.storageState({ indexedDB: true });
    await call('save_state', { sessionId: source, name: 'bench' });

    const steps: Array<[string, Step]> = [
      ['save', async (record, name) => record?.add(name, (await call('save_state', { sessionId: source, name: 'bench' })).ms)],
      [
        'rawSave',
        async (record, name) => {
          const t = performance.now();
          rawState = await rawContext.storageState({ indexedDB: true });
          record?.add(name, performance.now() - t);
        },
      ],
      [
        'start',
        async (record, name) => {
          const created = await call('create_session', { state: 'bench' });
          record?.add(name, created.ms);
          await call('close_session', { sessionId: String(jsonOf(created).sessionId) });
        },
      ],
      [
        'rawStart',
        async (record, name) => {
          const t = performance.now();
          const context: BrowserContext = await raw.newContext({ storageState: rawState });
          await context.newPage();
          record?.add(name, performance.now() - t);
          await context.close();
        },
      ],
    ];
    await interleave(ctx, 'states', steps, samples, { rounds: ctx.config.warmup + ctx.config.iterations, warmup: ctx.config.warmup, logEvery: 10 });

    const forkSteps: Array<[string, Step]> = [
      [
        'fork5',
        async (record, name) => {
          const forked = await call('fork_session', { sessionId: source, count: 5 });
          record?.add(name, forked.ms);
          const copies = (jsonOf(forked).sessions as { sessionId: string }[]).map((copy) => copy.sessionId);
          await Promise.all(copies.map((sessionId) => call('close_session', { sessionId })));
        },
      ],
      [
        'signIn5',
        async (record, name) => {
          const t = performance.now();
          const ids = await Promise.all(
            [0, 1, 2, 3, 4].map(async (n) => {
              const sessionId = await signIn(`bench-${n}`);
              await call('navigate', { sessionId, url: ctx.fixture.urlFor('/account') });
              return sessionId;
            }),
          );
          record?.add(name, performance.now() - t);
          await Promise.all(ids.map((sessionId) => call('close_session', { sessionId })));
        },
      ],
    ];
    await interleave(ctx, 'states', forkSteps, samples, { rounds: 1 + Math.min(FORK_ROUNDS_MAX, ctx.config.iterations), warmup: 1 });
    await rawContext.close();
    const figures = samples.toJSON();
    for (const [name, values] of Object.entries(figures)) {
      const summary = summarize(values);
      ctx.log(`states: ${name} median ${summary.median.toFixed(1)} ms, p95 ${summary.p95.toFixed(1)} ms (n=${summary.n})`);
    }
    return { samples: figures, date: new Date().toISOString(), load };
  } finally {
    await Promise.all([sw.close(), raw.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
