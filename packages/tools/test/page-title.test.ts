// The title read's way to the browser process: straight to Playwright's server-side session where it runs in this
// process (the pinned Playwright), through the public API where it does not, and the same answer either way.
import { resolveExecutable } from '@sessionwright/session-core';
import { type Browser, type CDPSession, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { directSend, readTitle } from '../src/page-title.js';

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: resolveExecutable({ browser: 'chromium', headless: true }).executablePath, headless: true });
});

afterAll(async () => {
  await browser?.close();
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
