// Playwright failures mapped to error codes against a real page: by asking the page what is true, not by reading the message.
import { createServer } from 'node:net';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import type { BrowserContext, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionError } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import { locate } from '../src/page/actions.js';
import { describeTarget, type ElementAction, type ElementTarget } from '../src/page/element.js';
import { navigationError, toolError } from '../src/framework/errors.js';
import { elementError } from '../src/page/errors.js';

const EXTRAS = `<!doctype html><html><head><title>Extras</title>
<style>
  @keyframes slide { from { left: 0 } to { left: 300px } }
  #mover { position: absolute; top: 100px; animation: slide 0.3s linear infinite alternate; }
</style></head><body>
<input id="hidden-input" style="display:none">
<button id="fine">Fine</button>
<button id="mover">Moving</button>
</body></html>`;

let host: BrowserHost;
let server: FixtureServer;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  server = await startFixtureServer({ pages: { extras: EXTRAS } });
  host = new BrowserHost({ headless: true }).start();
  context = await (await host.browser()).newContext();
  page = await context.newPage();
});
afterAll(async () => {
  await host.close();
  await server.close();
});

/** Runs an action that must fail and maps its error the way a tool would. */
async function mapped(target: ElementTarget, action: ElementAction, perform: (locator: Locator) => Promise<unknown>, timeout = 500) {
  const locator = locate(page, target);
  const thrown = await perform(locator).then(
    () => new Error('the action unexpectedly succeeded'),
    (error: unknown) => error,
  );
  return elementError(thrown, locator, { action, target, timeout });
}

