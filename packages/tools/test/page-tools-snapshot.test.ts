// snapshot and refs in process (runTool over a real SessionManager, Chromium and the fixture server): roles, names and refs on the fixture pages, the agent loop, stale refs, truncation.
import { describe, expect, it } from 'vitest';
import { useTools } from './tool-harness.js';

const server = useTools();
const { call, createSession, sessionOn } = server;

/** The ref on the snapshot line that matches, e.g. refOf(text, /textbox "Name"/). */
function refOf(snapshot: string, line: RegExp): string {
  const found = snapshot.split('\n').find((text) => line.test(text));
  const ref = found && /\[ref=([^\]]+)\]/.exec(found)?.[1];
  if (!ref) throw new Error(`no line matching ${line} with a ref in:\n${snapshot}`);
  return ref;
}

describe('snapshot', () => {
  it("shows the form page's roles, names and refs, and the result has the contract's shape", async () => {
    const sessionId = await sessionOn('form');
    const { isError, json, result } = await call('snapshot', { sessionId });
    expect(isError).toBe(false);
    expect(json.url).toBe(server.fixture().urlFor('/pages/form'));
    expect(json.title).toBe('Form');
    expect(json.truncated).toBeUndefined();
    expect(typeof json.expiresAt).toBe('number');
    expect(result.structuredContent).toEqual(json);
    const text: string = json.snapshot;
    expect(text).toMatch(/textbox "Name" \[ref=(f\d+)?e\d+\]/);
    expect(text).toMatch(/textbox "Email" \[ref=(f\d+)?e\d+\]/);
    expect(text).toMatch(/textbox \[disabled\] \[ref=/);
    expect(text).toMatch(/combobox \[ref=/);
    expect(text).toMatch(/option "Red" \[selected\]/);
    expect(text).toMatch(/checkbox \[ref=/);
    expect(text).toMatch(/button "Send" \[ref=/);
    // Every ref on the page is distinct.
    const refs = [...text.matchAll(/\[ref=([^\]]+)\]/g)].map((match) => match[1]);
    expect(new Set(refs).size).toBe(refs.length);
    expect(refs.length).toBeGreaterThanOrEqual(10);
  });

  it("gives each of the list's repeated buttons its own ref, and a ref clicks exactly that one", async () => {
    const sessionId = await sessionOn('list');
    const text: string = (await call('snapshot', { sessionId })).json.snapshot;
    const buyRefs = [...text.matchAll(/button "Buy" \[ref=([^\]]+)\]/g)].map((match) => match[1]);
    expect(buyRefs).toHaveLength(5);
    expect(new Set(buyRefs).size).toBe(5);
    expect(text).toMatch(/textbox "Search" \[ref=/);
    expect(text).toContain('Cherry');

    // The selector is ambiguous; the ref is not.
    const ambiguous = await call('click', { sessionId, selector: 'button.buy' });
    expect(ambiguous.json.errorCode).toBe('ELEMENT_AMBIGUOUS');
    const marked = await call('evaluate', {
      sessionId,
      function:
        "() => { document.querySelectorAll('button.buy').forEach((b, i) => b.addEventListener('click', () => { document.title = " +
        "'bought ' + i; })); return true; }",
    });
    expect(marked.isError).toBe(false);
    const clicked = await call('click', { sessionId, ref: buyRefs[2] });
    expect(clicked.isError, JSON.stringify(clicked.json)).toBe(false);
    expect(clicked.json.title).toBe('bought 2');
  });

  it('snapshots inside the iframe with frame-prefixed refs that click and type in the frame', async () => {
    const sessionId = await sessionOn('iframe');
    const text: string = (await call('snapshot', { sessionId })).json.snapshot;
    expect(text).toMatch(/- iframe \[ref=/);
    expect(text).toMatch(/button "Outer" \[ref=/);
    const nameRef = refOf(text, /textbox "Name"/);
    const sendRef = refOf(text, /button "Send"/);
    const iframeRef = refOf(text, /- iframe/);
    // Refs in the frame carry a different frame prefix from the outer page's.
    expect(nameRef).toMatch(/^f\d+e\d+$/);
    expect(nameRef.replace(/e\d+$/, '')).not.toBe(iframeRef.replace(/e\d+$/, ''));

    const typed = await call('type', { sessionId, ref: nameRef, text: 'Framed' });
    expect(typed.isError, JSON.stringify(typed.json)).toBe(false);
    expect(typed.json.value).toBe('Framed');
    const posts = server.fixture().posts.length;
    const clicked = await call('click', { sessionId, ref: sendRef });
    expect(clicked.isError, JSON.stringify(clicked.json)).toBe(false);
    await expect.poll(() => server.fixture().posts.length).toBe(posts + 1);
    expect(server.fixture().posts.at(-1)?.fields.name).toBe('Framed');
    // The outer page stays; only the frame navigated.
    expect(clicked.json.url).toBe(server.fixture().urlFor('/pages/iframe'));
  });

  it('snapshots one element by selector or by ref, and limits depth', async () => {
    const sessionId = await sessionOn('list');
    const whole: string = (await call('snapshot', { sessionId })).json.snapshot;
    const bySelector = await call('snapshot', { sessionId, selector: '#items' });
    expect(bySelector.isError).toBe(false);
    expect(bySelector.json.snapshot).toMatch(/^- list \[ref=/);
    expect(bySelector.json.snapshot).not.toContain('Search');
    expect(bySelector.json.snapshot).toContain('Elderberry');
    const listRef = refOf(whole, /- list \[/);
    const byRef = await call('snapshot', { sessionId, ref: listRef });
    expect(byRef.json.snapshot).toBe(bySelector.json.snapshot);
    const shallow = await call('snapshot', { sessionId, depth: 1 });
    expect(shallow.json.snapshot).toMatch(/list \[ref=/);
    expect(shallow.json.snapshot).not.toContain('button "Buy"');

    expect((await call('snapshot', { sessionId, selector: '#nothing-here' })).json.errorCode).toBe('ELEMENT_NOT_FOUND');
    expect((await call('snapshot', { sessionId, selector: 'li' })).json.errorCode).toBe('ELEMENT_AMBIGUOUS');
    const both = await call('snapshot', { sessionId, selector: '#items', ref: listRef });
    expect(both.json.errorCode).toBe('INVALID_PARAMETERS');
  });

  it('shows the change after a click on the changes page', async () => {
    const sessionId = await sessionOn('changes');
    const before: string = (await call('snapshot', { sessionId })).json.snapshot;
    expect(before).toMatch(/button "Reveal"/);
    expect(before).not.toContain('Now you see me');
    const clicked = await call('click', { sessionId, ref: refOf(before, /button "Reveal"/), includeSnapshot: true });
    expect(clicked.isError).toBe(false);
    // includeSnapshot returns what a separate snapshot call would.
    expect(clicked.json.snapshot).toContain('Now you see me');
    expect(clicked.json.snapshot).toMatch(/button "Hide"/);
    const after: string = (await call('snapshot', { sessionId })).json.snapshot;
    expect(after).toBe(clicked.json.snapshot);
  });

  it('cuts a long page at maxChars (default 40 000) with a note saying what was cut and which ref to ask for', async () => {
    const sessionId = await sessionOn('long-list');
    const full = await call('snapshot', { sessionId, maxChars: 200_000 });
    expect(full.json.truncated).toBeUndefined();
    const whole: string = full.json.snapshot;
    expect(whole).toContain('Item 1499');
    expect(whole).toMatch(/link "Back to top"/);
    expect(whole.length).toBeGreaterThan(60_000);

    const cut = await call('snapshot', { sessionId });
    expect(cut.json.truncated).toBe(true);
    const text: string = cut.json.snapshot;
    expect(text.length).toBeLessThanOrEqual(40_000);
    expect(text.length).toBeGreaterThan(39_000);
    expect(text).toContain('Item 0:');
    expect(text).not.toContain('Item 1499');
    expect(text).not.toContain('Back to top');
    // Cut at a line boundary: the kept part is a prefix of whole lines of the full snapshot.
    expect(whole.startsWith(`${text}\n`)).toBe(true);
    const note: string = cut.json.note;
    expect(note).toContain(`of ${whole.length} characters`);
    expect(note).toMatch(/selector or ref/);
    expect(note).toMatch(/depth/);
    expect(note).toMatch(/maxChars/);
    // The note names the list the cut falls in by its ref, and that ref gives the list alone.
    const listRef = refOf(whole, /- list \[/);
    expect(note).toContain(`inside list [ref=${listRef}]`);
    expect(note).toContain(`take a snapshot of ref "${listRef}"`);
    const list = await call('snapshot', { sessionId, ref: listRef, maxChars: 200_000 });
    expect(list.json.snapshot).toMatch(/^- list \[ref=/);
    expect(list.json.snapshot).toContain('Item 1499');

    const outline = await call('snapshot', { sessionId, depth: 2 });
    expect(outline.json.truncated).toBeUndefined();
    expect(outline.json.snapshot).toContain(`list [ref=${listRef}]`);
    expect(outline.json.snapshot).toMatch(/link "Back to top"/);
    expect(outline.json.snapshot).not.toContain('Item 1');

    const small = await call('snapshot', { sessionId, maxChars: 1_000 });
    expect(small.json.truncated).toBe(true);
    expect((small.json.snapshot as string).length).toBeLessThanOrEqual(1_000);
    expect((await call('snapshot', { sessionId, maxChars: 10 })).json.errorCode).toBe('INVALID_PARAMETERS');
  });

  it('says so when the page has no content', async () => {
    const empty = await call('snapshot', { sessionId: await createSession() });
    expect(empty.isError).toBe(false);
    expect(empty.json.snapshot).toBe('');
    expect(empty.json.note).toMatch(/navigate/);
  });
});

describe('the agent loop', () => {
  it('snapshot → click by ref → snapshot shows the change → type by ref → submit reaches the server', async () => {
    const sessionId = await createSession();
    const nav = await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/changes'), includeSnapshot: true });
    expect(nav.json.status).toBe(200);
    const first: string = nav.json.snapshot;
    const reveal = await call('click', { sessionId, ref: refOf(first, /button "Reveal"/) });
    expect(reveal.json.message).toBe('Clicked.');
    const second: string = (await call('snapshot', { sessionId })).json.snapshot;
    expect(second).toContain('Now you see me');

    await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/form') });
    const form: string = (await call('snapshot', { sessionId })).json.snapshot;
    const name = await call('type', { sessionId, ref: refOf(form, /textbox "Name"/), text: 'Ada' });
    expect(name.json.value).toBe('Ada');
    const email = await call('type', { sessionId, ref: refOf(form, /textbox "Email"/), text: 'ada@example.com' });
    expect(email.json.value).toBe('ada@example.com');
    const chosen = await call('select_option', { sessionId, ref: refOf(form, /combobox/), values: ['Blue'] });
    expect(chosen.json.selected).toEqual([{ value: 'b', label: 'Blue' }]);
    const posts = server.fixture().posts.length;
    const sent = await call('click', { sessionId, ref: refOf(form, /button "Send"/), includeSnapshot: true });
    expect(sent.isError, JSON.stringify(sent.json)).toBe(false);
    expect(sent.json.url).toBe(server.fixture().urlFor('/submit'));
    expect(sent.json.title).toBe('Submitted');
    expect(sent.json.message).toMatch(/navigated/);
    expect(sent.json.snapshot).toMatch(/heading "Submitted"/);
    expect(server.fixture().posts.length).toBe(posts + 1);
    expect(server.fixture().posts.at(-1)?.fields).toMatchObject({ name: 'Ada', email: 'ada@example.com', color: 'b' });
  });
});

describe('stale refs', () => {
  it('answers ELEMENT_NOT_FOUND with a take-a-new-snapshot hint after the page changed, for every tool that takes a ref', async () => {
    const sessionId = await sessionOn('form');
    const form: string = (await call('snapshot', { sessionId })).json.snapshot;
    const nameRef = refOf(form, /textbox "Name"/);
    const colorRef = refOf(form, /combobox/);
    const sendRef = refOf(form, /button "Send"/);
    const checkboxRef = refOf(form, /checkbox/);
    await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/buttons') });
    // Take a snapshot of the new page too, so the old refs' frame prefix is no longer the latest.
    await call('snapshot', { sessionId });

    const attempts: [string, Record<string, unknown>][] = [
      ['click', { ref: sendRef }],
      ['type', { ref: nameRef, text: 'x' }],
      ['hover', { ref: sendRef }],
      ['select_option', { ref: colorRef, values: ['Red'] }],
      ['press_key', { ref: nameRef, key: 'Enter' }],
      ['check', { ref: checkboxRef }],
      ['screenshot', { ref: sendRef }],
      ['snapshot', { ref: sendRef }],
      ['wait_for', { ref: sendRef }],
      ['evaluate', { ref: sendRef, function: '(el) => el.textContent' }],
    ];
    for (const [tool, args] of attempts) {
      const started = Date.now();
      const { isError, json } = await call(tool, { sessionId, ...args });
      expect(isError, tool).toBe(true);
      expect(json.errorCode, `${tool}: ${JSON.stringify(json)}`).toBe('ELEMENT_NOT_FOUND');
      expect(json.message, tool).toMatch(/new snapshot/);
      expect(json.details.next, tool).toBe('new_snapshot');
      expect(json.message, tool).toMatch(/take a new snapshot/i);
      expect(json.sessionId).toBe(sessionId);
      // A stale ref fails at once rather than after the element timeout (5 s); wide margin.
      expect(Date.now() - started, tool).toBeLessThan(4_000);
    }
  });

  it('answers ELEMENT_NOT_FOUND for a ref of the same document that no element has', async () => {
    const sessionId = await sessionOn('form');
    const form: string = (await call('snapshot', { sessionId })).json.snapshot;
    const prefix = refOf(form, /button "Send"/).replace(/e\d+$/, '');
    const { json } = await call('click', { sessionId, ref: `${prefix}e999` });
    expect(json.errorCode).toBe('ELEMENT_NOT_FOUND');
    expect(json.details.next).toBe('new_snapshot');
  });

  it('rejects a malformed ref and a call naming both selector and ref as INVALID_PARAMETERS', async () => {
    const sessionId = await sessionOn('form');
    expect((await call('click', { sessionId, ref: 'button-1' })).json.errorCode).toBe('INVALID_PARAMETERS');
    const both = await call('click', { sessionId, ref: 'e1', selector: '#submit' });
    expect(both.json.errorCode).toBe('INVALID_PARAMETERS');
    expect(both.json.message).toMatch(/exactly one of "selector" or "ref"/);
    expect((await call('hover', { sessionId })).json.errorCode).toBe('INVALID_PARAMETERS');
  });
});
