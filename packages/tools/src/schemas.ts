// Schema fragments shared by many tools, so the same field reads the same everywhere.
import { z } from 'zod';

export const sessionIdSchema = z.string().min(1).describe('The sessionId returned by create_session.');

export const selectorSchema = z
  .string()
  .min(1)
  .max(10_000)
  .describe(
    'A Playwright selector: CSS by default ("#login", "button.primary"), XPath when it starts with // or xpath=, or text=, role=, data-testid=. It must match exactly one element.',
  );

export const refSchema = z
  .string()
  .regex(/^(f\d+)?e\d+$/, 'a ref looks like e12 or f1e12')
  .describe('An element ref from the latest snapshot, e.g. "e12" or "f1e3" (inside a frame). Use instead of selector.');

export const elementTimeoutSchema = z
  .number()
  .int()
  .min(1)
  .max(120_000)
  .optional()
  .describe('How long to wait for the element to be ready, in ms (default 5000).');

export const DEFAULT_ELEMENT_TIMEOUT = 5_000;

export const includeSnapshotSchema = z
  .boolean()
  .optional()
  .describe("Also return the page's snapshot (as the snapshot tool gives it) in this result, saving a separate snapshot call. Default false.");

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
