// Profile of typing into a field, in-process (no MCP): raw fill(), a step per round trip (editable, visible, caret,
// insert, read back, title), and shapes of fewer round trips. Each on a fresh page, systems interleaved.
// Run after `pnpm build`: node bench/profile/type.mjs [iterations]
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';

const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const html = `<!doctype html><title>Bench app</title><h1>Orders</h1><button id="inc">Increment</button><input id="note">`;
const fixture = await startFixtureServer({ pages: { app: html } });
const browser = await chromium.launch({ executablePath: executable });
const TEXT = 'hello';
const prepare = (element) => {
  if (element === document.activeElement) return 'ready';
  element.focus();
  const end = element.value.length;
  element.setSelectionRange(end, end);
  return 'ready';
};
const readBack = (element) => ({ value: element.value, title: document.title });
const ways = {
  'raw fill': async (page) => page.locator('#note').fill(TEXT),
  'one round trip per step': async (page) => {
    const locator = page.locator('#note');
    await locator.isEditable({ timeout: 5000 });
    await locator.waitFor({ state: 'visible', timeout: 5000 });
    await locator.evaluate(prepare);
    await page.keyboard.insertText(TEXT);
    await locator.evaluate((e) => e.value);
    await page.title();
  },
  'locator.evaluate ×2 + insertText': async (page) => {
    const locator = page.locator('#note');
    await locator.evaluate(prepare, undefined, { timeout: 5000 });
    await page.keyboard.insertText(TEXT);
    await locator.evaluate(readBack);
  },
  'elementHandle + 2 evaluates + insertText': async (page) => {
    const handle = await page.locator('#note').elementHandle({ timeout: 5000 });
    await handle.evaluate(prepare);
    await page.keyboard.insertText(TEXT);
    await handle.evaluate(readBack);
    void handle.dispose();
  },
  'locator.evaluate + insertText, readback by page.evaluate': async (page) => {
    const locator = page.locator('#note');
    await locator.evaluate(prepare, undefined, { timeout: 5000 });
    await page.keyboard.insertText(TEXT);
    await page.evaluate(() => ({ value: document.activeElement?.value, title: document.title }));
  },
};
const samples = {};
const iterations = Number(process.argv[2] ?? 10);
for (let i = 0; i < iterations; i += 1) {
  const names = Object.keys(ways);
  for (let k = 0; k < names.length; k += 1) {
    const name = names[(k + i) % names.length];
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(fixture.urlFor(`/pages/app?i=${i}${k}`));
    await page.title();
    const t0 = performance.now();
    await ways[name](page);
    samples[name] ??= [];
    samples[name].push(performance.now() - t0);
    if ((await page.inputValue('#note')) !== TEXT) console.log(name, 'typed wrong');
    await context.close();
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, values] of Object.entries(samples))
  console.log(`${name.padEnd(58)} ${median(values).toFixed(1).padStart(6)} ms (median of ${values.length})`);
await browser.close();
await fixture.close();
