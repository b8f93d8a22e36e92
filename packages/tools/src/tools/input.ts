// Input tools: click, type, hover, press_key, select_option, check, uncheck.
import { SessionError } from '@sessionwright/session-core';
import { isTimeoutError } from '@sessionwright/session-core/parts';
import type { Locator, Page } from 'playwright';
import { z } from 'zod';
import { normalizeKey } from '../page/key-names.js';
import { actAndSettle, onElement } from '../page/actions.js';
import { sessionOutput, type ToolResponse } from '../framework/response.js';
import {
  DEFAULT_ELEMENT_TIMEOUT,
  elementTimeoutSchema,
  forceSchema,
  includeSnapshotSchema,
  modifiersSchema,
  mouseButtonSchema,
  optionalTargetInput,
  sessionIdSchema,
  targetInput,
} from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { withoutSecret } from '../framework/typed-secret.js';

const ELEMENT_ERRORS = ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'] as const;

/** How long an action waits for a navigation it started to load. */
const SETTLE_TIMEOUT = 30_000;

/** Said in every action's notes: what the session does about dialogs and new tabs. */
const NEVER_BLOCKED =
  'Dialogs never block: alerts and beforeunload are accepted, confirm and prompt dismissed, and the result lists them in dialogs. ' +
  'A link or script that opens a new tab switches the session to that tab (the result lists it in openedTabs, and url/title describe it).';

export const click = defineSessionTool({
  name: 'click',
  title: 'Click element',
  description: 'Clicks an element; a navigation it starts is waited for.',
  notes:
    'If the click starts a navigation, waits for the new page to load and returns its URL and title. ' +
    'clickCount 2 is a double click; button "right" opens a context menu; modifiers are keys held during the click ' +
    '(["ControlOrMeta"] opens a link in a new tab). ' +
    `${NEVER_BLOCKED} ` +
    'Next: snapshot to see the result (or pass includeSnapshot: true to get it in this result). Errors: ELEMENT_NOT_FOUND ' +
    '(nothing matches; for a ref, take a new snapshot), ELEMENT_AMBIGUOUS (several match; make the selector unique), ' +
    'ELEMENT_NOT_CLICKABLE (hidden, disabled or covered; details.reason says which — force: true skips the checks), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    timeout: elementTimeoutSchema,
    force: forceSchema,
    clickCount: z.number().int().min(1).max(3).optional().describe('2: double click.'),
    button: mouseButtonSchema,
    modifiers: modifiersSchema,
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput({ success: z.literal(true), message: z.string() }, { snapshot: true }),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_CLICKABLE'],
  defaultTimeout: 'element',
  async handler({ selector, ref, timeout = DEFAULT_ELEMENT_TIMEOUT, force = false, clickCount = 1, button = 'left', modifiers }, page, response) {
    const before = page.url();
    await onElement(page, { selector, ref }, 'click', timeout, (locator) =>
      actAndSettle(page, Math.max(timeout, SETTLE_TIMEOUT), () => locator.click({ timeout, force, clickCount, button, ...(modifiers ? { modifiers } : {}) })),
    );
    return { success: true as const, message: actionMessage('Clicked', page, response, before) };
  },
});

