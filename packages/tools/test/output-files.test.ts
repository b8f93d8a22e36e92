// Where a filename argument lands: inside the caller's output folder only, and a refused name creates nothing anywhere.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionError, isSessionError } from '@sessionwright/session-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedOutputFile, defaultFileName, outputPath, writeOutputFile } from '../src/framework/output-files.js';
import { readAllowedFile } from '../src/tools/upload.js';

let dir: string;
let root: string;
let outside: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-output-files-'));
  root = path.join(dir, 'out', 'identity-0123');
  outside = path.join(dir, 'elsewhere');
  mkdirSync(outside, { recursive: true });
  mkdirSync(root, { recursive: true });
  symlinkSync(outside, path.join(root, 'link'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refused(work: Promise<unknown>): Promise<{ message: string; details?: unknown }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isSessionError(error) && error.code, String(error)).toBe('INVALID_PARAMETERS');
  return error as { message: string };
}

describe('output files', () => {
  it('refuses names that lead out of the folder: "..", absolute paths elsewhere', async () => {
    const options = { allowFileUrls: false, outputDir: root };
    for (const name of ['../x.json', '../../out/x.json', path.join(outside, 'x.json'), '/etc/passwd']) {
      expect(() => outputPath(options, name), name).toThrow(/inside the output directory/);
    }
    expect(outputPath(options, 'sub/x.json')).toBe(path.join(root, 'sub', 'x.json'));
    expect(outputPath(options, path.join(root, 'x.json'))).toBe(path.join(root, 'x.json'));
    expect(() => outputPath({ allowFileUrls: false }, 'x.json')).toThrow(/no --output-dir/);
  });

  it('checks the nearest existing folder before making any: a name through a link out of the folder creates nothing', async () => {
    const options = { allowFileUrls: false, outputDir: root };
    const error = await refused(checkedOutputFile(options, outputPath(options, 'link/deep/er/x.json')));
    expect(error.message).toMatch(/through a link/);
    expect(existsSync(path.join(outside, 'deep'))).toBe(false);
    await refused(writeOutputFile(options, outputPath(options, 'link/x.json'), 'data', undefined));
    expect(existsSync(path.join(outside, 'x.json'))).toBe(false);
  });

  it("makes the caller's folder and the folders on the way inside it on first use", async () => {
    const options = { allowFileUrls: false, outputDir: path.join(dir, 'out', 'identity-fresh') };
    const written = await writeOutputFile(options, outputPath(options, 'a/b/c.txt'), 'hello', undefined);
    expect(readFileSync(written, 'utf8')).toBe('hello');
    expect(written).toBe(path.join(dir, 'out', 'identity-fresh', 'a', 'b', 'c.txt'));
  });

  it("refuses to write through a link in the file's own place", async () => {
    const options = { allowFileUrls: false, outputDir: root };
    symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'file-link.txt'));
    await refused(writeOutputFile(options, outputPath(options, 'file-link.txt'), 'data', undefined));
    expect(existsSync(path.join(outside, 'target.txt'))).toBe(false);
  });

  it("counts each file against its session's limits before writing it: a refused one writes nothing", async () => {
    const options = { allowFileUrls: false, outputDir: root };
    const counted: number[] = [];
    const session = {
      countFile(bytes: number) {
        if (bytes > 4) throw new SessionError('INVALID_PARAMETERS', 'too many bytes', { details: { reason: 'file_limit' } });
        counted.push(bytes);
      },
    };
    expect(readFileSync(await writeOutputFile(options, outputPath(options, 'small.txt'), 'éé', session), 'utf8')).toBe('éé');
    expect(counted).toEqual([4]);
    await refused(writeOutputFile(options, outputPath(options, 'large.txt'), new Uint8Array(5), session));
    expect(existsSync(path.join(root, 'large.txt'))).toBe(false);
  });

  it('refuses a file that would fill the folder past --output-max-size', async () => {
    const options = { allowFileUrls: false, outputDir: path.join(dir, 'out', 'identity-capped'), outputMaxSize: 10 };
    await writeOutputFile(options, outputPath(options, 'a.txt'), '123456', undefined);
    const error = await refused(writeOutputFile(options, outputPath(options, 'b.txt'), '12345', undefined));
    expect(error.details).toMatchObject({ reason: 'output_full', limit: 10 });
    expect(existsSync(path.join(options.outputDir, 'b.txt'))).toBe(false);
  });

  it("reads nothing of another client's folder through a directory that holds --output-dir, answering as for a missing file", async () => {
    const out = path.join(dir, 'out');
    mkdirSync(path.join(out, 'identity-other'), { recursive: true });
    writeFileSync(path.join(out, 'identity-other', 'auth.json'), '{}');
    writeFileSync(path.join(root, 'mine.json'), '{}');
    const roots = { directories: [dir], source: 'file-root' as const, fenced: { folder: out, own: root } };
    expect((await readAllowedFile(path.join(root, 'mine.json'), roots)).name).toBe('mine.json');
    const missing = await refused(readAllowedFile(path.join(out, 'nothing.json'), roots));
    for (const name of [path.join(out, 'identity-other', 'auth.json'), 'out/identity-other/auth.json']) {
      const error = await refused(readAllowedFile(name, roots));
      expect(error.message.replace(name, '<name>')).toBe(missing.message.replace(path.join(out, 'nothing.json'), '<name>'));
    }
    // Without the fence (one client) the same file is read.
    expect((await readAllowedFile('out/identity-other/auth.json', { directories: [dir], source: 'file-root' })).name).toBe('auth.json');
  });

  it('gives default names a random part besides the time', () => {
    const names = new Set(Array.from({ length: 20 }, () => defaultFileName('storage-state', 'json')));
    expect(names.size).toBe(20);
    for (const name of names) expect(name).toMatch(/^storage-state-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{8}\.json$/);
  });
});
