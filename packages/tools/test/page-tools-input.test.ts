// Input and navigation tools in process (runTool over a real SessionManager, Chromium and the fixture server): press_key, hover, select_option, check/uncheck,
// go_back/go_forward/reload, includeSnapshot, and the never-blocked design (dialogs, new tabs, beforeunload).
import { describe, expect, it } from 'vitest';
import { startFixtureServer } from '@sessionwright/test-kit';
import { useTools } from './tool-harness.js';

const server = useTools();
const { call, createSession, sessionOn } = server;

const read = async (sessionId: string, fn: string) => {
  const { isError, json } = await call('evaluate', { sessionId, function: fn });
  expect(isError, JSON.stringify(json)).toBe(false);
  return json.result;
};

describe('press_key', () => {
  it('sends keys and chords to the focused element or to a named one', async () => {
    const sessionId = await sessionOn('form');
    await call('click', { sessionId, selector: '#name' });
    const typed = await call('press_key', { sessionId, key: 'a' });
    expect(typed.isError, JSON.stringify(typed.json)).toBe(false);
    expect(typed.json).toMatchObject({ success: true, key: 'a', message: 'Pressed a.', url: server.fixture().urlFor('/pages/form') });
    expect(await read(sessionId, "() => document.querySelector('#name').value")).toBe('a');

    await call('type', { sessionId, selector: '#bio', text: 'hello world' });
    // A chord in a model's spelling: select all in the named field, then delete it.
    const all = await call('press_key', { sessionId, selector: '#bio', key: 'ctrl+a' });
    expect(all.json.key).toBe('Control+a');
    await call('press_key', { sessionId, selector: '#bio', key: 'Backspace' });
    expect(await read(sessionId, "() => document.querySelector('#bio').value")).toBe('');
    expect(await read(sessionId, "() => document.querySelector('#name').value")).toBe('a');
  });

  it("waits for the navigation Enter starts, and can include the new page's snapshot", async () => {
    const sessionId = await sessionOn('form');
    await call('type', { sessionId, selector: '#name', text: 'Key' });
    const posts = server.fixture().posts.length;
    const { isError, json } = await call('press_key', { sessionId, selector: '#name', key: 'Enter', includeSnapshot: true });
    expect(isError, JSON.stringify(json)).toBe(false);
    expect(json.url).toBe(server.fixture().urlFor('/submit'));
    expect(json.title).toBe('Submitted');
    expect(json.message).toMatch(/navigated/);
    expect(json.snapshot).toMatch(/heading "Submitted"/);
    expect(server.fixture().posts.length).toBe(posts + 1);
    expect(server.fixture().posts.at(-1)?.fields.name).toBe('Key');
  });

  it('rejects an unknown key name with INVALID_PARAMETERS and presses nothing, leaving no modifier held', async () => {
    const sessionId = await sessionOn('form');
    await call('click', { sessionId, selector: '#name' });
    const bad = await call('press_key', { sessionId, key: 'Control+Banana' });
    expect(bad.isError).toBe(true);
    expect(bad.json.errorCode).toBe('INVALID_PARAMETERS');
    expect(bad.json.message).toMatch(/"Banana" is not a key name/);
    expect(bad.json.details.unknownPart).toBe('Banana');
    expect(bad.json.sessionId).toBe(sessionId);
    // Control was never pressed: a plain key still types a character.
    await call('press_key', { sessionId, key: 'x' });
    expect(await read(sessionId, "() => document.querySelector('#name').value")).toBe('x');
    expect((await call('press_key', { sessionId, key: '' })).json.errorCode).toBe('INVALID_PARAMETERS');
  });
});

describe('hover', () => {
  it('moves the mouse over an element by ref so hover effects show', async () => {
    const sessionId = await sessionOn('hover');
    const snap: string = (await call('snapshot', { sessionId })).json.snapshot;
    const ref = /generic \[ref=([^\]]+)\]: Menu/.exec(snap)?.[1];
    expect(ref, snap).toBeDefined();
    const { isError, json } = await call('hover', { sessionId, ref });
    expect(isError, JSON.stringify(json)).toBe(false);
    expect(json.success).toBe(true);
    expect(await read(sessionId, "() => document.querySelector('#tip').textContent")).toBe('Shown on hover');
  });

  it('answers ELEMENT_NOT_CLICKABLE for a hidden element', async () => {
    const sessionId = await sessionOn('buttons');
    const { json } = await call('hover', { sessionId, selector: '#hidden', timeout: 500 });
    expect(json.errorCode).toBe('ELEMENT_NOT_CLICKABLE');
    expect(json.details.reason).toBe('hidden');
  });
});

