// The evaluate tool: runs a caller's JavaScript function in the page (optionally on one element) and returns its result as JSON.
import { SessionError, browserError } from '@sessionwright/session-core';
import { firstLine, messageOf } from '@sessionwright/session-core/parts';
import type { Frame, Page, Request } from 'playwright';
import { z } from 'zod';
import { frameOf, onElement } from '../page/actions.js';
import { toolError } from '../framework/errors.js';
import { sessionOutput } from '../framework/response.js';
import { DEFAULT_ELEMENT_TIMEOUT, optionalTargetInput, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** The most characters of JSON a result may take; a longer one comes back as the start of its JSON text. */
const MAX_RESULT_CHARS = 20_000;
/**
 * How much work the page spends writing a result, in values visited plus characters measured: enough to measure a
 * result many times longer than MAX_RESULT_CHARS exactly, little enough (well under a second) that a function
 * returning millions of objects cannot keep the page busy. Past it the length is given as a lower bound.
 */
const RESULT_WORK = 2_000_000;
/** Nesting deeper than this is written as "[Too deep]". */
const MAX_RESULT_DEPTH = 200;
const DEFAULT_EVALUATE_TIMEOUT = 30_000;

/**
 * What the page sends back, always small: the start of the result's JSON (at most MAX_RESULT_CHARS), how long the
 * whole JSON is (a lower bound when not `measured` to its end), or what was thrown, cut to a few thousand characters.
 */
type PageOutcome =
  | { threw: false; type: string; json: string; length: number; measured: boolean }
  | { threw: true; name: string; message: string; stack: string };

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => unknown;

/** INVALID_PARAMETERS when the source does not parse; it is only compiled here, never run in this process. */
function checkSyntax(source: string): void {
  try {
    new AsyncFunction('element', `return (${source}\n);`);
  } catch (error) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      `The function does not parse: ${error instanceof Error ? error.message : String(error)}. Give a function such as "() => document.title" or "(el) => el.textContent".`,
      {
        details: { function: source.slice(0, 500) },
      },
    );
  }
}

/**
 * Writes a value as JSON in the page, so that only its first MAX_RESULT_CHARS characters ever cross to the server:
 * dates as ISO text, NaN/Infinity and bigints as text, undefined (and functions, symbols) as null in arrays and left
 * out of objects, DOM nodes as "ref: <Node>", cycles as "[Circular]", nesting past MAX_RESULT_DEPTH as "[Too deep]".
 * It stops after RESULT_WORK units of work (values visited plus characters measured).
 */
const WRITE_JSON = `(value, max, work, maxDepth) => {
  const parts = [];
  let kept = 0;
  let length = 0;
  let left = work;
  const out = (text) => {
    length += text.length;
    if (kept >= max) return;
    const piece = text.length <= max - kept ? text : text.slice(0, max - kept);
    parts.push(piece);
    kept += piece.length;
  };
  const text = (string) => {
    if (string.length > left) {
      out(JSON.stringify(string.slice(0, Math.max(0, max - kept))));
      throw 0;
    }
    left -= string.length;
    out(JSON.stringify(string));
  };
  const skipped = (item) => item === undefined || typeof item === 'function' || typeof item === 'symbol';
  const ancestors = [];
  const write = (item) => {
    if (--left < 0) throw 0;
    if (item === null || typeof item === 'boolean') return out(String(item));
    if (typeof item === 'number') return Number.isFinite(item) ? out(JSON.stringify(item)) : text(String(item));
    if (typeof item === 'string') return text(item);
    if (typeof item === 'bigint') return text(item.toString());
    if (skipped(item)) return out('null');
    if (item instanceof Date) return text(Number.isNaN(item.getTime()) ? 'Invalid Date' : item.toISOString());
    if (typeof Node === 'function' && item instanceof Node) return text('ref: <Node>');
    if (item instanceof RegExp || item instanceof Error || (typeof URL === 'function' && item instanceof URL)) return text(String(item));
    if (ancestors.includes(item)) return text('[Circular]');
    if (ancestors.length >= maxDepth) return text('[Too deep]');
    ancestors.push(item);
    if (Array.isArray(item)) {
      out('[');
      for (let i = 0; i < item.length; i += 1) {
        if (i > 0) out(',');
        write(item[i]);
      }
      out(']');
    } else {
      out('{');
      let first = true;
      for (const key of Object.keys(item)) {
        const field = item[key];
        if (skipped(field)) continue;
        out(first ? '' : ',');
        first = false;
        text(key);
        out(':');
        write(field);
      }
      out('}');
    }
    ancestors.pop();
  };
  let measured = true;
  try {
    write(value);
  } catch (stopped) {
    // 0 is thrown when the work runs out; anything else is the page's own error (a getter that threw).
    if (stopped !== 0) throw stopped;
    measured = false;
  }
  return { json: parts.join(''), length, measured };
}`;

