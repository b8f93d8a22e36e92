// The agent tools' pure parts: PDF support by browser, page counting, URL filters, body rendering and the upload path checks.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionError } from '@sessionwright/session-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, urlMatcher } from '../src/tools/network.js';
import { pdfPageCount, requirePdfSupport } from '../src/tools/pdf.js';
import { readAllowedFile, readUploads } from '../src/tools/upload.js';

function errorOf(fn: () => unknown): SessionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionError);
    return error as SessionError;
  }
  throw new Error('expected a SessionError');
}

async function rejectionOf(promise: Promise<unknown>): Promise<SessionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
}

describe('save_pdf outside Chromium', () => {
  it('answers BROWSER_ERROR with reason unsupported for firefox and webkit, and lets chromium through', () => {
    for (const browser of ['firefox', 'webkit']) {
      const error = errorOf(() => requirePdfSupport(browser));
      expect(error.code).toBe('BROWSER_ERROR');
      expect(error.details).toEqual({ reason: 'unsupported', browser });
    }
    expect(() => requirePdfSupport('chromium')).not.toThrow();
  });

  it('counts page objects, not the page tree', () => {
    const pdf = Buffer.from('<< /Type /Pages /Count 2 >> << /Type /Page >> << /Type/Page /Parent 1 0 R >>', 'latin1');
    expect(pdfPageCount(pdf)).toBe(2);
  });
});

describe('network filters and bodies', () => {
  it('matches a substring, or a /regex/ with flags; a broken regex is INVALID_PARAMETERS', () => {
    expect(urlMatcher('/api/')('https://x/api/y')).toBe(true);
    expect(urlMatcher('/API/i')('https://x/api/y')).toBe(true);
    expect(urlMatcher('/\\.png$/')('https://x/a.png?v=1')).toBe(false);
    expect(errorOf(() => urlMatcher('/(/')).code).toBe('INVALID_PARAMETERS');
  });

  it('caps text bodies at 100000 characters and describes binary ones', () => {
    expect(bodyText(Buffer.from('{"a":1}'), 'application/json; charset=utf-8')).toEqual({ text: '{"a":1}', truncated: false });
    const long = bodyText(Buffer.from('z'.repeat(150_000)), 'text/plain');
    expect(long.text).toHaveLength(100_000);
    expect(long.truncated).toBe(true);
    expect(bodyText(Buffer.from([0, 1, 2]), 'image/png').text).toBe('(binary body, 3 bytes, image/png)');
    expect(bodyText(Buffer.from([0, 1, 2]), undefined).text).toMatch(/binary/);
  });
});

describe('upload paths', () => {
  let dir: string;
  let root: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sw-upload-'));
    root = path.join(dir, 'root');
    await mkdir(path.join(root, 'inner'), { recursive: true });
    await writeFile(path.join(root, 'inner', 'ok.csv'), 'a,b');
    await writeFile(path.join(dir, 'outside.txt'), 'no');
    await symlink(path.join(dir, 'outside.txt'), path.join(root, 'escape.txt'));
    await symlink(path.join(root, 'inner', 'ok.csv'), path.join(root, 'inside-link.csv'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const roots = () => ({ directories: [root], source: 'file-root' as const });

  it('reads a file inside the root, by relative or absolute path or a symlink that stays inside', async () => {
    expect((await readAllowedFile('inner/ok.csv', roots())).buffer.toString()).toBe('a,b');
    expect((await readAllowedFile(path.join(root, 'inner', 'ok.csv'), roots())).mimeType).toBe('text/csv');
    expect((await readAllowedFile('inside-link.csv', roots())).name).toBe('ok.csv');
  });

  it('refuses missing files, directories, .. and symlink escapes, and any path when no directory is allowed', async () => {
    const reasons = await Promise.all(
      ['nope.txt', 'inner', '../outside.txt', 'inner/../../outside.txt', 'escape.txt', path.join(dir, 'outside.txt')].map(
        async (file) => (await rejectionOf(readAllowedFile(file, roots()))).details?.reason,
      ),
    );
    expect(reasons).toEqual([
      'not found in allowed directories',
      'not a file',
      'not found in allowed directories',
      'not found in allowed directories',
      'not found in allowed directories',
      'not found in allowed directories',
    ]);
    // A file outside and a file that does not exist get the same answer, word for word: nothing tells what exists outside.
    const outside = await rejectionOf(readAllowedFile(path.join(dir, 'outside.txt'), roots()));
    const missing = await rejectionOf(readAllowedFile(path.join(dir, 'missing.txt'), roots()));
    expect(outside.message.replace('outside.txt', 'X')).toBe(missing.message.replace('missing.txt', 'X'));
    expect({ ...outside.details, path: 'X' }).toEqual({ ...missing.details, path: 'X' });
    const none = await rejectionOf(readAllowedFile('inner/ok.csv', { directories: [], source: 'none' }));
    expect(none.details?.reason).toBe('no allowed directory');
    expect(none.message).toMatch(/contentBase64/);
  });

  it('takes inline content without touching the disk, and refuses more than 20 MB in one call', async () => {
    const [file] = await readUploads([{ name: '../../a.txt', contentBase64: Buffer.from('hi').toString('base64') }], { directories: [], source: 'none' });
    expect(file).toMatchObject({ name: 'a.txt', mimeType: 'text/plain' });
    const half = Buffer.alloc(11 * 1024 * 1024).toString('base64');
    const error = await rejectionOf(
      readUploads(
        [
          { name: 'a', contentBase64: half },
          { name: 'b', contentBase64: half },
        ],
        { directories: [], source: 'none' },
      ),
    );
    expect(error.details).toMatchObject({ reason: 'too large', file: 1 });
  });
});
