// The public API of @sessionwright/session-core: what its index.ts exports, compared with the checked-in report public-api.txt.
import { readFileSync, writeFileSync } from 'node:fs';
import { publicApi } from '@sessionwright/test-kit';
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
