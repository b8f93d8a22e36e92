// screenshot, wait_for and evaluate in process (runTool over a real SessionManager, Chromium and the fixture server): image headers and sizes, caps, wait conditions, results and errors.
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { useTools } from './tool-harness.js';

const server = useTools();
const { call, sessionOn } = server;

function headerSize(data: Buffer): { format: 'png' | 'jpeg'; width: number; height: number } {
  if (data.subarray(1, 4).toString('latin1') === 'PNG') return { format: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  expect(data.readUInt16BE(0)).toBe(0xffd8);
  for (let at = 2; at < data.length; ) {
    const marker = data.readUInt16BE(at);
    if (marker >= 0xffc0 && marker <= 0xffc3) return { format: 'jpeg', height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  throw new Error('no JPEG frame header');
}

/** The image item of a screenshot result, checked to decode fully at the size the JSON states. */
async function screenshotOf(args: Record<string, unknown>) {
  const { isError, json, result } = await call('screenshot', args);
  expect(isError, JSON.stringify(json)).toBe(false);
  expect(result.content).toHaveLength(2);
  expect(result.content[0]?.type).toBe('text');
  const image = result.content[1];
  if (image?.type !== 'image') throw new Error('content[1] is not an image');
  const data = Buffer.from(image.data, 'base64');
  const header = headerSize(data);
  const decoded = header.format === 'png' ? PNG.sync.read(data) : jpeg.decode(data);
  expect({ width: decoded.width, height: decoded.height }).toEqual({ width: header.width, height: header.height });
  expect(image.mimeType).toBe(header.format === 'png' ? 'image/png' : 'image/jpeg');
  expect(json).toMatchObject({ format: header.format, width: header.width, height: header.height, bytes: data.length });
  expect(result.structuredContent).toEqual(json);
  return { json, data, decoded };
}

describe('screenshot', () => {
  it('captures the viewport as a PNG of the stated size, with the JSON first and the image second', async () => {
    const sessionId = await sessionOn('form');
    const { json } = await screenshotOf({ sessionId });
    expect(json).toMatchObject({ url: server.fixture().urlFor('/pages/form'), title: 'Form', format: 'png', width: 1280, height: 720 });
    expect(json.scaled).toBeUndefined();
    expect(typeof json.expiresAt).toBe('number');
  });

  it('captures a JPEG whose quality changes its size', async () => {
    const sessionId = await sessionOn('noise');
    const low = await screenshotOf({ sessionId, format: 'jpeg', quality: 10 });
    const high = await screenshotOf({ sessionId, format: 'jpeg', quality: 60 });
    expect(low.json.format).toBe('jpeg');
    expect(low.json.bytes).toBeLessThan(high.json.bytes);
  });

  it('captures one element by ref or selector at its own size', async () => {
    const sessionId = await sessionOn('buttons');
    const snap: string = (await call('snapshot', { sessionId })).json.snapshot;
    const ref = /button "Increment" \[ref=([^\]]+)\]/.exec(snap)?.[1];
    const box = (
      await call('evaluate', { sessionId, selector: '#inc', function: '(el) => { const r = el.getBoundingClientRect(); return [r.width, r.height]; }' })
    ).json.result;
    const byRef = await screenshotOf({ sessionId, ref });
    expect(Math.abs(byRef.json.width - box[0])).toBeLessThanOrEqual(1);
    expect(Math.abs(byRef.json.height - box[1])).toBeLessThanOrEqual(1);
    const bySelector = await screenshotOf({ sessionId, selector: '#inc' });
    expect(bySelector.json.width).toBe(byRef.json.width);
  });

  it('scales a full-page capture taller than the side cap down to 2000 px and says so', async () => {
    const sessionId = await sessionOn('long-list');
    const height = (await call('evaluate', { sessionId, function: '() => document.documentElement.scrollHeight' })).json.result;
    expect(height).toBeGreaterThan(4_000);
    const { json } = await screenshotOf({ sessionId, fullPage: true });
    expect(json.scaled).toBe(true);
    expect(json.originalHeight).toBe(height);
    expect(json.originalWidth).toBe(1280);
    expect(json.height).toBe(2_000);
    expect(Math.abs(json.width - Math.round((1280 * 2_000) / height))).toBeLessThanOrEqual(1);
    expect(json.note).toMatch(/scaled down/);
  });

  it('scales a capture over the byte cap down until it fits, keeping its format', async () => {
    const sessionId = await sessionOn('noise');
    const { json, data } = await screenshotOf({ sessionId });
    expect(json.format).toBe('png');
    expect(json.scaled).toBe(true);
    expect(json).toMatchObject({ originalWidth: 1280, originalHeight: 720 });
    expect(data.length).toBeLessThanOrEqual(1_000_000);
    expect(json.width).toBeLessThan(1280);
    // The aspect ratio is kept.
    expect(Math.abs(json.width / json.height - 1280 / 720)).toBeLessThan(0.02);
  });

  it('rejects quality without jpeg and fullPage with an element, and answers ELEMENT_NOT_CLICKABLE for a hidden element', async () => {
    const sessionId = await sessionOn('buttons');
    const quality = await call('screenshot', { sessionId, quality: 50 });
    expect(quality.json.errorCode).toBe('INVALID_PARAMETERS');
    expect(quality.json.message).toMatch(/quality/);
    const full = await call('screenshot', { sessionId, fullPage: true, selector: '#inc' });
    expect(full.json.errorCode).toBe('INVALID_PARAMETERS');
    const hidden = await call('screenshot', { sessionId, selector: '#hidden' });
    expect(hidden.json.errorCode).toBe('ELEMENT_NOT_CLICKABLE');
    expect(hidden.json.details.reason).toBe('hidden');
  });
});

describe('wait_for', () => {
  it('waits for text to appear and to go, and an element to reach each state', async () => {
    const sessionId = await sessionOn('changes');
    await call('evaluate', {
      sessionId,
      function:
        "() => { setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Arrived late'; document.body.append(p); }, 500); }",
    });
    const appeared = await call('wait_for', { sessionId, text: 'arrived LATE' });
    expect(appeared.isError, JSON.stringify(appeared.json)).toBe(false);
    expect(appeared.json).toMatchObject({ success: true, url: server.fixture().urlFor('/pages/changes') });
    expect(appeared.json.waitedMs).toBeGreaterThanOrEqual(0);
    expect(appeared.json.waitedMs).toBeLessThan(10_000);
    // It returned because the text was there.
    expect((await call('evaluate', { sessionId, function: "() => !!document.getElementById('late')" })).json.result).toBe(true);

    await call('evaluate', { sessionId, function: "() => { setTimeout(() => document.getElementById('late').remove(), 300); }" });
    const gone = await call('wait_for', { sessionId, textGone: 'Arrived late' });
    expect(gone.isError).toBe(false);
    expect((await call('evaluate', { sessionId, function: "() => !!document.getElementById('late')" })).json.result).toBe(false);

    await call('evaluate', { sessionId, function: "() => { setTimeout(() => { document.getElementById('reveal').style.display = 'none'; }, 300); }" });
    expect((await call('wait_for', { sessionId, selector: '#reveal', state: 'hidden' })).json.success).toBe(true);
    expect((await call('evaluate', { sessionId, function: "() => getComputedStyle(document.getElementById('reveal')).display" })).json.result).toBe('none');
    await call('evaluate', { sessionId, function: "() => { setTimeout(() => { document.getElementById('reveal').style.display = ''; }, 300); }" });
    expect((await call('wait_for', { sessionId, selector: '#reveal' })).json.message).toMatch(/is visible/);
    await call('evaluate', { sessionId, function: "() => { setTimeout(() => document.getElementById('reveal').remove(), 300); }" });
    expect((await call('wait_for', { sessionId, selector: '#reveal', state: 'detached' })).json.success).toBe(true);
    expect((await call('evaluate', { sessionId, function: "() => !!document.getElementById('reveal')" })).json.result).toBe(false);
  });

  it('waits by ref, and returns at once for a condition already true', async () => {
    const sessionId = await sessionOn('delayed');
    const done = await call('wait_for', { sessionId, text: 'Results ready' });
    expect(done.isError).toBe(false);
    const snap: string = (await call('snapshot', { sessionId })).json.snapshot;
    const ref = /paragraph \[ref=([^\]]+)\]: Results ready/.exec(snap)?.[1];
    expect(ref, snap).toBeDefined();
    const byRef = await call('wait_for', { sessionId, ref, state: 'attached' });
    expect(byRef.json.success).toBe(true);
    expect(byRef.json.waitedMs).toBeLessThan(5_000);
  });

  it('answers WAIT_TIMEOUT when the condition does not come true in time', async () => {
    const sessionId = await sessionOn('delayed');
    const text = await call('wait_for', { sessionId, text: 'Never shown', timeout: 500 });
    expect(text.isError).toBe(true);
    expect(text.json.errorCode).toBe('WAIT_TIMEOUT');
    expect(text.json.sessionId).toBe(sessionId);
    expect(text.json.details).toMatchObject({ text: 'Never shown', timeout: 500 });
    expect(text.json.message).toMatch(/snapshot/);
    const element = await call('wait_for', { sessionId, selector: '#never', timeout: 300 });
    expect(element.json.errorCode).toBe('WAIT_TIMEOUT');
    expect(element.json.details).toMatchObject({ selector: '#never', state: 'visible', timeout: 300, matches: 0 });
    await call('wait_for', { sessionId, text: 'Results ready' });
    const stays = await call('wait_for', { sessionId, textGone: 'Results ready', timeout: 300 });
    expect(stays.json.errorCode).toBe('WAIT_TIMEOUT');
  });

  it('answers ELEMENT_AMBIGUOUS for a selector matching several elements, and INVALID_PARAMETERS for a bad set of conditions', async () => {
    const sessionId = await sessionOn('buttons');
    expect((await call('wait_for', { sessionId, selector: 'button.dup', timeout: 1_000 })).json.errorCode).toBe('ELEMENT_AMBIGUOUS');
    expect((await call('wait_for', { sessionId })).json.errorCode).toBe('INVALID_PARAMETERS');
    expect((await call('wait_for', { sessionId, text: 'a', selector: '#inc' })).json.errorCode).toBe('INVALID_PARAMETERS');
    expect((await call('wait_for', { sessionId, text: 'a', state: 'hidden' })).json.errorCode).toBe('INVALID_PARAMETERS');
    expect((await call('wait_for', { sessionId, selector: '#inc', ref: 'e1' })).json.errorCode).toBe('INVALID_PARAMETERS');
  });
});

describe('evaluate', () => {
  it('returns JSON results of page functions, element functions, async functions and expressions', async () => {
    const sessionId = await sessionOn('list');
    const title = await call('evaluate', { sessionId, function: '() => document.title' });
    expect(title.json).toMatchObject({ result: 'List', type: 'string', url: server.fixture().urlFor('/pages/list'), title: 'List' });
    const names = await call('evaluate', { sessionId, function: "() => [...document.querySelectorAll('.name')].map((e) => e.textContent)" });
    expect(names.json).toMatchObject({ result: ['Apple', 'Banana', 'Cherry', 'Date', 'Elderberry'], type: 'array' });
    const element = await call('evaluate', { sessionId, selector: '#search', function: "(el) => el.getAttribute('placeholder')" });
    expect(element.json.result).toBe('Search');
    const snap: string = (await call('snapshot', { sessionId })).json.snapshot;
    const ref = /list \[ref=([^\]]+)\]/.exec(snap)?.[1];
    expect((await call('evaluate', { sessionId, ref, function: '(el) => el.children.length' })).json.result).toBe(5);
    expect(
      (await call('evaluate', { sessionId, function: 'async () => { await new Promise((r) => setTimeout(r, 50)); return { ok: true }; }' })).json.result,
    ).toEqual({ ok: true });
    expect((await call('evaluate', { sessionId, function: 'document.querySelectorAll("li").length' })).json.result).toBe(5);
    const special = await call('evaluate', { sessionId, function: '() => ({ when: new Date(0), nan: NaN, nothing: undefined, big: 10n })' });
    expect(special.json.result).toEqual({ when: '1970-01-01T00:00:00.000Z', nan: 'NaN', big: '10' });
    const undef = await call('evaluate', { sessionId, function: '() => undefined' });
    expect(undef.json).toMatchObject({ result: null, type: 'undefined' });
    const cyclic = await call('evaluate', { sessionId, function: '() => { const a = { name: "a" }; a.self = a; return a; }' });
    expect(cyclic.json.result).toEqual({ name: 'a', self: '[Circular]' });
  });

  it('runs element functions inside an iframe by frame-prefixed ref', async () => {
    const sessionId = await sessionOn('iframe');
    const snap: string = (await call('snapshot', { sessionId })).json.snapshot;
    const ref = /button "Send" \[ref=([^\]]+)\]/.exec(snap)?.[1];
    const { json } = await call('evaluate', { sessionId, ref, function: '(el) => [el.id, el.ownerDocument.title]' });
    expect(json.result).toEqual(['submit', 'Form']);
  });

  it('truncates a result over 20 000 characters of JSON and says so', async () => {
    const sessionId = await sessionOn('home');
    const { json } = await call('evaluate', { sessionId, function: "() => 'x'.repeat(50000)" });
    expect(json.truncated).toBe(true);
    expect(json.type).toBe('string');
    expect(json.result).toHaveLength(20_000);
    expect(json.result.startsWith('"xxx')).toBe(true);
    expect(json.note).toMatch(/50002 characters/);
    const fits = await call('evaluate', { sessionId, function: "() => 'x'.repeat(19000)" });
    expect(fits.json.truncated).toBeUndefined();
    expect(fits.json.result).toHaveLength(19_000);
  });

  it('writes and cuts a huge result in the page, so only its start crosses to the server', async () => {
    const sessionId = await sessionOn('home');
    const started = Date.now();
    const huge = await call('evaluate', { sessionId, function: '() => Array.from({ length: 3e6 }, (_, i) => ({ i }))' });
    expect(huge.isError, JSON.stringify(huge.json).slice(0, 500)).toBe(false);
    expect(huge.json).toMatchObject({ type: 'array', truncated: true });
    expect(huge.json.result).toHaveLength(20_000);
    expect(huge.json.result.startsWith('[{"i":0},{"i":1}')).toBe(true);
    expect(huge.json.note).toMatch(/more than \d+ characters/);
    // Sent whole, three million objects took minutes to cross and be cut (wide margin).
    expect(Date.now() - started).toBeLessThan(25_000);
    const shared = await call('evaluate', { sessionId, function: '() => { const s = { s: 1 }; return [s, s]; }' });
    expect(shared.json.result).toEqual([{ s: 1 }, { s: 1 }]);
  });

  it('answers a deeply nested result, cutting it at 200 levels', async () => {
    const sessionId = await sessionOn('home');
    const objects = await call('evaluate', { sessionId, function: '() => { let a = { end: true }; for (let i = 0; i < 5000; i++) a = { a }; return a; }' });
    expect(objects.isError, JSON.stringify(objects.json)).toBe(false);
    let level = objects.json.result;
    let depth = 0;
    while (typeof level === 'object' && level !== null) {
      level = level.a;
      depth += 1;
    }
    expect(level).toBe('[Too deep]');
    expect(depth).toBe(200);
    const arrays = await call('evaluate', { sessionId, function: '() => { let a = []; for (let i = 0; i < 300; i++) a = [a]; return a; }' });
    expect(arrays.isError, JSON.stringify(arrays.json)).toBe(false);
    expect(arrays.json.type).toBe('array');
  });

  it("answers BROWSER_ERROR with the page's message when the function throws", async () => {
    const sessionId = await sessionOn('home');
    const thrown = await call('evaluate', { sessionId, function: "() => { throw new TypeError('boom here'); }" });
    expect(thrown.isError).toBe(true);
    expect(thrown.json.errorCode).toBe('BROWSER_ERROR');
    expect(thrown.json.message).toBe('The function threw in the page: TypeError: boom here. Fix the function and run it again.');
    expect(thrown.json.details).toMatchObject({ reason: 'script_error', pageMessage: 'boom here', errorName: 'TypeError' });
    const rejected = await call('evaluate', { sessionId, function: 'async () => { await null; throw "plain string"; }' });
    expect(rejected.json.details.pageMessage).toBe('plain string');
    const missing = await call('evaluate', { sessionId, function: '() => notDefinedAnywhere.x' });
    expect(missing.json.details.errorName).toBe('ReferenceError');
    // A message of megabytes is cut in the page too.
    const long = await call('evaluate', { sessionId, function: "() => { throw new Error('m'.repeat(5e6)); }" });
    expect(long.json.details.pageMessage.length).toBeLessThanOrEqual(2_000);
    // The session is fine afterwards.
    expect((await call('evaluate', { sessionId, function: '() => 1 + 1' })).json.result).toBe(2);
  });

  it('answers INVALID_PARAMETERS for a function that does not parse, without touching the page', async () => {
    const sessionId = await sessionOn('home');
    const { json } = await call('evaluate', { sessionId, function: '() => {' });
    expect(json.errorCode).toBe('INVALID_PARAMETERS');
    expect(json.message).toMatch(/does not parse/);
    expect(json.sessionId).toBe(sessionId);
  });

  it('answers BROWSER_ERROR call_timeout for a function that runs past its timeout, script_error when its page navigates away', async () => {
    const sessionId = await sessionOn('home');
    const slow = await call('evaluate', { sessionId, function: '() => new Promise(() => {})', timeout: 500 });
    expect(slow.json.errorCode).toBe('BROWSER_ERROR');
    expect(slow.json.details).toMatchObject({ reason: 'call_timeout', timeout: 500 });
    expect((await call('evaluate', { sessionId, function: '() => document.title' })).json.result).toBe('Home');

    const away = await call('evaluate', { sessionId, function: "() => { location.href = '/pages/form'; return new Promise(() => {}); }" });
    expect(away.json.errorCode).toBe('BROWSER_ERROR');
    expect(away.json.details).toMatchObject({ reason: 'script_error', navigated: true });
  });
});
