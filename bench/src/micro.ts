// Per-call latency, interleaved: raw Playwright, sessionwright (warm pool on, and off) and @playwright/mcp on the same page.
import { chromium, type Browser } from 'playwright';
import { rotate, type BenchContext } from './context.js';
import { Samples } from './stats.js';
import { connectStdio, jsonOf, playwrightMcpArgs, sessionwrightArgs, timedCall, type Connection } from './systems.js';

export interface MicroResult {
  /** Milliseconds per call, keyed `system.operation`. */
  samples: Record<string, number[]>;
  /** Length of the text a model reads from each call's result, keyed the same way. */
  responseChars: Record<string, number[]>;
  /** Whether sessionwright lists a `snapshot` tool (the figure is skipped when it doesn't). */
  snapshotTool: boolean;
}

const TYPED = 'hello';
const SETTLE_BETWEEN_SYSTEMS_MS = 200;

export async function runMicro(ctx: BenchContext): Promise<MicroResult> {
  const samples = new Samples();
  const chars = new Samples();
  const raw = await chromium.launch({ executablePath: ctx.executable, headless: true });
  const sw = (await connectStdio(sessionwrightArgs(ctx.executable))).connection;
  const swNoPool = (await connectStdio(sessionwrightArgs(ctx.executable, ['--warm-sessions', '0']))).connection;
  const pw = (await connectStdio(playwrightMcpArgs(ctx.executable))).connection;
  try {
    const tools = await sw.client.listTools();
    const snapshotTool = tools.tools.some((tool) => tool.name === 'snapshot');
    // Both servers launch their browser before the measured loop: @playwright/mcp does it on the first call.
    await timedCall(pw.client, 'browser_navigate', { url: ctx.appUrl(-1) });
    await waitForWarmPool();

    const steps: Array<[string, (record: boolean, i: number) => Promise<void>]> = [
      ['raw', (record, i) => rawIteration(ctx, raw, i, record ? samples : undefined)],
      ['sw', (record, i) => swIteration(ctx, sw, i, snapshotTool, record ? samples : undefined, record ? chars : undefined, 'sw')],
      ['swNoPool', (record, i) => swIteration(ctx, swNoPool, i, snapshotTool, record ? samples : undefined, undefined, 'swNoPool')],
      ['pw', (record, i) => pwIteration(ctx, pw, i, record ? samples : undefined, record ? chars : undefined)],
    ];
    const total = ctx.config.warmup + ctx.config.iterations;
    for (let i = 0; i < total; i += 1) {
      const record = i >= ctx.config.warmup;
      for (const [system, step] of rotate(steps, i)) {
        try {
          await step(record, i);
        } catch (error) {
          ctx.error(system, error);
        }
        // A pause between systems, as an agent's thinking time would give: background work of one system (the warm
        // pool's refill, @playwright/mcp's settle timers) lands here instead of on the next system's figures.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_BETWEEN_SYSTEMS_MS));
      }
      if ((i + 1) % 5 === 0) ctx.log(`micro: ${i + 1}/${total}`);
    }
    return { samples: samples.toJSON(), responseChars: chars.toJSON(), snapshotTool };
  } finally {
    await Promise.all([raw.close(), sw.close(), swNoPool.close(), pw.close()]);
  }
}

/** The server fills its pool in the background after the browser starts; a short pause lets it finish before timing. */
async function waitForWarmPool(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

async function rawIteration(ctx: BenchContext, browser: Browser, i: number, samples: Samples | undefined): Promise<void> {
  let t = performance.now();
  const context = await browser.newContext();
  const page = await context.newPage();
  samples?.add('raw.create', performance.now() - t);
  try {
    t = performance.now();
    await page.goto(ctx.appUrl(i));
    samples?.add('raw.navigate', performance.now() - t);
    // What sessionwright's navigate answers with besides the load: the title (the first read after a load waits for the renderer).
    await page.title();
    samples?.add('raw.navigateTitle', performance.now() - t);
    t = performance.now();
    await page.click('#inc');
    samples?.add('raw.click', performance.now() - t);
    t = performance.now();
    await page.fill('#note', TYPED);
    samples?.add('raw.type', performance.now() - t);
    if ((await page.textContent('#count')) !== '1') throw new Error('raw: the click did not count');
  } finally {
    t = performance.now();
    await context.close();
    samples?.add('raw.close', performance.now() - t);
  }
}

async function swIteration(
  ctx: BenchContext,
  connection: Connection,
  i: number,
  snapshotTool: boolean,
  samples: Samples | undefined,
  chars: Samples | undefined,
  name: string,
): Promise<void> {
  const { client } = connection;
  const record = (operation: string, timed: { ms: number; text: string }) => {
    samples?.add(`${name}.${operation}`, timed.ms);
    chars?.add(`${name}.${operation}`, timed.text.length);
  };
  const created = await timedCall(client, 'create_session');
  record('create', created);
  const sessionId = String(jsonOf(created).sessionId);
  try {
    record('navigate', await timedCall(client, 'navigate', { sessionId, url: ctx.appUrl(i) }));
    record('click', await timedCall(client, 'click', { sessionId, selector: '#inc' }));
    const typed = await timedCall(client, 'type', { sessionId, selector: '#note', text: TYPED });
    record('type', typed);
    if (jsonOf(typed).value !== TYPED) throw new Error(`${name}: type answered value ${String(jsonOf(typed).value)}`);
    // The same field again, emptied first: what @playwright/mcp's browser_type (a fill) always does.
    const cleared = await timedCall(client, 'type', { sessionId, selector: '#note', text: TYPED, clear: true });
    record('typeClear', cleared);
    if (jsonOf(cleared).value !== TYPED) throw new Error(`${name}: type with clear answered value ${String(jsonOf(cleared).value)}`);
    if (snapshotTool) {
      const snapshot = await timedCall(client, 'snapshot', { sessionId });
      record('snapshot', snapshot);
      if (!snapshot.text.includes('Count')) throw new Error(`${name}: the snapshot misses the page text`);
    }
  } finally {
    record('close', await timedCall(client, 'close_session', { sessionId }));
  }
}

async function pwIteration(ctx: BenchContext, connection: Connection, i: number, samples: Samples | undefined, chars: Samples | undefined) {
  const { client } = connection;
  const record = (operation: string, timed: { ms: number; text: string }) => {
    samples?.add(`pw.${operation}`, timed.ms);
    chars?.add(`pw.${operation}`, timed.text.length);
  };
  record('navigate', await timedCall(client, 'browser_navigate', { url: ctx.appUrl(i) }));
  record('click', await timedCall(client, 'browser_click', { element: 'Increment button', target: '#inc' }));
  record('type', await timedCall(client, 'browser_type', { element: 'Note input', target: '#note', text: TYPED }));
  const snapshot = await timedCall(client, 'browser_snapshot', {});
  record('snapshot', snapshot);
  if (!snapshot.text.includes('Count')) throw new Error('pw: the snapshot misses the page text');
}
