// Profile of reading the title right after a load: Playwright's title() (utility world), a main-world evaluate,
// CDP Runtime.evaluate, and the browser process's Target.getTargetInfo. Each on a fresh page (open, goto, read).
// Run after `pnpm build`: node bench/profile/title.mjs [iterations]
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';

const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const page = `<!doctype html><title>Bench app</title><h1>Orders</h1><button id="inc">Increment</button><input id="note">`;
const fixture = await startFixtureServer({ pages: { app: page } });
const browser = await chromium.launch({ executablePath: executable });
const samples = {};
const add = (name, ms) => {
  samples[name] ??= [];
  samples[name].push(ms);
};
const ways = {
  'goto only': async () => '',
  'page.title()': (p) => p.title(),
  'page.evaluate(document.title)': (p) => p.evaluate(() => document.title),
  'cdp Target.getTargetInfo': async (_page, cdp) => (await cdp.send('Target.getTargetInfo')).targetInfo.title,
  'cdp Runtime.evaluate': async (_page, cdp) => (await cdp.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true })).result.value,
};
const iterations = Number(process.argv[2] ?? 10);
for (let i = 0; i < iterations; i += 1) {
  const names = Object.keys(ways);
  for (let k = 0; k < names.length; k += 1) {
    const name = names[(k + i) % names.length];
    const context = await browser.newContext();
    const p = await context.newPage();
    const cdp = await context.newCDPSession(p);
    const t0 = performance.now();
    await p.goto(fixture.urlFor(`/pages/app?i=${i}${k}`));
    const t1 = performance.now();
    const title = await ways[name](p, cdp);
    add(name, performance.now() - t0);
    add(`${name} (the read alone)`, performance.now() - t1);
    if (name !== 'goto only' && title !== 'Bench app') console.log(name, 'answered', title);
    await context.close();
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(samples))
  console.log(`${name.padEnd(50)} ${median(values).toFixed(1).padStart(6)} ms (median of ${values.length})`);
await browser.close();
await fixture.close();
