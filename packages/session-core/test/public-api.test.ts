// The public API of @sessionwright/session-core: what its index.ts exports, compared with the checked-in report public-api.txt.
import { readFileSync, writeFileSync } from 'node:fs';
import { declarationReport, publicApi } from '@sessionwright/test-kit';
import { expect, it } from 'vitest';

const index = new URL('../src/index.ts', import.meta.url);
const report = new URL('../public-api.txt', import.meta.url);
const listed = () =>
  readFileSync(report, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

it('exports exactly the names in public-api.txt (after a deliberate change: UPDATE_API=1 rewrites it)', () => {
  const names = publicApi(index.pathname);
  if (process.env['UPDATE_API'] === '1') writeFileSync(report, `${names.join('\n')}\n`);
  expect(names).toEqual(listed());
});

it('has at run time exactly the values of the list', async () => {
  const values = listed().filter((name) => !name.startsWith('type '));
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([...values].sort());
});

// The signatures, from the build (`pnpm build` first: the spawned-server tests read dist/ too).
const declarations = new URL('../dist/index.d.ts', import.meta.url);
const signatures = new URL('../public-api.d.ts.txt', import.meta.url);

it('declares exactly the signatures in public-api.d.ts.txt (after a deliberate change: pnpm build, then UPDATE_API=1 rewrites it)', () => {
  const report = declarationReport(declarations.pathname);
  if (process.env['UPDATE_API'] === '1') writeFileSync(signatures, `${report.join('\n')}\n`);
  expect(report).toEqual(readFileSync(signatures, 'utf8').split('\n').slice(0, -1));
});
