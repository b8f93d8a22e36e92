// A package's public API for tests that compare it with checked-in reports: its names, read from its index.ts, and its signatures, read from its built declarations.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The names `index` exports, sorted, each type-only one as `type Name`. The house style keeps every index.ts an
 * explicit list of named exports, so the text is enough; `export *` would hide names, and is refused.
 */
export function publicApi(index: string): string[] {
  const source = readFileSync(index, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  if (/export\s+\*/.test(source)) throw new Error(`${index} re-exports with "export *": list the names instead`);
  const names = new Set<string>();
  for (const [, typeOnly, list] of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    for (const item of (list ?? '').split(',')) {
      const parts = item.trim().split(/\s+/);
      if (parts[0] === '') continue;
      const isType = typeOnly !== undefined || parts[0] === 'type';
      // `a as b` exports b.
      const name = parts.at(-1) ?? '';
      names.add(isType ? `type ${name}` : name);
    }
  }
  for (const [, kind, name] of source.matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(const|let|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g)) {
    names.add(kind === 'interface' || kind === 'type' ? `type ${name}` : `${name}`);
  }
  const bare = (name: string) => name.replace(/^type /, '');
  return [...names].sort((a, b) => (bare(a) < bare(b) ? -1 : bare(a) > bare(b) ? 1 : 0));
}

/**
 * A package's public API with its signatures, as its built declarations (`dist/index.d.ts`, one bundled file) say it:
 * comments, blank lines and private members left out and each line trimmed, so that a changed parameter, return or
 * field type changes the report while a reworded comment does not.
 */
export function declarationReport(declarations: string): string[] {
  return withoutComments(readFileSync(declarations, 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(private|#private)\b/.test(line));
}

/** TypeScript text without its comments; string and template literals (a URL type such as 'ui://…') are kept whole. */
function withoutComments(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? '';
    const next = text[index + 1];
    if (char === '/' && next === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 2;
    } else if (char === "'" || char === '"' || char === '`') {
      let end = index + 1;
      while (end < text.length && text[end] !== char) end += text[end] === '\\' ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/**
 * The lines of a checked-in report, to compare `actual` with; with UPDATE_API=1 in the environment the report is
 * rewritten from `actual` first (after a deliberate change of the API).
 */
export function reported(report: URL, actual: readonly string[]): string[] {
  if (process.env['UPDATE_API'] === '1') writeFileSync(report, `${actual.join('\n')}\n`);
  return readFileSync(report, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}
