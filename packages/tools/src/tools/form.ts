// fill_form and drag: several fields in one call, and dragging one element onto another.
import { SessionError } from '@sessionwright/session-core';
import type { Locator, Page } from 'playwright';
import { z } from 'zod';
import type { ElementTarget } from '../page/element.js';
import { checkSelectable, readSelect } from './input.js';
import { actAndSettle, locate, onElement } from '../page/actions.js';
import { toolError } from '../framework/errors.js';
import { sessionOutput } from '../framework/response.js';
import { DEFAULT_ELEMENT_TIMEOUT, elementTimeoutSchema, includeSnapshotSchema, refText, selectorText, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { withoutSecret } from '../framework/typed-secret.js';

const SETTLE_TIMEOUT = 30_000;

/** `{selector}` or `{ref}`: one element, as a part of a larger argument. */
function elementSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .strictObject({ selector: selectorText.optional(), ref: refText.optional(), ...shape })
    .refine((value: { selector?: unknown; ref?: unknown }) => (value.selector === undefined) !== (value.ref === undefined), {
      message: 'give exactly one of "selector" or "ref"',
    });
}

const fieldValueSchema = z.union([z.string().max(100_000), z.array(z.string().max(10_000)).max(1_000), z.boolean()]);

export const fillForm = defineSessionTool({
  name: 'fill_form',
  title: 'Fill form fields',
  description: 'Fills several form fields in one call.',
  notes:
    'Fills the fields in order: each is named by a selector or a ref from snapshot and gets a value — a string for a text field ' +
    "(its content is replaced) or a select (an option's value or label), " +
    "a list of strings for a multi-select, true/false for a checkbox or radio button. Returns each field's value afterwards. It " +
    'does not submit: click the submit button next. ' +
    "A field that fails stops the call with that field's own error code and details.field (its index); the fields before it stay filled. " +
    'Errors: ELEMENT_NOT_FOUND (for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, ELEMENT_NOT_EDITABLE (disabled or readonly, ' +
    'or a value of the wrong kind for the field), ELEMENT_NOT_CLICKABLE (hidden), INVALID_PARAMETERS (an option that does not ' +
    'exist), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    fields: z
      .array(elementSchema({ value: fieldValueSchema }))
      .min(1)
      .max(200)
      .describe('Each {selector or ref, value}.'),
    timeout: elementTimeoutSchema,
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput(
    {
      success: z.literal(true),
      fields: z
        .array(z.object({ index: z.number(), value: z.union([z.string(), z.array(z.string()), z.boolean()]) }))
        .describe("Each field's value after filling: its text, the selected option values, or whether it is checked."),
    },
    { snapshot: true },
  ),
  kind: 'action',
  errors: [
    'ELEMENT_NOT_FOUND',
    'ELEMENT_AMBIGUOUS',
    'ELEMENT_NOT_EDITABLE',
    'ELEMENT_NOT_CLICKABLE',
    'INVALID_PARAMETERS',
    'SESSION_NOT_FOUND',
    'SESSION_EXPIRED',
    'BROWSER_ERROR',
  ],
  defaultTimeout: 'element',
  async handler({ fields, timeout = DEFAULT_ELEMENT_TIMEOUT }, page, _response, ctx) {
    const filled: { index: number; value: string | string[] | boolean }[] = [];
    for (const [index, field] of fields.entries()) {
      // A secret's name as a field's text fills in its value (--secrets).
      const secret = typeof field.value === 'string' ? ctx.options.secrets?.[field.value] : undefined;
      const value = secret ?? field.value;
      try {
        const got = await fillField(page, { selector: field.selector, ref: field.ref }, value, timeout);
        filled.push({ index, value: secret !== undefined && typeof got === 'string' ? withoutSecret(got, field.value as string, secret, ctx.options) : got });
      } catch (error) {
        const failure = toolError(error);
        throw new SessionError(failure.code, `Field ${index}: ${failure.message}${index > 0 ? ` Fields 0 to ${index - 1} were filled.` : ''}`, {
          details: { ...failure.details, field: index },
        });
      }
    }
    return { success: true as const, fields: filled };
  },
});

type FieldKind = 'checkbox' | 'radio' | 'select' | 'multi-select' | 'file' | 'text';

async function fieldKind(locator: Locator, timeout: number): Promise<FieldKind> {
  await locator.waitFor({ state: 'attached', timeout });
  return locator.evaluate((element) => {
    if (element instanceof HTMLSelectElement) return element.multiple ? 'multi-select' : 'select';
    if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) return element.type;
    if (element instanceof HTMLInputElement && element.type === 'file') return 'file';
    const role = element.getAttribute('role');
    if (role === 'checkbox' || role === 'switch') return 'checkbox';
    if (role === 'radio') return 'radio';
    return 'text';
  });
}

