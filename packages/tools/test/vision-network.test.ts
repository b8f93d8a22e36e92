// The `vision` and `network` caps in process, in both profiles (runTool over a real SessionManager, Chromium and the fixture server): what a page saw of the mouse by coordinates, and what it got from routed, mocked and offline requests.
import { readFileSync } from 'node:fs';
import type { FixtureServer } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const MOUSE_PAGE = `<!doctype html><html><head><title>Mouse pad</title><style>
body { margin: 0 } #pad { position: absolute; left: 0; top: 0; width: 400px; height: 300px; background: #eee }
#go { position: absolute; left: 450px; top: 50px; width: 100px; height: 40px; display: block; background: #ccf }
#ask { position: absolute; left: 450px; top: 150px; width: 100px; height: 40px }
#tall { position: absolute; top: 0; left: 600px; width: 10px; height: 3000px }
</style></head><body><div id="pad"></div><a id="go" href="/pages/home">go</a><button id="ask" onclick="document.title = confirm('sure?') ? 'yes' : 'no'">ask</button><div id="tall"></div><script>
window.seen = [];
for (const type of ['mousemove', 'mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu']) {
  document.getElementById('pad').addEventListener(type, (e) => { if (type === 'contextmenu') e.preventDefault(); seen.push({ type, x: e.clientX, y: e.clientY, button: e.button }); });
}
addEventListener('wheel', (e) => seen.push({ type: 'wheel', x: e.clientX, y: e.clientY, deltaX: e.deltaX, deltaY: e.deltaY }), { passive: true });
</script></body></html>`;

/** Waits in the page until it has seen an event of this type, then answers every event it saw. */
const seenOnce = (type: string) =>
  `() => new Promise((resolve) => { const check = () => seen.some((e) => e.type === '${type}') ? resolve(seen) : requestAnimationFrame(check); check(); })`;

const FETCH_JSON = `async () => { try { const r = await fetch('/api/json?tag=a'); return { status: r.status, type: r.headers.get('content-type'), text: await r.text() }; } catch (e) { return { failed: String(e) }; } }`;
const FETCH_HEADERS = `async () => (await fetch('/api/headers', { headers: { 'x-drop': 'dropped', 'x-keep': 'kept' } })).json()`;

const fixture = { pages: { mouse: MOUSE_PAGE } };

/** One profile's way to call the tools under test, so both profiles run the same checks. */
interface Face {
  name: string;
  /** The harness for this profile, as a server started with --caps vision,network. */
  harness(): ReturnType<typeof useTools>;
  navigate(sessionId: string, url: string): [string, Record<string, unknown>];
  evaluate(sessionId: string, source: string): [string, Record<string, unknown>];
  move(sessionId: string, x: number, y: number): [string, Record<string, unknown>];
  click(sessionId: string, x: number, y: number, extra?: { button?: string; clickCount?: number }): [string, Record<string, unknown>];
  drag(sessionId: string, from: [number, number], to: [number, number]): [string, Record<string, unknown>];
  press(sessionId: string, action: 'down' | 'up', button: string): [string, Record<string, unknown>];
  wheel(sessionId: string, deltaX: number, deltaY: number): [string, Record<string, unknown>];
  mock(sessionId: string, pattern: string, status: number, body: string, contentType: string): [string, Record<string, unknown>];
  rewrite(sessionId: string, pattern: string, header: [string, string], remove: string): [string, Record<string, unknown>];
  list(sessionId: string): [string, Record<string, unknown>];
  unroute(sessionId: string, pattern?: string): [string, Record<string, unknown>];
  offline(sessionId: string, offline: boolean): [string, Record<string, unknown>];
}

