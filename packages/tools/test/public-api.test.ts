// The public API of @sessionwright/tools: what its index.ts exports, compared with the checked-in report public-api.txt.
import { readFileSync, writeFileSync } from 'node:fs';
import { publicApi } from '@sessionwright/test-kit';
import { expect, it } from 'vitest';

const index = new URL('../src/index.ts', import.meta.url);
const report = new URL('../public-api.txt', import.meta.url);

it('exports exactly the names in public-api.txt (after a deliberate change: UPDATE_API=1 rewrites it)', () => {
  const names = publicApi(index.pathname);
  if (process.env['UPDATE_API'] === '1') writeFileSync(report, `${names.join('\n')}\n`);
  expect(names).toEqual(
    readFileSync(report, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
});
