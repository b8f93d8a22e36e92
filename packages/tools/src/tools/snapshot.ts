// The snapshot tool: the page's (or one element's) accessibility outline with refs, capped for a model.
import { z } from 'zod';
import { DEFAULT_SNAPSHOT_MAX_CHARS, MAX_SNAPSHOT_MAX_CHARS, readSnapshot } from '../page/snapshot.js';
import { sessionOutput } from '../framework/response.js';
import { optionalTargetInput, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

export const boxesSchema = z.boolean().optional().describe('Element boxes.');

export const snapshot = defineSessionTool({
  name: 'snapshot',
  title: 'Page snapshot',
  description: 'Reads the page as an accessibility tree with a ref per element to act on.',
  notes:
    'A YAML-like outline of roles, names, text and states, e.g. `button "Send" [ref=e12]` (elements inside iframes have a frame prefix, e.g. f2e5). ' +
    'Use it first to understand a page, then pass a ref to click, type, hover, select_option, press_key, wait_for or evaluate; ' +
    'to locate one element on a long page, find is cheaper. ' +
    'Refs belong to the current document: after a navigation or a big page change, take a new snapshot (an old ref gives ELEMENT_NOT_FOUND). ' +
    "boxes: true adds each element's bounding box as [box=x,y,width,height] (CSS pixels, relative to the viewport), for mouse actions or layout checks. " +
    `Name an element (selector or ref) to get only that part; depth limits how deep the outline goes (1: the element and its children). Long snapshots are cut at maxChars (default ${DEFAULT_SNAPSHOT_MAX_CHARS}, at a line boundary) with truncated: true and a note saying what was cut and which ref to ask for next. ` +
    'Errors: ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS for a selector or ref that does not name exactly one element, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: optionalTargetInput({
    sessionId: sessionIdSchema,
    depth: z.number().int().min(1).max(1_000).optional().describe('Default all.'),
    maxChars: z.number().int().min(1_000).max(MAX_SNAPSHOT_MAX_CHARS).optional().describe(`Default ${DEFAULT_SNAPSHOT_MAX_CHARS}.`),
    boxes: boxesSchema,
  }),
  output: sessionOutput({
    snapshot: z.string().describe('The snapshot text; elements you can act on carry [ref=…].'),
    truncated: z.boolean().optional().describe('True when the snapshot was cut at maxChars.'),
    note: z.string().optional().describe('What was cut and how to see the rest, or why the snapshot is empty.'),
  }),
  kind: 'read',
  errors: ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  handler({ selector, ref, depth, maxChars, boxes }, page, response) {
    response.pageSettled();
    return readSnapshot(page, { target: { selector, ref }, depth, maxChars, boxes });
  },
});
