// Profile of the first snapshot of a document against a repeat: raw Playwright in-process after a click and a fill;
// sessionwright's snapshot after click + type (its first of the document) and once more; @playwright/mcp's
// browser_snapshot after browser_click + browser_type (each of which already answered with a snapshot) and once more.
// Run after `pnpm build`: node bench/profile/snapshot-first.mjs [iterations]
import { startFixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';
import { executable, startBoth, timings } from './servers.mjs';

const rows = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];
// The bench's app page (bench/src/pages.ts), inlined so that the script runs without the bench's build.
const app = `<!doctype html><html><head><meta charset="utf-8"><title>Bench app</title></head><body>
<header><nav><a href="/pages/home">Home</a> · <a href="/pages/form">Form</a> · <a href="/pages/list">List</a></nav></header>
<main><h1>Orders</h1><p>Press the button to count, and type a note. Nothing here navigates.</p>
<p><button id="inc" onclick="count.textContent = String(Number(count.textContent) + 1)">Increment</button> Count: <span id="count">0</span></p>
<p><label for="note">Note</label> <input id="note" name="note" placeholder="Write a note"></p>
<table><thead><tr><th>Name</th><th>Qty</th><th>Status</th></tr></thead><tbody>
${rows.map((name, i) => `<tr><td>${name}</td><td>${i + 1}</td><td>${i % 2 ? 'Shipped' : 'Pending'}</td></tr>`).join('\n')}
</tbody></table></main><footer><small>Fixture page served from 127.0.0.1</small></footer></body></html>`;
const fixture = await startFixtureServer({ pages: { app } });
const { sw, pw, close } = await startBoth();
const sessionId = JSON.parse((await sw.callTool({ name: 'create_session', arguments: {} })).content[0].text).sessionId;
const browser = await chromium.launch({ executablePath: executable });
const page = await (await browser.newContext()).newPage();

const { time, print } = timings();
const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
const iterations = Number(process.argv[2] ?? 20);
for (let i = 0; i < iterations; i += 1) {
  const url = fixture.urlFor(`/pages/app?${i}`);
  await pause();
  await page.goto(url);
  await page.click('#inc');
  await page.fill('#note', 'hello');
  await time('raw: first ariaSnapshot of the document', () => page.ariaSnapshot({ mode: 'ai' }));
  await time('raw: the same again', () => page.ariaSnapshot({ mode: 'ai' }));
  await pause();
  await sw.callTool({ name: 'navigate', arguments: { sessionId, url } });
  await sw.callTool({ name: 'click', arguments: { sessionId, selector: '#inc' } });
  await sw.callTool({ name: 'type', arguments: { sessionId, selector: '#note', text: 'hello' } });
  await time('sessionwright: snapshot (first of the document)', () => sw.callTool({ name: 'snapshot', arguments: { sessionId } }));
  await time('sessionwright: snapshot again', () => sw.callTool({ name: 'snapshot', arguments: { sessionId } }));
  await pause();
  await pw.callTool({ name: 'browser_navigate', arguments: { url } });
  await pw.callTool({ name: 'browser_click', arguments: { element: 'Increment button', target: '#inc' } });
  await pw.callTool({ name: 'browser_type', arguments: { element: 'Note input', target: '#note', text: 'hello' } });
  await time('@playwright/mcp: browser_snapshot (its fourth)', () => pw.callTool({ name: 'browser_snapshot', arguments: {} }));
  await time('@playwright/mcp: browser_snapshot again', () => pw.callTool({ name: 'browser_snapshot', arguments: {} }));
}
print();
await close();
await browser.close();
await fixture.close();
