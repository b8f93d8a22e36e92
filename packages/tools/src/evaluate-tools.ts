// The evaluate tool: runs a caller's JavaScript function in the page (optionally on one element) and returns its result as JSON.
import { SessionError, browserError, firstLine } from '@sessionwright/session-core';
import type { Frame, Page, Request } from 'playwright';
import { z } from 'zod';
import { frameOf, onElement } from './page-helpers.js';
import { playwrightError } from './playwright-errors.js';
import { sessionOutput } from './response.js';
import { DEFAULT_ELEMENT_TIMEOUT, optionalTargetInput, sessionIdSchema } from './schemas.js';
import { defineSessionTool } from './session-tool.js';

/** The most characters of JSON a result may take; a longer one comes back as the start of its JSON text. */
const MAX_RESULT_CHARS = 20_000;
const DEFAULT_EVALUATE_TIMEOUT = 30_000;

/** What the page sends back: the value, or what was thrown, as plain data so the page's own message survives intact. */
type PageOutcome = { threw: false; type: string; value: unknown } | { threw: true; name: string; message: string; stack: string };

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
 * The page-side wrapper, as source text: it evaluates the caller's function (or expression) and calls it with the element.
 * Playwright compiles a function's source text in the page (String(fn)), so a function object whose text is ours makes
 * the caller's code run there through Playwright's own evaluate, which works on pages whose CSP forbids eval.
 */
function pageFunction(source: string): () => unknown {
  const text = `async (element) => {
    let value;
    try {
      value = (${source}
      );
      value = typeof value === 'function' ? await value(element) : await value;
    } catch (error) {
      const isError = error instanceof Error;
      return { threw: true, name: isError ? error.name : typeof error, message: isError ? error.message : String(error), stack: isError ? String(error.stack ?? '') : '' };
    }
    return { threw: false, type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, value };
  }`;
  return Object.assign(() => undefined, { toString: () => text });
}

/** Playwright's deserialised value as plain JSON: dates as ISO text, NaN/Infinity and bigints as text, cycles marked. */
export function toJsonValue(value: unknown, ancestors: object[] = []): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (typeof value !== 'object') return String(value);
  if (ancestors.includes(value)) return '[Circular]';
  const inner = [...ancestors, value];
  if (Array.isArray(value)) return value.map((item) => toJsonValue(item, inner));
  if (value instanceof RegExp || value instanceof URL || value instanceof Error) return String(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) out[key] = toJsonValue(item, inner);
  }
  return out;
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
  description: 'Runs a JavaScript function in the page and returns its result.',
  notes:
    'Examples: "() => document.title", "() => [...document.querySelectorAll(\'h2\')].map(h => h.textContent)", ' +
    'or, with a selector or ref, a function that gets that element: "(el) => el.getAttribute(\'href\')". Async functions are awaited; a plain expression is evaluated and its value returned. ' +
    'Use it to read data a snapshot does not show (attributes, computed values, many items at once); timeout is never longer than the server\'s call ceiling. Results: dates become ISO text, DOM nodes "ref: <Node>", ' +
    `undefined null (type says which); a result longer than ${MAX_RESULT_CHARS} characters of JSON comes back as the start of its JSON text with truncated: true. ` +
    'Errors: BROWSER_ERROR reason script_error when the function throws in the page (details.pageMessage holds its message) or the page navigates away under it, ' +
    'reason call_timeout when it runs longer than timeout (a function that does not stop, such as an endless loop, costs the session its page: it is replaced by a fresh one, cookies and storage kept), INVALID_PARAMETERS when it does not parse, ' +
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
    const value = toJsonValue(outcome.value);
    const json = JSON.stringify(value);
    if (json.length <= MAX_RESULT_CHARS) return { result: value, type: outcome.type };
    return {
      result: json.slice(0, MAX_RESULT_CHARS),
      type: outcome.type,
      truncated: true,
      note: `The result's JSON is ${json.length} characters; result holds its first ${MAX_RESULT_CHARS} as text. Return less (filter, slice, or pick fields) to get it whole.`,
    };
  },
});

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
        details: { navigated: true, url: page.url(), browserMessage: firstLine(error instanceof Error ? error.message : String(error)) },
      });
    }
    throw playwrightError(error);
  } finally {
    page.off('framenavigated', onNavigation);
    page.off('request', onRequest);
  }
}