/**
 * The page-side wrapper, as source text: it evaluates the caller's function (or expression), calls it with the element,
 * and writes the result as JSON there (WRITE_JSON), so a huge result never crosses to the server whole.
 * Playwright compiles a function's source text in the page (String(fn)), so a function object whose text is ours makes
 * the caller's code run there through Playwright's own evaluate, which works on pages whose CSP forbids eval.
 */
function pageFunction(source: string): () => unknown {
  const text = `async (element) => {
    const failure = (error) => {
      const isError = error instanceof Error;
      const said = (part, max) => String(part ?? '').slice(0, max);
      return { threw: true, name: said(isError ? error.name : typeof error, 200), message: said(isError ? error.message : error, 4000), stack: isError ? said(error.stack, 2000) : '' };
    };
    let value;
    try {
      value = (${source}
      );
      value = typeof value === 'function' ? await value(element) : await value;
    } catch (error) {
      return failure(error);
    }
    const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    try {
      return { threw: false, type, ...(${WRITE_JSON})(value, ${MAX_RESULT_CHARS}, ${RESULT_WORK}, ${MAX_RESULT_DEPTH}) };
    } catch (error) {
      // A getter of the result threw while it was being read.
      return failure(error);
    }
  }`;
  return Object.assign(() => undefined, { toString: () => text });
}

/**
 * The evaluation, or once `timeout` has passed, a call_timeout error as soon as the page shows it still answers: a
 * function waiting on a promise that never settles leaves the page usable, and the page is kept. A page stuck in a
 * loop does not answer; then the call ceiling (run with the same timeout) replaces the page.
 */
async function settleWithin<T>(page: Page, work: Promise<T>, timeout: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      page
        .evaluate(() => true)
        .then(
          () =>
            reject(
              browserError('call_timeout', `The function did not finish within ${timeout} ms; it was left waiting in the page, which is kept as it is.`, {
                details: { timeout, pageReplaced: false },
              }),
            ),
          () => {},
        );
    }, timeout);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    // The page may still answer after we gave up; nobody is listening any more.
    work.catch(() => {});
  }
}