describe('select_option', () => {
  it('selects by value or by label and returns what is selected', async () => {
    const sessionId = await sessionOn('form');
    const byLabel = await call('select_option', { sessionId, selector: '#color', values: ['Green'] });
    expect(byLabel.isError, JSON.stringify(byLabel.json)).toBe(false);
    expect(byLabel.json.selected).toEqual([{ value: 'g', label: 'Green' }]);
    expect(byLabel.json.message).toBe('Selected "Green".');
    const byValue = await call('select_option', { sessionId, selector: '#color', values: ['b'], includeSnapshot: true });
    expect(byValue.json.selected).toEqual([{ value: 'b', label: 'Blue' }]);
    expect(byValue.json.snapshot).toMatch(/option "Blue" \[selected\]/);
    expect(await read(sessionId, "() => document.querySelector('#color').value")).toBe('b');
  });

  it('selects several options of a multiple select', async () => {
    const sessionId = await sessionOn('choices');
    const { json } = await call('select_option', { sessionId, selector: '#sizes', values: ['Small', 'l'] });
    expect(json.selected).toEqual([
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
  });

  it('answers INVALID_PARAMETERS listing the options for a value no option has, and changes nothing', async () => {
    const sessionId = await sessionOn('form');
    const started = Date.now();
    const { isError, json } = await call('select_option', { sessionId, selector: '#color', values: ['Purple'] });
    expect(isError).toBe(true);
    expect(json.errorCode).toBe('INVALID_PARAMETERS');
    expect(json.message).toMatch(/"Purple"/);
    expect(json.details.missing).toEqual(['Purple']);
    expect(json.details.options).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
      { value: 'b', label: 'Blue' },
    ]);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await read(sessionId, "() => document.querySelector('#color').value")).toBe('r');
    const two = await call('select_option', { sessionId, selector: '#color', values: ['Red', 'Blue'] });
    expect(two.json.errorCode).toBe('INVALID_PARAMETERS');
    expect((await call('select_option', { sessionId, selector: '#color', values: [] })).json.errorCode).toBe('INVALID_PARAMETERS');
  });

  it('answers ELEMENT_NOT_EDITABLE for an element that is not a select, or a disabled one', async () => {
    const sessionId = await sessionOn('choices');
    const notSelect = await call('select_option', { sessionId, selector: '#news', values: ['x'] });
    expect(notSelect.json.errorCode).toBe('ELEMENT_NOT_EDITABLE');
    expect(notSelect.json.details.reason).toBe('not a select element');
    const disabled = await call('select_option', { sessionId, selector: '#locked', values: ['x'] });
    expect(disabled.json.errorCode).toBe('ELEMENT_NOT_EDITABLE');
    expect(disabled.json.details.reason).toBe('disabled');
  });
});

describe('check and uncheck', () => {
  it('set a checkbox to a state, idempotently, and check a radio button', async () => {
    const sessionId = await sessionOn('choices');
    const on = await call('check', { sessionId, selector: '#news' });
    expect(on.json).toMatchObject({ success: true, checked: true });
    expect((await call('check', { sessionId, selector: '#news' })).json.checked).toBe(true);
    expect(await read(sessionId, "() => document.querySelector('#news').checked")).toBe(true);
    const off = await call('uncheck', { sessionId, selector: '#news' });
    expect(off.json.checked).toBe(false);
    expect(await read(sessionId, "() => document.querySelector('#news').checked")).toBe(false);
    const pro = await call('check', { sessionId, selector: '#pro' });
    expect(pro.json.checked).toBe(true);
    expect(await read(sessionId, "() => document.querySelector('#free').checked")).toBe(false);
  });

  it('refuse a radio uncheck and a non-checkbox with ELEMENT_NOT_EDITABLE', async () => {
    const sessionId = await sessionOn('choices');
    const radio = await call('uncheck', { sessionId, selector: '#free' });
    expect(radio.json.errorCode).toBe('ELEMENT_NOT_EDITABLE');
    expect(radio.json.details.reason).toBe('radio');
    const other = await call('check', { sessionId, selector: '#sizes' });
    expect(other.json.errorCode).toBe('ELEMENT_NOT_EDITABLE');
    expect(await read(sessionId, "() => document.querySelector('#free').checked")).toBe(true);
  });
});