const click = (locator: Locator) => locator.click({ timeout: 500 });
const fill = (locator: Locator) => locator.fill('text', { timeout: 500 });
describe('browser messages', () => {
  it("leave out the terminal's colour codes and Playwright's call log, from a real Playwright failure", async () => {
    const thrown = await page.goto(server.urlFor('/hang'), { timeout: 300 }).then(
      () => new Error('the navigation unexpectedly succeeded'),
      (error: unknown) => error,
    );
    // What Playwright wrote: its call log, its lines dimmed for a terminal.
    const raw = thrown instanceof Error ? thrown.message : String(thrown);
    expect(raw).toContain('Call log:');
    const dimmed = `${raw}\n\u001b[2m  - waiting for the page\u001b[22m`;
    for (const error of [toolError(thrown), toolError(new Error(dimmed)), toolError(new Error('\u001b[31mred\u001b[39m failure\nCall log:\n  - more'))]) {
      const said = JSON.stringify(error.toJSON());
      expect(said).not.toContain('\\u001b');
      expect(said).not.toContain('Call log');
      expect(said).not.toMatch(/\[2m|\[22m/);
    }
    expect(toolError(new Error('\u001b[31mred\u001b[39m failure\nCall log:\n  - more')).details?.browserMessage).toBe('red failure');
    expect(messageOf(new Error(dimmed))).toBe(messageOf(thrown));
  });
});

describe('elementError against a real page', () => {
  describe('on the buttons page', () => {
    beforeAll(async () => {
      await page.goto(server.urlFor('/pages/buttons'));
    });

    it('maps a selector that matches nothing to ELEMENT_NOT_FOUND', async () => {
      const error = await mapped({ selector: '#nope' }, 'click', click);
      expect(error.code).toBe('ELEMENT_NOT_FOUND');
      expect(error.details).toEqual({ selector: '#nope', timeout: 500, next: 'new_snapshot' });
      expect(error.message).toContain('within 500 ms');
    });

    it('maps several matches to ELEMENT_AMBIGUOUS with the count and the first matches', async () => {
      const error = await mapped({ selector: '.dup' }, 'click', click);
      expect(error.code).toBe('ELEMENT_AMBIGUOUS');
      expect(error.details).toMatchObject({ selector: '.dup', count: 3, matches: ['<button> "Same"', '<button> "Same"', '<button> "Same"'] });
    });

    it('maps a hidden element to ELEMENT_NOT_CLICKABLE, reason hidden', async () => {
      const error = await mapped({ selector: '#hidden' }, 'click', click);
      expect(error.code).toBe('ELEMENT_NOT_CLICKABLE');
      expect(error.details).toMatchObject({ selector: '#hidden', reason: 'hidden', element: '<button#hidden> "Hidden"' });
      expect(typeof error.details?.browserMessage).toBe('string');
    });

    it('maps a disabled button to ELEMENT_NOT_CLICKABLE, reason disabled', async () => {
      const error = await mapped({ selector: '#disabled' }, 'click', click);
      expect(error.code).toBe('ELEMENT_NOT_CLICKABLE');
      expect(error.details).toMatchObject({ reason: 'disabled' });
    });

    it('maps a covered button to ELEMENT_NOT_CLICKABLE, naming what covers it', async () => {
      const error = await mapped({ selector: '#covered' }, 'click', click);
      expect(error.code).toBe('ELEMENT_NOT_CLICKABLE');
      expect(error.details).toMatchObject({ reason: 'covered by <div#overlay>' });
      expect(error.message).toContain('covered by <div#overlay>');
    });

    it('maps a selector that does not parse to INVALID_PARAMETERS', async () => {
      const error = await mapped({ selector: 'div[' }, 'click', click);
      expect(error.code).toBe('INVALID_PARAMETERS');
      expect(error.details).toMatchObject({ selector: 'div[' });
      expect(typeof error.details?.browserMessage).toBe('string');
    });

    it('maps a stale ref to ELEMENT_NOT_FOUND with a hint to take a new snapshot', async () => {
      const error = await mapped({ ref: 'e999' }, 'click', click);
      expect(error.code).toBe('ELEMENT_NOT_FOUND');
      expect(error.details).toMatchObject({ ref: 'e999', next: 'new_snapshot' });
      expect(error.message).toMatch(/stale/);
    });
  });

  describe('on the form page', () => {
    beforeAll(async () => {
      await page.goto(server.urlFor('/pages/form'));
    });

    it('maps typing into a div to ELEMENT_NOT_EDITABLE', async () => {
      const error = await mapped({ selector: '#not-editable' }, 'edit', fill);
      expect(error.code).toBe('ELEMENT_NOT_EDITABLE');
      expect(error.details).toMatchObject({ selector: '#not-editable', reason: 'not an editable field (or readonly)', element: '<div#not-editable> "text"' });
    });

    it('maps typing into a disabled input to ELEMENT_NOT_EDITABLE, reason disabled', async () => {
      const error = await mapped({ selector: '#disabled' }, 'edit', fill);
      expect(error.code).toBe('ELEMENT_NOT_EDITABLE');
      expect(error.details).toMatchObject({ reason: 'disabled' });
    });

    it('maps typing into a readonly input to ELEMENT_NOT_EDITABLE', async () => {
      const error = await mapped({ selector: '#readonly' }, 'edit', fill);
      expect(error.code).toBe('ELEMENT_NOT_EDITABLE');
      expect(error.details).toMatchObject({ selector: '#readonly', reason: 'not an editable field (or readonly)' });
    });
  });

  describe('on a page with a hidden input and a moving button', () => {
    beforeAll(async () => {
      await page.goto(server.urlFor('/pages/extras'));
    });

    it('maps typing into a hidden input to ELEMENT_NOT_CLICKABLE, reason hidden (it is a field, but out of reach)', async () => {
      const error = await mapped({ selector: '#hidden-input' }, 'edit', fill);
      expect(error.code).toBe('ELEMENT_NOT_CLICKABLE');
      expect(error.details).toMatchObject({ selector: '#hidden-input', reason: 'hidden' });
    });

    it('maps a button that never stops moving to ELEMENT_NOT_CLICKABLE, reason not stable', async () => {
      const error = await mapped({ selector: '#mover' }, 'click', click);
      expect(error.code).toBe('ELEMENT_NOT_CLICKABLE');
      expect(error.details).toMatchObject({ selector: '#mover', reason: 'not stable', timeout: 500 });
    });

    it('maps any other failure on a usable element to BROWSER_ERROR', async () => {
      const locator = locate(page, { selector: '#fine' });
      const error = await elementError(new Error('something else\nsecond line'), locator, { action: 'click', target: { selector: '#fine' } });
      expect(error.code).toBe('BROWSER_ERROR');
      expect(error.message).toBe('The browser reported an error: something else');
      expect(error.details).toEqual({ browserMessage: 'something else\nsecond line', reason: 'unknown' });
    });

    it('passes a SessionError through unchanged', async () => {
      const original = new SessionError('WAIT_TIMEOUT', 'waited');
      const locator = locate(page, { selector: '#fine' });
      expect(await elementError(original, locator, { action: 'wait', target: { selector: '#fine' } })).toBe(original);
    });
  });

  it('locate() needs a selector or a ref, and describeTarget() names either', () => {
    expect(() => locate(page, {})).toThrow(SessionError);
    try {
      locate(page, {});
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_PARAMETERS' });
    }
    expect(describeTarget({ selector: '#go' })).toBe('selector "#go"');
    expect(describeTarget({ ref: 'e12' })).toBe('ref e12');
  });
});

describe('navigationError', () => {
  it('maps a refused connection to NAVIGATION_FAILED with the net:: reason', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}/`;

    const thrown = await page.goto(url).then(
      () => new Error('the navigation unexpectedly succeeded'),
      (error: unknown) => error,
    );
    const error = navigationError(thrown, { url });
    expect(error.code).toBe('NAVIGATION_FAILED');
    expect(error.details).toMatchObject({ url, reason: 'ERR_CONNECTION_REFUSED' });
    expect(error.details).not.toHaveProperty('timeout');
    expect(error.message).toContain('ERR_CONNECTION_REFUSED');
  });

  it('maps a navigation timeout to NAVIGATION_FAILED, reason timeout', async () => {
    const url = server.urlFor('/hang');
    const thrown = await page.goto(url, { timeout: 500 }).then(
      () => new Error('the navigation unexpectedly succeeded'),
      (error: unknown) => error,
    );
    const error = navigationError(thrown, { url, timeout: 500 });
    expect(error.code).toBe('NAVIGATION_FAILED');
    expect(error.details).toMatchObject({ url, reason: 'timeout', timeout: 500 });
    expect(error.message).toContain('500 ms');
  });

  it('says "navigation failed" when the browser gives no net:: code, and passes SessionErrors through', () => {
    expect(navigationError(new Error('weird'), { url: 'http://x/' }).details).toMatchObject({ reason: 'navigation failed', browserMessage: 'weird' });
    const original = new SessionError('INVALID_PARAMETERS', 'bad url');
    expect(navigationError(original, { url: 'nope' })).toBe(original);
  });

  it('does not treat an HTTP error status as a navigation failure', async () => {
    const response = await page.goto(server.urlFor('/status/404'));
    expect(response?.status()).toBe(404);
  });
});
describe('toolError', () => {
  it('wraps anything thrown as BROWSER_ERROR reason unknown with the browser message, and passes SessionErrors through', () => {
    expect(toolError('text thrown').toJSON()).toEqual({
      errorCode: 'BROWSER_ERROR',
      message: 'The browser reported an error: text thrown',
      details: { browserMessage: 'text thrown', reason: 'unknown' },
    });
    const original = new SessionError('ELEMENT_NOT_FOUND', 'gone');
    expect(toolError(original)).toBe(original);
  });

  it("names the tool, says the next step in the profile's words and sets the session the call named", () => {
    expect(toolError(new Error('boom\nCall log:'), { tool: 'click' }).message).toBe('click failed: boom');
    const stale = new SessionError('ELEMENT_NOT_FOUND', 'No element has ref e9.', { details: { next: 'new_snapshot' } });
    const words = {
      createSession: 'create_session',
      listSessions: 'list_sessions',
      closeSession: 'close_session',
      snapshot: 'browser_snapshot',
      navigate: 'browser_navigate',
    };
    const mapped = toolError(stale, { vocabulary: words, sessionId: 's1' });
    expect(mapped.message).toBe('No element has ref e9. Take a new snapshot (browser_snapshot) and use a ref from it.');
    expect(mapped.sessionId).toBe('s1');
    expect(mapped.details).toEqual({ next: 'new_snapshot' });
    // An error that names its session keeps it.
    const named = new SessionError('SESSION_NOT_FOUND', 'gone', { sessionId: 'other' });
    expect(toolError(named, { sessionId: 's1' }).sessionId).toBe('other');
  });
});
