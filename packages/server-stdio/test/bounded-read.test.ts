// input/bounded-read.ts in process: the JSON shape scanner against a plain reading of the same text, JSON errors that quote nothing, settings files read within bounds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonShape, MAX_SETTINGS_FILE_BYTES, describeJsonError, readSettingsFile } from '../src/input/bounded-read.js';

/** The deepest nesting and the number of tokens (strings, brackets, braces, commas, colons) of JSON text, one character at a time. */
function plainReading(text: string): { depth: number; tokens: number } {
  let depth = 0;
  let deepest = 0;
  let tokens = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char !== undefined && '"[]{},:'.includes(char)) tokens += 1;
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, (depth += 1));
    else if (char === ']' || char === '}') depth -= 1;
  }
  return { depth: deepest, tokens };
}

/** Feeds `bytes` to a JsonShape in pieces cut at `cuts`; answers the first bound passed. */
function scan(bytes: Buffer, cuts: number[], limits: { maxDepth: number; maxTokens: number }): 'depth' | 'tokens' | undefined {
  const shape = new JsonShape(limits);
  const points = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
  for (let index = 1; index < points.length; index += 1) {
    const over = shape.feed(bytes.subarray(points[index - 1], points[index]));
    if (over !== undefined) return over;
  }
  return undefined;
}

// Strings full of what a scanner could trip on: quotes, backslashes, brackets, and characters of two to four UTF-8 bytes.
const trickyString = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', 'a', 'é', '€', '😀', '\n', '\u0000') });
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    trickyString,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('JsonShape', () => {
  it('finds the depth and token count a plain reading finds, however the bytes are cut', () => {
    fc.assert(
      fc.property(json, fc.array(fc.nat(), { maxLength: 12 }), (value, cuts) => {
        const text = JSON.stringify(value);
        const bytes = Buffer.from(text);
        const { depth, tokens } = plainReading(text);
        expect(scan(bytes, cuts, { maxDepth: depth, maxTokens: tokens })).toBeUndefined();
        if (depth > 0) expect(scan(bytes, cuts, { maxDepth: depth - 1, maxTokens: tokens })).toBe('depth');
        if (tokens > 0) expect(scan(bytes, cuts, { maxDepth: depth, maxTokens: tokens - 1 })).toBe('tokens');
      }),
      { numRuns: 300 },
    );
  });

  it('sees an escaped quote or backslash split from its backslash by a cut', () => {
    const text = '["a\\"[[[", "b\\\\", [[1]]]';
    for (let cut = 0; cut <= text.length; cut += 1) {
      expect(scan(Buffer.from(text), [cut], { maxDepth: 3, maxTokens: 100 }), `cut at ${cut}`).toBeUndefined();
      expect(scan(Buffer.from(text), [cut], { maxDepth: 2, maxTokens: 100 }), `cut at ${cut}`).toBe('depth');
    }
  });

  it('reads a piece of any size: 16 million escaped quotes in one string, then a bracket too many', () => {
    const text = `["${'\\"'.repeat(16_000_000)}", [[]]]`;
    expect(scan(Buffer.from(text), [], { maxDepth: 3, maxTokens: 100 })).toBeUndefined();
    expect(scan(Buffer.from(text), [], { maxDepth: 2, maxTokens: 100 })).toBe('depth');
  });

  it('stops looking past a closing bracket with nothing open (JSON.parse stops there too)', () => {
    expect(scan(Buffer.from(`[]]${'['.repeat(100)}`), [], { maxDepth: 10, maxTokens: 1000 })).toBeUndefined();
  });
});

describe('describeJsonError', () => {
  const secret = 'tok-5d1c9e7a3b';
  it.each([
    [`root:${secret}:19000:0:99999:7:::`, 'an unexpected character'],
    [`alice ${secret}`, 'an unexpected character'],
    [`{"a": ${secret}}`, 'an unexpected character'],
    [`{"a": "${secret}`, 'unterminated string at line 1, column 22'],
    [`{"a": 1,\n "${secret}": 2,\n}`, 'expected double-quoted property name at line 3, column 1'],
    [`{"a": 1} ${secret}`, 'unexpected non-whitespace character after JSON at line 1, column 10'],
    ['', 'it ends too early'],
  ])('%j: %s', (text, expected) => {
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (caught) {
      error = caught;
    }
    const described = describeJsonError(error, text);
    expect(described).toBe(expected);
    expect(described).not.toContain(secret);
  });
});

describe('readSettingsFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-bounded-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file up to 1 MiB and refuses anything longer, a device that never ends included', () => {
    const full = path.join(dir, 'full');
    writeFileSync(full, 'é'.repeat(MAX_SETTINGS_FILE_BYTES / 2));
    expect(readSettingsFile(full, 'config file')).toHaveLength(MAX_SETTINGS_FILE_BYTES / 2);
    writeFileSync(full, `${'a'.repeat(MAX_SETTINGS_FILE_BYTES)}b`);
    expect(() => readSettingsFile(full, 'config file')).toThrow(`${full}: cannot read the config file (larger than 1 MiB, which no settings file is)`);
    expect(() => readSettingsFile('/dev/zero', 'config file')).toThrow(/larger than 1 MiB/);
    expect(() => readSettingsFile(path.join(dir, 'missing'), 'config file')).toThrow(/\(no such file\)$/);
    expect(() => readSettingsFile(dir, 'config file')).toThrow(/\(it is a directory\)$/);
  });
});