describe('go_back, go_forward, reload', () => {
  it('move through the history and report url, title and status', async () => {
    const sessionId = await sessionOn('home');
    await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/form') });
    const back = await call('go_back', { sessionId });
    expect(back.isError, JSON.stringify(back.json)).toBe(false);
    expect(back.json).toMatchObject({ success: true, url: server.fixture().urlFor('/pages/home'), title: 'Home', status: 200 });
    expect(back.json.message).toMatch(/^Went back to /);
    const forward = await call('go_forward', { sessionId });
    expect(forward.json).toMatchObject({ success: true, url: server.fixture().urlFor('/pages/form'), title: 'Form', status: 200 });

    const requests = server.fixture().requests.length;
    await call('type', { sessionId, selector: '#name', text: 'gone after reload' });
    const reloaded = await call('reload', { sessionId });
    expect(reloaded.json).toMatchObject({ success: true, url: server.fixture().urlFor('/pages/form'), status: 200, message: 'Reloaded.' });
    expect(server.fixture().requests.slice(requests)).toContain('/pages/form');
    expect(await read(sessionId, "() => document.querySelector('#name').value")).toBe('');
  });

  it('succeed without moving when there is nothing to go back or forward to, and say so', async () => {
    const sessionId = await sessionOn('home');
    // A new session starts on about:blank, which is the first history entry.
    const blank = await call('go_back', { sessionId });
    expect(blank.json).toMatchObject({ success: true, url: 'about:blank', status: null, message: 'Went back to about:blank.' });
    await call('go_forward', { sessionId });
    await call('go_back', { sessionId });
    const back = await call('go_back', { sessionId });
    expect(back.isError).toBe(false);
    expect(back.json.status).toBeNull();
    expect(back.json.url).toBe('about:blank');
    expect(back.json.message).toMatch(/nothing to go back to/);
    await call('go_forward', { sessionId });
    const forward = await call('go_forward', { sessionId });
    expect(forward.json.status).toBeNull();
    expect(forward.json.message).toMatch(/nothing to go forward to/);
    expect(forward.json.url).toBe(server.fixture().urlFor('/pages/home'));
  });

  it('report an HTTP error status as success, and a server that is gone as NAVIGATION_FAILED', async () => {
    const other = await startFixtureServer();
    const sessionId = await createSession();
    await call('navigate', { sessionId, url: other.urlFor('/status/500') });
    const reloaded = await call('reload', { sessionId });
    expect(reloaded.json.status).toBe(500);
    await other.close();
    const failed = await call('reload', { sessionId });
    expect(failed.isError).toBe(true);
    expect(failed.json.errorCode).toBe('NAVIGATION_FAILED');
    expect(failed.json.details.reason).toMatch(/^ERR_/);
  });
});

describe('includeSnapshot', () => {
  it('adds the snapshot to navigate and type results, and leaves it out by default', async () => {
    const sessionId = await createSession();
    const plain = await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/form') });
    expect(plain.json.snapshot).toBeUndefined();
    const nav = await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/form'), includeSnapshot: true });
    expect(nav.json.snapshot).toMatch(/button "Send" \[ref=/);
    expect(nav.json.snapshotTruncated).toBeUndefined();
    const typed = await call('type', { sessionId, selector: '#name', text: 'Snap', includeSnapshot: true });
    expect(typed.json.snapshot).toMatch(/textbox "Name" [^\n]*\[ref=[^\]]+\]: Snap/);
  });

  it('caps an included snapshot like the snapshot tool does', async () => {
    const nav = await call('navigate', { sessionId: await createSession(), url: server.fixture().urlFor('/pages/long-list'), includeSnapshot: true });
    expect(nav.json.snapshotTruncated).toBe(true);
    expect((nav.json.snapshot as string).length).toBeLessThanOrEqual(40_000);
    expect(nav.json.snapshotNote).toMatch(/Snapshot cut at/);
  });
});

