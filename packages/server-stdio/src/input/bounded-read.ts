// What the outside world hands the server, read within bounds: HTTP request bodies as JSON, and settings files.
import { closeSync, openSync, readSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { MAX_MESSAGE_BYTES } from './limits.js';
import { UsageError } from './usage-error.js';

/** How much JSON a request body may hold; each bound is checked before JSON.parse builds anything. */
interface JsonLimits {
  /** Bytes: upload_file's 20 MB of inline content arrives base64-encoded, about 27 MB. */
  maxBytes: number;
  /** Arrays and objects inside one another. */
  maxDepth: number;
  /**
   * Strings, brackets, braces, commas and colons: what JSON.parse makes a value of or steps over. A body of many small
   * values costs far more to parse than one long string of the same size (docs/performance.md#request-bodies).
   */
  maxTokens: number;
}

export const DEFAULT_JSON_LIMITS: JsonLimits = { maxBytes: MAX_MESSAGE_BYTES, maxDepth: 64, maxTokens: 300_000 };

/** A body read as JSON (with the text it was read from), or the HTTP status and JSON-RPC error that answer it. */
type JsonBody = { ok: true; value: unknown; text: string } | { ok: false; status: 400 | 413; code: number; message: string };

/**
 * Reads a request body as JSON within `limits`: a body that passes a bound is answered 413 as soon as that is known
 * (by Content-Length, or as its bytes arrive), before any of it is parsed; one that is not JSON, 400 with a JSON-RPC
 * parse error that quotes none of it. The rest of a refused body is read and dropped, so the client gets to read the answer.
 */
export function readJsonBody(req: IncomingMessage, limits: JsonLimits = DEFAULT_JSON_LIMITS): Promise<JsonBody> {
  const refuse = (what: string): JsonBody => ({ ok: false, status: 413, code: -32000, message: `Payload Too Large: a request body may ${what}.` });
  const tooLarge = () => refuse(`be at most ${limits.maxBytes} bytes`);
  if (Number(req.headers['content-length']) > limits.maxBytes) return Promise.resolve(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const shape = new JsonShape(limits);
    let size = 0;
    let answered = false;
    const answer = (body: JsonBody) => {
      answered = true;
      chunks.length = 0;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (answered) return;
      size += chunk.length;
      if (size > limits.maxBytes) return answer(tooLarge());
      const over = shape.feed(chunk);
      if (over === 'depth') return answer(refuse(`nest arrays and objects at most ${limits.maxDepth} deep`));
      if (over === 'tokens') return answer(refuse(`hold at most ${limits.maxTokens} strings, brackets, braces, commas and colons`));
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (answered) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        answer({ ok: true, value: JSON.parse(text) as unknown, text });
      } catch (error) {
        answer({ ok: false, status: 400, code: -32700, message: `Parse error: the request body is not valid JSON (${describeJsonError(error, text)}).` });
      }
    });
    req.on('error', reject);
  });
}

/**
 * Follows JSON text fed in pieces as far as its nesting depth and its number of tokens, without building anything. Only
 * the characters that open, close or separate values are looked at one by one; the rest is skipped natively (a regular
 * expression between tokens, a search for the next quote inside a string: most of a large body is one long string).
 * What it cannot make sense of it leaves to JSON.parse, which stops at that point too.
 */
export class JsonShape {
  private depth = 0;
  private tokens = 0;
  private inString = false;
  /** Inside a string: how many backslashes the pieces so far end with; an odd number escapes the next character. */
  private backslashes = 0;
  /** Past something that is not JSON: JSON.parse will stop there, so nothing after it needs looking at. */
  private done = false;

  constructor(private readonly limits: Pick<JsonLimits, 'maxDepth' | 'maxTokens'>) {}

  /** Takes the next bytes; answers which bound they pass, if any. */
  feed(bytes: Buffer): 'depth' | 'tokens' | undefined {
    for (let start = 0; start < bytes.length; start += WINDOW_BYTES) {
      const over = this.read(bytes.subarray(start, start + WINDOW_BYTES));
      if (over !== undefined) return over;
    }
    return undefined;
  }

  private read(bytes: Buffer): 'depth' | 'tokens' | undefined {
    if (this.done) return undefined;
    // Latin-1 maps each byte to one character; the bytes of a multi-byte UTF-8 character never look like ASCII punctuation.
    const text = bytes.toString('latin1');
    let index = 0;
    while (index < text.length) {
      if (this.inString) {
        const end = this.endOfString(text, index);
        if (end === -1) return undefined;
        this.inString = false;
        index = end + 1;
        continue;
      }
      STRUCTURE.lastIndex = index;
      const match = STRUCTURE.exec(text);
      if (match === null) return undefined;
      index = STRUCTURE.lastIndex;
      if (++this.tokens > this.limits.maxTokens) return 'tokens';
      const char = match[0];
      if (char === '"') {
        this.inString = true;
        this.backslashes = 0;
      } else if (char === '[' || char === '{') {
        if (++this.depth > this.limits.maxDepth) return 'depth';
      } else if ((char === ']' || char === '}') && --this.depth < 0) {
        this.done = true;
        return undefined;
      }
    }
    return undefined;
  }

