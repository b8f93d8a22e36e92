// --auth-tokens-file: one "name token" pair a line, each token a client identity. Tokens never appear in a message.
import { readFileSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/** A client identity and the token that proves it. */
export interface Identity {
  name: string;
  token: string;
}

/**
 * Reads and checks the file: blank lines and `#` comments are skipped; every other line is a name and a token separated
 * by white space, names and tokens unique. Any problem is a UsageError naming the line, never showing a token.
 */
export function readIdentities(path: string): Identity[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--auth-tokens-file: cannot read ${path} (${error instanceof Error && 'code' in error ? String(error.code) : 'unreadable'})`);
  }
  const identities: Identity[] = [];
  const names = new Set<string>();
  const tokens = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `--auth-tokens-file ${path}, line ${index + 1}`;
    const fields = line.split(/\s+/);
    if (fields.length !== 2)
      throw new UsageError(`${where}: expected "name token" (two fields separated by a space), found ${fields.length} field${fields.length === 1 ? '' : 's'}`);
    const [name, token] = fields as [string, string];
    if (names.has(name)) throw new UsageError(`${where}: the name "${name}" is given twice`);
    if (tokens.has(token)) throw new UsageError(`${where}: this token is already given to another name`);
    names.add(name);
    tokens.add(token);
    identities.push({ name, token });
  });
  if (identities.length === 0) throw new UsageError(`--auth-tokens-file ${path} holds no "name token" line`);
  return identities;
}
