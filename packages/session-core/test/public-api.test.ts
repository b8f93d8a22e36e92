// The public API of @sessionwright/session-core, entry by entry (the root and /parts): each index's names and its built declarations' signatures, compared with the checked-in reports.
import { declarationReport, publicApi, reported, undocumentedExports } from '@sessionwright/test-kit';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Each entry of package.json's exports: its index, its built declarations and its two reports. */
const ENTRIES = [
  { entry: '@sessionwright/session-core', index: 'index', report: 'public-api' },
  { entry: '@sessionwright/session-core/parts', index: 'parts', report: 'public-api.parts' },
].map(({ entry, index, report }) => ({
  entry,
  index: new URL(`../src/${index}.ts`, import.meta.url),
  names: new URL(`../${report}.txt`, import.meta.url),
  // The signatures come from the build (`pnpm build` first: the spawned-server tests read dist/ too).
  declarations: new URL(`../dist/${index}.d.ts`, import.meta.url),
  signatures: new URL(`../${report}.d.ts.txt`, import.meta.url),
  load: () => (index === 'index' ? import('../src/index.js') : import('../src/parts.js')),
}));

describe.each(ENTRIES)('$entry', ({ index, names, declarations, signatures, load }) => {
  it('exports exactly the names in its report (after a deliberate change: UPDATE_API=1 rewrites it)', () => {
    const actual = publicApi(index.pathname);
    expect(actual).toEqual(reported(names, actual));
  });

  it('has at run time exactly the values of the list', async () => {
    const values = reported(names, publicApi(index.pathname)).filter((name) => !name.startsWith('type '));
    expect(Object.keys(await load()).sort()).toEqual([...values].sort());
  });

  it('says in a TSDoc comment on each declaration what the export is for', () => {
    expect(undocumentedExports(index.pathname)).toEqual([]);
  });

  it('declares exactly the signatures in its declarations report (after a deliberate change: pnpm build, then UPDATE_API=1 rewrites it)', () => {
    const actual = declarationReport(declarations.pathname);
    expect(actual).toEqual(reported(signatures, actual));
  });
});

it('offers each name from one entry only', () => {
  const [root, parts] = ENTRIES.map(({ index }) => publicApi(index.pathname));
  expect(root?.filter((name) => parts?.includes(name))).toEqual([]);
});

it("is described name by name in docs/library.md's table of the root entry", () => {
  const page = readFileSync(new URL('../../../docs/library.md', import.meta.url), 'utf8');
  const table = page.split('### The root entry')[1]?.split('\n\n')[1] ?? '';
  const described = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map(([, name]) => name);
  const root = publicApi(ENTRIES[0]?.index.pathname ?? '').map((name) => name.replace(/^type /, ''));
  expect([...described].sort()).toEqual([...root].sort());
});
