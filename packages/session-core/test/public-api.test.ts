// The public API is a decision, not an accident: src/index.ts exports exactly the names in public-api.txt, so a change
// to what a server built on session-core may use shows up in review as a change to that list.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const indexFile = new URL('../src/index.ts', import.meta.url);
const listFile = new URL('./public-api.txt', import.meta.url);

/** Every name src/index.ts exports, as "name" for a value and "type Name" for a type, sorted by name. */
function exportedNames(): string[] {
  const source = ts.createSourceFile('index.ts', readFileSync(indexFile, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error('index.ts exports * or a namespace: list the names instead');
    for (const element of clause.elements) names.push(`${statement.isTypeOnly || element.isTypeOnly ? 'type ' : ''}${element.name.text}`);
  }
  return names.sort((a, b) => a.replace(/^type /, '').localeCompare(b.replace(/^type /, ''), 'en'));
}

const listed = () =>
  readFileSync(listFile, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

describe('the public API of @sessionwright/session-core', () => {
  it('is the checked-in list, name for name', () => {
    expect(exportedNames()).toEqual(listed());
  });

  it('has at run time exactly the values of the list', async () => {
    const values = listed().filter((name) => !name.startsWith('type '));
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([...values].sort());
  });
});
