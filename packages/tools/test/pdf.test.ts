// save_pdf and browser_pdf_save in process (runTool over a real SessionManager, Chromium and the fixture server): the PDF as an embedded resource after the JSON, or written inside --output-dir with filename and nowhere else.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

// As servers started with --output-dir <dir>/out; <dir> holds nothing else.
const dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-pdf-'));
const outputDir = path.join(dir, 'out');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('save_pdf (default profile)', () => {
  const harness = useTools({ toolOptions: { outputDir }, manager: { outputDir } });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);

  it('returns the PDF as an embedded resource after the JSON, with its size and pages', async () => {
    const sessionId = await harness.sessionOn('big');
    const { result, json } = await tool('save_pdf', { sessionId, printBackground: true });
    expect(json).toMatchObject({ bytes: expect.any(Number), pages: expect.any(Number), title: 'Big' });
    expect(json.pages).toBeGreaterThan(1);
    const item = result.content[1];
    if (item?.type !== 'resource' || !('blob' in item.resource)) throw new Error('content[1] is not an embedded blob resource');
    expect(item.resource.mimeType).toBe('application/pdf');
    const pdf = Buffer.from(item.resource.blob, 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(json.bytes);
    const first = await tool('save_pdf', { sessionId, pageRanges: '1' });
    expect(first.json.pages).toBe(1);
    expectError(await tool('save_pdf', { sessionId, pageRanges: 'first page' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('save_pdf', { sessionId, pageRanges: '900-901' }), 'INVALID_PARAMETERS', sessionId);
  });

  it('writes the PDF inside --output-dir with filename, and nowhere else', async () => {
    const sessionId = await harness.sessionOn('home');
    const saved = expectSuccess(await tool('save_pdf', { sessionId, filename: 'receipts/home.pdf' }));
    expect(saved.file).toBe(path.join(outputDir, 'receipts', 'home.pdf'));
    const pdf = await readFile(saved.file);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(saved.bytes);
    for (const filename of ['../escape.pdf', path.join(dir, 'abs.pdf')]) {
      expect(expectError(await tool('save_pdf', { sessionId, filename }), 'INVALID_PARAMETERS', sessionId).message).toMatch(/output directory/);
    }
    expect((await readdir(dir)).sort()).toEqual(['out']);
    // Without filename the PDF comes in the answer.
    const inline = await tool('save_pdf', { sessionId });
    expect(inline.result.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/pdf' } });
  });
});

describe('browser_pdf_save (playwright profile)', () => {
  const harness = useTools({ profile: playwrightProfile(['pdf']), toolOptions: { outputDir }, manager: { outputDir } });
  const noOutput = useTools({ profile: playwrightProfile(['pdf']) });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);

  it('writes page-<time>.pdf or filename inside --output-dir', async () => {
    const home = harness.fixture().urlFor('/pages/home');
    expectSuccess(await tool('browser_navigate', { url: home }));
    const named = expectSuccess(await tool('browser_pdf_save', { filename: 'home.pdf' }));
    expect(named).toMatchObject({ file: path.join(outputDir, 'home.pdf'), url: home, title: 'Home' });
    expect((await readFile(named.file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const unnamed = expectSuccess(await tool('browser_pdf_save'));
    expect(path.dirname(unnamed.file)).toBe(outputDir);
    expect(path.basename(unnamed.file)).toMatch(/^page-.*\.pdf$/);
    expectError(await tool('browser_pdf_save', { filename: '../out.pdf' }), 'INVALID_PARAMETERS');
  });

  it('without --output-dir refuses a filename, and without one answers the PDF', async () => {
    expectError(await noOutput.checkedCall('browser_pdf_save', { filename: 'x.pdf' }), 'INVALID_PARAMETERS');
    expectSuccess(await noOutput.checkedCall('browser_navigate', { url: noOutput.fixture().urlFor('/pages/home') }));
    const inline = await noOutput.checkedCall('browser_pdf_save');
    expect(inline.result.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/pdf' } });
  });
});