export const type = defineSessionTool({
  name: 'type',
  title: 'Type text',
  description: "Types text into a field; answers the field's value.",
  notes:
    'Types into an input, textarea or contenteditable element. ' +
    'By default the text is added at the caret (at the end if the field was not focused); clear: true empties the field first; ' +
    'submit: true presses Enter afterwards. ' +
    "delay types one key at a time, for pages that react to each key; the whole call still ends at the server's call ceiling. " +
    "Returns the field's value. Errors: ELEMENT_NOT_EDITABLE (not a text field, or disabled/readonly), ELEMENT_NOT_CLICKABLE (a " +
    'hidden field), ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    text: z.string().max(100_000).describe('Text to type.'),
    delay: z.number().int().min(0).max(1_000).optional().describe('Ms between keys.'),
    timeout: elementTimeoutSchema,
    clear: z.boolean().optional().describe('Empty the field first.'),
    submit: z.boolean().optional().describe('Press Enter after.'),
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput(
    { success: z.literal(true), message: z.string(), value: z.string().describe("The field's value after typing (read before Enter when submit is true).") },
    { snapshot: true },
  ),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_EDITABLE', 'ELEMENT_NOT_CLICKABLE'],
  defaultTimeout: 'element',
  async handler({ selector, ref, text: given, delay, timeout = DEFAULT_ELEMENT_TIMEOUT, clear, submit }, page, response, ctx) {
    // A secret's name types its value (--secrets); the answer names the secret, never its length.
    const secret = ctx.options.secrets?.[given];
    const text = secret ?? given;
    const value = await onElement(page, { selector, ref }, 'edit', timeout, async (locator) => {
      await typeInto(page, locator, text, { delay, clear, timeout });
      const typed = await readValue(locator, timeout);
      // The title is asked after the read-back, not beside it: Chromium acknowledges inserted text before a title
      // that the field's input handlers set has reached the browser process, while the read-back's reply comes after.
      if (!submit) response.pageSettled();
      if (submit) await actAndSettle(page, SETTLE_TIMEOUT, () => locator.press('Enter', { timeout }));
      return typed;
    });
    const what = secret === undefined ? `${text.length} character${text.length === 1 ? '' : 's'}` : `the secret ${given}`;
    const message = `Typed ${what}${submit ? ' and pressed Enter' : ''}.`;
    return { success: true as const, message, value: secret === undefined ? value : withoutSecret(value, given, secret, ctx.options) };
  },
});

export const hover = defineSessionTool({
  name: 'hover',
  title: 'Hover over element',
  description: 'Moves the mouse over an element, e.g. to open a menu.',
  notes:
    'Next: snapshot to see what appeared. Errors: ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, ' +
    'ELEMENT_NOT_CLICKABLE (hidden or covered; force: true skips the checks), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    timeout: elementTimeoutSchema,
    force: forceSchema,
  }),
  output: sessionOutput({ success: z.literal(true), message: z.string() }),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_CLICKABLE'],
  defaultTimeout: 'element',
  async handler({ selector, ref, timeout = DEFAULT_ELEMENT_TIMEOUT, force = false }, page) {
    await onElement(page, { selector, ref }, 'hover', timeout, (locator) => locator.hover({ timeout, force }));
    return { success: true as const, message: 'The mouse is over the element.' };
  },
});

export const pressKey = defineSessionTool({
  name: 'press_key',
  title: 'Press key',
  description: 'Presses a key or chord, e.g. Enter or Control+A.',
  notes:
    'Keys are Playwright key names: Enter, Escape, Tab, ArrowDown, PageDown, Backspace, a single character, or chords such as ' +
    'Control+A / Shift+Tab; ctrl, esc, up are understood too. ' +
    'With a selector or ref the element is focused first; without one the key goes to whatever has focus. If the key starts a ' +
    'navigation (Enter in a form), waits for the new page to load. ' +
    `To enter text use type instead. ${NEVER_BLOCKED} ` +
    'Errors: INVALID_PARAMETERS (unknown key name; nothing was pressed), ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS / ' +
    'ELEMENT_NOT_CLICKABLE for the element, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: optionalTargetInput({
    sessionId: sessionIdSchema,
    key: z.string().min(1).max(100).describe('Playwright key name.'),
    timeout: elementTimeoutSchema,
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput(
    { success: z.literal(true), message: z.string(), key: z.string().describe("The key or chord pressed, in Playwright's spelling.") },
    { snapshot: true },
  ),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_CLICKABLE'],
  // An unknown key name is refused before the call waits for its session: nothing is pressed.
  prepare: (args) => ({ ...args, key: normalizeKey(args.key) }),
  defaultTimeout: 'element',
  async handler({ selector, ref, key, timeout = DEFAULT_ELEMENT_TIMEOUT }, page, response) {
    const before = page.url();
    if (selector !== undefined || ref !== undefined) {
      await onElement(page, { selector, ref }, 'click', timeout, (locator) => actAndSettle(page, SETTLE_TIMEOUT, () => locator.press(key, { timeout })));
    } else {
      await actAndSettle(page, SETTLE_TIMEOUT, () => page.keyboard.press(key));
    }
    return { success: true as const, message: actionMessage(`Pressed ${key}`, page, response, before), key };
  },
});

interface SelectState {
  isSelect: boolean;
  disabled: boolean;
  multiple: boolean;
  options: { value: string; label: string; selected: boolean }[];
}

