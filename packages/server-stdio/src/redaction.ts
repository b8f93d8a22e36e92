// What results, written files and logs never show: the values of --secrets (shown as <secret>NAME</secret>) and of the URL parameters --redact-url-params names (shown as <redacted>).
import { readSettingsFile } from './bounded-read.js';
import { UsageError } from './usage-error.js';

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
}

/**
 * A redactor for these secrets and URL parameter names, or undefined when there are none. Secret values are replaced
 * longest first (a value holding another is never half shown); empty values hide nothing and are skipped. A parameter
 * is masked wherever `?name=`, `&name=`, `#name=` or `;name=` is followed by its value: in absolute and relative URLs
 * alike, as a snapshot shows links.
 */
export function createRedactor(secrets: Readonly<Record<string, string>> = {}, urlParams: readonly string[] = []): Redactor | undefined {
  const values = Object.entries(secrets)
    .filter(([, value]) => value !== '')
    .sort(([, a], [, b]) => b.length - a.length);
  const names = urlParams.filter((name) => name !== '');
  if (values.length === 0 && names.length === 0) return undefined;
  const params = names.length === 0 ? undefined : new RegExp(`([?&#;](?:${names.map(escapeRegExp).join('|')})=)[^&#;\\s"'<>\`)\\]]*`, 'g');
  const text = (input: string): string => {
    let output = input;
    for (const [name, value] of values) if (output.includes(value)) output = output.split(value).join(secretMark(name));
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
  return { text, value: <T>(value: T) => walk(value) as T };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
