// A package's public API as a sorted list of names, read from its index.ts, for tests that compare it with a checked-in report.
import { readFileSync } from 'node:fs';

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
