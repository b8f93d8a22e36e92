// session-core serves any front end: the texts it writes (messages, logs) name no MCP tool; it gives codes and hints instead.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Tool names of the default profile and of the drop-in profile that are not also plain words of a sentence. */
const TOOL_NAME =
  /\b(create_session|close_session|list_sessions|navigate|go_back|go_forward|reload|snapshot|screenshot|press_key|select_option|wait_for|evaluate|browser_(?!unreachable|disconnected)\w+)\b/;

/** Every string and template text in a source file, with its line. */
function textsOf(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    // Import paths are not texts anyone reads.
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('session-core texts', () => {
  it('name no MCP tool', () => {
    const offenders = readdirSync(SRC)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) =>
        textsOf(`${SRC}${name}`)
          .filter(({ text }) => TOOL_NAME.test(text))
          .map(({ text, line }) => `${name}:${line}: ${text}`),
      );
    expect(offenders).toEqual([]);
  });

  it('would catch one (the check itself works)', () => {
    expect(TOOL_NAME.test('Create a new session with create_session.')).toBe(true);
    expect(TOOL_NAME.test('Take a new snapshot.')).toBe(true);
    expect(TOOL_NAME.test('The page navigated away.')).toBe(false);
  });
});
