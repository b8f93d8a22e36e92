// --profile playwright in process (runTool over a real SessionManager, Chromium and the fixture server, with one connection's implicit session): dialogs and file choosers held open, the core tools with and without a sessionId, forms, drags, tabs (isolated contexts too), console and network.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

/** The first ref the snapshot gives a line matching `line`, e.g. /link "Form"/. */
function refIn(snapshot: string, line: RegExp): string {
  const found = snapshot.split('\n').find((text) => line.test(text));
  const ref = found && /\[ref=([^\]]+)\]/.exec(found)?.[1];
  if (!ref) throw new Error(`no ref for ${line} in:\n${snapshot}`);
  return ref;
}

/** The snapshot an action's result names: the file in its session's folder (no --output-dir here). */
function snapshotIn(data: Record<string, unknown>): string {
  return readFileSync(data.snapshotFile as string, 'utf8');
}

describe('--profile playwright in process: dialogs and file choosers held open, and the rest of the core tools', () => {
  // As a server started with --profile playwright --file-root <uploads>: one connection, with its own page.
  const uploads = mkdtempSync(path.join(tmpdir(), 'sessionwright-uploads-'));
  writeFileSync(path.join(uploads, 'a.txt'), 'hello');
  writeFileSync(path.join(uploads, 'b.txt'), 'abc');
  const harness = useTools({ profile: playwrightProfile(), toolOptions: { fileRoots: [uploads] }, roots: { directories: [uploads], source: 'file-root' } });
  let fixture: FixtureServer;
  beforeAll(() => {
    fixture = harness.fixture();
  });
  afterAll(async () => {
    await rm(uploads, { recursive: true, force: true });
  });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  const read = async (expression: string, sessionId?: string) =>
    expectSuccess(await tool('browser_evaluate', { function: `() => ${expression}`, ...(sessionId ? { sessionId } : {}) })).result;

  it('a click that opens a confirm returns with modalState; other calls refuse; browser_handle_dialog answers yes and no', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/dialog') });
    expectError(await tool('browser_handle_dialog', { accept: true }), 'INVALID_PARAMETERS');

    for (const accept of [true, false]) {
      const clicked = expectSuccess(await tool('browser_click', { element: 'Confirm', target: '#confirm' }));
      expect(clicked).toMatchObject({
        url: fixture.urlFor('/pages/dialog'),
        title: 'Dialog',
        modalState: { type: 'dialog', dialogType: 'confirm', dialogMessage: 'ok?', answerWith: 'browser_handle_dialog' },
      });
      expect(clicked.message).toContain('browser_handle_dialog');

      const refused = expectError(await tool('browser_snapshot'), 'INVALID_PARAMETERS');
      expect(refused.message).toContain('browser_handle_dialog');
      expect(refused.details).toMatchObject({ reason: 'modal_state_open', modalState: { dialogType: 'confirm' } });
      expectError(await tool('browser_file_upload', {}), 'INVALID_PARAMETERS');

      const answered = expectSuccess(await tool('browser_handle_dialog', { accept }));
      expect(answered).toMatchObject({ url: fixture.urlFor('/pages/dialog'), title: 'Dialog' });
      expect(answered.modalState).toBeUndefined();
      expect(await read("document.getElementById('confirm-result').textContent")).toBe(String(accept));
    }
  });

  it('answers a prompt with promptText and an alert, and holds dialogs in sessions made with create_session too', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/dialog') });
    const prompted = expectSuccess(await tool('browser_click', { target: '#prompt' }));
    expect(prompted.modalState).toMatchObject({ type: 'dialog', dialogType: 'prompt', dialogMessage: 'name?' });
    expect(prompted.message).toContain('promptText');
    const answered = expectSuccess(await tool('browser_handle_dialog', { accept: true, promptText: 'Ada' }));
    expect(snapshotIn(answered)).toContain('Ada');
    expect(await read("document.getElementById('prompt-result').textContent")).toBe('Ada');

    const sessionId = expectSuccess(await tool('create_session')).sessionId;
    await tool('browser_navigate', { sessionId, url: fixture.urlFor('/pages/dialog') });
    const alerted = expectSuccess(await tool('browser_click', { sessionId, target: '#alert' }));
    expect(alerted.modalState).toMatchObject({ type: 'dialog', dialogType: 'alert', dialogMessage: 'hi' });
    // The implicit page is not held up by the other session's dialog.
    expect(expectSuccess(await tool('browser_snapshot')).title).toBe('Dialog');
    expectError(await tool('browser_click', { sessionId, target: '#confirm' }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await tool('browser_handle_dialog', { sessionId, accept: true }));
    expect(expectSuccess(await tool('browser_click', { sessionId, target: '#confirm' })).modalState.dialogType).toBe('confirm');
    expectSuccess(await tool('browser_handle_dialog', { sessionId, accept: true }));
    expect(await read("document.getElementById('confirm-result').textContent", sessionId)).toBe('true');
    expectSuccess(await tool('close_session', { sessionId }));

    expectError(await tool('browser_handle_dialog', { accept: 'yes' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_handle_dialog', {}), 'INVALID_PARAMETERS');
  });

  it('a click that opens a file chooser says so; browser_file_upload answers it from an allowed root, or cancels it', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/upload') });
    expectError(await tool('browser_file_upload', { paths: [path.join(uploads, 'a.txt')] }), 'INVALID_PARAMETERS');

    const clicked = expectSuccess(await tool('browser_click', { element: 'Choose files', target: '#chooser' }));
    expect(clicked.modalState).toEqual({ type: 'fileChooser', multiple: true, answerWith: 'browser_file_upload' });
    expect(clicked.message).toContain('browser_file_upload');
    expect(expectError(await tool('browser_click', { target: '#plain' }), 'INVALID_PARAMETERS').message).toContain('browser_file_upload');
    // A path outside --file-root is refused, and the chooser stays open for a good answer.
    expectError(await tool('browser_file_upload', { paths: ['/etc/hostname'] }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_file_upload', { paths: 'a.txt' }), 'INVALID_PARAMETERS');
    const uploaded = expectSuccess(await tool('browser_file_upload', { paths: [path.join(uploads, 'a.txt'), path.join(uploads, 'b.txt')] }));
    expect(uploaded).toMatchObject({
      title: 'Upload',
      files: [
        { name: 'a.txt', bytes: 5 },
        { name: 'b.txt', bytes: 3 },
      ],
    });
    expect(await read("document.getElementById('names').textContent")).toBe('a.txt:5,b.txt:3');

    expect(expectSuccess(await tool('browser_click', { target: '#single' })).modalState).toMatchObject({ type: 'fileChooser', multiple: false });
    expectError(await tool('browser_file_upload', { paths: [path.join(uploads, 'a.txt'), path.join(uploads, 'b.txt')] }), 'INVALID_PARAMETERS');
    const cancelled = expectSuccess(await tool('browser_file_upload', {}));
    expect(cancelled.files).toEqual([]);
    expect(cancelled.modalState).toBeUndefined();
    expect(expectSuccess(await tool('browser_snapshot')).title).toBe('Upload');
  });

  it('fills a form (textbox by ref, combobox and checkbox by target) and drags one element onto another', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const { snapshot } = expectSuccess(await tool('browser_snapshot'));
    const filled = expectSuccess(
      await tool('browser_fill_form', {
        fields: [
          { name: 'Name', type: 'textbox', ref: refIn(snapshot, /textbox "Name"/), value: 'Ada' },
          { name: 'Color', type: 'combobox', target: '#color', value: 'Blue' },
          { name: 'Agree', type: 'checkbox', target: '#agree', value: 'true' },
        ],
      }),
    );
    expect(filled).toMatchObject({ url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(snapshotIn(filled)).toContain('textbox "Name"');
    expect(await read("[document.getElementById('name').value, document.getElementById('color').value, document.getElementById('agree').checked]")).toEqual([
      'Ada',
      'b',
      true,
    ]);
    expectError(await tool('browser_fill_form', { fields: [{ name: 'Agree', type: 'checkbox', target: '#agree', value: 'yes' }] }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_fill_form', { fields: [{ name: 'Name', type: 'textbox', value: 'x' }] }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_fill_form', { fields: [{ name: 'Name', type: 'date', target: '#name', value: 'x' }] }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_fill_form', { fields: [] }), 'INVALID_PARAMETERS');

    await tool('browser_navigate', { url: fixture.urlFor('/pages/drag') });
    const dragged = expectSuccess(await tool('browser_drag', { startElement: 'Card', startTarget: '#card', endElement: 'Drop zone', endTarget: '#zone' }));
    expect(dragged.title).toBe('Drag');
    expect(await read("document.getElementById('dropped').textContent")).toBe('card');
    expectError(await tool('browser_drag', { startRef: 'e1', startTarget: '#card', endTarget: '#zone' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_drag', { startTarget: '#card' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_drag', { startTarget: '#nothing', endTarget: '#zone' }), 'ELEMENT_NOT_FOUND');
  });

  it('opens, lists, selects and closes tabs, and resizes the viewport', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/home') });
    const opened = expectSuccess(await tool('browser_tabs', { action: 'new' }));
    expect(opened.tabs).toHaveLength(2);
    expect(opened.current).toBe(1);
    expect(opened.url).toBe('about:blank');
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const listed = expectSuccess(await tool('browser_tabs', { action: 'list' }));
    expect(listed.tabs.map((tab: { title: string }) => tab.title)).toEqual(['Home', 'Form']);
    expect(listed.snapshotFile).toBeUndefined();
    const selected = expectSuccess(await tool('browser_tabs', { action: 'select', index: 0 }));
    expect(selected).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home', current: 0 });
    expect(selected.snapshot).toBeUndefined();
    expect(snapshotIn(selected)).toContain('Fixture home');
    expect(expectSuccess(await tool('browser_tabs', { action: 'close', index: 1 })).tabs).toHaveLength(1);
    expectError(await tool('browser_tabs', { action: 'select', index: 5 }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_tabs', { action: 'open' }), 'INVALID_PARAMETERS');

    const resized = expectSuccess(await tool('browser_resize', { width: 640, height: 480 }));
    expect(resized).toMatchObject({ viewport: { width: 640, height: 480 }, url: fixture.urlFor('/pages/home') });
    expect(await read('[window.innerWidth, window.innerHeight]')).toEqual([640, 480]);
    expectError(await tool('browser_resize', { width: 640 }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_resize', { width: -1, height: 480 }), 'INVALID_PARAMETERS');
  });

  it('lists console messages by level and network requests (static resources only when asked)', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/console') });
    const all = expectSuccess(await tool('browser_console_messages'));
    const texts = all.messages.map((message: { text: string }) => message.text);
    expect(texts).toEqual(expect.arrayContaining(['log on load', 'info on load', 'warning on load', 'error on load']));
    expect(texts).not.toContain('debug on load');
    for (const args of [{ level: 'error' }, { onlyErrors: true }]) {
      const errors = expectSuccess(await tool('browser_console_messages', args)).messages.map((message: { text: string }) => message.text);
      expect(errors).toContain('error on load');
      expect(errors).not.toContain('warning on load');
    }
    expectError(await tool('browser_console_messages', { level: 'verbose' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_console_messages', { level: 'error', onlyErrors: true }), 'INVALID_PARAMETERS');

    await tool('browser_navigate', { url: fixture.urlFor('/pages/network') });
    expectSuccess(await tool('browser_wait_for', { text: 'done' }));
    const requests = expectSuccess(await tool('browser_network_requests')).requests.map((request: { url: string }) => request.url);
    expect(requests).toContain(fixture.urlFor('/api/json?tag=first'));
    expect(requests.some((url: string) => url.includes('/image.png'))).toBe(false);
    const everything = expectSuccess(await tool('browser_network_requests', { static: true })).requests;
    expect(everything.some((request: { url: string }) => request.url.includes('/image.png'))).toBe(true);
    expectError(await tool('browser_network_requests', { includeStatic: 'yes' }), 'INVALID_PARAMETERS');
  });
});

describe('the core tools without a sessionId, and with one for parallel sessions', () => {
  // As a server started with --profile playwright: one connection, with its own page.
  const harness = useTools({ profile: playwrightProfile() });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  let fixture: FixtureServer;
  beforeAll(() => {
    fixture = harness.fixture();
  });

  it('navigates and snapshots without a sessionId; content[0].text is JSON with url, title and the snapshot with refs', async () => {
    const navigated = expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(navigated).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home', status: 200 });
    // An action names the file holding its snapshot (in the session's folder without --output-dir).
    expect(navigated.snapshot).toBeUndefined();
    expect(snapshotIn(navigated)).toContain('Fixture home');

    const { result } = await tool('browser_snapshot');
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    const data = JSON.parse(text);
    expect(data.url).toBe(fixture.urlFor('/pages/home'));
    expect(data.title).toBe('Home');
    expect(data.snapshot).toMatch(/link "Form" \[ref=e\d+\]/);
  });

  it('clicks by {element, ref} and by {target} (a ref or a selector), and reports the page after the action', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/home') });
    const { snapshot } = expectSuccess(await tool('browser_snapshot'));
    const clicked = expectSuccess(await tool('browser_click', { element: 'Form link', ref: refIn(snapshot, /link "Form"/) }));
    expect(clicked).toMatchObject({ url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(snapshotIn(clicked)).toContain('textbox "Name"');

    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/buttons') }));
    expectSuccess(await tool('browser_click', { target: '#inc' }));
    const page = expectSuccess(await tool('browser_snapshot'));
    expectSuccess(await tool('browser_click', { element: 'Increment', target: refIn(page.snapshot, /button "Increment"/) }));
    expectSuccess(await tool('browser_click', { target: '#dblclick', doubleClick: true }));
    const counted = expectSuccess(
      await tool('browser_evaluate', { function: "() => [document.getElementById('count').textContent, document.getElementById('dbl').textContent]" }),
    );
    expect(counted.result).toEqual(['2', 'yes']);
  });

  it('types (replacing the value), selects, presses keys, hovers, waits, goes back and takes screenshots', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const { snapshot } = expectSuccess(await tool('browser_snapshot'));
    const name = refIn(snapshot, /textbox "Name"/);
    expectSuccess(await tool('browser_type', { element: 'Name', ref: name, text: 'first' }));
    const typed = expectSuccess(await tool('browser_type', { element: 'Name', ref: name, text: 'Ada', slowly: true }));
    expect(typed.value).toBe('Ada');
    expectSuccess(await tool('browser_select_option', { element: 'Color', target: '#color', values: ['Green'] }));
    expectSuccess(await tool('browser_hover', { target: '#submit' }));
    expectSuccess(await tool('browser_press_key', { key: 'Tab' }));
    const read = expectSuccess(await tool('browser_evaluate', { target: '#color', function: '(element) => element.value' }));
    expect(read.result).toBe('g');
    const waited = expectSuccess(await tool('browser_wait_for', { text: 'Name', time: 0.1 }));
    expect(waited.waitedMs).toBeGreaterThanOrEqual(100);

    const shot = await tool('browser_take_screenshot', { type: 'jpeg' });
    expect(expectSuccess(shot)).toMatchObject({ format: 'jpeg', url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(shot.result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    const element = await tool('browser_take_screenshot', { element: 'Send button', target: '#submit' });
    expect(expectSuccess(element).width).toBeLessThan(400);

    const back = expectSuccess(await tool('browser_navigate_back'));
    expect(back.url).toBe(fixture.urlFor('/pages/buttons'));
    expect(snapshotIn(back)).toContain('button "Increment"');
  });

  it('answers bad arguments and missing elements with the same codes as the default profile', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/buttons') });
    expectError(await tool('browser_click', { element: 'nothing' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_click', { ref: 'e1', target: '#inc' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_navigate', { url: 'javascript:alert(1)' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_navigate', { url: fixture.urlFor('/'), waitUntil: 'load' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_click', { target: '.dup' }), 'ELEMENT_AMBIGUOUS');
    expectError(await tool('browser_click', { target: '#nothing-here' }), 'ELEMENT_NOT_FOUND');
    // The advice names this profile's tools.
    const stale = expectError(await tool('browser_click', { ref: 'e9999' }), 'ELEMENT_NOT_FOUND');
    expect(stale.message).toContain('(browser_snapshot)');
    expectError(await tool('browser_wait_for', {}), 'INVALID_PARAMETERS');
    // Read without the well-formedness check: evaluate's details carry the page's own stack on purpose.
    expectError(await harness.call('browser_evaluate', { function: '() => { throw new Error("boom") }' }), 'BROWSER_ERROR');
    // The failures left the page usable.
    expect(expectSuccess(await tool('browser_snapshot')).title).toBe('Buttons');
  });

  it('serves create_session, and every browser_* tool takes a sessionId for parallel, isolated sessions', async () => {
    const implicit = expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const first = expectSuccess(await tool('create_session')).sessionId;
    const second = expectSuccess(await tool('create_session')).sessionId;
    const [a, b] = await Promise.all([
      tool('browser_navigate', { sessionId: first, url: fixture.urlFor('/pages/form') }),
      tool('browser_navigate', { sessionId: second, url: fixture.urlFor('/pages/buttons') }),
    ]);
    expect(expectSuccess(a).title).toBe('Form');
    expect(expectSuccess(b).title).toBe('Buttons');
    expect(expectSuccess(await tool('browser_snapshot', { sessionId: first })).snapshot).toContain('textbox "Name"');
    expect(expectSuccess(await tool('browser_snapshot', { sessionId: second })).snapshot).toContain('button "Increment"');
    expect(expectSuccess(await tool('browser_snapshot')).url).toBe(implicit.url);

    const listed = expectSuccess(await tool('list_sessions')).sessions;
    expect(listed).toHaveLength(3);
    expectSuccess(await tool('browser_close', { sessionId: first }));
    expectError(await tool('browser_snapshot', { sessionId: first }), 'SESSION_NOT_FOUND', first);
    expectSuccess(await tool('close_session', { sessionId: second }));
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(1);
  });

  it('browser_close closes the implicit page; the next call opens a new, blank one', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const before = expectSuccess(await tool('list_sessions')).sessions;
    expect(before).toHaveLength(1);
    expect(expectSuccess(await tool('browser_close'))).toMatchObject({ success: true, url: 'about:blank' });
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(0);
    expect(expectSuccess(await tool('browser_close')).message).toContain('No browser page');

    expect(expectSuccess(await tool('browser_snapshot')).url).toBe('about:blank');
    const after = expectSuccess(await tool('list_sessions')).sessions;
    expect(after).toHaveLength(1);
    expect(after[0].sessionId).not.toBe(before[0].sessionId);
  });

  it('replaces an implicit session that was closed by id with a new one on the next call', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/home') });
    const [only] = expectSuccess(await tool('list_sessions')).sessions;
    expectSuccess(await tool('close_session', { sessionId: only.sessionId }));
    expect(expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/form') })).title).toBe('Form');
  });
});

describe('browser_tabs {url, isolatedContext}', () => {
  // As a server started with --profile playwright: one connection, with its own page.
  const harness = useTools({ profile: playwrightProfile() });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  const stored = async () => expectSuccess(await tool('browser_evaluate', { function: "() => localStorage.getItem('who')" })).result;
  const store = async (who: string) => expectSuccess(await tool('browser_evaluate', { function: `() => localStorage.setItem('who', '${who}')` }));

  it('opens a tab at a URL, and named isolated contexts with their own storage, each a session of the connection', async () => {
    const fixture = harness.fixture();
    const home = fixture.urlFor('/pages/home');
    expectSuccess(await tool('browser_navigate', { url: home }));
    await store('own');
    const opened = expectSuccess(await tool('browser_tabs', { action: 'new', url: fixture.urlFor('/pages/form') }));
    expect(opened).toMatchObject({ current: 1, url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(opened.tabs).toHaveLength(2);
    expect(snapshotIn(opened)).toContain('textbox "Email"');
    expect(await stored()).toBe('own');

    const isolated = expectSuccess(await tool('browser_tabs', { action: 'new', url: home, isolatedContext: 'alice' }));
    expect(isolated).toMatchObject({ current: 2, url: home, title: 'Home' });
    expect(isolated.tabs[2]).toMatchObject({ index: 2, url: home, current: true, isolatedContext: 'alice' });
    expect(isolated.tabs[0].isolatedContext).toBeUndefined();
    // The calls that name no session act on the new context's tab: its storage is its own.
    expect(await stored()).toBeNull();
    await store('alice');
    // A second tab in the same context shares its storage.
    const second = expectSuccess(await tool('browser_tabs', { action: 'new', url: home, isolatedContext: 'alice' }));
    expect(second.tabs.map((tab: { isolatedContext?: string }) => tab.isolatedContext)).toEqual([undefined, undefined, 'alice', 'alice']);
    expect(await stored()).toBe('alice');
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(2);

    // Selecting a tab of the connection's own session acts there again.
    expect(expectSuccess(await tool('browser_tabs', { action: 'select', index: 0 }))).toMatchObject({ current: 0, url: home });
    expect(await stored()).toBe('own');
    // "default" is the connection's own context.
    const own = expectSuccess(await tool('browser_tabs', { action: 'new', isolatedContext: 'default' }));
    expect(own.tabs.filter((tab: { isolatedContext?: string }) => tab.isolatedContext === undefined)).toHaveLength(3);

    // Closing the last tabs of a context closes its session.
    expectSuccess(await tool('browser_tabs', { action: 'close', index: 4 }));
    const left = expectSuccess(await tool('browser_tabs', { action: 'close', index: 3 }));
    expect(left.tabs.every((tab: { isolatedContext?: string }) => tab.isolatedContext === undefined)).toBe(true);
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(1);
    expect(expectSuccess(await tool('browser_tabs', { action: 'list' })).tabs).toHaveLength(3);
  });

  it('closes the isolated contexts with browser_close', async () => {
    expectSuccess(await tool('browser_tabs', { action: 'new', isolatedContext: 'bob' }));
    expect(expectSuccess(await tool('list_sessions')).sessions.length).toBeGreaterThanOrEqual(2);
    expectSuccess(await tool('browser_close'));
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(0);
  });

  it('refuses isolatedContext where it means nothing, and an index that is no tab', async () => {
    expectSuccess(await tool('browser_navigate', { url: harness.fixture().urlFor('/pages/home') }));
    expect(expectError(await tool('browser_tabs', { action: 'list', isolatedContext: 'x' }), 'INVALID_PARAMETERS').message).toMatch(
      /isolatedContext is for "new"/,
    );
    const { sessionId } = expectSuccess(await tool('create_session'));
    expectError(await tool('browser_tabs', { action: 'new', isolatedContext: 'x', sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('browser_tabs', { action: 'select', index: 99 }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_tabs', { action: 'new', url: 'not a url', isolatedContext: 'y' }), 'INVALID_PARAMETERS');
    // Nothing was made for the refused calls.
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(2);
    expectSuccess(await tool('close_session', { sessionId }));
  });
});
