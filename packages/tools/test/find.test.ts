// find in process (runTool over a real SessionManager, Chromium and the fixture server): the matching snapshot lines with refs an agent acts on, a fraction of the snapshot's size, and the queries refused.
import { describe, expect, it } from 'vitest';
import { expectError, useTools } from './tool-harness.js';

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
    expect(found.result.content[0].text.length * 20).toBeLessThan(page.result.content[0].text.length);

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
