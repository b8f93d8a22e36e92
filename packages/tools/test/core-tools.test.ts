// The core tools' success paths in process (runTool over a real SessionManager, Chromium and the fixture server): result shapes, selectors, click options, typing, navigation and expiry times.
import { waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, isUuidV4, useTools } from './tool-harness.js';

/** Every event a click can cause is mirrored into document.title as JSON, so a click's own result shows what it did. */
const PROBE = `<!doctype html><html><head><meta charset="utf-8"><title>{}</title></head><body>
<p><button id="inc" onclick="bump('inc')">Increment</button></p>
<p><button id="dbl" onclick="bump('click')" ondblclick="bump('dblclick')">Double-click me</button></p>
<p><span id="ctx" onclick="bump('left')" oncontextmenu="event.preventDefault(); bump('right')">Right-click me</span></p>
<div style="position:relative;width:300px;height:80px">
  <button id="covered" onclick="bump('covered')">Covered</button>
  <div id="overlay" onclick="bump('overlay')" style="position:absolute;inset:0;z-index:10"></div>
</div>
<p><input id="keys" oninput="bump('input')"></p>
<script>
  const state = {};
  function bump(key) { state[key] = (state[key] ?? 0) + 1; document.title = JSON.stringify(state); }
</script>
</body></html>`;

const harness = useTools({ maxSessions: 10, fixture: { pages: { probe: PROBE } } });
let fx: FixtureServer;
let sid: string;

beforeAll(async () => {
  fx = harness.fixture();
  sid = expectSuccess(await tool('create_session')).sessionId;
});

const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
const open = async (path: string) => expectSuccess(await tool('navigate', { sessionId: sid, url: fx.urlFor(path) }));
/** Clicks on the probe page and returns the page's event counts, read from the title in the click's own result. */
const clickProbe = async (args: Record<string, unknown>) => JSON.parse(expectSuccess(await tool('click', { sessionId: sid, ...args })).title);

describe('create_session', () => {
  it('answers a UUID v4 and expiresAt = createdAt + the default 300 000 ms timeout', async () => {
    const before = Date.now();
    const created = expectSuccess(await tool('create_session'));
    try {
      expect(Object.keys(created).sort()).toEqual(['createdAt', 'expiresAt', 'message', 'options', 'sessionId']);
      expect(created.options).toEqual({});
      expect(isUuidV4(created.sessionId), String(created.sessionId)).toBe(true);
      expect(created.createdAt).toBeGreaterThanOrEqual(before);
      expect(created.createdAt).toBeLessThanOrEqual(Date.now());
      expect(created.expiresAt).toBe(created.createdAt + 300_000);
      expect(created.message).toMatch(/navigate/);
    } finally {
      expectSuccess(await tool('close_session', { sessionId: created.sessionId }));
    }
  });

  it('gives every session a different id', async () => {
    const ids = await Promise.all([0, 1, 2].map(async () => expectSuccess(await tool('create_session')).sessionId as string));
    expect(new Set([...ids, sid]).size).toBe(4);
    await Promise.all(ids.map(async (id) => expectSuccess(await tool('close_session', { sessionId: id }))));
  });
});

describe('close_session', () => {
  it('closes the session: success answer, gone from list_sessions, and the id stops working', async () => {
    const { sessionId } = expectSuccess(await tool('create_session'));
    const closed = expectSuccess(await tool('close_session', { sessionId }));
    expect(closed).toEqual({ success: true, sessionId, message: expect.any(String) });
    const { sessions } = expectSuccess(await tool('list_sessions'));
    expect(sessions.map((entry: { sessionId: string }) => entry.sessionId)).not.toContain(sessionId);
    const again = expectError(await tool('navigate', { sessionId, url: 'about:blank' }), 'SESSION_NOT_FOUND', sessionId);
    expect(again.details).toEqual({ reason: 'closed', next: 'new_session' });
  });
});

describe('list_sessions', () => {
  it("lists this connection's open sessions with url, title and times, and maxSessions", async () => {
    await open('/pages/form');
    const other = expectSuccess(await tool('create_session')).sessionId as string;
    try {
      const listed = expectSuccess(await tool('list_sessions'));
      expect(Object.keys(listed).sort()).toEqual(['maxSessions', 'sessions']);
      expect(listed.maxSessions).toBe(10);
      const byId = new Map(listed.sessions.map((entry: { sessionId: string }) => [entry.sessionId, entry]));
      expect([...byId.keys()].sort()).toEqual([sid, other].sort());
      expect(byId.get(sid)).toEqual({
        sessionId: sid,
        createdAt: expect.any(Number),
        expiresAt: expect.any(Number),
        url: fx.urlFor('/pages/form'),
        title: 'Form',
        viewport: { width: 1280, height: 720 },
        endpoint: 'local',
      });
      expect(byId.get(other)).toMatchObject({ sessionId: other, url: 'about:blank', title: '' });
    } finally {
      expectSuccess(await tool('close_session', { sessionId: other }));
    }
  });

  it('does not count as use: expiresAt in the list stays where the last call left it', async () => {
    const last = (await open('/pages/home')).expiresAt;
    // Once the clock has passed the last call, a list that counted as use would move expiresAt.
    await waitFor(() => Date.now() + 300_000 > last, { interval: 1 });
    const { sessions } = expectSuccess(await tool('list_sessions'));
    expect(sessions.find((entry: { sessionId: string }) => entry.sessionId === sid).expiresAt).toBe(last);
  });
});

