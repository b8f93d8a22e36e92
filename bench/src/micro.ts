// Per-call latency, interleaved: raw Playwright, sessionwright (warm pool on, and off) and @playwright/mcp on the same page.
import { chromium, type Browser, type Page } from 'playwright';
import { rotate, type BenchContext } from './context.js';
import { Samples } from './stats.js';
import { connectStdio, jsonOf, playwrightMcpArgs, sessionwrightArgs, timedCall, type Connection } from './systems.js';

export interface MicroResult {
  /**
   * Milliseconds per call, keyed `system.operation`. `raw`, `sw` and `pw` are the steady state: each system keeps one
   * page (one session) across iterations, as an agent does during a task. `rawFresh` and `swFresh` are the first calls
   * in a context opened for the iteration (a new renderer process). `*.create` / `*.close` open and close one.
   */
  samples: Record<string, number[]>;
  /** Length of the text a model reads from each call's result, keyed the same way. */
  responseChars: Record<string, number[]>;
  /** Whether sessionwright lists a `snapshot` tool (the figure is skipped when it doesn't). */
  snapshotTool: boolean;
}

const TYPED = 'hello';
const SETTLE_BETWEEN_SYSTEMS_MS = 200;

type Record_ = (operation: string, timed: { ms: number; text: string }) => void;

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
    // Every system's long-lived page; @playwright/mcp launches its browser on the first call.
    const rawPage = await (await raw.newContext()).newPage();
    const swSession = String(jsonOf(await timedCall(sw.client, 'create_session')).sessionId);
    await timedCall(pw.client, 'browser_navigate', { url: ctx.appUrl(-1) });
    await waitForWarmPool();

    const recorder =
      (system: string, record: boolean): Record_ =>
      (operation, timed) => {
        if (!record) return;
        samples.add(`${system}.${operation}`, timed.ms);
        if (system === 'sw' || system === 'pw') chars.add(`${system}.${operation}`, timed.text.length);
      };
    const steps: Array<[string, (record: boolean, i: number) => Promise<void>]> = [
      [
        'raw',
        async (record, i) => {
          await rawCalls(ctx, rawPage, i, recorder('raw', record));
          await rawFresh(ctx, raw, i, recorder('rawFresh', record), recorder('raw', record));
        },
      ],
      [
        'sw',
        async (record, i) => {
          await swCalls(ctx, sw, swSession, i, snapshotTool, recorder('sw', record));
          await swFresh(ctx, sw, i, snapshotTool, recorder('swFresh', record), recorder('sw', record));
        },
      ],
      ['swNoPool', async (record) => swOpenClose(swNoPool, recorder('swNoPool', record))],
      ['pw', async (record, i) => pwCalls(ctx, pw, i, recorder('pw', record))],
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

/** Times `fn` as a call whose result text is not counted. */
async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  await fn();
  return { ms: performance.now() - started, text: '' };
}

/** navigate, click, fill on a page; `navigateTitle` adds the title read that sessionwright's navigate answers with. */
async function rawCalls(ctx: BenchContext, page: Page, i: number, record: Record_): Promise<void> {
  const started = performance.now();
  record('navigate', await timed(() => page.goto(ctx.appUrl(i))));
  await page.title();
  record('navigateTitle', { ms: performance.now() - started, text: '' });
  record('click', await timed(() => page.click('#inc')));
  record('type', await timed(() => page.fill('#note', TYPED)));
  if ((await page.textContent('#count')) !== '1') throw new Error('raw: the click did not count');
}

async function rawFresh(ctx: BenchContext, browser: Browser, i: number, record: Record_, openClose: Record_): Promise<void> {
  let page: Page | undefined;
  openClose(
    'create',
    await timed(async () => {
      page = await (await browser.newContext()).newPage();
    }),
  );
  if (!page) return;
  const opened = page;
  try {
    await rawCalls(ctx, opened, i, record);
  } finally {
    openClose('close', await timed(() => opened.context().close()));
  }
}

/** navigate, click, type, type with clear, snapshot in one session. */
async function swCalls(ctx: BenchContext, { client }: Connection, sessionId: string, i: number, snapshotTool: boolean, record: Record_) {
  record('navigate', await timedCall(client, 'navigate', { sessionId, url: ctx.appUrl(i) }));
  record('click', await timedCall(client, 'click', { sessionId, selector: '#inc' }));
  const typed = await timedCall(client, 'type', { sessionId, selector: '#note', text: TYPED });
  record('type', typed);
  if (jsonOf(typed).value !== TYPED) throw new Error(`sessionwright: type answered value ${String(jsonOf(typed).value)}`);
  // The same field again, emptied first: what @playwright/mcp's browser_type (a fill) always does.
  const cleared = await timedCall(client, 'type', { sessionId, selector: '#note', text: TYPED, clear: true });
  record('typeClear', cleared);
  if (jsonOf(cleared).value !== TYPED) throw new Error(`sessionwright: type with clear answered value ${String(jsonOf(cleared).value)}`);
  if (snapshotTool) {
    const snapshot = await timedCall(client, 'snapshot', { sessionId });
    record('snapshot', snapshot);
    if (!snapshot.text.includes('Count')) throw new Error('sessionwright: the snapshot misses the page text');
  }
}

/** A session opened for the iteration: create, the calls, close. */
async function swFresh(ctx: BenchContext, connection: Connection, i: number, snapshotTool: boolean, record: Record_, openClose: Record_) {
  const created = await timedCall(connection.client, 'create_session');
  openClose('create', created);
  const sessionId = String(jsonOf(created).sessionId);
  try {
    await swCalls(ctx, connection, sessionId, i, snapshotTool, record);
  } finally {
    openClose('close', await timedCall(connection.client, 'close_session', { sessionId }));
  }
}

async function swOpenClose({ client }: Connection, record: Record_): Promise<void> {
  const created = await timedCall(client, 'create_session');
  record('create', created);
  record('close', await timedCall(client, 'close_session', { sessionId: String(jsonOf(created).sessionId) }));
}

async function pwCalls(ctx: BenchContext, { client }: Connection, i: number, record: Record_): Promise<void> {
  record('navigate', await timedCall(client, 'browser_navigate', { url: ctx.appUrl(i) }));
  record('click', await timedCall(client, 'browser_click', { element: 'Increment button', target: '#inc' }));
  record('type', await timedCall(client, 'browser_type', { element: 'Note input', target: '#note', text: TYPED }));
  const snapshot = await timedCall(client, 'browser_snapshot', {});
  record('snapshot', snapshot);
  if (!snapshot.text.includes('Count')) throw new Error('pw: the snapshot misses the page text');
}
