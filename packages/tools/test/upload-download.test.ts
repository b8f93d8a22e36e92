// upload_file and downloads in process (runTool over a real SessionManager, Chromium and the fixture server): files read only from inside --file-root, a download a click starts saved under --output-dir and listed in its result, and two sessions that never see each other's events.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

// As a server started with --file-root <root> --output-dir <out>; secret.txt lies beside the root, and a link in it leads there.
const work = mkdtempSync(path.join(tmpdir(), 'sw-agent-'));
const fileRoot = path.join(work, 'root');
const outputDir = path.join(work, 'out');
mkdirSync(path.join(fileRoot, 'sub'), { recursive: true });
writeFileSync(path.join(fileRoot, 'invoice.txt'), 'invoice body');
writeFileSync(path.join(fileRoot, 'sub', 'photo.png'), Buffer.alloc(300, 1));
writeFileSync(path.join(work, 'secret.txt'), 'outside the root');
symlinkSync(path.join(work, 'secret.txt'), path.join(fileRoot, 'link-out.txt'));
afterAll(() => rm(work, { recursive: true, force: true }));

const harness = useTools({
  toolOptions: { fileRoots: [fileRoot], outputDir },
  roots: { directories: [fileRoot], source: 'file-root' },
  manager: { outputDir, maxTabs: 4 },
});
const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
const ok = async (name: string, args: Record<string, unknown> = {}) => expectSuccess(await tool(name, args));
const sessionOn = (page: string) => harness.sessionOn(page);