export const evaluate = defineSessionTool({
  name: 'evaluate',
  title: 'Evaluate JavaScript',
  description: 'Runs a JavaScript function in the page; returns its result.',
  notes:
    'Examples: "() => document.title", "() => [...document.querySelectorAll(\'h2\')].map(h => h.textContent)", ' +
    'or, with a selector or ref, a function that gets that element: "(el) => el.getAttribute(\'href\')". Async functions are ' +
    'awaited; a plain expression is evaluated and its value returned. ' +
    'Use it to read data a snapshot does not show (attributes, computed values, many items at once); timeout is never longer ' +
    'than the server\'s call ceiling. Results: dates become ISO text, DOM nodes "ref: <Node>", ' +
    `undefined null (type says which); a result longer than ${MAX_RESULT_CHARS} characters of JSON comes back as the start of its JSON text with truncated: true. ` +
    'Errors: BROWSER_ERROR reason script_error when the function throws in the page (details.pageMessage holds its message) or ' +
    'the page navigates away under it, ' +
    'reason call_timeout when it runs longer than timeout (a function that does not stop, such as an endless loop, costs the ' +
    'session its page: it is replaced by a fresh one, cookies and storage kept), INVALID_PARAMETERS when it does not parse, ' +
    'ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS for the element (for a ref, take a new snapshot), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: optionalTargetInput({
    sessionId: sessionIdSchema,
    function: z.string().min(1).max(100_000).describe('e.g. "() => document.title".'),
    timeout: z.number().int().min(1).max(300_000).optional().describe(`Ms (default ${DEFAULT_EVALUATE_TIMEOUT}).`),
  }),
  output: sessionOutput({
    result: z.unknown().describe("The function's return value as JSON; when truncated, the first characters of its JSON text."),
    type: z.string().describe('What the function returned in the page: string, number, boolean, object, array, null or undefined.'),
    truncated: z.boolean().optional().describe(`True when the result's JSON was longer than ${MAX_RESULT_CHARS} characters and was cut.`),
    note: z.string().optional().describe('When truncated: how long the full result was and how to get less.'),
  }),
  kind: 'action',
  errors: ['BROWSER_ERROR', 'INVALID_PARAMETERS', 'ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED'],
  prepare(args) {
    checkSyntax(args.function);
    return { ...args, timeout: args.timeout ?? DEFAULT_EVALUATE_TIMEOUT };
  },
  // The call ends at the function's timeout: a page stuck in a loop is then replaced (see settleWithin).
  timeout: (args) => args.timeout,
  async handler({ selector, ref, function: source, timeout }, page) {
    const fn = pageFunction(source);
    const outcome = await runWatchingNavigation(page, async () => {
      if (selector === undefined && ref === undefined) return settleWithin(page, page.evaluate(fn) as Promise<PageOutcome>, timeout);
      return onElement(page, { selector, ref }, 'read', DEFAULT_ELEMENT_TIMEOUT, async (locator) => {
        await locator.waitFor({ state: 'attached', timeout: DEFAULT_ELEMENT_TIMEOUT });
        return settleWithin(page, locator.evaluate(fn) as Promise<PageOutcome>, timeout);
      });
    });
    if (outcome.threw) {
      const shown = outcome.name && outcome.name !== 'string' ? `${outcome.name}: ${outcome.message}` : outcome.message;
      throw browserError('script_error', `The function threw in the page: ${firstLine(shown)}. Fix the function and run it again.`, {
        details: {
          pageMessage: outcome.message.slice(0, 2_000),
          errorName: outcome.name,
          ...(outcome.stack ? { stack: outcome.stack.slice(0, 1_000) } : {}),
        },
      });
    }
    return resultFields(outcome);
  },
});

/** evaluate's result fields from what the writer made: the value, or the start of its JSON text when it was too long. */
function resultFields(outcome: Extract<PageOutcome, { threw: false }>): { result: unknown; type: string; truncated?: true; note?: string } {
  if (outcome.measured && outcome.length <= MAX_RESULT_CHARS) return { result: JSON.parse(outcome.json) as unknown, type: outcome.type };
  const size = outcome.measured ? `is ${outcome.length} characters` : `is more than ${outcome.length} characters (it was not measured to its end)`;
  return {
    result: outcome.json,
    type: outcome.type,
    truncated: true,
    note: `The result's JSON ${size}; result holds its first ${outcome.json.length} as text. Return less (filter, slice, or pick fields) to get it whole.`,
  };
}

type JsonWriter = (value: unknown, max: number, work: number, maxDepth: number) => { json: string; length: number; measured: boolean };

/** The page's JSON writer compiled in this process (it is our own source text), for values made here. */
let writerHere: JsonWriter | undefined;

/** A value made in this process (run_code_unsafe's), as evaluate's result fields: bounded exactly as a page's result is. */
export function boundedResult(value: unknown): { result: unknown; type: string; truncated?: true; note?: string } {
  // Compiles WRITE_JSON, a constant of this file, never a caller's text.
  writerHere ??= new Function(`return (${WRITE_JSON});`)() as JsonWriter;
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return resultFields({ threw: false, type, ...writerHere(value, MAX_RESULT_CHARS, RESULT_WORK, MAX_RESULT_DEPTH) });
}

/** A function the page was running when it navigated has no result; say that rather than Playwright's "execution context was destroyed". */
async function runWatchingNavigation<T>(page: Page, work: () => Promise<T>): Promise<T> {
  let navigated = false;
  const onNavigation = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true;
  };
  // The request comes first: the function's context may be gone before framenavigated is reported.
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && frameOf(request) === page.mainFrame()) navigated = true;
  };
  page.on('framenavigated', onNavigation);
  page.on('request', onRequest);
  try {
    return await work();
  } catch (error) {
    if (navigated && !(error instanceof SessionError)) {
      throw browserError('script_error', 'The page navigated away while the function ran, so it has no result. Take a snapshot to see the new page.', {
        details: { navigated: true, url: page.url(), browserMessage: firstLine(messageOf(error)) },
      });
    }
    throw toolError(error);
  } finally {
    page.off('framenavigated', onNavigation);
    page.off('request', onRequest);
  }
}
