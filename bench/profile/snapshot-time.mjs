// Profile of one snapshot call: sessionwright's snapshot and @playwright/mcp's browser_snapshot seen by their MCP
// clients (interleaved, same page), sessionwright's handler time as it logs it (--verbose), a list_sessions round trip
// (the stdio hop), and in-process the pieces: Playwright's aria snapshot, the title, JSON of the result.
// Run after `pnpm build`: node bench/profile/snapshot-time.mjs [iterations]
import { startFixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';
import { executable, startBoth, timings } from './servers.mjs';

const fixture = await startFixtureServer();
const { sw, pw, stderr, close } = await startBoth({ swArgs: ['--verbose'] });
// As the bench's clients do, so that results are checked against the tools' output schemas.
await Promise.all([sw.listTools(), pw.listTools()]);
const url = fixture.urlFor('/pages/form');
const sessionId = JSON.parse((await sw.callTool({ name: 'create_session', arguments: {} })).content[0].text).sessionId;
await sw.callTool({ name: 'navigate', arguments: { sessionId, url } });
await pw.callTool({ name: 'browser_navigate', arguments: { url } });
const browser = await chromium.launch({ executablePath: executable });
const page = await (await browser.newContext()).newPage();
await page.goto(url);

const { samples, time, print } = timings();
const iterations = Number(process.argv[2] ?? 20);
for (let i = 0; i < iterations; i += 1) {
  const order = i % 2 ? ['sw', 'pw'] : ['pw', 'sw'];
  for (const system of order) {
    if (system === 'sw') await time('sessionwright snapshot, seen by the client', () => sw.callTool({ name: 'snapshot', arguments: { sessionId } }));
    else await time('@playwright/mcp browser_snapshot, seen by the client', () => pw.callTool({ name: 'browser_snapshot', arguments: {} }));
  }
  await time('sessionwright list_sessions round trip', () => sw.callTool({ name: 'list_sessions', arguments: {} }));
  const text = await time('in-process: page.ariaSnapshot({ mode: "ai" })', () => page.ariaSnapshot({ mode: 'ai' }));
  await time('in-process: page.title()', () => page.title());
  await time('in-process: JSON.stringify of the result twice', async () =>
    JSON.stringify({ a: JSON.stringify({ snapshot: text, url, title: 'x' }), b: { snapshot: text } }),
  );
}
samples['sessionwright snapshot, handler time (its log)'] = [...stderr().matchAll(/snapshot ok in (\d+) ms/g)].map((match) => Number(match[1]));
print();
await close();
await browser.close();
await fixture.close();
