// The agent tools (docs/agent-tools.md) through a server in this process: the lists --caps gives, uploads (the roots a server allows), PDF, downloads and two sessions at once (tabs, dialogs, console, network, drag, forms and emulation: packages/tools/test).
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, connectInProcess, expectError, expectSuccess, type InProcessConnection } from './helpers.js';

let fx: FixtureServer;
let server: InProcessConnection;
let work: string;
let fileRoot: string;
let outputDir: string;
const opened: string[] = [];

beforeAll(async () => {
  fx = await startFixtureServer();
  work = await mkdtemp(path.join(tmpdir(), 'sw-agent-'));
  fileRoot = path.join(work, 'root');
  outputDir = path.join(work, 'out');
  await mkdir(path.join(fileRoot, 'sub'), { recursive: true });
  await writeFile(path.join(fileRoot, 'invoice.txt'), 'invoice body');
  await writeFile(path.join(fileRoot, 'sub', 'photo.png'), Buffer.alloc(300, 1));
  await writeFile(path.join(work, 'secret.txt'), 'outside the root');
  await symlink(path.join(work, 'secret.txt'), path.join(fileRoot, 'link-out.txt'));
  server = await connectInProcess([
    '--headless',
    '--caps',
    'all',
    '--file-root',
    fileRoot,
    '--output-dir',
    outputDir,
    '--max-tabs',
    '4',
    '--max-sessions',
    '20',
  ]);
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
  await rm(work, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sessionId) => tool('close_session', { sessionId })));
});

const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);
const ok = async (name: string, args: Record<string, unknown> = {}) => expectSuccess(await tool(name, args));

async function sessionOn(page: string): Promise<string> {
  const { sessionId } = await ok('create_session');
  opened.push(sessionId);
  await ok('navigate', { sessionId, url: fx.urlFor(`/pages/${page}`) });
  return sessionId;
}

describe('tools/list and --caps', () => {
  it('lists at most 27 tools by default (26 and run_steps), the agent tools among them and no capability tool', async () => {
    const plain = await connectInProcess(['--headless']);
    try {
      const names = (await plain.client.listTools()).tools.map((entry) => entry.name);
      expect(names.length).toBeLessThanOrEqual(27);
      for (const name of ['tabs', 'upload_file', 'drag', 'fill_form', 'handle_dialog', 'console_messages', 'emulate', 'run_steps'])
        expect(names).toContain(name);
      for (const name of ['network_requests', 'network_request', 'export_storage_state', 'cookies', 'save_pdf']) expect(names).not.toContain(name);
      expectError(
        await call(plain.client, 'save_pdf', { sessionId: 'x' }).catch(
          (error: Error) => ({ isError: true, json: { errorCode: 'INVALID_PARAMETERS', message: error.message } }) as never,
        ),
        'INVALID_PARAMETERS',
      );
    } finally {
      await plain.close();
    }
  });

  it('adds one group with --caps network, and every group with --caps all', async () => {
    const network = await connectInProcess(['--headless', '--caps', 'network']);
    try {
      const names = (await network.client.listTools()).tools.map((entry) => entry.name);
      expect(names).toContain('network_requests');
      expect(names).toContain('network_request');
      expect(names).not.toContain('save_pdf');
    } finally {
      await network.close();
    }
    const names = (await server.client.listTools()).tools.map((entry) => entry.name);
    for (const name of ['network_requests', 'network_request', 'export_storage_state', 'cookies', 'save_pdf']) expect(names).toContain(name);
  });
});

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
    // Over 20 MB is refused before anything is set (by path here: the inline limit is checked in the tools' own tests).
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
