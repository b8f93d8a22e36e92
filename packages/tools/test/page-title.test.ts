// The title read's way to the browser process: straight to Playwright's server-side session where it runs in this
// process (the pinned Playwright), through the public API where it does not, and the same answer either way.
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { type FixtureServer, startFixtureServer } from '@sessionwright/test-kit';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { directSend, prepareTitle, readTitle, titleAtLoad } from '../src/page/title.js';

let browser: Browser;
let fixture: FixtureServer;

beforeAll(async () => {
  fixture = await startFixtureServer({
    pages: { 'titled-at-load': `<title>Before</title><script>addEventListener('load', () => { document.title = 'Set at load'; })</script>` },
  });
  browser = await chromium.launch({ executablePath: resolveExecutable({ browser: 'chromium', headless: true }).executablePath, headless: true });
});

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

async function titledPage(title: string) {
  const page = await browser.newPage();
  await page.setContent(`<title>${title}</title><p>x</p>`);
  const session = await page.context().newCDPSession(page);
  const { targetInfo } = await session.send('Target.getTargetInfo');
  await session.detach();
  return { page, targetId: targetInfo.targetId };
}

describe('directSend', () => {
  it('asks the browser without the public send, with the Playwright this package pins', async () => {
    const { page, targetId } = await titledPage('Straight through');
    const cdp = await browser.newBrowserCDPSession();
    const publicSend = vi.spyOn(cdp, 'send');
    const { targetInfo } = await directSend(cdp)('Target.getTargetInfo', { targetId });
    expect(targetInfo.title).toBe('Straight through');
    // A Playwright upgrade that moves the internals lands here: the read still works, through the public API.
    expect(publicSend).not.toHaveBeenCalled();
    await page.close();
  });

  it('uses the public send where the server-side session cannot be reached', async () => {
    const { page, targetId } = await titledPage('Through the API');
    const cdp = await browser.newBrowserCDPSession();
    // What a Playwright server reached over the wire looks like: a client object with no server-side twin here.
    const remote = Object.create(cdp, { _connection: { value: {} } }) as CDPSession;
    const publicSend = vi.spyOn(cdp, 'send');
    const { targetInfo } = await directSend(remote)('Target.getTargetInfo', { targetId });
    expect(targetInfo.title).toBe('Through the API');
    expect(publicSend).toHaveBeenCalledTimes(1);
    await page.close();
  });

  it('fails like the public send once the browser session is gone, so readTitle falls back to the page', async () => {
    const { page, targetId } = await titledPage('Asked of the page');
    const cdp = await browser.newBrowserCDPSession();
    const send = directSend(cdp);
    await cdp.detach();
    await expect(send('Target.getTargetInfo', { targetId })).rejects.toThrow();
    expect(await readTitle(page)).toBe('Asked of the page');
    await page.close();
  });
});

describe('titleAtLoad', () => {
  /** A page whose target the browser process has been asked for already, as every tool's response builder does. */
  async function preparedPage(): Promise<Page> {
    const page = await browser.newPage();
    prepareTitle(page);
    await readTitle(page);
    return page;
  }

  it("reads the title as Playwright's server side sees the load, a title the load handler set included", async () => {
    const page = await preparedPage();
    const atLoad = titleAtLoad(page);
    await page.goto(fixture.urlFor('/pages/titled-at-load'));
    atLoad.stop();
    // Undefined here means the pinned Playwright no longer offers the internals: navigate then reads after goto().
    const title = atLoad.title();
    expect(title).toBeInstanceOf(Promise);
    expect(await title).toBe('Set at load');
    await page.close();
  });

  it('does not count the load of the document that was there before, only one after a new commit', async () => {
    const page = await preparedPage();
    await page.goto(fixture.urlFor('/pages/slow-image'), { waitUntil: 'commit' });
    const atLoad = titleAtLoad(page);
    await page.waitForLoadState('load');
    atLoad.stop();
    expect(atLoad.title()).toBeUndefined();
    await page.close();
  });

  it('reads again when the page has moved on since the load', async () => {
    const page = await preparedPage();
    const atLoad = titleAtLoad(page);
    await page.goto(fixture.urlFor('/pages/titled-at-load'));
    atLoad.stop();
    await page.goto(fixture.urlFor('/pages/home'));
    expect(await atLoad.title()).toBe('Home');
    await page.close();
  });

  it("starts no read before the page's target is found: one that left later could pair a new URL with an old title", async () => {
    const page = await browser.newPage();
    const atLoad = titleAtLoad(page);
    await page.goto(fixture.urlFor('/pages/titled-at-load'));
    atLoad.stop();
    expect(atLoad.title()).toBeUndefined();
    await page.close();
  });

  it("starts nothing where Playwright's server side is not in this process", async () => {
    const page = await preparedPage();
    const remoteFrame = Object.create(page.mainFrame(), { _connection: { value: {} } });
    const remote = Object.create(page, { mainFrame: { value: () => remoteFrame } }) as Page;
    const atLoad = titleAtLoad(remote);
    await page.goto(fixture.urlFor('/pages/titled-at-load'));
    atLoad.stop();
    expect(atLoad.title()).toBeUndefined();
    await page.close();
  });
});
