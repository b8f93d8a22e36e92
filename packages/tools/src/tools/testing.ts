// The `testing` capability: verify (assertions on what the page shows) and generate_locator (test code for an element).
import { SessionError } from '@sessionwright/session-core';
import { messageOf } from '@sessionwright/session-core/parts';
import type { Locator, Page } from 'playwright';
import { z } from 'zod';
import type { AnyTool } from '../framework/define-tool.js';
import { describeTarget, type ElementTarget } from '../page/element.js';
import { onElement } from '../page/actions.js';
import { sessionOutput } from '../framework/response.js';
import { DEFAULT_ELEMENT_TIMEOUT, elementTimeoutSchema, sessionIdSchema, targetFields } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

const VERIFY_CHECKS = ['element_visible', 'text_visible', 'list_visible', 'value'] as const;
type VerifyCheck = (typeof VERIFY_CHECKS)[number];

/** The fields each check needs; any other check field is refused, so a call says one thing. */
const NEEDS: Record<VerifyCheck, readonly string[]> = {
  element_visible: ['role'],
  text_visible: ['text'],
  list_visible: ['target', 'items'],
  value: ['target', 'value'],
};
const ALLOWED: Record<VerifyCheck, readonly string[]> = { ...NEEDS, element_visible: ['role', 'name'] };

/** How often a check that does not hold yet is read again, at most. */
const MAX_POLL_INTERVAL_MS = 250;

export const verify = defineSessionTool({
  name: 'verify',
  title: 'Verify',
  description: 'Asserts what the page shows: an element by role and name, a text, a list, or a field value.',
  notes:
    'Waits up to timeout for the check to hold, as a test assertion does, and answers {passed: true} when it does. ' +
    'check "element_visible": an element with that ARIA role and accessible name (name matches a part, any case) in any frame; ' +
    '"text_visible": visible text containing text, in any frame; "list_visible": the element (selector or ref) contains each of items; ' +
    '"value": the field (selector or ref) has value — its input value, or "true"/"false" for a checkbox, radio or switch. ' +
    'A check that does not hold by the timeout is an error: WAIT_TIMEOUT, with details.check, details.expected and details.actual (what the page had). ' +
    'Errors: WAIT_TIMEOUT (the assertion failed), INVALID_PARAMETERS (a field the check needs missing, or one it does not use given), ' +
    'ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS (the list or field element; for a ref, take a new snapshot), ELEMENT_NOT_EDITABLE ' +
    '(value of an element that has none), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    check: z.enum(VERIFY_CHECKS).describe('What to assert.'),
    role: z.string().min(1).max(100).optional().describe('element_visible: ARIA role.'),
    name: z.string().max(1_000).optional().describe('element_visible: accessible name.'),
    text: z.string().min(1).max(10_000).optional().describe('text_visible: the text.'),
    items: z.array(z.string().min(1).max(10_000)).min(1).max(200).optional().describe('list_visible: texts in it.'),
    value: z.string().max(100_000).optional().describe('value: expected; "true"/"false" when checkable.'),
    ...targetFields,
    timeout: elementTimeoutSchema,
  }),
  output: sessionOutput({
    passed: z.literal(true),
    message: z.string().describe('What held.'),
  }),
  kind: 'read',
  errors: [
    'WAIT_TIMEOUT',
    'INVALID_PARAMETERS',
    'ELEMENT_NOT_FOUND',
    'ELEMENT_AMBIGUOUS',
    'ELEMENT_NOT_EDITABLE',
    'SESSION_NOT_FOUND',
    'SESSION_EXPIRED',
    'BROWSER_ERROR',
  ],
  capability: 'testing',
  defaultTimeout: 'element',
  // A check without what it needs is refused before the call waits for its session.
  prepare(args) {
    const given = Object.entries({ ...args, target: args.selector ?? args.ref })
      .filter(([key, value]) => value !== undefined && !['sessionId', 'check', 'timeout', 'selector', 'ref'].includes(key))
      .map(([key]) => key);
    const missing = NEEDS[args.check].filter((field) => !given.includes(field));
    const extra = given.filter((field) => !ALLOWED[args.check].includes(field));
    const words = (fields: readonly string[]) => fields.map((field) => (field === 'target' ? 'selector or ref' : field)).join(', ');
    if (missing.length > 0) throw invalid(`check "${args.check}" needs ${words(missing)}.`);
    if (extra.length > 0) throw invalid(`check "${args.check}" does not use ${words(extra)}; it takes ${words(ALLOWED[args.check])}.`);
    if (args.selector !== undefined && args.ref !== undefined) throw invalid('give one of "selector" or "ref", not both.');
    return args;
  },
  async handler(args, page, _response, ctx) {
    const timeout = args.timeout ?? DEFAULT_ELEMENT_TIMEOUT;
    const poll = <T>(read: () => Promise<T>, holds?: (value: T) => boolean) => pollUntil(timeout, ctx.signal, read, holds);
    const target: ElementTarget = { selector: args.selector, ref: args.ref };
    switch (args.check) {
      case 'element_visible': {
        const role = args.role ?? '';
        const name = args.name;
        const what = `an element with role "${role}"${name === undefined ? '' : ` and name "${name}"`}`;
        const found = await poll(() =>
          countInFrames(page, (frame) => frame.getByRole(role as Parameters<Page['getByRole']>[0], name === undefined ? {} : { name })),
        );
        if (found.last === 0) throw failed(args.check, what, 'none visible', timeout);
        return { passed: true as const, message: `${capitalise(what)} is visible.` };
      }
      case 'text_visible': {
        const text = args.text ?? '';
        const found = await poll(() => countInFrames(page, (frame) => frame.getByText(text).filter({ visible: true })));
        if (found.last === 0) throw failed(args.check, `visible text "${text}"`, 'not on the page', timeout);
        return { passed: true as const, message: `The text "${text}" is visible.` };
      }
      case 'list_visible': {
        const items = args.items ?? [];
        return onElement(page, target, 'read', timeout, async (list) => {
          await list.waitFor({ state: 'attached', timeout });
          const missing = await poll(
            () => missingItems(list, items),
            (left) => left.length === 0,
          );
          if (missing.last.length > 0)
            throw failed(args.check, `${describeTarget(target)} to list ${JSON.stringify(items)}`, `missing ${JSON.stringify(missing.last)}`, timeout);
          return { passed: true as const, message: `${capitalise(describeTarget(target))} lists all ${items.length} items.` };
        });
      }
      case 'value': {
        const expected = args.value ?? '';
        return onElement(page, target, 'read', timeout, async (field) => {
          await field.waitFor({ state: 'attached', timeout });
          const read = await fieldReader(field);
          const found = await poll(read, (actual) => actual === expected);
          if (found.last !== expected) throw failed(args.check, `value "${expected}"`, `"${found.last}"`, timeout);
          return { passed: true as const, message: `${capitalise(describeTarget(target))} has the value "${expected}".` };
        });
      }
    }
  },
});

