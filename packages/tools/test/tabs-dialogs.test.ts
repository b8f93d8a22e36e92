// tabs and handle_dialog in process (runTool over a real SessionManager, Chromium and the fixture server): listing, opening, selecting and closing tabs, the tab limit, and dialogs answered as asked.
import type { FixtureServer } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

// As a server started with --max-tabs 4.
const harness = useTools({ manager: { maxTabs: 4 } });
let fx: FixtureServer;

beforeAll(() => {
  fx = harness.fixture();
});

const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
const ok = async (name: string, args: Record<string, unknown> = {}) => expectSuccess(await tool(name, args));
const sessionOn = (page: string) => harness.sessionOn(page);

describe('tabs', () => {
  it('lists, opens, selects and closes tabs; closing the last leaves one blank tab', async () => {
    const sessionId = await sessionOn('home');
    expect(await ok('tabs', { sessionId, action: 'list' })).toMatchObject({
      tabs: [{ index: 0, url: fx.urlFor('/pages/home'), title: 'Home', current: true }],
      current: 0,
    });
    const opened = await ok('tabs', { sessionId, action: 'new', url: fx.urlFor('/pages/form') });
    expect(opened).toMatchObject({ current: 1, url: fx.urlFor('/pages/form'), title: 'Form' });
    expect(opened.tabs).toHaveLength(2);
    const selected = await ok('tabs', { sessionId, action: 'select', index: 0 });
    expect(selected).toMatchObject({ current: 0, title: 'Home' });
    // Other tools act on the selected tab.
    expect((await ok('snapshot', { sessionId })).title).toBe('Home');
    expect((await ok('tabs', { sessionId, action: 'close' })).tabs).toEqual([{ index: 0, url: fx.urlFor('/pages/form'), title: 'Form', current: true }]);
    const last = await ok('tabs', { sessionId, action: 'close', index: 0 });
    expect(last.tabs).toEqual([{ index: 0, url: 'about:blank', title: '', current: true }]);
  });

  it('answers INVALID_PARAMETERS for an index out of range or arguments the action does not take', async () => {
    const sessionId = await sessionOn('home');
    const outOfRange = expectError(await tool('tabs', { sessionId, action: 'select', index: 3 }), 'INVALID_PARAMETERS', sessionId);
    expect(outOfRange.details).toMatchObject({ index: 3, tabCount: 1 });
    expectError(await tool('tabs', { sessionId, action: 'close', index: 1 }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('tabs', { sessionId, action: 'select' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('tabs', { sessionId, action: 'list', url: 'https://example.com/' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('tabs', { sessionId, action: 'new', url: 'file:///etc/passwd' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('tabs', { sessionId, action: 'list', index: -1 }), 'INVALID_PARAMETERS', sessionId);
    // The session is still usable.
    expect((await ok('tabs', { sessionId, action: 'list' })).tabs).toHaveLength(1);
  });

  it('follows a tab the page opens, and keeps at most --max-tabs, closing the oldest background tab and saying so', async () => {
    const sessionId = await sessionOn('popup');
    const clicked = await ok('click', { sessionId, selector: '#newtab' });
    expect(clicked.openedTabs).toEqual([expect.stringContaining('/pages/home')]);
    expect(clicked.title).toBe('Home');
    await ok('tabs', { sessionId, action: 'new' });
    await ok('tabs', { sessionId, action: 'new' });
    const fifth = await ok('tabs', { sessionId, action: 'new', url: fx.urlFor('/pages/form') });
    expect(fifth.closedTabs).toEqual([fx.urlFor('/pages/popup')]);
    expect(fifth.tabs).toHaveLength(4);
    expect(fifth.tabs[0].url).toBe(fx.urlFor('/pages/home'));
    expect(fifth.tabs[3]).toMatchObject({ url: fx.urlFor('/pages/form'), current: true });
  });
});

describe('handle_dialog', () => {
  it('answers only the next dialog as asked, then dialogs go back to the default; every result lists them', async () => {
    const sessionId = await sessionOn('dialog');
    expect((await ok('handle_dialog', { sessionId, accept: true })).message).toMatch(/next dialog will be accepted/);
    const first = await ok('click', { sessionId, selector: '#confirm' });
    expect(first.dialogs).toEqual([{ type: 'confirm', message: 'ok?', action: 'accepted' }]);
    const second = await ok('click', { sessionId, selector: '#confirm' });
    expect(second.dialogs).toEqual([{ type: 'confirm', message: 'ok?', action: 'dismissed' }]);
    expect((await ok('evaluate', { sessionId, function: '() => document.querySelector("#confirm-result").textContent' })).result).toBe('false');
  });

  it('answers a prompt with promptText, and every dialog with persist', async () => {
    const sessionId = await sessionOn('dialog');
    await ok('handle_dialog', { sessionId, accept: true, promptText: 'Grace', persist: true });
    await ok('click', { sessionId, selector: '#prompt' });
    await ok('click', { sessionId, selector: '#confirm' });
    const texts = await ok('evaluate', {
      sessionId,
      function: '() => [document.querySelector("#prompt-result").textContent, document.querySelector("#confirm-result").textContent]',
    });
    expect(texts.result).toEqual(['Grace', 'true']);
  });

  it('waits for a dialog that never comes without blocking anything, and applies to the next one that does', async () => {
    const sessionId = await sessionOn('dialog');
    await ok('handle_dialog', { sessionId, accept: true });
    const quiet = await ok('navigate', { sessionId, url: fx.urlFor('/pages/buttons') });
    expect(quiet.dialogs).toBeUndefined();
    await ok('click', { sessionId, selector: '#inc' });
    await ok('navigate', { sessionId, url: fx.urlFor('/pages/dialog') });
    expect((await ok('click', { sessionId, selector: '#confirm' })).dialogs).toEqual([{ type: 'confirm', message: 'ok?', action: 'accepted' }]);
    expectError(await tool('handle_dialog', { sessionId }), 'INVALID_PARAMETERS', sessionId);
  });
});
