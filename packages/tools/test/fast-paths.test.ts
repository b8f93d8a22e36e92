// What the fast paths keep, in process (runTool over a real SessionManager, Chromium and the fixture server): every result's title is never stale (it comes from the browser process when that is safe),
// and type, with fewer trips to the page, still types at the caret, appends, clears, reads the value back and refuses.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8">${title}</head><body>${body}</body></html>`;

const PAGES = {
  // The title changes in the load handler: the last thing before the load event ends.
  'title-at-load': page(
    '<title>Before load</title><script>addEventListener("load", () => { document.title = "Set at load " + location.search; });</script>',
    '<p>x</p>',
  ),
  // The title changes from a timer well before load, which an image that answers late holds back.
  'title-before-load': page(
    '<title>First</title><script>setTimeout(() => { document.title = "Set by a timer " + location.search; }, 50);</script>',
    '<img src="/wait?ms=700" alt=""><p>x</p>',
  ),
  'title-from-script': page('<script>document.title = "Written by a script " + location.search;</script>', '<p>x</p>'),
  untitled: page('', '<p>no title</p>'),
  // Titles that look like what Chromium shows in place of a missing title: they must come through as they are.
  'url-like-title': page('<title>a/b:c</title>', '<p>x</p>'),
  'title-in-url': page('<title>title-in-url</title>', '<p>x</p>'),
  typing: page(
    '<title>Typing</title>',
    `<input id="plain" value="abcd">
<input id="upper" oninput="this.value = this.value.toUpperCase()">
<input id="titled" oninput="document.title = 'Typed ' + this.value">
<textarea id="area">line one
line two</textarea>
<div id="editable" contenteditable="true">Hello</div>
<input id="disabled" disabled value="no">
<input id="number" type="number">
<input id="date" type="date">
<button id="button">Not a field</button>`,
  ),
  // Empty fields that cannot be typed into at first: one made writable after 200 ms (within type's first, quick fill),
  // one shown after 1.5 s (after it: the rest of the time is given to a second try); and two that stay refused. The
  // first two count the input events they see.
  'late-fields': page(
    '<title>Late fields</title>',
    `<input id="writable" readonly oninput="this.dataset.inputs = Number(this.dataset.inputs ?? 0) + 1">
<input id="shown" style="display:none" oninput="this.dataset.inputs = Number(this.dataset.inputs ?? 0) + 1">
<input id="locked" readonly>
<input id="off" disabled>
<script>setTimeout(() => { writable.readOnly = false; }, 200); setTimeout(() => { shown.style.display = ""; }, 1500);</script>`,
  ),
};

const server = useTools({ fixture: { pages: PAGES } });
const tool = (name: string, args: Record<string, unknown> = {}) => server.checkedCall(name, args);
let sid: string;
beforeAll(async () => {
  // One session for the whole file (the harness closes only the sessions its createSession opened).
  sid = expectSuccess(await tool('create_session')).sessionId;
});
const navigate = async (path: string) => expectSuccess(await tool('navigate', { sessionId: sid, url: server.fixture().urlFor(path) }));
const evaluate = async (fn: string) => expectSuccess(await tool('evaluate', { sessionId: sid, function: fn })).result;
const type = async (args: Record<string, unknown>) => expectSuccess(await tool('type', { sessionId: sid, ...args }));

describe('the title in a result is never stale', () => {
  it('navigate answers a title set in the load handler, on every load', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await navigate(`/pages/title-at-load?${i}`)).title).toBe(`Set at load ?${i}`);
    }
  });

  it('navigate answers a title a timer set before the load ended, and one a script wrote while the page was parsed', async () => {
    expect((await navigate('/pages/title-before-load?a')).title).toBe('Set by a timer ?a');
    expect((await navigate('/pages/title-from-script?b')).title).toBe('Written by a script ?b');
  });

  it('answers an empty title for pages without one, not the URL the browser shows instead', async () => {
    expect((await navigate('/pages/untitled')).title).toBe('');
    expect(expectSuccess(await tool('navigate', { sessionId: sid, url: 'about:blank' })).title).toBe('');
    expect(expectSuccess(await tool('navigate', { sessionId: sid, url: 'data:text/html,<p>plain</p>' })).title).toBe('');
  });

  it('answers titles that look like a URL, or are part of the URL, as they are', async () => {
    expect((await navigate('/pages/url-like-title')).title).toBe('a/b:c');
    expect((await navigate('/pages/title-in-url')).title).toBe('title-in-url');
  });

  it("answers the title a call just set: evaluate, type through the page's input handler, and the snapshot after each", async () => {
    await navigate('/pages/typing');
    const snapshotTitle = async () => expectSuccess(await tool('snapshot', { sessionId: sid })).title;
    for (let i = 0; i < 5; i += 1) {
      const result = expectSuccess(await tool('evaluate', { sessionId: sid, function: `() => { document.title = "Evaluated ${i}"; return 1; }` }));
      expect(result.title).toBe(`Evaluated ${i}`);
      expect(await snapshotTitle()).toBe(`Evaluated ${i}`);
    }
    let typed = '';
    // Each letter after the first is inserted at the caret and sets the title. A title read too early is stale only now
    // and then, so six letters make a regression likely to show.
    for (const text of ['x', 'y', 'z', 'w', 'v', 'u']) {
      typed += text;
      expect((await type({ selector: '#titled', text })).title).toBe(`Typed ${typed}`);
      expect(await snapshotTitle()).toBe(`Typed ${typed}`);
    }
  });
});

