// What a session with identity options costs to create, next to one from the warm pool and raw newContext(options), interleaved.
import os from 'node:os';
import { chromium, devices } from 'playwright';
import { type BenchContext, interleave, type Step } from './context.js';
import { Samples } from './stats.js';
import { connectStdio, jsonOf, sessionwrightArgs, timedCall } from './systems.js';

export interface OptionsResult {
  /** Milliseconds per create, keyed `pool`, `options`, `blocking`, `raw`. */
  samples: Record<string, number[]>;
  /** When this section ran (it can be run on its own and merged into a full run's figures). */
  date: string;
  /** The 1-minute load average when it started. */
  load: number;
}

/** A typical "dressed" session: a device, a language, a place, a colour scheme. */
export const DRESSED = { device: 'Pixel 7', locale: 'de-DE', timezoneId: 'Europe/Berlin', colorScheme: 'dark' } as const;
const SETTLE_BETWEEN_CREATES_MS = 200;

export async function runOptions(ctx: BenchContext): Promise<OptionsResult> {
  const samples = new Samples();
  const load = os.loadavg()[0] ?? Number.NaN;
  const sw = (await connectStdio(sessionwrightArgs(ctx.executable))).connection;
  const raw = await chromium.launch({ executablePath: ctx.executable, headless: true });
  const device = devices[DRESSED.device];
  try {
    // The first create waits for the browser; the pause lets the warm pool fill before timing.
    const first = await timedCall(sw.client, 'create_session');
    await timedCall(sw.client, 'close_session', { sessionId: String(jsonOf(first).sessionId) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const swCreate = (args: Record<string, unknown>) => async (record: Samples | undefined, name: string) => {
      const created = await timedCall(sw.client, 'create_session', args);
      record?.add(name, created.ms);
      await timedCall(sw.client, 'close_session', { sessionId: String(jsonOf(created).sessionId) });
    };
    const steps: Array<[string, Step]> = [
      ['pool', swCreate({})],
      ['options', swCreate({ ...DRESSED })],
      ['blocking', swCreate({ ...DRESSED, blockResources: ['image', 'font'] })],
      [
        'raw',
        async (record, name) => {
          const t = performance.now();
          const context = await raw.newContext({ ...device, locale: DRESSED.locale, timezoneId: DRESSED.timezoneId, colorScheme: DRESSED.colorScheme });
          await context.newPage();
          record?.add(name, performance.now() - t);
          await context.close();
        },
      ],
    ];
    // The pool refills between creates, as it would while an agent thinks.
    await interleave(ctx, 'options', steps, samples, {
      rounds: ctx.config.warmup + ctx.config.iterations,
      warmup: ctx.config.warmup,
      logEvery: 5,
      between: () => new Promise((resolve) => setTimeout(resolve, SETTLE_BETWEEN_CREATES_MS)),
    });
    return { samples: samples.toJSON(), date: new Date().toISOString(), load };
  } finally {
    await Promise.all([sw.close(), raw.close()]);
  }
}