export async function readSelect(locator: Locator, timeout: number): Promise<SelectState> {
  return locator.evaluate(
    (element) => {
      if (!(element instanceof HTMLSelectElement)) return { isSelect: false, disabled: false, multiple: false, options: [] };
      const disabled = element.disabled || !!element.closest('fieldset:disabled');
      return {
        isSelect: true,
        disabled,
        multiple: element.multiple,
        options: Array.from(element.options).map((option) => ({ value: option.value, label: option.label, selected: option.selected })),
      };
    },
    undefined,
    { timeout },
  );
}

export const selectOption = defineSessionTool({
  name: 'select_option',
  title: 'Select option',
  description: 'Selects options of a <select> by value or label.',
  notes:
    'In the snapshot a <select> is a combobox or listbox. Each value matches an option by its value or by its visible label; ' +
    'options not listed are deselected. ' +
    'Give one value for an ordinary select, several for a multiple select. Returns what is selected afterwards. For a custom ' +
    'dropdown that is not a <select>, click it and then click the option. ' +
    'Errors: INVALID_PARAMETERS (a value matches no option; details.options lists them), ELEMENT_NOT_EDITABLE (not a <select>, ' +
    'or disabled), ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    values: z.array(z.string().max(10_000)).min(1).max(1_000).describe('Values or labels.'),
    timeout: elementTimeoutSchema,
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput(
    {
      success: z.literal(true),
      message: z.string(),
      selected: z.array(z.object({ value: z.string(), label: z.string() })).describe('The options selected after the call.'),
    },
    { snapshot: true },
  ),
  kind: 'action',
  errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_EDITABLE'],
  defaultTimeout: 'element',
  async handler({ selector, ref, values, timeout = DEFAULT_ELEMENT_TIMEOUT }, page) {
    const selected = await onElement(page, { selector, ref }, 'select', timeout, async (locator) => {
      await locator.waitFor({ state: 'attached', timeout });
      const state = await readSelect(locator, timeout);
      checkSelectable(state, values);
      await actAndSettle(page, SETTLE_TIMEOUT, () => locator.selectOption(values, { timeout }));
      // A select whose change handler navigated away is gone; report what was asked for, as the options matched it.
      const after = page.isClosed() ? undefined : await readSelect(locator, 1_000).catch(() => undefined);
      const options =
        after?.options ?? state.options.map((option) => ({ ...option, selected: values.includes(option.value) || values.includes(option.label) }));
      return options.filter((option) => option.selected).map(({ value, label }) => ({ value, label }));
    });
    const message = `Selected ${selected.map((option) => JSON.stringify(option.label)).join(', ') || 'nothing'}.`;
    return { success: true as const, message, selected };
  },
});

export function checkSelectable(state: SelectState, values: string[]): void {
  if (!state.isSelect) {
    throw new SessionError(
      'ELEMENT_NOT_EDITABLE',
      'The element is not a <select>. For a custom dropdown, click it, then click the option (take a snapshot in between).',
      {
        details: { reason: 'not a select element' },
      },
    );
  }
  if (state.disabled) {
    throw new SessionError('ELEMENT_NOT_EDITABLE', 'The <select> is disabled; its options cannot be changed.', { details: { reason: 'disabled' } });
  }
  const options = state.options.slice(0, 100).map(({ value, label }) => ({ value, label }));
  const missing = values.filter((wanted) => !state.options.some((option) => option.value === wanted || option.label === wanted));
  if (missing.length) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      `No option has the value or label ${missing.map((value) => JSON.stringify(value.slice(0, 100))).join(', ')}. ` +
        `Available (value/label): ${options
          .slice(0, 20)
          .map((option) => `${JSON.stringify(option.value)}/${JSON.stringify(option.label)}`)
          .join(', ')}${state.options.length > 20 ? ', …' : ''}.`,
      { details: { missing, options } },
    );
  }
  if (!state.multiple && values.length > 1) {
    throw new SessionError('INVALID_PARAMETERS', 'This <select> allows only one option; give a single value.', { details: { values, multiple: false } });
  }
}

