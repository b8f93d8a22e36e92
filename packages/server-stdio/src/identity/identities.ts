// Bearer tokens: what makes one acceptable, and --auth-tokens-file (one "name token" pair a line, each token a client identity). Tokens never appear in a message.
import { readSettingsFile } from '../input/bounded-read.js';
import { UsageError } from '../input/usage-error.js';

/** The shortest token accepted: 16 characters (`openssl rand -hex 32` makes one of 64), so that guessing one over HTTP is hopeless. */
const MIN_TOKEN_LENGTH = 16;

/** What is wrong with a token, worded to follow its name (never showing it), or undefined when it will do. */
export function tokenProblem(token: string): string | undefined {
  if (/\s/.test(token)) return 'must not contain spaces or line breaks';
  if (token.length < MIN_TOKEN_LENGTH) return `must be at least ${MIN_TOKEN_LENGTH} characters long (make one with: openssl rand -hex 32)`;
  return undefined;
}

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
  const text = readSettingsFile(path, 'tokens file (--auth-tokens-file)');
  const identities: Identity[] = [];
  /** Each name, with the line that gave it. */
  const names = new Map<string, number>();
  const tokens = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `--auth-tokens-file ${path}, line ${index + 1}`;
    const fields = line.split(/\s+/);
    if (fields.length !== 2)
      throw new UsageError(`${where}: expected "name token" (two fields separated by a space), found ${fields.length} field${fields.length === 1 ? '' : 's'}`);
    const [name, token] = fields as [string, string];
    const earlier = names.get(name);
    if (earlier !== undefined) throw new UsageError(`${where}: this name is already given on line ${earlier}`);
    if (tokens.has(token)) throw new UsageError(`${where}: this token is already given to another name`);
    const problem = tokenProblem(token);
    if (problem !== undefined) throw new UsageError(`${where}: the token ${problem}`);
    names.set(name, index + 1);
    tokens.add(token);
    identities.push({ name, token });
  });
  if (identities.length === 0) throw new UsageError(`--auth-tokens-file ${path} holds no "name token" line`);
  return identities;
}
