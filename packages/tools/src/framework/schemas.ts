// Schema fragments shared by many tools, so the same field reads the same everywhere.
import { z } from 'zod';

// Every field is sent to the model on every turn (tools/list), so each shared field says what it is in a few words,
// once, here; its fine points are in the tools' notes (docs/tools.md) and in the errors a wrong value gets.

/** The longest sessionId accepted: ids are UUIDs, and anything longer is no session's. */
const MAX_SESSION_ID = 100;
/** The longest ref accepted: refs are short (e12, f3e120). */
const MAX_REF = 32;
/** The longest selector accepted. */
export const MAX_SELECTOR = 10_000;

export const sessionIdSchema = z.string().min(1).max(MAX_SESSION_ID).describe('From create_session.');

/** A selector field without a description, for nested objects (a form field, a drag end). */
export const selectorText = z.string().min(1).max(MAX_SELECTOR);

export const selectorSchema = selectorText.describe('Playwright selector.');

/** A ref as snapshots print it: e12, or f3e12 inside a frame. */
export const REF_PATTERN = /^(f\d+)?e\d+$/;

/** A ref field without a description, for nested objects. */
export const refText = z.string().max(MAX_REF).regex(REF_PATTERN, 'a ref looks like e12 or f1e12');

export const refSchema = refText.describe('Ref, e.g. e12.');

export const elementTimeoutSchema = z.number().int().min(1).max(120_000).optional().describe('Ms (default 5000).');

export { DEFAULT_ELEMENT_TIMEOUT } from '../page/element.js';

export const forceSchema = z.boolean().optional().describe('Skip actionability checks.');

export const includeSnapshotSchema = z.boolean().optional().describe('With snapshot.');

/** `selector` or `ref`: exactly one of the two is checked when the tool runs (see requireTarget). */
export const targetFields = {
  selector: selectorSchema.optional(),
  ref: refSchema.optional(),
};

/** An input object naming one element: exactly one of `selector` or `ref`. */
export function targetInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, ...targetFields }).refine((args) => (pick(args).selector === undefined) !== (pick(args).ref === undefined), {
    message: 'give exactly one of "selector" or "ref"',
    path: ['selector'],
  });
}

/** An input object that may narrow to one element: at most one of `selector` or `ref`. */
export function optionalTargetInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, ...targetFields }).refine((args) => pick(args).selector === undefined || pick(args).ref === undefined, {
    message: 'give at most one of "selector" or "ref"',
    path: ['selector'],
  });
}

function pick(args: object): { selector?: unknown; ref?: unknown } {
  return args;
}

/** Which mouse button: the click tools and the mouse-by-coordinates tools. */
export const mouseButtonSchema = z.enum(['left', 'right', 'middle']).optional().describe('Default left.');

/** Keys held during a click. */
export const modifiersSchema = z
  .array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']))
  .max(5)
  .optional()
  .describe('Keys held.');
