// What results, written files and logs never show: the values of --secrets (shown as <secret>NAME</secret>) and of the URL parameters --redact-url-params names (shown as <redacted>).
import { readSettingsFile } from '../input/bounded-read.js';
import { UsageError } from '../input/usage-error.js';

/** How a secret's value is shown in its place. */
const secretMark = (name: string): string => `<secret>${name}</secret>`;
/** How a redacted URL parameter's value is shown. */
const REDACTED = '<redacted>';

/** A name a secret may have: what a dotenv file or an environment variable takes. */
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The secrets of a dotenv file, as @playwright/mcp reads --secrets: `NAME=value` a line, `export ` before the name
 * allowed, blank lines and `#` comments skipped, a value in single or double quotes taken without them. A line that is
 * none of these is a UsageError naming its line number, never its text.
 */
export function readSecretsFile(file: string): Record<string, string> {
  const text = readSettingsFile(file, 'secrets file');
  const secrets: Record<string, string> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    const name = line
      .slice(0, Math.max(0, equals))
      .replace(/^export\s+/, '')
      .trim();
    if (equals < 0 || !SECRET_NAME.test(name)) {
      throw new UsageError(`${file}: line ${index + 1} of the secrets file is not NAME=value`);
    }
    let value = line.slice(equals + 1).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) value = value.slice(1, -1);
    secrets[name] = value;
  }
  return secrets;
}

/** Rewrites what is about to be shown; undefined when there is nothing to hide. */
export interface Redactor {
  /** One piece of text. */
  text(text: string): string;
  /** Every string in a JSON-like value (objects and arrays walked), keys kept. */
  value<T>(value: T): T;
  /**
   * Hides from now on a part of secret `name` that a page kept (a field's maxlength cut the typed value), shown as
   * the secret itself; parts shorter than MIN_FRAGMENT_LENGTH are too common to hide everywhere.
   */
  hide(name: string, fragment: string): void;
}

/** The fewest characters a kept part of a secret has for every later text to hide it. */
const MIN_FRAGMENT_LENGTH = 4;
/** How many kept parts a server hides at most: each is one more pattern every text is matched against. */
const MAX_FRAGMENTS = 256;

/**
 * The fewest characters a secret may have. Redaction shows whether a text holds a secret, so a short one (a 4-digit
 * PIN) could be found by typing guesses into a page and watching which come back hidden.
 */
export const MIN_SECRET_LENGTH = 8;

/** A UsageError naming each secret shorter than MIN_SECRET_LENGTH (never its value or length); empty values are unset ones. */
export function checkSecretLengths(secrets: Readonly<Record<string, string>>): void {
  const short = Object.entries(secrets)
    .filter(([, value]) => value !== '' && [...value].length < MIN_SECRET_LENGTH)
    .map(([name]) => name);
  if (short.length === 0) return;
  throw new UsageError(
    `--secrets: ${short.join(', ')} ${short.length === 1 ? 'is' : 'are'} shorter than ${MIN_SECRET_LENGTH} characters; ` +
      'a value that short could be guessed by watching which guesses come back hidden, so it is not accepted (docs/configuration.md)',
  );
}

/**
 * A redactor for these secrets and URL parameter names, or undefined when there are none. Secret values are replaced
 * longest first (a value holding another is never half shown) in every form a page or a tool turns them into (see
 * secretPattern); empty values hide nothing and are skipped. A parameter is masked wherever `?name=`, `&name=`,
 * `#name=` or `;name=` is followed by its value: in absolute and relative URLs alike, as a snapshot shows links.
 */
