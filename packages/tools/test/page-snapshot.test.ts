// The page snapshot's quick way (Playwright's injected script, YAML made in the page) against Playwright's public
// ariaSnapshot: the same text and refs on real pages, the public call wherever the quick way cannot answer.
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { type FixtureServer, startFixtureServer } from '@sessionwright/test-kit';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickSnapshot, readSnapshot, wholePage } from '../src/page/snapshot.js';

let browser: Browser;
let fixture: FixtureServer;

/** What the public call cannot get wrong and a shortcut might: shadow DOM, CSS content, hidden parts, focus, states. */
const tricky = `<!doctype html><title>Tricky</title>
<style>.tag::before { content: 'New: '; } .gone { display: none; }</style>
<main>
  <h1 class="tag">Offers</h1>
  <div id="host"></div>
  <p aria-hidden="true">Not for screen readers</p><p class="gone">Not shown</p>
  <ul><li><input type="checkbox" checked> Done</li><li><input type="checkbox"> Open</li></ul>
  <label>Search <input id="search" value="shoes"></label>
  <div role="dialog" aria-label="Cookies"><button>Accept</button><button disabled>Reject</button></div>
  <select><option>One</option><option selected>Two</option></select>
  <details open><summary>More</summary><a href="/pages/home">Home page</a></details>
</main>
<script>
  const root = document.getElementById('host').attachShadow({ mode: 'open' });
  root.innerHTML = '<button id="inner">In the shadow</button><slot></slot>';
  document.getElementById('search').focus();
</script>`;

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { tricky } });
  browser = await chromium.launch({ executablePath: resolveExecutable({ browser: 'chromium', headless: true }).executablePath, headless: true });
});

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

async function pageAt(name: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(fixture.urlFor(`/pages/${name}`));
  return page;
}

describe('quickSnapshot', () => {
  it.each(['tricky', 'home', 'form', 'buttons', 'list', 'choices', 'dialog', 'hover', 'drag', 'upload', 'long-list', 'big'])(
    'answers exactly what page.ariaSnapshot answers on the %s page, also with a depth',
    async (name) => {
      const page = await pageAt(name);
      const quick = await quickSnapshot(page, {});
      // Undefined here means the pinned Playwright no longer offers the internals: every snapshot takes the slow way.
      expect(quick).toBeTypeOf('string');
      expect(quick).toBe(await page.ariaSnapshot({ mode: 'ai' }));
      expect(await quickSnapshot(page, { depth: 2 })).toBe(await page.ariaSnapshot({ mode: 'ai', depth: 2 }));
      await page.close();
    },
  );

  it('sees inside shadow roots, and leaves refs that Playwright resolves', async () => {
    const page = await pageAt('tricky');
    const text = (await quickSnapshot(page, {})) ?? '';
    expect(text).toContain('button "In the shadow"');
    expect(text).toContain('heading "New: Offers"');
    expect(text).not.toContain('Not shown');
    const ref = /button "In the shadow" \[ref=(\w+)\]/.exec(text)?.[1];
    expect(await page.locator(`aria-ref=${ref}`).evaluate((element) => element.id)).toBe('inner');
    await page.close();
  });

  it('leaves a page with a frame to the public call, which walks into it', async () => {
    const page = await pageAt('iframe');
    await page.frameLocator('#frame').locator('body').waitFor();
    expect(await quickSnapshot(page, {})).toBeUndefined();
    const { snapshot } = await readSnapshot(page);
    expect(snapshot).toContain('button "Outer"');
    expect(snapshot).toContain('textbox "Name"');
    await page.close();
  });

  it('leaves it to the public call when an iframe is in the page before its frame is counted', async () => {
    const page = await pageAt('iframe');
    const counted = Object.create(page, { frames: { value: () => [page.mainFrame()] } }) as Page;
    expect(await quickSnapshot(counted, {})).toBeUndefined();
    await page.close();
  });

  it("leaves it to the public call where Playwright's server side is not in this process", async () => {
    const page = await pageAt('home');
    const main = page.mainFrame();
    const remoteFrame = Object.create(main, { _connection: { value: {} } });
    const remote = Object.create(page, { mainFrame: { value: () => remoteFrame } }) as Page;
    expect(await quickSnapshot(remote, {})).toBeUndefined();
    expect((await readSnapshot(remote)).snapshot).toContain('link');
    await page.close();
  });

  it('answers with a BROWSER_ERROR when the page is kept busy past the timeout, instead of waiting', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(fixture.urlFor('/pages/home'));
    await page.evaluate(() => {
      setTimeout(() => {
        for (;;);
      }, 0);
    });
    const started = Date.now();
    const error = await wholePage(page, { mode: 'ai', timeout: 1_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BROWSER_ERROR', details: { reason: 'unknown', timeout: 1_000 } });
    expect(Date.now() - started).toBeLessThan(10_000);
    await context.close();
  });
});
