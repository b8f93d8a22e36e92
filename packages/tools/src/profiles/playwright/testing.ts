// The playwright profile's `testing` tools: @playwright/mcp's browser_verify_* and browser_generate_locator, over verify and generate_locator.
import { z } from 'zod';
import type { AnyTool } from '../../framework/define-tool.js';
import { adapt, optionalSessionIdSchema, toTarget } from './adapter.js';
import { MAX_SELECTOR } from '../../framework/schemas.js';
import { generateLocator, verify } from '../../tools/testing.js';

const SESSION_NOTE = "Acts on this connection's own browser page unless sessionId names a session from create_session.";
const NOTE = `${SESSION_NOTE} A check that does not hold within the action timeout (5 s by default) is an error (WAIT_TIMEOUT) saying what the page had.`;

const elementSchema = z.string().max(MAX_SELECTOR).describe('For the log.');
const targetSchema = z.string().min(1).max(MAX_SELECTOR).describe('Ref (e12) or selector.');

export const playwrightTestingTools: readonly AnyTool[] = [
  adapt({
    name: 'browser_verify_element_visible',
    title: 'Verify element visible',
    description: 'Verifies an element with this role and accessible name is visible.',
    notes: `role and accessibleName are as browser_snapshot prints them: - role "Accessible Name". ${NOTE}`,
    input: z.strictObject({
      role: z.string().min(1).max(100).describe('ARIA role, as in the snapshot.'),
      accessibleName: z.string().max(1_000).describe('Accessible name, as in the snapshot.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: verify,
    toBase: ({ role, accessibleName }) => ({ check: 'element_visible', role, name: accessibleName }),
  }),
  adapt({
    name: 'browser_verify_text_visible',
    title: 'Verify text visible',
    description: 'Verifies text is visible on the page; prefer browser_verify_element_visible.',
    notes: NOTE,
    input: z.strictObject({ text: z.string().min(1).max(10_000).describe('Text to find.'), sessionId: optionalSessionIdSchema }),
    base: verify,
    toBase: ({ text }) => ({ check: 'text_visible', text }),
  }),
  adapt({
    name: 'browser_verify_list_visible',
    title: 'Verify list visible',
    description: 'Verifies a list shows each of the given items.',
    notes: NOTE,
    input: z.strictObject({
      element: elementSchema,
      target: targetSchema,
      items: z.array(z.string().min(1).max(10_000)).min(1).max(200).describe('Item texts.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: verify,
    toBase: ({ target, items }) => ({ check: 'list_visible', ...toTarget({ target }), items }),
  }),
  adapt({
    name: 'browser_verify_value',
    title: 'Verify value',
    description: "Verifies a form field's value.",
    notes: `type is accepted as @playwright/mcp takes it; the field itself decides how it is read (checked state for a checkbox or radio). ${NOTE}`,
    input: z.strictObject({
      type: z.enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider']).describe('Field type.'),
      element: elementSchema,
      target: targetSchema,
      value: z.string().max(100_000).describe('Expected; "true"/"false" for a checkbox.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: verify,
    toBase: ({ target, value }) => ({ check: 'value', ...toTarget({ target }), value }),
  }),
  adapt({
    name: 'browser_generate_locator',
    title: 'Create locator for element',
    description: 'Answers the Playwright locator code for an element, for use in tests.',
    notes: `Turns a ref or a selector into the locator a test would use, e.g. getByRole('button', { name: 'Submit' }). ${SESSION_NOTE}`,
    input: z.strictObject({ element: elementSchema.optional(), target: targetSchema, sessionId: optionalSessionIdSchema }),
    base: generateLocator,
    toBase: ({ target }) => toTarget({ target }),
  }),
];
