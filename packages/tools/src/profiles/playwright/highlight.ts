// The playwright profile's highlight tools: browser_highlight and browser_hide_highlight, adapters over highlight.
import { defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { highlight, styleSchema } from '../../tools/highlight.js';
import { adapt, elementCount, elementFields, optionalSessionIdSchema, toTarget } from './adapter.js';

const elementShape = { element: elementFields.element, ref: elementFields.ref, target: elementFields.target, sessionId: optionalSessionIdSchema };

/** @playwright/mcp's highlight tools, adapters over `highlight`. */
export const playwrightHighlightTools = [
  adapt({
    name: 'browser_highlight',
    title: 'Highlight element',
    description: 'Draws a box over an element that stays until browser_hide_highlight.',
    input: z.strictObject({ ...elementShape, style: styleSchema.optional().describe('CSS of the box.') }).refine((args) => elementCount(args) === 1, {
      message: 'name the element with one of "ref" (from browser_snapshot) or "target" (a ref or a selector)',
      path: ['ref'],
    }),
    base: highlight,
    toBase: ({ style, ...element }) => ({ ...toTarget(element), ...defined({ style }) }),
  }),
  adapt({
    name: 'browser_hide_highlight',
    title: 'Hide element highlight',
    description: "Removes an element's highlight, or without one every highlight on the page.",
    input: z.strictObject(elementShape).refine((args) => elementCount(args) <= 1, { message: 'give at most one of "ref" or "target"', path: ['ref'] }),
    base: highlight,
    toBase: (element) => ({ ...toTarget(element), hide: true }),
  }),
];