export function createRedactor(secrets: Readonly<Record<string, string>> = {}, urlParams: readonly string[] = []): Redactor | undefined {
  const patterns = Object.entries(secrets)
    .filter(([, value]) => value !== '')
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([name, value]) => ({ mark: secretMark(name), pattern: secretPattern(value) }));
  const names = urlParams.filter((name) => name !== '');
  if (patterns.length === 0 && names.length === 0) return undefined;
  const params = names.length === 0 ? undefined : new RegExp(`([?&#;](?:${names.map(escapeRegExp).join('|')})=)[^&#;\\s"'<>\`)\\]]*`, 'g');
  const fragments: { mark: string; pattern: RegExp }[] = [];
  const hide = (name: string, fragment: string): void => {
    const known = Object.hasOwn(secrets, name) && secrets[name] !== fragment;
    if (!known || [...fragment].length < MIN_FRAGMENT_LENGTH || fragments.length >= MAX_FRAGMENTS) return;
    const pattern = new RegExp([...fragment].map(characterForms).join(''), 'g');
    if (fragments.some((entry) => entry.pattern.source === pattern.source)) return;
    fragments.push({ mark: secretMark(name), pattern });
    // Longest first, as the secrets are, so that a longer part is never half shown.
    fragments.sort((a, b) => b.pattern.source.length - a.pattern.source.length);
  };
  const text = (input: string): string => {
    let output = input;
    // The mark is a function's answer, so a `$` in a name is never read as a replacement pattern. Whole values go
    // before the kept parts, which would otherwise split a whole value.
    for (const { mark, pattern } of [...patterns, ...fragments]) output = output.replace(pattern, () => mark);
    if (params) output = output.replace(params, `$1${REDACTED}`);
    return output;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    }
    return value;
  };
  return { text, value: <T>(value: T) => walk(value) as T, hide };
}

/**
 * Every form of `value` a page or a tool may show: each character as itself, URL-encoded (`%` and either case of hex,
 * `+` for a space), JSON-escaped (`\"`, `\\`, `\n`, `\u00e9`…) or as an HTML entity, in any mix; and base64 or
 * base64url of it at any of the three byte offsets it can start at within a longer encoded text.
 */
function secretPattern(value: string): RegExp {
  const perCharacter = [...value].map(characterForms).join('');
  return new RegExp(`${perCharacter}|${base64Cores(value).join('|')}`, 'g');
}

/** One character of a secret, as a regular expression matching each of its forms. */
function characterForms(character: string): string {
  const code = character.codePointAt(0) as number;
  const forms = new Set<string>([escapeRegExp(character)]);
  // URL-encoded: each UTF-8 byte as %XX, in either case of hex.
  forms.add([...Buffer.from(character, 'utf8')].map((byte) => `%${hexEitherCase(byte, 2)}`).join(''));
  if (character === ' ') forms.add('\\+');
  // JSON-escaped: the escape JSON.stringify writes, and \uXXXX (a surrogate pair beyond the BMP) that any JSON writer may.
  const json = JSON.stringify(character).slice(1, -1);
  if (json !== character) forms.add(escapeRegExp(json));
  if (character === '/') forms.add('\\\\/');
  const units = code > 0xffff ? [...character].flatMap((c) => [c.charCodeAt(0), c.charCodeAt(1)]) : [code];
  forms.add(units.map((unit) => `\\\\u${hexEitherCase(unit, 4)}`).join(''));
  // An HTML entity, as page sources and attributes write the characters HTML reserves.
  const entity = HTML_ENTITIES[character];
  if (entity) forms.add(`&${entity};`);
  if (entity || character === "'") forms.add(`&#0*${code};|&#[xX]0*${hexEitherCase(code, 1)};`);
  return `(?:${[...forms].join('|')})`;
}

const HTML_ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' };

/** `value` in hex, at least `width` digits, each letter digit matching either case. */
function hexEitherCase(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/**
 * The base64 characters that encode only the secret's bytes, for each offset (0, 1, 2) the secret can have within
 * the 3-byte groups of a longer text, in both alphabets (+/ and -_), with the one partly-covered character either
 * side: whatever surrounds the secret, its base64 holds one of these.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(3)]).toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    const last = Math.floor(((offset + bytes.length) * 8) / 6) - 1;
    if (last - first + 1 < 4) continue;
    const core = encoded.slice(first, last + 1);
    for (const alphabet of [core, core.replace(/\+/g, '-').replace(/\//g, '_')]) cores.add(`[A-Za-z0-9+/_-]?${escapeRegExp(alphabet)}[A-Za-z0-9+/_-]?`);
  }
  return [...cores];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
