// Input tools that act on one element: click, type.
import { elementError, locate, type ElementAction, type ElementTarget } from '@sessionwright/session-core';
import type { Locator, Page } from 'playwright';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { actAndSettle, pageState } from './page-helpers.js';
import { onSession } from './run-tool.js';
import { DEFAULT_ELEMENT_TIMEOUT, elementTimeoutSchema, sessionIdSchema, sessionResultFields, targetInput } from './schemas.js';

const ELEMENT_ERRORS = ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'] as const;

/** Runs an element action, turning any failure into the element error code that fits the element's state. */
export async function onElement<T>(
  page: Page,
  target: ElementTarget,
  action: ElementAction,
  timeout: number,
  fn: (locator: Locator) => Promise<T>,
): Promise<T> {
  const locator = locate(page, target);
  try {
    return await fn(locator);
  } catch (error) {
    throw await elementError(error, locator, { action, target, timeout });
  }
}

export const click = defineTool({
  name: 'click',
  title: 'Click element',
  description:
    'Clicks one element, named by a selector or by a ref from snapshot. If the click starts a navigation, waits for the new page to load and returns its URL and title. ' +
    'Next: snapshot to see the result. Errors: ELEMENT_NOT_FOUND (nothing matches; for a ref, take a new snapshot), ELEMENT_AMBIGUOUS (several match; make the selector unique), ' +
    'ELEMENT_NOT_CLICKABLE (hidden, disabled or covered; details.reason says which — force: true skips the checks), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    timeout: elementTimeoutSchema,
    force: z.boolean().optional().describe('Click even if the element is covered or not visible (skips actionability checks). Default false.'),
    clickCount: z.number().int().min(1).max(3).optional().describe('1 for a click (default), 2 for a double click, 3 for a triple click.'),
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default "left"; "right" opens a context menu).'),
  }),
  output: z.object({
    success: z.literal(true),
    message: z.string(),
    url: z.string().describe('The page URL after the click (a new page if the click navigated).'),
    title: z.string(),
    ...sessionResultFields,
  }),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_CLICKABLE'],
  async handler({ sessionId, selector, ref, timeout, force, clickCount, button }, ctx) {
    const limit = timeout ?? DEFAULT_ELEMENT_TIMEOUT;
    return onSession(ctx, sessionId, async (page) => {
      const before = page.url();
      await onElement(page, { selector, ref }, 'click', limit, (locator) =>
        actAndSettle(page, Math.max(limit, 30_000), () =>
          locator.click({ timeout: limit, force: force ?? false, clickCount: clickCount ?? 1, button: button ?? 'left' }),
        ),
      );
      const state = await pageState(page);
      const message = state.url !== before ? `Clicked; the page navigated to ${state.url}.` : 'Clicked.';
      return { success: true as const, message, ...state };
    });
  },
});

export const type = defineTool({
  name: 'type',
  title: 'Type text',
  description:
    'Types text into one input, textarea or contenteditable element, named by a selector or a ref from snapshot. ' +
    'By default the text is added at the caret (at the end if the field was not focused); clear: true empties the field first; submit: true presses Enter afterwards. ' +
    'Returns the field\'s value. Errors: ELEMENT_NOT_EDITABLE (not a text field, or disabled/readonly), ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    text: z.string().max(100_000).describe('The text to type.'),
    delay: z.number().int().min(0).max(1_000).optional().describe('Milliseconds between keystrokes, for pages that react to each key (default 0: inserted at once).'),
    timeout: elementTimeoutSchema,
    clear: z.boolean().optional().describe('Empty the field before typing (default false: add at the caret).'),
    submit: z.boolean().optional().describe('Press Enter after typing, e.g. to submit a form or a search (default false).'),
  }),
  output: z.object({
    success: z.literal(true),
    message: z.string(),
    value: z.string().describe('The field\'s value after typing (read before Enter when submit is true).'),
    url: z.string(),
    title: z.string(),
    ...sessionResultFields,
  }),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_EDITABLE'],
  async handler({ sessionId, selector, ref, text, delay, timeout, clear, submit }, ctx) {
    const limit = timeout ?? DEFAULT_ELEMENT_TIMEOUT;
    return onSession(ctx, sessionId, async (page) => {
      const value = await onElement(page, { selector, ref }, 'edit', limit, async (locator) => {
        if (!(await locator.isEditable({ timeout: limit }))) throw new Error('not editable');
        if (clear) await locator.fill('', { timeout: limit });
        else await placeCaretAtEndUnlessFocused(locator, limit);
        if (delay) await locator.pressSequentially(text, { delay, timeout: limit + delay * text.length });
        else await page.keyboard.insertText(text);
        const typed = await readValue(locator);
        if (submit) await actAndSettle(page, 30_000, () => locator.press('Enter', { timeout: limit }));
        return typed;
      });
      const message = `Typed ${text.length} character${text.length === 1 ? '' : 's'}${submit ? ' and pressed Enter' : ''}.`;
      return { success: true as const, message, value, ...(await pageState(page)) };
    });
  },
});

async function placeCaretAtEndUnlessFocused(locator: Locator, timeout: number): Promise<void> {
  await locator.evaluate((element) => {
    if (element === document.activeElement) return;
    (element as HTMLElement).focus();
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      const end = element.value.length;
      try {
        element.setSelectionRange(end, end);
      } catch {
        // Some input types (email, number) have no selection API; the caret then stays where the browser put it.
      }
    } else {
      const range = document.createRange();
      range.selectNodeContents(element);
      range.collapse(false);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    }
  }, undefined, { timeout });
}

async function readValue(locator: Locator): Promise<string> {
  return locator.evaluate((element) =>
    element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement
      ? element.value
      : (element.textContent ?? ''),
  );
}
