// The public API of @sessionwright/session-core: its index.ts's names and its built declarations' signatures, compared with the checked-in reports.
import { declarationReport, publicApi, reported } from '@sessionwright/test-kit';
import { expect, it } from 'vitest';

const index = new URL('../src/index.ts', import.meta.url);
const names = new URL('../public-api.txt', import.meta.url);
// The signatures come from the build (`pnpm build` first: the spawned-server tests read dist/ too).
const declarations = new URL('../dist/index.d.ts', import.meta.url);
const signatures = new URL('../public-api.d.ts.txt', import.meta.url);

it('exports exactly the names in public-api.txt (after a deliberate change: UPDATE_API=1 rewrites it)', () => {
  const actual = publicApi(index.pathname);
  expect(actual).toEqual(reported(names, actual));
});

it('has at run time exactly the values of the list', async () => {
  const values = reported(names, publicApi(index.pathname)).filter((name) => !name.startsWith('type '));
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([...values].sort());
});

it('declares exactly the signatures in public-api.d.ts.txt (after a deliberate change: pnpm build, then UPDATE_API=1 rewrites it)', () => {
  const actual = declarationReport(declarations.pathname);
  expect(actual).toEqual(reported(signatures, actual));
});