describe('upload_file', () => {
  it('uploads files from inside --file-root, by path relative or absolute, and inline content', async () => {
    const sessionId = await sessionOn('upload');
    const one = await ok('upload_file', { sessionId, selector: '#single', files: [{ path: 'invoice.txt' }] });
    expect(one.files).toEqual([{ name: 'invoice.txt', bytes: 12 }]);
    expect((await ok('evaluate', { sessionId, function: '() => document.querySelector("#names").textContent' })).result).toBe('invoice.txt:12');
    const many = await ok('upload_file', {
      sessionId,
      selector: '#multi',
      files: [
        { path: path.join(fileRoot, 'sub', 'photo.png') },
        { name: 'notes.txt', mimeType: 'text/plain', contentBase64: Buffer.from('hello').toString('base64') },
      ],
    });
    expect(many.files).toEqual([
      { name: 'photo.png', bytes: 300 },
      { name: 'notes.txt', bytes: 5 },
    ]);
    expect((await ok('evaluate', { sessionId, function: '() => document.querySelector("#names").textContent' })).result).toBe('photo.png:300,notes.txt:5');
  });

  it('fills the file chooser that a button opens', async () => {
    const sessionId = await sessionOn('upload');
    await ok('upload_file', { sessionId, selector: '#chooser', files: [{ path: 'invoice.txt' }] });
    expect((await ok('evaluate', { sessionId, function: '() => document.querySelector("#names").textContent' })).result).toBe('invoice.txt:12');
  });

  it('refuses a missing file, a path outside the root, a .. escape and a symlink escape, and leaves the input empty', async () => {
    const sessionId = await sessionOn('upload');
    const missing = expectError(await tool('upload_file', { sessionId, selector: '#single', files: [{ path: 'nope.txt' }] }), 'INVALID_PARAMETERS', sessionId);
    expect(missing.details.reason).toBe('not found in allowed directories');
    const outside = expectError(
      await tool('upload_file', { sessionId, selector: '#single', files: [{ path: path.join(work, 'secret.txt') }] }),
      'INVALID_PARAMETERS',
      sessionId,
    );
    expect(outside.details.reason).toBe('not found in allowed directories');
    expect(outside.message).toContain('--file-root');
    expect(outside.message.replace(path.join(work, 'secret.txt'), 'X')).toBe(missing.message.replace('nope.txt', 'X'));
    expectError(await tool('upload_file', { sessionId, selector: '#single', files: [{ path: '../secret.txt' }] }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('upload_file', { sessionId, selector: '#single', files: [{ path: 'sub/../../secret.txt' }] }), 'INVALID_PARAMETERS', sessionId);
    const link = expectError(await tool('upload_file', { sessionId, selector: '#single', files: [{ path: 'link-out.txt' }] }), 'INVALID_PARAMETERS', sessionId);
    expect(link.details.reason).toBe('not found in allowed directories');
    expect((await ok('evaluate', { sessionId, function: '() => document.querySelector("#single").files.length' })).result).toBe(0);
  });

  it('refuses several files for a single-file input, content over 20 MB, and an element that opens no chooser', async () => {
    const sessionId = await sessionOn('upload');
    const inline = (name: string) => ({ name, contentBase64: Buffer.from(name).toString('base64') });
    expectError(await tool('upload_file', { sessionId, selector: '#single', files: [inline('a.txt'), inline('b.txt')] }), 'INVALID_PARAMETERS', sessionId);
    // Over 20 MB is refused before anything is set (by path here: the inline limit is checked in agent-tool-helpers.test.ts).
    await writeFile(path.join(fileRoot, 'huge.bin'), Buffer.alloc(21 * 1024 * 1024, 7));
    const tooLarge = expectError(await tool('upload_file', { sessionId, selector: '#single', files: [{ path: 'huge.bin' }] }), 'INVALID_PARAMETERS', sessionId);
    expect(tooLarge.details.reason).toBe('too large');
    expectError(await tool('upload_file', { sessionId, selector: '#plain', files: [inline('a.txt')], timeout: 500 }), 'ELEMENT_NOT_EDITABLE', sessionId);
    expectError(await tool('upload_file', { sessionId, selector: '#nothing', files: [inline('a.txt')], timeout: 300 }), 'ELEMENT_NOT_FOUND', sessionId);
    expectError(
      await tool('upload_file', { sessionId, selector: '#single', files: [{ name: 'x', contentBase64: 'not base64!' }] }),
      'INVALID_PARAMETERS',
      sessionId,
    );
  });
});

describe('downloads', () => {
  it("saves a download the click started under --output-dir and lists it in the click's result", async () => {
    const sessionId = await sessionOn('downloads');
    const fx = harness.fixture();
    const clicked = await ok('click', { sessionId, selector: '#csv' });
    expect(clicked.downloads).toEqual([
      { url: fx.urlFor('/download?name=report.csv&bytes=1234'), suggestedFilename: 'report.csv', state: 'saved', path: expect.any(String), bytes: 1234 },
    ]);
    const saved: string = clicked.downloads[0].path;
    expect(path.relative(outputDir, saved).startsWith('..')).toBe(false);
    expect(path.basename(saved)).toBe('report.csv');
    expect((await readFile(saved)).length).toBe(1234);
    const evil = await ok('click', { sessionId, selector: '#evil' });
    expect(path.dirname(evil.downloads[0].path)).toBe(path.dirname(saved));
  });
});

describe('two sessions at once', () => {
  it("never show one session's console, network, dialogs or downloads in the other", async () => {
    const fx = harness.fixture();
    const [a, b] = await Promise.all([sessionOn('console'), sessionOn('network')]);
    await ok('wait_for', { sessionId: b, selector: '#done:has-text("done")' });
    await ok('navigate', { sessionId: a, url: fx.urlFor('/pages/dialog') });
    const [dialogA, downloadB] = await Promise.all([
      ok('click', { sessionId: a, selector: '#alert' }),
      ok('navigate', { sessionId: b, url: fx.urlFor('/pages/downloads') }).then(() => ok('click', { sessionId: b, selector: '#csv' })),
    ]);
    expect(dialogA.dialogs).toHaveLength(1);
    expect(dialogA.downloads).toBeUndefined();
    expect(downloadB.downloads).toHaveLength(1);
    expect(downloadB.dialogs).toBeUndefined();
    const consoleA = await ok('console_messages', { sessionId: a, level: 'debug' });
    const consoleB = await ok('console_messages', { sessionId: b, level: 'debug' });
    expect(consoleA.messages.length).toBe(5);
    // The network page logs only the browser's own errors for its failed requests; nothing of the console page.
    expect(consoleB.messages.every((message: { text: string }) => !message.text.includes('on load'))).toBe(true);
    expect(consoleA.messages.every((message: { text: string }) => !/ERR_|503/.test(message.text))).toBe(true);
    const networkA = await ok('network_requests', { sessionId: a, includeStatic: true });
    const networkB = await ok('network_requests', { sessionId: b, includeStatic: true });
    expect(networkA.requests.every((request: { url: string }) => !request.url.includes('/api/') && !request.url.includes('/download'))).toBe(true);
    expect(networkB.requests.some((request: { url: string }) => request.url.includes('/api/json'))).toBe(true);
    expect(networkB.requests.every((request: { url: string }) => !request.url.includes('/pages/console') && !request.url.includes('/pages/dialog'))).toBe(true);
    // Request ids are per session: both start at r1.
    expect(networkA.requests[0].id).toBe('r1');
    expect(networkB.requests[0].id).toBe('r1');
    const folders = new Set([downloadB.downloads[0].path].map((file: string) => path.dirname(file)));
    const clickA = await ok('click', { sessionId: a, selector: '#confirm' });
    expect(clickA.downloads).toBeUndefined();
    expect(folders.size).toBe(1);
  });
});