describe('never blocked', () => {
  it('accepts alerts and dismisses confirm and prompt, reporting each in the result of the call that caused it', async () => {
    const sessionId = await sessionOn('dialog');
    const alert = await call('click', { sessionId, selector: '#alert' });
    expect(alert.isError).toBe(false);
    expect(alert.json.dialogs).toEqual([{ type: 'alert', message: 'hi', action: 'accepted' }]);
    const confirm = await call('click', { sessionId, selector: '#confirm' });
    expect(confirm.json.dialogs).toEqual([{ type: 'confirm', message: 'ok?', action: 'dismissed' }]);
    const prompt = await call('click', { sessionId, selector: '#prompt' });
    expect(prompt.json.dialogs).toEqual([{ type: 'prompt', message: 'name?', action: 'dismissed' }]);
    // Dismissed: confirm() returned false and prompt() null.
    expect(await read(sessionId, "() => document.querySelector('#confirm-result').textContent")).toBe('false');
    expect(await read(sessionId, "() => document.querySelector('#prompt-result').textContent")).toBe('null');
    // Reported once: the next result has none.
    expect((await call('snapshot', { sessionId })).json.dialogs).toBeUndefined();
  });

  it('reports a dialog opened by evaluate and by press_key', async () => {
    const sessionId = await sessionOn('dialog');
    const evaluated = await call('evaluate', { sessionId, function: "() => { alert('from script'); return 'after'; }" });
    expect(evaluated.json.result).toBe('after');
    expect(evaluated.json.dialogs).toEqual([{ type: 'alert', message: 'from script', action: 'accepted' }]);
    const pressed = await call('press_key', { sessionId, selector: '#confirm', key: 'Enter' });
    expect(pressed.json.dialogs).toEqual([{ type: 'confirm', message: 'ok?', action: 'dismissed' }]);
  });

  it('leaves a page that asks before unloading: beforeunload is accepted so navigate still works', async () => {
    const sessionId = await sessionOn('beforeunload');
    // Chromium asks only after a user gesture on the page.
    await call('click', { sessionId, selector: '#touch' });
    const nav = await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/home') });
    expect(nav.isError, JSON.stringify(nav.json)).toBe(false);
    expect(nav.json.url).toBe(server.fixture().urlFor('/pages/home'));
    expect(nav.json.dialogs).toEqual([{ type: 'beforeunload', message: expect.any(String), action: 'accepted' }]);
  });

  it('follows a target=_blank link into the new tab in the same result, and keeps acting there', async () => {
    const sessionId = await sessionOn('popup');
    const snap: string = (await call('snapshot', { sessionId })).json.snapshot;
    const ref = /link "Open home in new tab" \[ref=([^\]]+)\]/.exec(snap)?.[1];
    const clicked = await call('click', { sessionId, ref, includeSnapshot: true });
    expect(clicked.isError, JSON.stringify(clicked.json)).toBe(false);
    expect(clicked.json.openedTabs).toEqual([server.fixture().urlFor('/pages/home')]);
    expect(clicked.json.url).toBe(server.fixture().urlFor('/pages/home'));
    expect(clicked.json.title).toBe('Home');
    expect(clicked.json.message).toMatch(/new tab/);
    expect(clicked.json.snapshot).toMatch(/heading "Fixture home"/);
    // The session now acts on the new tab; the event was reported once.
    const next = await call('click', { sessionId, selector: '#to-form' });
    expect(next.json.openedTabs).toBeUndefined();
    expect(next.json.url).toBe(server.fixture().urlFor('/pages/form'));
    const listed = await call('list_sessions');
    const entry = listed.json.sessions.find((session: { sessionId: string }) => session.sessionId === sessionId);
    expect(entry.url).toBe(server.fixture().urlFor('/pages/form'));
  });

  it('follows a tab opened by window.open from a key press', async () => {
    server.fixture().addPage('opener', `<button id="open" onclick="window.open('/pages/form')">Open</button>`);
    const sessionId = await sessionOn('opener');
    const pressed = await call('press_key', { sessionId, selector: '#open', key: 'Enter' });
    expect(pressed.isError, JSON.stringify(pressed.json)).toBe(false);
    expect(pressed.json.openedTabs).toHaveLength(1);
    expect(pressed.json.url).toBe(server.fixture().urlFor('/pages/form'));
    expect(pressed.json.title).toBe('Form');
  });
});