function checkTool(name: 'check' | 'uncheck', checked: boolean) {
  return defineSessionTool({
    name,
    title: checked ? 'Check checkbox' : 'Uncheck checkbox',
    description: checked ? 'Makes sure a checkbox or radio button is checked.' : 'Makes sure a checkbox is unchecked.',
    notes: checked
      ? 'Clicks it only if it is not checked yet, so calling it twice is safe. ' +
        'Errors: ELEMENT_NOT_EDITABLE (not a checkbox or radio button; use click), ELEMENT_NOT_CLICKABLE (hidden, disabled or ' +
        'covered), ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, SESSION_NOT_FOUND / SESSION_EXPIRED.'
      : 'Clicks it only if it is checked. A radio button cannot be unchecked: check another option of its group. ' +
        'Errors: ELEMENT_NOT_EDITABLE (not a checkbox, or a radio button), ELEMENT_NOT_CLICKABLE (hidden, disabled or covered), ' +
        'ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
    input: targetInput({
      sessionId: sessionIdSchema,
      timeout: elementTimeoutSchema,
      force: forceSchema,
    }),
    output: sessionOutput({ success: z.literal(true), message: z.string(), checked: z.boolean().describe('Whether the element is checked now.') }),
    kind: 'action',
    errors: [...ELEMENT_ERRORS, 'ELEMENT_NOT_CLICKABLE', 'ELEMENT_NOT_EDITABLE'],
    defaultTimeout: 'element',
    async handler({ selector, ref, timeout = DEFAULT_ELEMENT_TIMEOUT, force = false }, page) {
      const now = await onElement(page, { selector, ref }, 'check', timeout, async (locator) => {
        await locator.waitFor({ state: 'attached', timeout });
        const kind = await locator.evaluate((element) => {
          if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) return element.type;
          const role = element.getAttribute('role');
          return role === 'checkbox' || role === 'switch' || role === 'menuitemcheckbox'
            ? 'checkbox'
            : role === 'radio' || role === 'menuitemradio'
              ? 'radio'
              : 'other';
        });
        if (kind === 'other') {
          throw new SessionError('ELEMENT_NOT_EDITABLE', 'The element is not a checkbox or radio button. Use click for other elements.', {
            details: { reason: 'not a checkbox' },
          });
        }
        if (kind === 'radio' && !checked) {
          throw new SessionError('ELEMENT_NOT_EDITABLE', 'A radio button cannot be unchecked. Check another option of its group instead.', {
            details: { reason: 'radio' },
          });
        }
        await actAndSettle(page, SETTLE_TIMEOUT, () => locator.setChecked(checked, { timeout, force }));
        return page.isClosed() ? checked : locator.isChecked({ timeout: 1_000 }).catch(() => checked);
      });
      const message = now ? 'The element is checked.' : 'The element is not checked.';
      return { success: true as const, message, checked: now };
    },
  });
}

export const check = checkTool('check', true);
export const uncheck = checkTool('uncheck', false);

/** What an action did, as a model reads it: whether it stayed, navigated, or opened a tab the session followed. */
function actionMessage(done: string, page: Page, response: ToolResponse, urlBefore: string): string {
  const now = response.session.page;
  if (now !== page) return `${done}; a new tab opened with ${now.url()} and the session switched to it.`;
  return page.url() !== urlBefore ? `${done}; the page navigated to ${page.url()}.` : `${done}.`;
}

/**
 * How long the first fill() may take before the slower, fully checked way is taken. fill() waits while a field is
 * read-only or disabled, so this is how long such a field (empty, or to be emptied) takes to be refused; a fill that
 * succeeds takes a small fraction of it.
 */
const QUICK_FILL_MS = 500;

/**
 * Types into one field with as few trips to the page as its meaning allows. Every step runs in Playwright's utility
 * world where it can: an element handle in the page's own world would make Playwright inject its selector engine there
 * first (once per document, costlier than all the rest of a type: docs/performance.md), and even a plain page script
 * needs a helper injected there once. So only a field that already holds text, is not focused and is typed into at
 * its caret gets a page script (to move the caret).
 */
