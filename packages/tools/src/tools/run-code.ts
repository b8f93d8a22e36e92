// run_code_unsafe: runs the caller's Playwright code in the server process with the session's page (group `unsafe`; over HTTP only with --allow-unsafe-code).
import vm from 'node:vm';
import { SessionError, browserError, type Logger } from '@sessionwright/session-core';
import { firstLine, messageOf } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { boundedResult } from './evaluate.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { readAllowedFile } from './upload.js';

/**
 * What the code sees besides `page`: timers, URLs, text codecs, fetch and friends, as a script would. Not `console`
 * (over stdio, stdout is the protocol), nor `process` or `require`.
 */
const CODE_GLOBALS = [
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'structuredClone',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'AbortController',
  'AbortSignal',
  'fetch',
  'Headers',
  'Request',
  'Response',
  'FormData',
  'Blob',
  'Buffer',
  'crypto',
  'atob',
  'btoa',
] as const;

/** The functions that call the code back later; given to it wrapped, so that a callback that throws is logged, not fatal. */
const CALLBACK_GLOBALS = ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'] as const;

/**
 * What the code leaves behind must not end the server: a callback that throws is caught where it is called back, and,
 * once any code has run, a promise rejected with no handler is logged (Node would otherwise exit on it).
 */
function guarded(logger: Logger): Record<string, unknown> {
  if (!rejectionsLogged) {
    rejectionsLogged = true;
    process.on('unhandledRejection', (reason) => logger.warn(`a promise was rejected with no handler (run_code_unsafe): ${firstLine(thrownMessage(reason))}`));
  }
  const safely =
    (callback: unknown) =>
    (...args: unknown[]) => {
      try {
        return typeof callback === 'function' ? (callback as (...rest: unknown[]) => unknown)(...args) : undefined;
      } catch (error) {
        logger.warn(`a callback of run_code_unsafe's code threw: ${firstLine(thrownMessage(error))}`);
        return undefined;
      }
    };
  const wrapped: Record<string, unknown> = {};
  for (const name of CALLBACK_GLOBALS) {
    const schedule = globalThis[name] as (callback: unknown, ...rest: unknown[]) => unknown;
    wrapped[name] = (callback: unknown, ...rest: unknown[]) => schedule(safely(callback), ...rest);
  }
  return wrapped;
}
let rejectionsLogged = false;

const CODE_EXAMPLE = "async (page) => { await page.getByRole('button', { name: 'Send' }).click(); return page.title(); }";

/** The code as a script, compiled (never run) so that a syntax error is refused before the session is touched. */
function compile(code: string): vm.Script {
  try {
    return new vm.Script(`(${code}\n)`, { filename: 'run_code_unsafe.js' });
  } catch (error) {
    throw new SessionError('INVALID_PARAMETERS', `The code does not parse: ${firstLine(messageOf(error))}. Give a function such as ${CODE_EXAMPLE}.`, {
      details: { reason: 'syntax', code: code.slice(0, 500) },
    });
  }
}

const runCodeOutput = sessionOutput({
  result: z.unknown().describe("The function's return value as JSON; when truncated, the first characters of its JSON text."),
  type: z.string().describe('What the function returned: string, number, boolean, object, array, null or undefined.'),
  truncated: z.boolean().optional().describe('True when the JSON was too long and was cut.'),
  note: z.string().optional().describe('When truncated: how long the full result was.'),
});

export const runCodeUnsafe = defineSessionTool({
  name: 'run_code_unsafe',
  title: 'Run Playwright code (unsafe)',
  description: "Runs a Playwright function with the session's page in the server process. Unsafe: it can do what the server can.",
  notes:
    `code is a function that gets the Playwright page: ${CODE_EXAMPLE}. It runs in the server process (not the page), with the timers, URL, fetch, Buffer and crypto of Node but no console, process or require; ` +
    "its result comes back as JSON, bounded as evaluate's is. filename loads the code from a file instead (code is then " +
    'ignored), read only inside the directories upload_file reads from. ' +
    'The call ends at the call ceiling; code that never yields (an endless synchronous loop) holds the whole server. A callback ' +
    'or promise it leaves failing is logged on stderr. ' +
    'Served over stdio, where the client already runs the process; over HTTP only when the server was started with ' +
    '--allow-unsafe-code (otherwise the tool is not listed). ' +
    'Errors: INVALID_PARAMETERS (neither code nor filename, code that does not parse or is not a function, a file outside the allowed directories), ' +
    'BROWSER_ERROR with details.reason "script_error" when the code throws (details.codeMessage), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z
    .strictObject({
      sessionId: sessionIdSchema,
      code: z.string().min(1).max(100_000).optional().describe('async (page) => { … }'),
      filename: z.string().min(1).max(4_096).optional().describe('Load the code from this file instead.'),
    })
    .refine((args) => args.code !== undefined || args.filename !== undefined, { message: 'give "code" (a function of page) or "filename"', path: ['code'] }),
  output: runCodeOutput,
  kind: 'action',
  capability: 'unsafe',
  errors: ['INVALID_PARAMETERS', 'BROWSER_ERROR', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED'],
  async prepare({ code, filename }, ctx) {
    if (filename === undefined) return compile(code as string);
    const file = await readAllowedFile(filename, ctx.roots ? await ctx.roots() : { directories: [], source: 'none' });
    return compile(file.buffer.toString('utf8'));
  },
  async handler(script, page, _response, ctx) {
    const sandbox: Record<string, unknown> = { page, ...guarded(ctx.logger) };
    for (const name of CODE_GLOBALS) sandbox[name] = (globalThis as Record<string, unknown>)[name];
    const fn: unknown = script.runInContext(vm.createContext(sandbox));
    if (typeof fn !== 'function') {
      throw new SessionError('INVALID_PARAMETERS', `code must be a function of page, such as ${CODE_EXAMPLE}; it is a ${typeof fn}.`, {
        details: { reason: 'not a function' },
      });
    }
    let value: unknown;
    try {
      value = await (fn as (page: unknown) => unknown)(page);
    } catch (error) {
      const said = thrownMessage(error);
      throw browserError('script_error', `The code threw: ${firstLine(said)}. Fix it and run it again.`, { details: { codeMessage: said.slice(0, 2_000) } });
    }
    return boundedResult(value);
  },
});

/** What the code threw: an error made in its own context is no `instanceof Error` here, so its message is read as a field. */
function thrownMessage(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : messageOf(error);
}

/** The playwright profile's name for run_code_unsafe (profiles/playwright/run-code.ts). */
export const BROWSER_RUN_CODE_TOOL = 'browser_run_code_unsafe';

/** The tools that run a caller's code in the server process: over HTTP, listed only with --allow-unsafe-code. */
export const UNSAFE_CODE_TOOLS: ReadonlySet<string> = new Set([runCodeUnsafe.name, BROWSER_RUN_CODE_TOOL]);