describe('type keeps its meaning', () => {
  it('appends at the end of a field that is not focused, even if its caret was left elsewhere', async () => {
    await navigate('/pages/typing');
    await evaluate('() => { const e = document.querySelector("#plain"); e.focus(); e.setSelectionRange(1, 1); e.blur(); }');
    expect((await type({ selector: '#plain', text: 'XY' })).value).toBe('abcdXY');
  });

  it('inserts at the caret of the focused field', async () => {
    await navigate('/pages/typing');
    await evaluate('() => { const e = document.querySelector("#plain"); e.focus(); e.setSelectionRange(2, 2); }');
    expect((await type({ selector: '#plain', text: '--' })).value).toBe('ab--cd');
    // And on from there: the caret stays after what was typed.
    expect((await type({ selector: '#plain', text: '+' })).value).toBe('ab--+cd');
  });

  it('appends to a multi-line textarea and to a contenteditable element (its text is its value)', async () => {
    await navigate('/pages/typing');
    expect((await type({ selector: '#area', text: ' end' })).value).toBe('line one\nline two end');
    expect((await type({ selector: '#editable', text: ' world' })).value).toBe('Hello world');
  });

  it('types into an empty number field as before: digits go in, letters are dropped by the field, not refused', async () => {
    await navigate('/pages/typing');
    expect((await type({ selector: '#number', text: 'abc' })).value).toBe('');
    expect((await type({ selector: '#number', text: '42' })).value).toBe('42');
  });

  it('types into an empty field that has the focus (as after a click) and one emptied by clear: true, in one step', async () => {
    await navigate('/pages/typing');
    await evaluate('() => document.querySelector("#upper").focus()');
    expect((await type({ selector: '#upper', text: 'first' })).value).toBe('FIRST');
    expect((await type({ selector: '#upper', text: 'then' })).value).toBe('FIRSTTHEN');
    expect((await type({ selector: '#upper', text: 'again', clear: true })).value).toBe('AGAIN');
    expect((await type({ selector: '#number', text: 'abc', clear: true })).value).toBe('');
  });

  it('gives an empty date field a date it is given as text; anything else is typed as keys, as into any field', async () => {
    await navigate('/pages/typing');
    expect((await type({ selector: '#date', text: 'soon' })).value).toBe('');
    expect((await type({ selector: '#date', text: '2026-11-23' })).value).toBe('2026-11-23');
  });

  it('types into an empty field that becomes writable or visible while it waits, once; refuses empty read-only and disabled ones', async () => {
    await navigate('/pages/late-fields');
    expect((await type({ selector: '#writable', text: 'free' })).value).toBe('free');
    expect((await type({ selector: '#shown', text: 'seen', clear: true })).value).toBe('seen');
    expect(await evaluate('() => [writable.dataset.inputs, shown.dataset.inputs]')).toEqual(['1', '1']);
    const refused = async (selector: string) =>
      expectError(await tool('type', { sessionId: sid, selector, text: 'x', timeout: 1_000 }), 'ELEMENT_NOT_EDITABLE');
    expect((await refused('#locked')).details.reason).toMatch(/readonly/);
    expect((await refused('#off')).details.reason).toBe('disabled');
    expect(await evaluate('() => [locked.value, off.value]')).toEqual(['', '']);
  });

  it('answers the value the page made of the text', async () => {
    await navigate('/pages/typing');
    expect((await type({ selector: '#upper', text: 'shout' })).value).toBe('SHOUT');
  });

  it('empties a focused field with clear: true, wherever its caret was', async () => {
    await navigate('/pages/typing');
    await evaluate('() => { const e = document.querySelector("#plain"); e.focus(); e.setSelectionRange(2, 2); }');
    expect((await type({ selector: '#plain', text: 'new', clear: true })).value).toBe('new');
  });

  it('types by ref from a snapshot', async () => {
    await navigate('/pages/typing');
    const snapshot = String(expectSuccess(await tool('snapshot', { sessionId: sid })).snapshot);
    // Refs carry a frame prefix once the page has been replaced a few times (f12e2).
    const ref = /textbox \[ref=((?:f\d+)?e\d+)\]: abcd/.exec(snapshot)?.[1];
    expect(ref).toBeDefined();
    expect((await type({ ref, text: '!' })).value).toBe('abcd!');
  });

  it('refuses what is not an editable field without touching the focus, and a disabled one', async () => {
    await navigate('/pages/typing');
    await evaluate('() => document.querySelector("#plain").focus()');
    const button = expectError(await tool('type', { sessionId: sid, selector: '#button', text: 'x', timeout: 500 }), 'ELEMENT_NOT_EDITABLE');
    expect(button.details.reason).toMatch(/not an editable field/);
    expect(await evaluate('() => document.activeElement.id')).toBe('plain');
    expect(expectError(await tool('type', { sessionId: sid, selector: '#disabled', text: 'x', timeout: 500 }), 'ELEMENT_NOT_EDITABLE').details.reason).toBe(
      'disabled',
    );
  });
});