async function typeInto(
  page: Page,
  locator: Locator,
  text: string,
  options: { delay: number | undefined; clear: boolean | undefined; timeout: number },
): Promise<void> {
  const { delay, clear, timeout } = options;
  const started = Date.now();
  // A contenteditable element (no input value) counts as holding text, so it is typed into at its caret.
  const empty = clear || (await locator.inputValue({ timeout }).catch(() => 'not a form field')) === '';
  // fill() focuses the field, selects what it holds and inserts the text: for a field that is empty, or is to be
  // emptied, that is typing at the caret, in one step. Its own checks (visible, enabled, editable) stand in for a
  // separate editability check, which would cost a trip to the page on every call.
  const quick = !delay && empty ? await fillField(locator, text, Math.min(QUICK_FILL_MS, timeout)).catch(lateOrThrow) : undefined;
  if (quick === 'filled') return;
  // Not filled: a field that is not editable (answered here), one fill() refuses (a number input given text, typed
  // key by key below), one still hidden or busy (given the rest of the time), or typing with a delay.
  const left = () => Math.max(1, timeout - (Date.now() - started));
  if (!(await locator.isEditable({ timeout: left() }))) throw new Error('not editable');
  // A fill that ran out of time after inserting the text is harmless to repeat: fill() replaces what the field holds.
  if (quick === 'late' && (await fillField(locator, text, left())) === 'filled') return;
  // The other ways wait here (Playwright counts a hidden field as editable, but keys sent to it would go nowhere).
  if (clear) await locator.fill('', { timeout: left() });
  else if (!(await isFocused(locator))) {
    await locator.waitFor({ state: 'visible', timeout: left() });
    await locator.focus({ timeout: left() });
    if (!empty) await moveCaretToEndOfFocused(page, locator, left());
  } else await locator.waitFor({ state: 'visible', timeout: left() });
  if (delay) await locator.pressSequentially(text, { delay, timeout: left() + delay * text.length });
  else await page.keyboard.insertText(text);
}

/**
 * fill(); 'refused' (and nothing done) for a field fill() refuses to type into (a number input given text, a date
 * input given something that is not a date): the caller types into those key by key instead.
 */
async function fillField(locator: Locator, text: string, timeout: number): Promise<'filled' | 'refused'> {
  try {
    await locator.fill(text, { timeout });
    return 'filled';
  } catch (error) {
    if (isTimeoutError(error)) throw error;
    return 'refused';
  }
}

/** 'late' for a Playwright timeout; anything else is thrown on. */
function lateOrThrow(error: unknown): 'late' {
  if (isTimeoutError(error)) return 'late';
  throw error;
}

/** Whether the element has the keyboard focus (in its own document), asked in the utility world. */
async function isFocused(locator: Locator): Promise<boolean> {
  // A locator that cannot be combined (an element inside a frame) counts as not focused: it is then focused anew.
  return (
    (await locator
      .and(locator.page().locator(':focus'))
      .count()
      .catch(() => 0)) > 0
  );
}

/** Puts the caret after the text of the field that was just focused, so that typing adds to what is there. */
async function moveCaretToEndOfFocused(page: Page, locator: Locator, timeout: number): Promise<void> {
  // The focused element is the field: reach it as the page's active element, without an element handle.
  const placed = await page.evaluate(moveCaretToEnd, null);
  // A field inside a frame: the top document's active element is the frame, so the field is asked directly.
  if (!placed) await locator.evaluate(moveCaretToEnd, undefined, { timeout });
}

/**
 * Puts the caret after the text of a field (the page's focused element when none is given). False when that is not a
 * text field or contenteditable element, e.g. a frame whose document holds the focus.
 */
function moveCaretToEnd(field: Element | null | undefined): boolean {
  let element = field ?? document.activeElement;
  if (!field) while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    const end = element.value.length;
    try {
      element.setSelectionRange(end, end);
    } catch {
      // Some input types (email, number) have no selection API; the caret then stays where the browser put it.
    }
    return true;
  }
  if (!(element instanceof HTMLElement) || !element.isContentEditable) return false;
  const range = document.createRange();
  range.selectNodeContents(element);
  range.collapse(false);
  getSelection()?.removeAllRanges();
  getSelection()?.addRange(range);
  return true;
}

/** The field's value: an input's, textarea's or select's value, or a contenteditable element's text. */
async function readValue(locator: Locator, timeout: number): Promise<string> {
  try {
    return await locator.inputValue({ timeout });
  } catch (error) {
    // Not a form field (a contenteditable element): its text is its value.
    if (isTimeoutError(error)) throw error;
    return (await locator.textContent({ timeout })) ?? '';
  }
}
