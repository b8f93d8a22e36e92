// The declaration report the packages' public-api tests compare: signatures count, comments and private members do not; an entry reports what it exports and what that reaches, through shared chunks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { declarationReport } from '../src/index.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'sessionwright-api-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes the files of a build into a fresh folder and reports the entry `index.d.ts`. */
function reportOf(files: string | Record<string, string>): string[] {
  const dir = mkdtempSync(path.join(scratch, 'build-'));
  for (const [name, text] of Object.entries(typeof files === 'string' ? { 'index.d.ts': files } : files)) writeFileSync(path.join(dir, name), text);
  return declarationReport(path.join(dir, 'index.d.ts'));
}

const declarations = `/** Opens a session. */
declare function open(url: string, timeout?: number): Promise<string>; // the id
declare const URI = "ui://app/view.html";
type Glob = \`*/\${string}\`;
/** How a door swings. */
interface Hinge {
    side: 'left' | 'right';
}
declare class Door {
    private readonly hinge;
    /* the only public way in */
    knock(times: number): void;
    swing(hinge: Hinge): void;
}
export { Door, type Glob, URI, open };
`;

it('lists each export with its declaration, then what they reach unexported, trimmed, with literals whole', () => {
  expect(reportOf(declarations)).toEqual([
    'export Door',
    'declare class Door {',
    'knock(times: number): void;',
    'swing(hinge: Hinge): void;',
    '}',
    'export type Glob',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected line is TypeScript text holding a template literal type.
    'type Glob = `*/${string}`;',
    'export URI',
    'declare const URI = "ui://app/view.html";',
    'export open',
    'declare function open(url: string, timeout?: number): Promise<string>;',
    'not exported: Hinge',
    'interface Hinge {',
    "side: 'left' | 'right';",
    '}',
  ]);
});

it('changes with a parameter or a reached field type, not with a comment or a private member', () => {
  const base = reportOf(declarations);
  expect(reportOf(declarations.replace('timeout?: number', 'timeout?: string'))).not.toEqual(base);
  expect(reportOf(declarations.replace("side: 'left' | 'right';", "side: 'left' | 'right' | 'top';"))).not.toEqual(base);
  expect(reportOf(declarations.replace('/** Opens a session. */', '/** Opens one session, at once. */'))).toEqual(base);
  expect(reportOf(declarations.replace('private readonly hinge;', 'private hinges;'))).toEqual(base);
});

it('follows an entry into the chunk a multi-entry build shares, reporting only what this entry reaches', () => {
  const chunk = `interface Hinge {
    side: 'left' | 'right';
}
declare class Door {
    swing(hinge: Hinge): void;
}
interface Window {
    panes: number;
}
export { Door as D, type Window as W };
`;
  expect(reportOf({ 'index.d.ts': "export { D as Door } from './index-Ab12Cd34.js';\n", 'index-Ab12Cd34.d.ts': chunk })).toEqual([
    'export Door',
    'declare class Door {',
    'swing(hinge: Hinge): void;',
    '}',
    'not exported: Hinge',
    'interface Hinge {',
    "side: 'left' | 'right';",
    '}',
  ]);
});