function wrongKind(kind: FieldKind, value: unknown): SessionError {
  const expected =
    kind === 'checkbox' || kind === 'radio'
      ? 'true or false'
      : kind === 'multi-select'
        ? 'a list of options'
        : kind === 'file'
          ? 'upload_file (not fill_form)'
          : 'a string';
  return new SessionError('ELEMENT_NOT_EDITABLE', `This field is a ${kind}; give it ${expected}, not ${JSON.stringify(value)}.`, {
    details: { reason: 'wrong value kind', kind },
  });
}

/** Fills one field by its kind and returns its value afterwards. */
async function fillField(page: Page, target: ElementTarget, value: string | string[] | boolean, timeout: number): Promise<string | string[] | boolean> {
  const action = typeof value === 'boolean' ? 'check' : Array.isArray(value) ? 'select' : 'edit';
  return onElement(page, target, action, timeout, async (locator) => {
    const kind = await fieldKind(locator, timeout);
    if (kind === 'file') throw wrongKind(kind, value);
    if (typeof value === 'boolean') {
      if (kind !== 'checkbox' && kind !== 'radio') throw wrongKind(kind, value);
      if (kind === 'radio' && !value)
        throw new SessionError('ELEMENT_NOT_EDITABLE', 'A radio button cannot be unchecked; set another option of its group to true.', {
          details: { reason: 'radio' },
        });
      await actAndSettle(page, SETTLE_TIMEOUT, () => locator.setChecked(value, { timeout }));
      return locator.isChecked({ timeout: 1_000 }).catch(() => value);
    }
    if (kind === 'checkbox' || kind === 'radio') throw wrongKind(kind, value);
    if (kind === 'select' || kind === 'multi-select') {
      const values = Array.isArray(value) ? value : [value];
      checkSelectable(await readSelect(locator, timeout), values);
      await actAndSettle(page, SETTLE_TIMEOUT, () => locator.selectOption(values, { timeout }));
      const selected = (await readSelect(locator, 1_000)).options.filter((option) => option.selected).map((option) => option.value);
      return kind === 'multi-select' ? selected : (selected[0] ?? '');
    }
    if (Array.isArray(value)) throw wrongKind(kind, value);
    if (!(await locator.isEditable({ timeout }))) throw new Error('not editable');
    await locator.fill(value, { timeout });
    return locator.inputValue({ timeout: 1_000 }).catch(() => value);
  });
}

const dragEnd = () => elementSchema({}).describe('{selector} or {ref}.');

export const drag = defineSessionTool({
  name: 'drag',
  title: 'Drag and drop',
  description: 'Drags one element onto another with the mouse.',
  notes:
    'Presses on the centre of from, moves to the centre of to, releases. Works for HTML5 drag and drop (sortable lists, drop ' +
    'zones, kanban cards) and for mouse-driven sliders (drag the handle onto a point of the track). ' +
    'Each end is {selector} or {ref} from snapshot. Next: snapshot to see the result. ' +
    'Errors: ELEMENT_NOT_FOUND (either end; for a ref, take a new snapshot), ELEMENT_AMBIGUOUS, ELEMENT_NOT_CLICKABLE (hidden or ' +
    'covered), SESSION_NOT_FOUND / SESSION_EXPIRED. details.end says which end failed.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    from: dragEnd(),
    to: dragEnd(),
    timeout: elementTimeoutSchema,
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput({ success: z.literal(true), message: z.string() }, { snapshot: true }),
  kind: 'action',
  errors: ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'ELEMENT_NOT_CLICKABLE', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  defaultTimeout: 'element',
  async handler({ from, to, timeout = DEFAULT_ELEMENT_TIMEOUT }, page) {
    const source: ElementTarget = { selector: from.selector, ref: from.ref };
    const target: ElementTarget = { selector: to.selector, ref: to.ref };
    await labelled('to', () => onElement(page, target, 'hover', timeout, (locator) => locator.waitFor({ state: 'visible', timeout })));
    await labelled('from', () =>
      onElement(page, source, 'click', timeout, (locator) => actAndSettle(page, SETTLE_TIMEOUT, () => locator.dragTo(locate(page, target), { timeout }))),
    );
    return { success: true as const, message: 'Dragged the element onto the target.' };
  },
});

/** Runs one end's step and adds which end failed to its error. */
async function labelled<T>(end: 'from' | 'to', step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const failure = toolError(error);
    throw new SessionError(failure.code, `${end === 'from' ? 'The element to drag' : 'The drop target'}: ${failure.message}`, {
      details: { ...failure.details, end },
    });
  }
}
