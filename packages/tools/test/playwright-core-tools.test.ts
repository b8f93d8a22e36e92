// @playwright/mcp's core list beyond the first twenty tools in process, in both profiles (runTool over a real SessionManager, Chromium and the fixture server): media emulation, drops, requests by number, snapshot boxes, device-pixel screenshots, console since the last page load, and filename writing only inside --output-dir.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playwrightProfile, type AllowedRoots } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const MEDIA = `<!doctype html><html><head><title>Media</title></head><body><p>Media</p><script>
window.media = () => ({
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
  forced: matchMedia('(forced-colors: active)').matches,
  more: matchMedia('(prefers-contrast: more)').matches,
  print: matchMedia('print').matches,
});
</script></body></html>`;

/** A drop zone that writes what it received; a box beside it that accepts no drop. */
const DROPZONE = `<!doctype html><html><head><title>Drop</title></head><body>
<div id="zone" style="width:200px;height:100px;border:1px solid">Drop here</div>
<div id="plain" style="width:200px;height:100px">Not a drop zone</div>
<pre id="out"></pre>
<script>
const zone = document.getElementById('zone');
zone.addEventListener('dragover', (event) => event.preventDefault());
zone.addEventListener('drop', async (event) => {
  event.preventDefault();
  const files = await Promise.all([...event.dataTransfer.files].map(async (file) => file.name + ':' + (await file.text())));
  const text = event.dataTransfer.getData('text/plain');
  const uri = event.dataTransfer.getData('text/uri-list');
  document.getElementById('out').textContent = JSON.stringify({ files, text, uri });
});
</script></body></html>`;

const LOGS_FIRST = `<!doctype html><html><head><title>First</title></head><body><p>First</p><script>console.log('from the first page');</script></body></html>`;
const LOGS_SECOND = `<!doctype html><html><head><title>Second</title></head><body><p>Second</p><script>console.log('from the second page'); history.pushState({}, '', '#moved'); console.log('after pushState');</script></body></html>`;

/** A page that posts a body and reads JSON, once loaded. */
const NETWORK = `<!doctype html><html><head><title>Network</title></head><body><p>Network</p><script>
window.done = (async () => {
  await (await fetch('/submit', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'greeting=hello+there' })).text();
  await (await fetch('/echo-cookie.json')).text();
  return true;
})();
</script></body></html>`;

const PAGES = { media: MEDIA, dropzone: DROPZONE, 'logs-first': LOGS_FIRST, 'logs-second': LOGS_SECOND, network: NETWORK };

// As servers started with --file-root <fileRoot>: the playwright profile with --caps network --output-dir <outputDir>, the
// default profile with --caps network, and the playwright profile without --output-dir.
const [outputDir, fileRoot, outside] = ['out', 'files', 'outside'].map((name) =>
  realpathSync(mkdtempSync(path.join(tmpdir(), `sessionwright-core-${name}-`))),
) as [string, string, string];
writeFileSync(path.join(fileRoot, 'note.txt'), 'hello from a file');
writeFileSync(path.join(outside, 'secret.txt'), 'not for the page');
afterAll(async () => {
  await Promise.all([outputDir, fileRoot, outside].map((dir) => rm(dir, { recursive: true, force: true })));
});

const roots: AllowedRoots = { directories: [fileRoot], source: 'file-root' };
const fixtureOptions = { pages: PAGES };
const playwright = useTools({
  fixture: fixtureOptions,
  profile: playwrightProfile(['network']),
  roots,
  toolOptions: { fileRoots: [fileRoot], outputDir },
  manager: { outputDir },
});
const sessions = useTools({ fixture: fixtureOptions, roots, toolOptions: { fileRoots: [fileRoot] }, maxSessions: 20 });
const bare = useTools({ fixture: fixtureOptions, profile: playwrightProfile(), roots, toolOptions: { fileRoots: [fileRoot] } });

let fixture: FixtureServer;
beforeAll(() => {
  fixture = playwright.fixture();
});

const pw = (name: string, args: Record<string, unknown> = {}) => playwright.checkedCall(name, args);
const own = (name: string, args: Record<string, unknown> = {}) => sessions.checkedCall(name, args);

async function sessionOn(page: string, options: Record<string, unknown> = {}): Promise<string> {
  const sessionId = expectSuccess(await own('create_session', options)).sessionId as string;
  expectSuccess(await own('navigate', { sessionId, url: fixture.urlFor(`/pages/${page}`) }));
  return sessionId;
}

const inPage = async (expression: string) => expectSuccess(await pw('browser_evaluate', { function: expression })).result;

describe('media emulation', () => {
  it('browser_emulate_media sets each feature, keeps the ones left out, and null clears one', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/media') }));
    const set = expectSuccess(await pw('browser_emulate_media', { colorScheme: 'dark', forcedColors: 'active', contrast: 'more', media: 'print' }));
    expect(set).toMatchObject({ colorScheme: 'dark', forcedColors: 'active', contrast: 'more', media: 'print', title: 'Media' });
    expect(await inPage('() => media()')).toEqual({ dark: true, reduce: false, forced: true, more: true, print: true });
    expectSuccess(await pw('browser_emulate_media', { reducedMotion: 'reduce', media: null }));
    expect(await inPage('() => media()')).toEqual({ dark: true, reduce: true, forced: true, more: true, print: false });
    // A tab opened later gets the same features.
    expectSuccess(await pw('browser_tabs', { action: 'new' }));
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/media') }));
    expect(await inPage('() => media()')).toMatchObject({ dark: true, forced: true });
    expectSuccess(await pw('browser_tabs', { action: 'close' }));
  });

  it('browser_emulate_media refuses no feature and an unknown value; the page stays usable', async () => {
    expect(expectError(await pw('browser_emulate_media', {}), 'INVALID_PARAMETERS').message).toMatch(/at least one media feature/);
    expectError(await pw('browser_emulate_media', { contrast: 'less' }), 'INVALID_PARAMETERS');
    expect(expectSuccess(await pw('browser_snapshot')).snapshot).toContain('Media');
  });

  // Retried: on a loaded machine Chromium has been seen to report the print media type to matchMedia only after the wait.
  it('emulate takes forcedColors, contrast and media in the default profile', { retry: 2 }, async () => {
    const sessionId = await sessionOn('media');
    expectSuccess(await own('emulate', { sessionId, forcedColors: 'active', contrast: 'more', media: 'print' }));
    const seen = async () => expectSuccess(await own('evaluate', { sessionId, function: '() => media()' })).result;
    // Chromium may report the new media type to matchMedia a while after the emulation is set (seconds under load).
    await waitFor(async () => (await seen()).print === true, { timeout: 30_000 });
    expect(await seen()).toEqual({ dark: false, reduce: false, forced: true, more: true, print: true });
    await own('close_session', { sessionId });
  });
});

describe('drops', () => {
  it('browser_drop drops a file and data onto a drop zone, which reads them', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/dropzone') }));
    const dropped = expectSuccess(
      await pw('browser_drop', {
        element: 'drop zone',
        target: '#zone',
        paths: [path.join(fileRoot, 'note.txt')],
        data: { 'text/plain': 'dropped text', 'text/uri-list': 'https://example.com/' },
      }),
    );
    expect(dropped.snapshot).toBeUndefined();
    expect(await readFile(dropped.snapshotFile, 'utf8')).toContain('Drop here');
    expect(JSON.parse(await inPage("() => document.getElementById('out').textContent"))).toEqual({
      files: ['note.txt:hello from a file'],
      text: 'dropped text',
      uri: 'https://example.com/',
    });
  });

  it('browser_drop refuses nothing to drop, a path outside the allowed directories, and an element that takes no drop', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/dropzone') }));
    expectError(await pw('browser_drop', { target: '#zone' }), 'INVALID_PARAMETERS');
    expectError(await pw('browser_drop', { target: '#zone', paths: [path.join(outside, 'secret.txt')] }), 'INVALID_PARAMETERS');
    const rejected = expectError(await pw('browser_drop', { target: '#plain', data: { 'text/plain': 'x' } }), 'ELEMENT_NOT_EDITABLE');
    expect(rejected.details.reason).toBe('drop_rejected');
    expect(await inPage("() => document.getElementById('out').textContent")).toBe('');
  });

  it('upload_file with drop drops files, data, or data alone in the default profile', async () => {
    const sessionId = await sessionOn('dropzone');
    const out = async () =>
      JSON.parse(expectSuccess(await own('evaluate', { sessionId, function: "() => document.getElementById('out').textContent" })).result);
    const withFile = expectSuccess(
      await own('upload_file', {
        sessionId,
        selector: '#zone',
        files: [{ name: 'inline.txt', contentBase64: Buffer.from('inline body').toString('base64') }],
        drop: {},
      }),
    );
    expect(withFile.files).toEqual([{ name: 'inline.txt', bytes: 11 }]);
    expect(await out()).toEqual({ files: ['inline.txt:inline body'], text: '', uri: '' });
    expectSuccess(await own('upload_file', { sessionId, selector: '#zone', drop: { 'text/uri-list': 'https://example.org/' } }));
    expect(await out()).toEqual({ files: [], text: '', uri: 'https://example.org/' });
    expectError(await own('upload_file', { sessionId, selector: '#zone', drop: {} }), 'INVALID_PARAMETERS');
    await own('close_session', { sessionId });
  });
});

describe('requests by number', () => {
  it('browser_network_requests numbers the requests, filters by a regular expression, and browser_network_request shows one or a part', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/network') }));
    await inPage('() => window.done');
    const listed = expectSuccess(await pw('browser_network_requests', { filter: 'sub.it$' }));
    expect(listed.requests).toEqual([expect.objectContaining({ method: 'POST', url: fixture.urlFor('/submit'), status: 200, index: expect.any(Number) })]);
    const { index } = listed.requests[0];
    const all = expectSuccess(await pw('browser_network_requests', { static: true })).requests as { index: number; url: string }[];
    expect(all.map((request) => request.index)).toEqual([...all.map((request) => request.index)].sort((a, b) => a - b));
    expect(all.find((request) => request.url.endsWith('/pages/network'))).toBeDefined();

    const full = expectSuccess(await pw('browser_network_request', { index }));
    expect(full).toMatchObject({
      index,
      method: 'POST',
      requestUrl: fixture.urlFor('/submit'),
      requestBody: 'greeting=hello+there',
      status: 200,
      title: 'Network',
    });
    expect(full.responseBody).toContain('hello there');
    const body = expectSuccess(await pw('browser_network_request', { index, part: 'request-body' }));
    expect(body.requestBody).toBe('greeting=hello+there');
    expect(body.responseBody).toBeUndefined();
    expect(body.requestHeaders).toBeUndefined();
    const headers = expectSuccess(await pw('browser_network_request', { index, part: 'response-headers' }));
    expect(headers.responseHeaders['content-type']).toMatch(/text\/html/);
    expect(headers.requestBody).toBeUndefined();
  });

  it('browser_network_request refuses a number no request has; browser_network_requests a filter that is not a regular expression', async () => {
    expect(expectError(await pw('browser_network_request', { index: 999_999 }), 'INVALID_PARAMETERS').message).toMatch(/browser_network_requests/);
    expectError(await pw('browser_network_request', { index: 0 }), 'INVALID_PARAMETERS');
    expectError(await pw('browser_network_requests', { filter: '(unclosed' }), 'INVALID_PARAMETERS');
  });
});

describe('snapshot boxes, device pixels, console since the last page load', () => {
  it('adds each element box to the snapshot in both profiles', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/dropzone') }));
    const plain = expectSuccess(await pw('browser_snapshot')).snapshot as string;
    expect(plain).not.toContain('[box=');
    expect(expectSuccess(await pw('browser_snapshot', { boxes: true })).snapshot).toMatch(/\[box=\d+,\d+,\d+,\d+\]/);
    const sessionId = await sessionOn('dropzone');
    expect(expectSuccess(await own('snapshot', { sessionId, boxes: true })).snapshot).toMatch(/\[box=\d+,\d+,\d+,\d+\]/);
    await own('close_session', { sessionId });
  });

  it('captures device pixels with scale device, CSS pixels by default, in both profiles', async () => {
    const sessionId = expectSuccess(await pw('create_session', { viewport: { width: 400, height: 300 } })).sessionId;
    const phone = expectSuccess(await own('create_session', { device: 'iPhone 15' })).sessionId;
    try {
      expectSuccess(await pw('browser_navigate', { sessionId, url: fixture.urlFor('/pages/media') }));
      const css = expectSuccess(await pw('browser_take_screenshot', { sessionId }));
      expect(css).toMatchObject({ width: 400, height: 300 });
      expectSuccess(await own('navigate', { sessionId: phone, url: fixture.urlFor('/pages/media') }));
      const cssPhone = expectSuccess(await own('screenshot', { sessionId: phone }));
      const devicePhone = expectSuccess(await own('screenshot', { sessionId: phone, scale: 'device' }));
      expect(devicePhone.width).toBe(cssPhone.width * 3);
    } finally {
      await pw('close_session', { sessionId });
      await own('close_session', { sessionId: phone });
    }
  });

  it('browser_console_messages shows what came since the last page load, everything with all; loadCursor does the same in the default profile', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/logs-first') }));
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/logs-second') }));
    const texts = (answer: { messages: { text: string }[] }) => answer.messages.map((message) => message.text);
    expect(texts(expectSuccess(await pw('browser_console_messages')))).toEqual(['from the second page', 'after pushState']);
    const all = texts(expectSuccess(await pw('browser_console_messages', { all: true })));
    expect(all).toEqual(expect.arrayContaining(['from the first page', 'from the second page', 'after pushState']));

    const sessionId = await sessionOn('logs-first');
    expectSuccess(await own('navigate', { sessionId, url: fixture.urlFor('/pages/logs-second') }));
    const everything = expectSuccess(await own('console_messages', { sessionId }));
    expect(texts(everything)).toEqual(['from the first page', 'from the second page', 'after pushState']);
    expect(texts(expectSuccess(await own('console_messages', { sessionId, since: everything.loadCursor })))).toEqual([
      'from the second page',
      'after pushState',
    ]);
    await own('close_session', { sessionId });
  });
});

describe("the arguments Playwright's own `playwright mcp` adds", () => {
  it('browser_network_requests lists what came since the last page load, everything with all', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/network') }));
    await inPage('() => window.done');
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/logs-first') }));
    const urls = (answer: { requests: { url: string }[] }) => answer.requests.map((request) => request.url);
    expect(urls(expectSuccess(await pw('browser_network_requests')))).toEqual([fixture.urlFor('/pages/logs-first')]);
    const all = urls(expectSuccess(await pw('browser_network_requests', { all: true })));
    expect(all).toEqual(expect.arrayContaining([fixture.urlFor('/pages/network'), fixture.urlFor('/submit'), fixture.urlFor('/pages/logs-first')]));
  });

  it('browser_find lists at most maxResults matches and counts them all', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/dropzone') }));
    const every = expectSuccess(await pw('browser_find', { text: 'drop' }));
    expect(every.total).toBeGreaterThanOrEqual(2);
    expect(every.matches).toHaveLength(every.total);
    const one = expectSuccess(await pw('browser_find', { text: 'drop', maxResults: 1 }));
    expect(one).toMatchObject({ total: every.total, matches: [every.matches[0]] });
    expectError(await pw('browser_find', { text: 'drop', maxResults: 0 }), 'INVALID_PARAMETERS');
  });
});

describe('filename', () => {
  it('writes the snapshot, screenshot, evaluate result, console, request list and one request to files inside --output-dir', async () => {
    expectSuccess(await pw('browser_navigate', { url: fixture.urlFor('/pages/network') }));
    await inPage('() => window.done');
    await inPage("() => { console.log('logged for the file'); return 1; }");

    const snap = expectSuccess(await pw('browser_snapshot', { filename: 'snap/page.yml' }));
    expect(snap.file).toBe(path.join(outputDir, 'snap', 'page.yml'));
    expect(snap.snapshot).toBeUndefined();
    expect(await readFile(snap.file, 'utf8')).toContain('Network');

    const shot = await pw('browser_take_screenshot', { filename: 'shot.png' });
    const shotJson = expectSuccess(shot);
    expect(shot.result.content.some((item: { type: string }) => item.type === 'image')).toBe(false);
    const png = await readFile(shotJson.file);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBe(shotJson.bytes);
    const jpeg = await readFile(expectSuccess(await pw('browser_take_screenshot', { filename: 'shot.jpeg' })).file);
    expect(jpeg[0]).toBe(0xff);

    const evaluated = expectSuccess(await pw('browser_evaluate', { function: '() => ({ title: document.title })', filename: 'eval.json' }));
    expect(evaluated.result).toBeUndefined();
    expect(JSON.parse(await readFile(evaluated.file, 'utf8'))).toEqual({ title: 'Network' });

    const logged = expectSuccess(await pw('browser_console_messages', { filename: 'console.log' }));
    expect(await readFile(logged.file, 'utf8')).toMatch(/^\[log\] logged for the file/m);

    const list = expectSuccess(await pw('browser_network_requests', { filename: 'network.log' }));
    const lines = await readFile(list.file, 'utf8');
    const posted = /^(\d+)\. \[POST\] (\S+) => \[200\]$/m.exec(lines);
    expect(posted?.[2]).toBe(fixture.urlFor('/submit'));
    const part = expectSuccess(await pw('browser_network_request', { index: Number(posted?.[1]), part: 'request-body', filename: 'body.txt' }));
    expect(part.requestBody).toBeUndefined();
    expect(await readFile(part.file, 'utf8')).toBe('greeting=hello+there');
  });

  it('refuses a filename outside --output-dir, and any filename without one', async () => {
    for (const filename of ['../escape.txt', path.join(outside, 'abs.txt')]) {
      expect(expectError(await pw('browser_snapshot', { filename }), 'INVALID_PARAMETERS').message).toMatch(/output directory/);
      expectError(await pw('browser_take_screenshot', { filename }), 'INVALID_PARAMETERS');
    }
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
    const none = expectError(await bare.checkedCall('browser_evaluate', { function: '() => 1', filename: 'x.json' }), 'INVALID_PARAMETERS');
    expect(none.message).toMatch(/no --output-dir/);
    expect(expectSuccess(await pw('browser_snapshot')).snapshot).toBeDefined();
  });
});
