// A package's public API for tests that compare it with checked-in reports: its names, read from its index.ts, and its signatures, read from its built declarations.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

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
 * The signatures one entry of a package offers, as its built declarations (`dist/<entry>.d.ts`) say them: each exported
 * name (sorted, `export Name` or `export type Name`) with its declaration, then every declaration of the build those
 * reach without exporting it (`not exported: Name`, sorted), so a changed field of an options type changes the report
 * of each entry that reaches it. Declarations are followed into the chunks a multi-entry build shares, so the chunk's
 * hashed file name and the short names it exports under never show. Comments, blank lines and private members are left
 * out and each line trimmed, so that a changed parameter, return or field type changes the report while a reworded
 * comment does not. Declarations of other packages (Playwright, zod, a sibling package) are named, not followed.
 */
export function declarationReport(declarations: string): string[] {
  const { checker, moduleSymbol } = compiledModule(declarations, 'report');
  const buildDir = path.dirname(path.resolve(declarations));
  const ownStatements = (symbol: ts.Symbol): ts.Statement[] => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const statements = (target.declarations ?? [])
      .filter((declaration) => path.dirname(path.resolve(declaration.getSourceFile().fileName)) === buildDir)
      .map(topStatement)
      .filter((statement) => !ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement));
    return [...new Set(statements)];
  };

  const lines: string[] = [];
  // Every statement written or waiting to be: the exported ones first, so that none is written twice.
  const seen = new Set<ts.Statement>();
  const reached = new Map<string, ts.Statement[]>();
  const follow = (statement: ts.Statement) => {
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node)) {
        const symbol = checker.getSymbolAtLocation(node);
        for (const other of symbol ? ownStatements(symbol) : []) {
          if (seen.has(other)) continue;
          seen.add(other);
          const name = nameOf(other);
          reached.set(name, [...(reached.get(name) ?? []), other]);
          follow(other);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(statement);
  };
  const exported = checker.getExportsOfModule(moduleSymbol).sort((a, b) => byName(a.name, b.name));
  for (const symbol of exported) for (const statement of ownStatements(symbol)) seen.add(statement);
  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    lines.push(`export ${target.flags & ts.SymbolFlags.Value ? '' : 'type '}${symbol.name}`);
    for (const statement of ownStatements(symbol)) lines.push(...statementLines(statement));
  }
  for (const symbol of exported) for (const statement of ownStatements(symbol)) follow(statement);
  for (const name of [...reached.keys()].sort(byName)) {
    lines.push(`not exported: ${name}`);
    for (const statement of reached.get(name) ?? []) lines.push(...statementLines(statement));
  }
  return lines;
}

/**
 * The names `index` exports whose declaration carries no TSDoc comment (`/** … *\/`), sorted: each export says in one
 * line what it is for, where its declaration is, so an editor shows it wherever the name is used.
 */
export function undocumentedExports(index: string): string[] {
  const { checker, moduleSymbol } = compiledModule(index, 'check');
  const documented = (declaration: ts.Declaration) => {
    // A variable's comment sits on its statement (`/** … */ export const x = …`).
    const holder = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    return ts.getJSDocCommentsAndTags(holder).some((doc) => ts.isJSDoc(doc));
  };
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return !(target.declarations ?? []).some(documented);
    })
    .map((symbol) => symbol.name)
    .sort(byName);
}

/** The statement at the top of its file that holds `node`. */
function topStatement(node: ts.Node): ts.Statement {
  let current = node;
  while (current.parent && !ts.isSourceFile(current.parent)) current = current.parent;
  return current as ts.Statement;
}

/** The name a top-level declaration declares (the first, for a list of variables). */
function nameOf(statement: ts.Statement): string {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations[0]?.name.getText() ?? '';
  const name = (statement as { name?: ts.Node }).name;
  return name ? name.getText() : statement.getText().slice(0, 40);
}

/** A declaration's text as report lines: comments, blank lines and private members out, each line trimmed. */
function statementLines(statement: ts.Statement): string[] {
  return withoutComments(statement.getText())
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(private|#private)\b/.test(line));
}

/** Names in the order `publicApi` lists them: by their bytes, so capitals first. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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

/** A module compiled on its own, with its type checker and the symbol of its exports. */
function compiledModule(file: string, purpose: string): { checker: ts.TypeChecker; moduleSymbol: ts.Symbol } {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!source || !moduleSymbol) throw new Error(`${file} has no exports to ${purpose}`);
  return { checker, moduleSymbol };
}
