// The declaration report the packages' public-api tests compare: signatures count, comments and private members do not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { declarationReport } from '../src/index.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'sessionwright-api-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function reportOf(text: string): string[] {
  const file = path.join(scratch, 'index.d.ts');
  writeFileSync(file, text);
  return declarationReport(file);
}

const declarations = `/** Opens a session. */
declare function open(url: string, timeout?: number): Promise<string>; // the id
declare const URI = "ui://app/view.html";
type Glob = \`*/\${string}\`;
declare class Door {
    private readonly hinge;
    /* the only public way in */
    knock(times: number): void;
}
export { Door, type Glob, URI, open };
`;

it('keeps every signature line, trimmed, and string or template literals whole', () => {
  expect(reportOf(declarations)).toEqual([
    'declare function open(url: string, timeout?: number): Promise<string>;',
    'declare const URI = "ui://app/view.html";',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected line is TypeScript text holding a template literal type.
    'type Glob = `*/${string}`;',
    'declare class Door {',
    'knock(times: number): void;',
    '}',
    'export { Door, type Glob, URI, open };',
  ]);
});

it('changes with a parameter type, not with a comment or a private member', () => {
  const base = reportOf(declarations);
  expect(reportOf(declarations.replace('timeout?: number', 'timeout?: string'))).not.toEqual(base);
  expect(reportOf(declarations.replace('/** Opens a session. */', '/** Opens one session, at once. */'))).toEqual(base);
  expect(reportOf(declarations.replace('private readonly hinge;', 'private hinges;'))).toEqual(base);
});