export const generateLocator = defineSessionTool({
  name: 'generate_locator',
  title: 'Generate locator',
  description: 'Answers the Playwright locator code for an element, as codegen writes it, for use in tests.',
  notes:
    "Turns a ref from snapshot, or a selector, into the locator a test would use: getByRole('button', { name: 'Submit' }), " +
    "getByText(…), or locator('…') when nothing better names it. " +
    'Errors: ELEMENT_NOT_FOUND (nothing matches; for a ref, take a new snapshot), ELEMENT_AMBIGUOUS (the selector matches ' +
    'several), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z
    .strictObject({ sessionId: sessionIdSchema, ...targetFields })
    .refine((args) => (args.selector === undefined) !== (args.ref === undefined), { message: 'give exactly one of "selector" or "ref"', path: ['selector'] }),
  output: sessionOutput({ locator: z.string().describe("Locator code, e.g. getByRole('button', { name: 'Submit' }).") }),
  kind: 'read',
  errors: ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  capability: 'testing',
  async handler({ selector, ref }, page) {
    return onElement(page, { selector, ref }, 'read', DEFAULT_ELEMENT_TIMEOUT, async (locator) => {
      await locator.waitFor({ state: 'attached', timeout: DEFAULT_ELEMENT_TIMEOUT });
      return { locator: (await locator.normalize()).toString() };
    });
  },
});

/**
 * Reads `read` until `holds` says its answer holds, the timeout passes or the call is cancelled, at growing intervals;
 * answers the last reading. By default a reading holds when it is a count above zero.
 */
async function pollUntil<T>(
  timeout: number,
  signal: AbortSignal,
  read: () => Promise<T>,
  holds: (value: T) => boolean = (value) => typeof value === 'number' && value > 0,
): Promise<{ last: T }> {
  const deadline = Date.now() + timeout;
  for (let interval = 25; ; interval = Math.min(interval * 2, MAX_POLL_INTERVAL_MS)) {
    const last = await read();
    const left = deadline - Date.now();
    if (holds(last) || left <= 0 || signal.aborted) return { last };
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
  }
}

/** How many elements match in the page and its frames (a frame that goes away while read counts none). */
async function countInFrames(page: Page, locatorIn: (frame: ReturnType<Page['mainFrame']>) => Locator): Promise<number> {
  let total = 0;
  for (const frame of page.frames()) {
    // A frame that detaches while it is read has nothing to show.
    total += await locatorIn(frame)
      .count()
      .catch(() => 0);
  }
  return total;
}

async function missingItems(list: Locator, items: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const item of items) if ((await list.getByText(item).count()) === 0) missing.push(item);
  return missing;
}

/** How a field's value is read: checked state as "true"/"false" for what can be checked, its input value otherwise. */
async function fieldReader(field: Locator): Promise<() => Promise<string>> {
  const checkable = await field.evaluate(
    (element) =>
      (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) ||
      ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(element.getAttribute('role') ?? ''),
  );
  if (checkable) return async () => String(await field.isChecked({ timeout: 1_000 }));
  return async () => {
    try {
      return await field.inputValue({ timeout: 1_000 });
    } catch (error) {
      throw new SessionError('ELEMENT_NOT_EDITABLE', 'The element has no value to verify: name an input, textarea or select, or a checkbox.', {
        details: { browserMessage: firstLine(messageOf(error)) },
      });
    }
  };
}

/** A failed assertion: WAIT_TIMEOUT, saying what was expected and what the page had. */
function failed(check: VerifyCheck, expected: string, actual: string, timeout: number): SessionError {
  return new SessionError('WAIT_TIMEOUT', `Verify failed: expected ${expected}, but the page had ${actual} after ${timeout} ms.`, {
    details: { check, expected, actual, timeout },
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

function invalid(message: string): SessionError {
  return new SessionError('INVALID_PARAMETERS', message);
}

/** The `testing` capability group, served only when the server is asked for it. */
export const testingTools: readonly AnyTool[] = [verify, generateLocator];