const sessionsFace: Face = {
  name: 'default profile',
  harness: () => useTools({ fixture }),
  navigate: (sessionId, url) => ['navigate', { sessionId, url }],
  evaluate: (sessionId, source) => ['evaluate', { sessionId, function: source }],
  move: (sessionId, x, y) => ['mouse', { sessionId, action: 'move', x, y }],
  click: (sessionId, x, y, extra = {}) => ['mouse', { sessionId, action: 'click', x, y, ...extra }],
  drag: (sessionId, [x, y], [toX, toY]) => ['mouse', { sessionId, action: 'drag', x, y, toX, toY }],
  press: (sessionId, action, button) => ['mouse', { sessionId, action, button }],
  wheel: (sessionId, deltaX, deltaY) => ['mouse', { sessionId, action: 'wheel', deltaX, deltaY }],
  mock: (sessionId, pattern, status, body, contentType) => ['route', { sessionId, action: 'add', pattern, status, body, contentType }],
  rewrite: (sessionId, pattern, [name, value], remove) => ['route', { sessionId, action: 'add', pattern, headers: { [name]: value }, removeHeaders: [remove] }],
  list: (sessionId) => ['route', { sessionId, action: 'list' }],
  unroute: (sessionId, pattern) => ['route', { sessionId, action: 'remove', ...(pattern === undefined ? {} : { pattern }) }],
  offline: (sessionId, offline) => ['emulate', { sessionId, offline }],
};

const playwrightFace: Face = {
  name: 'playwright profile',
  harness: () => useTools({ fixture, profile: playwrightProfile(['vision', 'network']) }),
  navigate: (sessionId, url) => ['browser_navigate', { sessionId, url }],
  evaluate: (sessionId, source) => ['browser_evaluate', { sessionId, function: source }],
  move: (sessionId, x, y) => ['browser_mouse_move_xy', { sessionId, x, y }],
  click: (sessionId, x, y, extra = {}) => ['browser_mouse_click_xy', { sessionId, x, y, ...extra }],
  drag: (sessionId, [startX, startY], [endX, endY]) => ['browser_mouse_drag_xy', { sessionId, startX, startY, endX, endY }],
  press: (sessionId, action, button) => [action === 'down' ? 'browser_mouse_down' : 'browser_mouse_up', { sessionId, button }],
  wheel: (sessionId, deltaX, deltaY) => ['browser_mouse_wheel', { sessionId, deltaX, deltaY }],
  mock: (sessionId, pattern, status, body, contentType) => ['browser_route', { sessionId, pattern, status, body, contentType }],
  rewrite: (sessionId, pattern, [name, value], remove) => ['browser_route', { sessionId, pattern, headers: [`${name}: ${value}`], removeHeaders: remove }],
  list: (sessionId) => ['browser_route_list', { sessionId }],
  unroute: (sessionId, pattern) => ['browser_unroute', { sessionId, ...(pattern === undefined ? {} : { pattern }) }],
  offline: (sessionId, offline) => ['browser_network_state_set', { sessionId, state: offline ? 'offline' : 'online' }],
};

type Seen = { type: string; x: number; y: number; button?: number; deltaX?: number; deltaY?: number };

