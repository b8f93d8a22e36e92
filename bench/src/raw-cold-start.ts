// The least a Playwright user's own script does on a cold start: load Playwright, launch, open a context and a page, goto the
// URL given as the first argument, then print "ready"; the spawn section times it from spawn to that line.
import { chromium } from 'playwright';

const [url, executablePath] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath, headless: true });
const page = await (await browser.newContext()).newPage();
await page.goto(String(url));
process.stdout.write('ready\n');
await browser.close();