  /**
   * Where the string being read ends in `text` (the index of its closing quote, searched from `from`), or -1 when it goes
   * on into the next piece. A quote ends it unless an odd number of backslashes comes right before it. The next quote is
   * found natively and usually ends the string; past an escaped one, a regular expression reads the escapes.
   */
  private endOfString(text: string, from: number): number {
    const quote = text.indexOf('"', from);
    if (quote === -1) {
      // Only the backslashes it ends with matter to the next piece.
      this.backslashes = this.backslashesBefore(text, from, text.length);
      return -1;
    }
    if (this.backslashesBefore(text, from, quote) % 2 === 0) return quote;
    STRING_BODY.lastIndex = this.backslashes % 2 === 1 ? from + 1 : from;
    STRING_BODY.exec(text);
    const stop = STRING_BODY.lastIndex;
    if (stop < text.length && text.charCodeAt(stop) === QUOTE) return stop;
    // The piece ends inside the string, on a backslash whose escaped character comes next, or on none.
    this.backslashes = stop < text.length ? 1 : 0;
    return -1;
  }

  /** How many backslashes come right before `at` in the string, counting those the earlier pieces ended with. */
  private backslashesBefore(text: string, from: number, at: number): number {
    let run = 0;
    while (at - run > from && text.charCodeAt(at - run - 1) === BACKSLASH) run += 1;
    return at - run === from ? run + this.backslashes : run;
  }
}

/** Outside a string: the characters that open, close or separate values. */
const STRUCTURE = /["[\]{},:]/g;
/** Inside a string: everything up to its closing quote, escapes included. */
const STRING_BODY = /(?:[^"\\]+|\\[\s\S])*/y;
/** The most read at once: STRING_BODY's backtracking grows with the escapes in what it reads, and overflows past millions. */
const WINDOW_BYTES = 64 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * What JSON.parse found wrong, worded without the text: V8 quotes the text around some mistakes (`Unexpected token
 * 'r', "root:x:0:0:"... is not valid JSON`), and that text may be a secret. Gives the line and column where V8 says.
 */
export function describeJsonError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  if (/^Unexpected token|is not valid JSON/.test(message)) return 'an unexpected character';
  if (/^Unexpected end of JSON input/.test(message)) return 'it ends too early';
  const position = /at position (\d+)/.exec(message)?.[1];
  const problem = message.replace(/\s*(?:in JSON\s*)?at position \d+.*$/s, '').trim();
  // Anything else V8 may say is kept only if it quotes nothing but single characters of JSON's own grammar ('}').
  const safe = problem !== '' && !/["']/.test(problem.replace(/'.'/g, '')) ? problem.charAt(0).toLowerCase() + problem.slice(1) : 'a syntax error';
  if (position === undefined) return safe;
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  return `${safe} at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

/** The most a settings file (--config, --auth-tokens-file) may hold: far more than any real one. */
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

/** How much of a settings file is read at a time: a small file costs one small read, a large one never a buffer of the bound. */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * Reads a settings file whole, as UTF-8 (a leading byte-order mark dropped), refusing one over `maxBytes` (default
 * MAX_SETTINGS_FILE_BYTES; a device such as /dev/zero, or a wrong path, must not take the memory). The files a setting
 * names are read the same way with a bound of their own (the playwright profile's storage state and page scripts). Any
 * problem is a UsageError, `<file>: cannot read the <kind> (why)`, which never quotes the file.
 */
export function readSettingsFile(file: string, kind: string, { maxBytes = MAX_SETTINGS_FILE_BYTES }: { maxBytes?: number } = {}): string {
  const fail = (reason: string) => new UsageError(`${file}: cannot read the ${kind} (${reason})`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw fail(reasonOf(error));
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - size));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      size += read;
      if (size > maxBytes) {
        const limit = `${maxBytes / 1024 / 1024} MiB`;
        throw fail(maxBytes === MAX_SETTINGS_FILE_BYTES ? `larger than ${limit}, which no settings file is` : `larger than ${limit}`);
      }
    }
    return Buffer.concat(chunks, size)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch (error) {
    throw error instanceof UsageError ? error : fail(reasonOf(error));
  } finally {
    closeSync(fd);
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
}
