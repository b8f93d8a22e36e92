// Searching a snapshot's text (find, browser_find): which lines match, the ref and path each comes with, and the queries that are refused.
import { isSessionError } from '@sessionwright/session-core';
import { describe, expect, it } from 'vitest';
import { MAX_FIND_MATCHES, compileQuery, renderMatches, searchSnapshot, type SnapshotQuery } from '../src/page/snapshot-search.js';

const PAGE = [
  '- generic [ref=e1]:',
  '  - banner [ref=e2]:',
  '    - link "Home" [ref=e3]:',
  '      - /url: /home',
  '  - main [ref=e4]:',
  '    - generic [ref=e5]:',
  '      - form "Sign in" [ref=e6]:',
  '        - textbox "Email" [ref=e7]',
  '        - button "Sign in" [ref=e8]',
  '        - text: Forgot your password?',
  '    - heading "Latest news" [level=2] [ref=e9]',
].join('\n');

const search = (query: SnapshotQuery, snapshot = PAGE) => searchSnapshot(snapshot, compileQuery(query));

function refusal(run: () => unknown): { code: string; message: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (isSessionError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('not refused');
}

describe('searchSnapshot', () => {
  it('answers the lines that contain a text in any case, each with its ref and the named elements around it', () => {
    expect(search({ text: 'sign in' })).toEqual({
      total: 2,
      matches: [
        { ref: 'e6', line: 'form "Sign in"', path: 'main' },
        { ref: 'e8', line: 'button "Sign in"', path: 'main > form "Sign in"' },
      ],
    });
  });

  it("gives a line without a ref of its own the nearest enclosing element's (a link's URL, a text)", () => {
    expect(search({ text: '/home' }).matches).toEqual([{ ref: 'e3', line: '/url: /home', path: 'banner > link "Home"' }]);
    expect(search({ text: 'password' }).matches).toEqual([{ ref: 'e6', line: 'text: Forgot your password?', path: 'main > form "Sign in"' }]);
  });

  it('does not match the ref marks themselves', () => {
    expect(search({ text: 'ref' }).total).toBe(0);
    expect(search({ text: 'e7' }).total).toBe(0);
  });

  it('takes a pattern with its case, or /pattern/flags', () => {
    expect(search({ regex: 'Sign' }).total).toBe(2);
    expect(search({ regex: 'sign' }).total).toBe(0);
    expect(search({ regex: '/^heading .*news/i' }).matches).toEqual([{ ref: 'e9', line: 'heading "Latest news" [level=2]', path: 'main' }]);
    // A global pattern keeps its place from one test to the next; each line is tested on its own.
    expect(search({ regex: '/button|textbox/g' }).total).toBe(2);
  });

  it(`lists at most ${MAX_FIND_MATCHES} matches and counts them all`, () => {
    const long = Array.from({ length: 120 }, (_, index) => `- listitem [ref=e${index + 1}]: item ${index}`).join('\n');
    const found = search({ text: 'item' }, long);
    expect(found.total).toBe(120);
    expect(found.matches).toHaveLength(MAX_FIND_MATCHES);
    expect(renderMatches(found)).toContain('… 70 more: search for something narrower.');
  });

  it('cuts a long line around the match, and keeps the innermost elements of a deep path', () => {
    const text = `${'lorem '.repeat(200)}needle ${'ipsum '.repeat(200)}`;
    const deep = Array.from({ length: 8 }, (_, depth) => `${'  '.repeat(depth)}- region "R${depth}" [ref=e${depth + 1}]:`);
    const [match] = search({ text: 'needle' }, [...deep, `${'  '.repeat(8)}- paragraph [ref=e99]: ${text}`].join('\n')).matches;
    expect(match?.line).toContain('needle');
    expect(match?.line.length).toBeLessThanOrEqual(202);
    expect(match?.line.startsWith('…')).toBe(true);
    expect(match?.path).toBe('… > region "R3" > region "R4" > region "R5" > region "R6" > region "R7"');
  });

  it('renders matches one a line, for a file', () => {
    expect(renderMatches(search({ text: 'email' }))).toBe('1 matching line\ne7  main > form "Sign in" > textbox "Email"\n');
  });
});

describe('compileQuery', () => {
  it('refuses a pattern that does not compile, before any page is read', () => {
    const refused = refusal(() => compileQuery({ regex: '/(unclosed/' }));
    expect(refused.code).toBe('INVALID_PARAMETERS');
    expect(refused.message).toMatch(/not a valid regular expression/);
  });

  it('stops a pattern that backtracks without end, with an error that says what to do', () => {
    const matcher = compileQuery({ regex: '/^(a+)+$/' });
    const refused = refusal(() => matcher([`${'a'.repeat(40)}b`]));
    expect(refused.code).toBe('INVALID_PARAMETERS');
    expect(refused.message).toMatch(/make it simpler/);
    expect(refused.details).toMatchObject({ reason: 'too slow' });
  });
});