describe('navigate', () => {
  it('answers the final URL, the title and the HTTP status', async () => {
    const result = await open('/pages/form');
    expect(result).toEqual({ success: true, url: fx.urlFor('/pages/form'), title: 'Form', status: 200, expiresAt: expect.any(Number) });
  });

  it('treats an HTTP error page as a success with its status', async () => {
    expect(await open('/status/404')).toMatchObject({ success: true, status: 404, title: 'Status 404', url: fx.urlFor('/status/404') });
    expect(await open('/status/500')).toMatchObject({ success: true, status: 500, title: 'Status 500' });
  });

  it('follows redirects and answers the final URL', async () => {
    const result = await open('/redirect?to=/pages/buttons');
    expect(result).toMatchObject({ url: fx.urlFor('/pages/buttons'), title: 'Buttons', status: 200 });
  });

  it('answers status null for about:blank and data: URLs', async () => {
    expect(expectSuccess(await tool('navigate', { sessionId: sid, url: 'about:blank' }))).toMatchObject({ url: 'about:blank', status: null, title: '' });
    const data = expectSuccess(await tool('navigate', { sessionId: sid, url: 'data:text/html,<title>Inline</title><p>hi' }));
    expect(data).toMatchObject({ status: null, title: 'Inline' });
  });

  it.each(['load', 'domcontentloaded', 'networkidle', 'commit'])('accepts waitUntil %s', async (waitUntil) => {
    const result = expectSuccess(await tool('navigate', { sessionId: sid, url: fx.urlFor('/pages/home'), waitUntil, timeout: 20_000 }));
    expect(result).toMatchObject({ url: fx.urlFor('/pages/home'), status: 200 });
  });

  it('waits for load by default: a page with a 1.5 s image is not answered before the image settles', async () => {
    const started = Date.now();
    await open('/pages/slow-image');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(fx.requests.filter((path) => path === '/wait?ms=1500').length).toBeGreaterThan(0);
  });
});

