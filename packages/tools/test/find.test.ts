// find and browser_find in process (runTool over a real SessionManager, Chromium and the fixture server): the matching snapshot lines with refs an agent acts on, a fraction of the snapshot's size, the queries refused, and matches written only inside --output-dir.
import { mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, firstText, useTools } from './tool-harness.js';

/** A ref as snapshots print it (a frame prefix once documents were replaced). */
const REF = /^(f\d+)?e\d+$/;

/** A line that a pattern with nested repetition takes ages to reject. */
const BACKTRACKING = `<!doctype html><html><head><title>Backtracking</title></head><body><p>${'a'.repeat(40)}b</p></body></html>`;

describe('find (default profile)', () => {
  const server = useTools({ fixture: { pages: { backtracking: BACKTRACKING } } });
  const { call: tool, sessionOn } = server;

  it('answers the matching lines with refs an agent acts on, at a fraction of the snapshot', async () => {
    const sessionId = await sessionOn('big');
    const found = await tool('find', { sessionId, text: 'paragraph 42:' });
    expect(found.isError, JSON.stringify(found.json)).toBe(false);
    expect(found.json).toMatchObject({ total: 1, title: 'Big', url: server.fixture().urlFor('/pages/big') });
    expect(found.json.matches).toEqual([{ ref: expect.stringMatching(REF), line: expect.stringContaining('Paragraph 42: the quick brown fox'), path: '' }]);
    const page = await tool('snapshot', { sessionId, maxChars: 200_000 });
    expect(firstText(found).length * 20).toBeLessThan(firstText(page).length);

    const link = await tool('find', { sessionId, regex: '/^link "Link 19\\d"/' });
    expect(link.json.total).toBe(10);
    const clicked = await tool('click', { sessionId, ref: link.json.matches[0].ref });
    expect(clicked.isError, JSON.stringify(clicked.json)).toBe(false);
    expect(clicked.json.url).toBe(server.fixture().urlFor('/pages/big#p190'));
  });

  it('finds inside iframes, with the ref the element has there', async () => {
    const sessionId = await sessionOn('iframe');
    const found = await tool('find', { sessionId, text: 'Send' });
    expect(found.json.matches).toEqual([expect.objectContaining({ ref: expect.stringMatching(/^f\d+e\d+$/), line: 'button "Send"' })]);
    expect(found.json.matches[0].path).toMatch(/iframe/);
    const typed = await tool('type', { sessionId, ref: (await tool('find', { sessionId, text: 'textbox "Name"' })).json.matches[0].ref, text: 'Ada' });
    expect(typed.json.value).toBe('Ada');
  });

  it('answers no match as an empty list', async () => {
    const sessionId = await sessionOn('home');
    expect((await tool('find', { sessionId, text: 'nowhere on this page' })).json).toMatchObject({ matches: [], total: 0 });
  });

  it('refuses neither or both of text and regex, a regex that does not compile, and one that backtracks without end; the session stays usable', async () => {
    const sessionId = await sessionOn('backtracking');
    expectError(await tool('find', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('find', { sessionId, text: 'a', regex: 'a' }), 'INVALID_PARAMETERS', sessionId);
    expect(expectError(await tool('find', { sessionId, regex: '/(a/' }), 'INVALID_PARAMETERS', sessionId).message).toMatch(/not a valid regular expression/);
    const slow = expectError(await tool('find', { sessionId, regex: '/(a+)+$/' }), 'INVALID_PARAMETERS', sessionId);
    expect(slow.details.reason).toBe('too slow');
    expect((await tool('find', { sessionId, regex: '/a{40}b/' })).json.total).toBe(1);
  });
});

describe('browser_find (playwright profile)', () => {
  // As servers started with --profile playwright, one with --output-dir <outputDir> (a link in it leads outside), one without.
  const outputDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'sessionwright-find-out-')));
  const outside = mkdtempSync(path.join(tmpdir(), 'sessionwright-find-outside-'));
  symlinkSync(outside, path.join(outputDir, 'link'));
  afterAll(async () => {
    await Promise.all([outputDir, outside].map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const server = useTools({ profile: playwrightProfile(), toolOptions: { outputDir }, manager: { outputDir } });
  const withoutOutputDir = useTools({ profile: playwrightProfile() });
  const tool = (name: string, args: Record<string, unknown> = {}) => server.checkedCall(name, args);

  it("takes @playwright/mcp's arguments and acts on the connection's own page", async () => {
    expectSuccess(await tool('browser_navigate', { url: server.fixture().urlFor('/pages/form') }));
    // The label's text and the field it names.
    expect(expectSuccess(await tool('browser_find', { text: 'email' })).total).toBe(2);
    const found = expectSuccess(await tool('browser_find', { regex: '/^textbox "Email"$/' }));
    expect(found).toMatchObject({ total: 1, title: 'Form', matches: [{ ref: expect.stringMatching(REF), line: 'textbox "Email"' }] });
    expect(expectSuccess(await tool('browser_type', { target: found.matches[0].ref, text: 'ada@example.com' })).value).toBe('ada@example.com');
  });

  it('writes the matches to a file inside --output-dir when given a filename, and nowhere else', async () => {
    await tool('browser_navigate', { url: server.fixture().urlFor('/pages/form') });
    const written = expectSuccess(await tool('browser_find', { text: 'e', filename: 'finds/form.md' }));
    expect(written.file).toBe(path.join(outputDir, 'finds', 'form.md'));
    expect(written.matches).toBeUndefined();
    const text = await readFile(written.file, 'utf8');
    expect(text).toMatch(new RegExp(`^${written.total} matching lines\\n`));
    expect(text).toMatch(/^(f\d+)?e\d+ {2}textbox "Email"$/m);

    for (const filename of ['../escape.md', path.join(outside, 'abs.md'), 'link/through-link.md']) {
      const refused = expectError(await tool('browser_find', { text: 'e', filename }), 'INVALID_PARAMETERS');
      expect(refused.message, filename).toMatch(/output directory/);
    }
    expect(await readdir(outside)).toEqual([]);
    const none = expectError(await withoutOutputDir.checkedCall('browser_find', { text: 'e', filename: 'x.md' }), 'INVALID_PARAMETERS');
    expect(none.message).toMatch(/no --output-dir/);
  });
});