describe.each([sessionsFace, playwrightFace])('$name', (face) => {
  const harness = face.harness();
  let fx: FixtureServer;
  beforeAll(() => {
    fx = harness.fixture();
  });
  const run = async ([name, args]: [string, Record<string, unknown>]) => harness.checkedCall(name, args);
  const ok = async (step: [string, Record<string, unknown>]) => expectSuccess(await run(step));
  const evaluate = async (sessionId: string, source: string) => (await ok(face.evaluate(sessionId, source))).result;

  async function sessionOn(page: string): Promise<string> {
    const sessionId = await harness.createSession();
    await ok(face.navigate(sessionId, fx.urlFor(`/pages/${page}`)));
    return sessionId;
  }

  it('moves, clicks, double-clicks and right-clicks where the page sees it', async () => {
    const sessionId = await sessionOn('mouse');
    const moved = await ok(face.move(sessionId, 100, 80));
    expect(moved).toMatchObject({ url: fx.urlFor('/pages/mouse'), title: 'Mouse pad' });
    let seen = (await evaluate(sessionId, seenOnce('mousemove'))) as Seen[];
    expect(seen.at(-1)).toMatchObject({ type: 'mousemove', x: 100, y: 80 });

    await evaluate(sessionId, '() => { seen.length = 0; }');
    const clicked = await ok(face.click(sessionId, 120, 90));
    expect(clicked).toMatchObject({ url: fx.urlFor('/pages/mouse'), title: 'Mouse pad' });
    seen = (await evaluate(sessionId, seenOnce('click'))) as Seen[];
    expect(seen.filter((event) => event.type !== 'mousemove')).toEqual([
      { type: 'mousedown', x: 120, y: 90, button: 0 },
      { type: 'mouseup', x: 120, y: 90, button: 0 },
      { type: 'click', x: 120, y: 90, button: 0 },
    ]);

    await evaluate(sessionId, '() => { seen.length = 0; }');
    await ok(face.click(sessionId, 50, 60, { clickCount: 2 }));
    seen = (await evaluate(sessionId, seenOnce('dblclick'))) as Seen[];
    expect(seen.find((event) => event.type === 'dblclick')).toMatchObject({ x: 50, y: 60 });

    await evaluate(sessionId, '() => { seen.length = 0; }');
    await ok(face.click(sessionId, 70, 40, { button: 'right' }));
    seen = (await evaluate(sessionId, seenOnce('contextmenu'))) as Seen[];
    expect(seen.find((event) => event.type === 'mousedown')).toMatchObject({ x: 70, y: 40, button: 2 });
  });

  it('drags from one point to another, and presses and releases a button where the mouse is', async () => {
    const sessionId = await sessionOn('mouse');
    await ok(face.drag(sessionId, [10, 20], [200, 150]));
    let seen = (await evaluate(sessionId, seenOnce('mouseup'))) as Seen[];
    const down = seen.findIndex((event) => event.type === 'mousedown');
    const up = seen.findIndex((event) => event.type === 'mouseup');
    expect(seen[down]).toMatchObject({ x: 10, y: 20, button: 0 });
    expect(seen[up]).toMatchObject({ x: 200, y: 150, button: 0 });
    // The page saw the pointer travel between the ends, with the button held.
    const between = seen.slice(down + 1, up).filter((event) => event.type === 'mousemove');
    expect(between.length).toBeGreaterThan(1);
    expect(between.at(-1)).toMatchObject({ x: 200, y: 150 });

    await evaluate(sessionId, '() => { seen.length = 0; }');
    await ok(face.move(sessionId, 30, 30));
    await ok(face.press(sessionId, 'down', 'middle'));
    await ok(face.press(sessionId, 'up', 'middle'));
    seen = (await evaluate(sessionId, seenOnce('mouseup'))) as Seen[];
    expect(seen.filter((event) => event.type === 'mousedown' || event.type === 'mouseup')).toEqual([
      { type: 'mousedown', x: 30, y: 30, button: 1 },
      { type: 'mouseup', x: 30, y: 30, button: 1 },
    ]);
  });

  it('turns the wheel: the page sees the deltas and scrolls', async () => {
    const sessionId = await sessionOn('mouse');
    await ok(face.move(sessionId, 300, 200));
    await ok(face.wheel(sessionId, 0, 400));
    const seen = (await evaluate(sessionId, seenOnce('wheel'))) as Seen[];
    expect(seen.find((event) => event.type === 'wheel')).toMatchObject({ x: 300, y: 200, deltaX: 0, deltaY: 400 });
    const scrolled = await evaluate(
      sessionId,
      '() => new Promise((resolve) => { const check = () => scrollY > 0 ? resolve(scrollY) : requestAnimationFrame(check); check(); })',
    );
    expect(scrolled).toBeGreaterThan(0);
  });

  it('waits for the navigation a click by coordinates starts, and says where it landed', async () => {
    const sessionId = await sessionOn('mouse');
    const clicked = await ok(face.click(sessionId, 500, 70));
    expect(clicked).toMatchObject({ url: fx.urlFor('/pages/home'), title: 'Home' });
    if (face === playwrightFace) expect(readFileSync(clicked.snapshotFile as string, 'utf8')).toContain('Fixture home');
  });

  it('a click by coordinates that opens a dialog: answered at once by default, held for browser_handle_dialog in the playwright profile', async () => {
    const sessionId = await sessionOn('mouse');
    const clicked = await ok(face.click(sessionId, 500, 170));
    if (face === sessionsFace) {
      expect(clicked.dialogs).toEqual([{ type: 'confirm', message: 'sure?', action: 'dismissed' }]);
      expect(await evaluate(sessionId, '() => document.title')).toBe('no');
      return;
    }
    expect(clicked.modalState).toMatchObject({ type: 'dialog', dialogType: 'confirm', dialogMessage: 'sure?' });
    const answered = expectSuccess(await harness.checkedCall('browser_handle_dialog', { sessionId, accept: true }));
    expect(answered.modalState).toBeUndefined();
    expect(await evaluate(sessionId, '() => document.title')).toBe('yes');
    // The session goes on: the next click by coordinates reaches the page.
    await ok(face.click(sessionId, 5, 5));
    expect(((await evaluate(sessionId, seenOnce('click'))) as Seen[]).find((event) => event.type === 'click')).toMatchObject({ x: 5, y: 5 });
  });

  it('refuses a point outside the viewport clearly, and the session stays usable', async () => {
    const sessionId = await sessionOn('mouse');
    const refused = expectError(await run(face.click(sessionId, 5_000, 10)), 'INVALID_PARAMETERS', sessionId);
    expect(refused.message).toContain('outside the viewport');
    expect(refused.details.viewport.width).toBeGreaterThan(0);
    expectError(await run(face.move(sessionId, -1, 10)), 'INVALID_PARAMETERS', sessionId);
    expectError(await run(face.drag(sessionId, [10, 10], [10, 9_000])), 'INVALID_PARAMETERS', sessionId);
    // Nothing reached the page, and the next call works.
    expect(await evaluate(sessionId, '() => seen.filter((e) => e.type !== "mousemove").length')).toBe(0);
    await ok(face.click(sessionId, 5, 5));
    expect(((await evaluate(sessionId, seenOnce('click'))) as Seen[]).find((event) => event.type === 'click')).toMatchObject({ x: 5, y: 5 });
  });

  it('answers a routed URL with the mocked response in the page; unrouting restores it; another session is unaffected', async () => {
    const sessionId = await sessionOn('home');
    const other = await sessionOn('home');
    const added = await ok(face.mock(sessionId, '**/api/json*', 201, '{"mocked":true}', 'application/json'));
    expect(added).toMatchObject({ url: fx.urlFor('/pages/home'), title: 'Home' });
    expect(await evaluate(sessionId, FETCH_JSON)).toEqual({ status: 201, type: 'application/json', text: '{"mocked":true}' });
    expect(await evaluate(other, FETCH_JSON)).toMatchObject({ status: 200, text: '{"ok":true,"tag":"a"}' });

    const listed = await ok(face.list(sessionId));
    expect(listed.routes).toEqual([
      { pattern: '**/api/json*', mocked: true, status: 201, contentType: 'application/json', bodyLength: 15, bodyStart: '{"mocked":true}' },
    ]);
    expect((await ok(face.list(other))).routes).toEqual([]);

    const removed = await ok(face.unroute(sessionId, '**/api/json*'));
    expect(removed).toMatchObject({ removed: 1, routes: [] });
    expect(await evaluate(sessionId, FETCH_JSON)).toMatchObject({ status: 200, text: '{"ok":true,"tag":"a"}' });
  });

  it('sends a routed request on with headers set and removed, without showing header values', async () => {
    const sessionId = await sessionOn('home');
    const before = (await evaluate(sessionId, FETCH_HEADERS)) as Record<string, string>;
    expect(before).toMatchObject({ 'x-drop': 'dropped', 'x-keep': 'kept' });
    const added = await run(face.rewrite(sessionId, '**/api/headers', ['X-Added', 'secret-value-42'], 'x-drop'));
    expectSuccess(added);
    const seen = (await evaluate(sessionId, FETCH_HEADERS)) as Record<string, string>;
    expect(seen['x-added']).toBe('secret-value-42');
    expect(seen['x-keep']).toBe('kept');
    expect(seen).not.toHaveProperty('x-drop');
    const listed = await run(face.list(sessionId));
    expect(expectSuccess(listed).routes).toEqual([{ pattern: '**/api/headers', mocked: false, headers: ['X-Added'], removeHeaders: ['x-drop'] }]);
    for (const outcome of [added, listed]) expect(JSON.stringify(outcome.result)).not.toContain('secret-value-42');
    // Without a pattern every route goes.
    expect(await ok(face.unroute(sessionId))).toMatchObject({ removed: 1 });
    expect(await evaluate(sessionId, FETCH_HEADERS)).toHaveProperty('x-drop', 'dropped');
  });

  it('takes the session offline, where fetch fails, and back online', async () => {
    const sessionId = await sessionOn('home');
    const other = await sessionOn('home');
    await ok(face.offline(sessionId, true));
    expect(await evaluate(sessionId, FETCH_JSON)).toHaveProperty('failed');
    expect(await evaluate(other, FETCH_JSON)).toMatchObject({ status: 200 });
    await ok(face.offline(sessionId, false));
    expect(await evaluate(sessionId, FETCH_JSON)).toMatchObject({ status: 200, text: '{"ok":true,"tag":"a"}' });
  });
});