describe('click', () => {
  it('clicks by CSS, XPath (// and xpath=) and text= selectors', async () => {
    await open('/pages/probe');
    expect(await clickProbe({ selector: '#inc' })).toEqual({ inc: 1 });
    expect(await clickProbe({ selector: '//button[@id="inc"]' })).toEqual({ inc: 2 });
    expect(await clickProbe({ selector: 'xpath=//button[@id="inc"]' })).toEqual({ inc: 3 });
    expect(await clickProbe({ selector: 'text=Increment' })).toEqual({ inc: 4 });
    expect(await clickProbe({ selector: 'role=button[name="Increment"]' })).toEqual({ inc: 5 });
  });

  it('answers without navigating: same URL, message "Clicked."', async () => {
    await open('/pages/probe');
    const result = expectSuccess(await tool('click', { sessionId: sid, selector: '#inc' }));
    expect(result).toEqual({ success: true, message: 'Clicked.', url: fx.urlFor('/pages/probe'), title: '{"inc":1}', expiresAt: expect.any(Number) });
  });

  it('double-clicks with clickCount 2 and right-clicks with button "right"', async () => {
    await open('/pages/probe');
    expect(await clickProbe({ selector: '#dbl', clickCount: 2 })).toEqual({ click: 2, dblclick: 1 });
    expect(await clickProbe({ selector: '#ctx', button: 'right' })).toMatchObject({ right: 1 });
    expect(await clickProbe({ selector: '#ctx', button: 'left' })).toMatchObject({ right: 1, left: 1 });
  });

  it('clicks at a covered element with force: true (and refuses without it)', async () => {
    await open('/pages/probe');
    const refused = expectError(await tool('click', { sessionId: sid, selector: '#covered', timeout: 500 }), 'ELEMENT_NOT_CLICKABLE', sid);
    expect(refused.details.reason).toMatch(/covered by <div#overlay>/);
    // force skips the checks and clicks where the element is; as with a real mouse, whatever is on top receives it.
    expect(await clickProbe({ selector: '#covered', force: true })).toEqual({ overlay: 1 });
  });

  it("answers a click that follows a link with the new page's URL and title", async () => {
    await open('/pages/buttons');
    const result = expectSuccess(await tool('click', { sessionId: sid, selector: '#nav' }));
    expect(result).toMatchObject({ success: true, url: fx.urlFor('/pages/home'), title: 'Home' });
    expect(result.message).toContain(fx.urlFor('/pages/home'));
  });

  it('waits for a slow navigation a click starts to load before answering', async () => {
    await open('/pages/buttons');
    const result = expectSuccess(await tool('click', { sessionId: sid, selector: '#slow-nav' }));
    expect(result).toMatchObject({ url: fx.urlFor('/wait?ms=500'), title: 'Waited 500' });
  });
});

describe('type', () => {
  it("appends at the end by default and answers the field's value", async () => {
    await open('/pages/form');
    expect(expectSuccess(await tool('type', { sessionId: sid, selector: '#name', text: 'Ada' }))).toEqual({
      success: true,
      message: 'Typed 3 characters.',
      value: 'Ada',
      url: fx.urlFor('/pages/form'),
      title: 'Form',
      expiresAt: expect.any(Number),
    });
    expect(expectSuccess(await tool('type', { sessionId: sid, selector: '#name', text: ' Lovelace' })).value).toBe('Ada Lovelace');
  });

  it('empties the field first with clear: true', async () => {
    await open('/pages/form');
    await tool('type', { sessionId: sid, selector: '#name', text: 'old' });
    expect(expectSuccess(await tool('type', { sessionId: sid, selector: '#name', text: 'new', clear: true })).value).toBe('new');
    expect(expectSuccess(await tool('type', { sessionId: sid, selector: '#bio', text: 'line', clear: true })).value).toBe('line');
  });

  it('types key by key with delay, firing an input event per key', async () => {
    await open('/pages/probe');
    const started = Date.now();
    const result = expectSuccess(await tool('type', { sessionId: sid, selector: '#keys', text: 'abcde', delay: 100 }));
    expect(result.value).toBe('abcde');
    // Five keys 100 ms apart cannot take less than 0.4 s, whatever the machine.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(result.title)).toEqual({ input: 5 });
  });

  it('submits the form with submit: true; the fixture records the post and the result is the next page', async () => {
    await open('/pages/form');
    const posts = fx.posts.length;
    const result = expectSuccess(await tool('type', { sessionId: sid, selector: '#name', text: 'Grace', clear: true, submit: true }));
    expect(result).toMatchObject({ value: 'Grace', url: fx.urlFor('/submit'), title: 'Submitted' });
    expect(result.message).toMatch(/Enter/);
    expect(fx.posts.slice(posts)).toHaveLength(1);
    expect(fx.posts.at(-1)).toMatchObject({ path: '/submit', fields: { name: 'Grace' } });
  });

  it('types into a field named by XPath', async () => {
    await open('/pages/form');
    expect(expectSuccess(await tool('type', { sessionId: sid, selector: '//input[@id="email"]', text: 'a@b.c' })).value).toBe('a@b.c');
  });
});

describe('every call on a session moves expiresAt forward', () => {
  it('create, navigate, click, type each answer a later expiresAt, about sessionTimeout from now', async () => {
    const created = expectSuccess(await tool('create_session'));
    const sessionId = created.sessionId as string;
    try {
      const seen = [created.expiresAt as number];
      const calls: [string, Record<string, unknown>][] = [
        ['navigate', { url: fx.urlFor('/pages/form') }],
        ['type', { selector: '#name', text: 'x' }],
        ['click', { selector: '#agree' }],
        ['navigate', { url: fx.urlFor('/pages/home') }],
      ];
      for (const [name, args] of calls) {
        // The clock has ms resolution: the next call comes once it has passed the last one.
        await waitFor(() => Date.now() + 300_000 > seen.at(-1)!, { interval: 1 });
        const before = Date.now();
        const result = expectSuccess(await tool(name, { sessionId, ...args }));
        expect(result.expiresAt, name).toBeGreaterThan(seen.at(-1)!);
        expect(result.expiresAt).toBeGreaterThanOrEqual(before + 300_000);
        expect(result.expiresAt).toBeLessThanOrEqual(Date.now() + 300_000);
        seen.push(result.expiresAt);
      }
      const listed = expectSuccess(await tool('list_sessions')).sessions.find((entry: { sessionId: string }) => entry.sessionId === sessionId);
      expect(listed.expiresAt).toBe(seen.at(-1));
    } finally {
      await tool('close_session', { sessionId });
    }
  });
});
