// The playwright profile's vision tools: @playwright/mcp's browser_mouse_* names and fields, each an adapter over mouse.
import { z } from 'zod';
import type { AnyTool } from '../../framework/define-tool.js';
import { mouseButtonSchema } from '../../framework/schemas.js';
import { mouse } from '../../tools/mouse.js';
import { adapt, optionalSessionIdSchema } from './adapter.js';

/** @playwright/mcp's coordinate fields: numbers, as it declares them; the mouse tool's own schema bounds them. */
const xField = z.number().describe('X coordinate.');
const yField = z.number().describe('Y coordinate.');
const VISION_NOTE = "CSS pixels from the viewport's top-left, as a screenshot shows them; a point outside the viewport is refused (INVALID_PARAMETERS).";

/** The playwright profile's `vision` tools: @playwright/mcp's browser_mouse_* names and fields over mouse. */
export const playwrightMouseTools: readonly AnyTool[] = [
  adapt({
    name: 'browser_mouse_move_xy',
    title: 'Move mouse',
    description: 'Moves the mouse to a point of the page.',
    notes: VISION_NOTE,
    input: z.strictObject({ x: xField, y: yField, sessionId: optionalSessionIdSchema }),
    base: mouse,
    toBase: ({ x, y }) => ({ action: 'move', x, y }),
  }),
  adapt({
    name: 'browser_mouse_click_xy',
    title: 'Click at a point',
    description: 'Clicks at a point of the page; a navigation it starts is waited for.',
    notes: `${VISION_NOTE} The result carries the page's snapshot after the click.`,
    input: z.strictObject({
      x: xField,
      y: yField,
      button: mouseButtonSchema,
      clickCount: z.number().optional().describe('2: double click.'),
      delay: z.number().optional().describe('Ms held down.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: mouse,
    snapshot: true,
    toBase: ({ x, y, button, clickCount, delay }) => ({ action: 'click', x, y, button, clickCount, delay }),
  }),
  adapt({
    name: 'browser_mouse_drag_xy',
    title: 'Drag mouse',
    description: 'Drags with the left button from one point of the page to another.',
    notes: `${VISION_NOTE} The result carries the page's snapshot after the drag.`,
    input: z.strictObject({
      startX: z.number().describe('Start x.'),
      startY: z.number().describe('Start y.'),
      endX: z.number().describe('End x.'),
      endY: z.number().describe('End y.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: mouse,
    snapshot: true,
    toBase: ({ startX, startY, endX, endY }) => ({ action: 'drag', x: startX, y: startY, toX: endX, toY: endY }),
  }),
  adapt({
    name: 'browser_mouse_down',
    title: 'Press mouse down',
    description: 'Presses a mouse button where the mouse is.',
    input: z.strictObject({ button: mouseButtonSchema, sessionId: optionalSessionIdSchema }),
    base: mouse,
    toBase: ({ button }) => ({ action: 'down', button }),
  }),
  adapt({
    name: 'browser_mouse_up',
    title: 'Release mouse',
    description: 'Releases a mouse button where the mouse is.',
    input: z.strictObject({ button: mouseButtonSchema, sessionId: optionalSessionIdSchema }),
    base: mouse,
    toBase: ({ button }) => ({ action: 'up', button }),
  }),
  adapt({
    name: 'browser_mouse_wheel',
    title: 'Scroll mouse wheel',
    description: 'Turns the mouse wheel where the mouse is, to scroll.',
    input: z.strictObject({
      deltaX: z.number().describe('Right (+) or left.'),
      deltaY: z.number().describe('Down (+) or up.'),
      sessionId: optionalSessionIdSchema,
    }),
    base: mouse,
    toBase: ({ deltaX, deltaY }) => ({ action: 'wheel', deltaX, deltaY }),
  }),
];