describe('bad input to mouse and route', () => {
  const plain = useTools();
  const playwright = useTools({ profile: playwrightProfile(['vision', 'network']) });
  const tool = (name: string, args: Record<string, unknown> = {}) => plain.checkedCall(name, args);
  const browserTool = (name: string, args: Record<string, unknown> = {}) => playwright.checkedCall(name, args);

  it('refuses a mouse or route call missing what its action needs, or given what it does not take', async () => {
    const sessionId = await plain.sessionOn('home');
    expect(expectError(await tool('mouse', { sessionId, action: 'click', x: 10 }), 'INVALID_PARAMETERS').message).toContain('needs y');
    expect(expectError(await tool('mouse', { sessionId, action: 'move', x: 1, y: 1, deltaY: 3 }), 'INVALID_PARAMETERS').message).toContain(
      'does not take deltaY',
    );
    expect(expectError(await tool('route', { sessionId, action: 'add' }), 'INVALID_PARAMETERS').message).toContain('needs a pattern');
    expect(expectError(await tool('route', { sessionId, action: 'list', body: 'x' }), 'INVALID_PARAMETERS').message).toContain('does not take body');
    expectError(await tool('route', { sessionId, action: 'add', pattern: '**/x', headers: { 'bad name': 'v' } }), 'INVALID_PARAMETERS');
    expectSuccess(await tool('mouse', { sessionId, action: 'click', x: 1, y: 1 }));

    expectError(await browserTool('browser_route', { pattern: '**/x', headers: ['no colon here'] }), 'INVALID_PARAMETERS');
    expectError(await browserTool('browser_route', { pattern: '**/x', body: 'y'.repeat(1_000_001) }), 'INVALID_PARAMETERS');
    expectError(await browserTool('browser_mouse_click_xy', { x: 1, y: 1, clickCount: 1.5 }), 'INVALID_PARAMETERS');
    expectSuccess(await browserTool('browser_mouse_click_xy', { x: 1, y: 1 }));
  });

  it('holds at most 50 routes per session', async () => {
    const sessionId = await plain.createSession();
    for (let index = 0; index < 50; index += 1) expectSuccess(await tool('route', { sessionId, action: 'add', pattern: `**/r${index}`, body: 'x' }));
    expect(expectError(await tool('route', { sessionId, action: 'add', pattern: '**/one-more', body: 'x' }), 'INVALID_PARAMETERS').message).toContain(
      '50 routes',
    );
    expect(expectSuccess(await tool('route', { sessionId, action: 'remove' })).removed).toBe(50);
    expectSuccess(await tool('route', { sessionId, action: 'add', pattern: '**/one-more', body: 'x' }));
  });
});
