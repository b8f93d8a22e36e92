// The `vision` capability: the mouse by page coordinates (move, click, drag, press, release, wheel), for pages a snapshot cannot name (canvas, maps); profiles/playwright/mouse.ts names it for the playwright profile.
import { SessionError } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import type { Frame, Page, Request, Response } from 'playwright';
import { z } from 'zod';
import { actAndSettle, frameOf } from '../page/actions.js';
import { sessionOutput } from '../framework/response.js';
import { includeSnapshotSchema, mouseButtonSchema, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

const MOUSE_ACTIONS = ['move', 'click', 'drag', 'down', 'up', 'wheel'] as const;
type MouseAction = (typeof MOUSE_ACTIONS)[number];

/** How long a click or drag waits for a navigation it started to load, as click does. */
const SETTLE_TIMEOUT = 30_000;

/** How many mousemove events a drag sends between its ends, so pages that track the pointer (sliders, drag and drop) see it travel. */
const DRAG_STEPS = 5;

/** A coordinate or a wheel delta, in CSS pixels; the viewport check says more than this bound. */
const pixels = z.number().min(-100_000).max(100_000);

/** The fields each action takes besides sessionId and action; any other is refused, so a misspelt call never half-works. */
const ACTION_FIELDS: Record<MouseAction, { required: readonly string[]; optional: readonly string[] }> = {
  move: { required: ['x', 'y'], optional: [] },
  click: { required: ['x', 'y'], optional: ['button', 'clickCount', 'delay', 'includeSnapshot'] },
  drag: { required: ['x', 'y', 'toX', 'toY'], optional: ['includeSnapshot'] },
  down: { required: [], optional: ['x', 'y', 'button'] },
  up: { required: [], optional: ['x', 'y', 'button'] },
  wheel: { required: [], optional: ['x', 'y', 'deltaX', 'deltaY'] },
};

interface Point {
  x: number;
  y: number;
}

/** One mouse step, checked: what the action needs, nothing it does not take. */
interface MouseStep {
  action: MouseAction;
  at?: Point;
  to?: Point;
  button?: 'left' | 'right' | 'middle';
  clickCount?: number;
  delay?: number;
  deltaX?: number;
  deltaY?: number;
}

type MouseArgs = Partial<Record<'x' | 'y' | 'toX' | 'toY' | 'clickCount' | 'delay' | 'deltaX' | 'deltaY', number>> & {
  action: MouseAction;
  button?: 'left' | 'right' | 'middle' | undefined;
  includeSnapshot?: boolean | undefined;
};

/** Checks which fields the action was given; INVALID_PARAMETERS names the missing or extra ones. */
function mouseStep(args: MouseArgs): MouseStep {
  const { action } = args;
  const fields = ACTION_FIELDS[action];
  const given = Object.entries(args)
    .filter(([name, value]) => value !== undefined && name !== 'action' && name !== 'sessionId')
    .map(([name]) => name);
  const missing = fields.required.filter((name) => !given.includes(name));
  const extra = given.filter((name) => !fields.required.includes(name) && !fields.optional.includes(name));
  if ((args.x === undefined) !== (args.y === undefined)) missing.push(args.x === undefined ? 'x' : 'y');
  if (missing.length > 0 || extra.length > 0) {
    const takes = [...fields.required, ...fields.optional.map((name) => `${name}?`)].join(', ') || 'nothing else';
    const problems = [missing.length > 0 ? `needs ${missing.join(', ')}` : '', extra.length > 0 ? `does not take ${extra.join(', ')}` : '']
      .filter(Boolean)
      .join(' and ');
    throw new SessionError('INVALID_PARAMETERS', `mouse action "${action}" ${problems}; it takes ${takes}.`, { details: { action, missing, extra } });
  }
  const { x, y, toX, toY, button, clickCount, delay, deltaX, deltaY } = args;
  return {
    action,
    ...(x !== undefined && y !== undefined ? { at: { x, y } } : {}),
    ...(toX !== undefined && toY !== undefined ? { to: { x: toX, y: toY } } : {}),
    ...defined({ button, clickCount, delay, deltaX, deltaY }),
  };
}

/** The page's visible area in CSS pixels: the emulated viewport, else the window's. */
async function viewportOf(page: Page): Promise<{ width: number; height: number }> {
  return page.viewportSize() ?? (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
}

/** Refuses a point outside the visible page: Playwright would send it, and the page would see nothing, silently. */
async function checkInViewport(page: Page, points: readonly Point[]): Promise<void> {
  const viewport = await viewportOf(page);
  for (const point of points) {
    if (point.x >= 0 && point.y >= 0 && point.x < viewport.width && point.y < viewport.height) continue;
    throw new SessionError(
      'INVALID_PARAMETERS',
      `(${point.x}, ${point.y}) is outside the viewport (0 ≤ x < ${viewport.width}, 0 ≤ y < ${viewport.height}); scroll the page (mouse wheel) or take a screenshot to find the point.`,
      { details: { x: point.x, y: point.y, viewport } },
    );
  }
}

/**
 * Page-side: marks the document when it starts a navigation. The Navigation API's navigate event fires in the task that
 * handles the input, so the mark is set before the input is acknowledged; where there is no Navigation API the mark
 * stays unset and the step waits for nothing more than actAndSettle does.
 */
const WATCH_NAVIGATION = `(() => {
  const mark = Symbol.for('sessionwright.navigating');
  const watching = Symbol.for('sessionwright.watchingNavigation');
  window[mark] = false;
  if (window[watching] || typeof navigation === 'undefined') return;
  window[watching] = true;
  navigation.addEventListener('navigate', (event) => { if (!event.hashChange && !event.destination.sameDocument) window[mark] = true; });
})()`;
const NAVIGATION_MARKED = `window[Symbol.for('sessionwright.navigating')] === true`;

/**
 * Runs mouse input and, when the page says the input started a navigation, waits until that navigation commits (or
 * ends without a new page: a download, a 204, a failure), so actAndSettle then waits for the new page to load. Mouse
 * input returns once the page has handled the event, before the navigation it started has even reached the network.
 */
async function inputThatMayNavigate(page: Page, input: () => Promise<void>): Promise<void> {
  await page.evaluate(WATCH_NAVIGATION).catch(() => {});
  let ended: () => void = () => {};
  const end = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const mainFrameNavigation = (request: Request) => request.isNavigationRequest() && frameOf(request) === page.mainFrame();
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) ended();
  };
  const onFailed = (request: Request) => {
    if (mainFrameNavigation(request)) ended();
  };
  const onResponse = (response: Response) => {
    if (mainFrameNavigation(response.request()) && (response.status() === 204 || response.status() === 205)) ended();
  };
  const onDownload = () => ended();
  page.on('framenavigated', onNavigated);
  page.on('requestfailed', onFailed);
  page.on('response', onResponse);
  page.on('download', onDownload);
  let timer: NodeJS.Timeout | undefined;
  try {
    await input();
    // A document that went away while being asked has navigated.
    const marked = await page.evaluate(NAVIGATION_MARKED).catch(() => true);
    if (marked === true) await Promise.race([end, new Promise<void>((resolve) => (timer = setTimeout(resolve, SETTLE_TIMEOUT)))]);
  } finally {
    clearTimeout(timer);
    page.off('framenavigated', onNavigated);
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
    page.off('download', onDownload);
  }
}

/** Does one mouse step on the page; a click, drag, press or release that starts a navigation waits for it to load. Answers what happened. */
async function runMouseStep(page: Page, step: MouseStep): Promise<string> {
  const points = [step.at, step.to].filter((point): point is Point => point !== undefined);
  await checkInViewport(page, points);
  const { mouse } = page;
  const button = step.button ?? 'left';
  const at = step.at ? ` at (${step.at.x}, ${step.at.y})` : '';
  const settle = (act: () => Promise<void>) => actAndSettle(page, SETTLE_TIMEOUT, () => inputThatMayNavigate(page, act));
  switch (step.action) {
    case 'move':
      await mouse.move(step.at?.x ?? 0, step.at?.y ?? 0);
      return `Moved the mouse to (${step.at?.x}, ${step.at?.y}).`;
    case 'click': {
      const clickCount = step.clickCount ?? 1;
      await settle(() => mouse.click(step.at?.x ?? 0, step.at?.y ?? 0, { button, clickCount, ...defined({ delay: step.delay }) }));
      return `Clicked ${button}${clickCount > 1 ? ` ×${clickCount}` : ''}${at}.`;
    }
    case 'drag': {
      const { at: from, to } = step as Required<Pick<MouseStep, 'at' | 'to'>>;
      await settle(async () => {
        await mouse.move(from.x, from.y);
        await mouse.down();
        await mouse.move(to.x, to.y, { steps: DRAG_STEPS });
        await mouse.up();
      });
      return `Dragged from (${from.x}, ${from.y}) to (${to.x}, ${to.y}).`;
    }
    case 'down':
    case 'up':
      await settle(async () => {
        if (step.at) await mouse.move(step.at.x, step.at.y);
        await (step.action === 'down' ? mouse.down({ button }) : mouse.up({ button }));
      });
      return `${step.action === 'down' ? 'Pressed' : 'Released'} the ${button} button${at}.`;
    case 'wheel':
      if (step.at) await mouse.move(step.at.x, step.at.y);
      await mouse.wheel(step.deltaX ?? 0, step.deltaY ?? 0);
      return `Turned the wheel by (${step.deltaX ?? 0}, ${step.deltaY ?? 0})${at}.`;
  }
}

const MOUSE_ERRORS = ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'] as const;

export const mouse = defineSessionTool({
  name: 'mouse',
  title: 'Mouse by coordinates',
  description: 'Moves, clicks, drags or scrolls the mouse at page coordinates, for what a snapshot cannot name (canvas, maps).',
  notes:
    'x, y are CSS pixels from the top-left of the viewport, as a screenshot shows them. action move: to x, y. click: at x, y ' +
    '(button, clickCount 2 for a double click, delay ms between press and release). ' +
    'drag: press at x, y, move to toX, toY, release. down / up: press or release button (at x, y if given), for gestures the ' +
    'others do not cover. wheel: scroll by deltaX, deltaY (over x, y if given). ' +
    'A click, drag, down or up that starts a navigation waits for the new page to load; url and title describe the page after. ' +
    'Prefer click with a ref or selector when the snapshot names the element. ' +
    'Errors: INVALID_PARAMETERS (a field the action needs is missing or it does not take one, or a point is outside the ' +
    'viewport: details.viewport gives its size), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    action: z.enum(MOUSE_ACTIONS).describe('What to do.'),
    x: pixels.optional().describe('From the viewport left.'),
    y: pixels.optional().describe('From the viewport top.'),
    toX: pixels.optional().describe('drag: end x.'),
    toY: pixels.optional().describe('drag: end y.'),
    button: mouseButtonSchema,
    clickCount: z.number().int().min(1).max(3).optional().describe('2: double click.'),
    delay: z.number().int().min(0).max(5_000).optional().describe('Ms held down.'),
    deltaX: pixels.optional().describe('wheel: right (+) or left.'),
    deltaY: pixels.optional().describe('wheel: down (+) or up.'),
    includeSnapshot: includeSnapshotSchema,
  }),
  output: sessionOutput({ success: z.literal(true), message: z.string() }, { snapshot: true }),
  kind: 'action',
  capability: 'vision',
  errors: [...MOUSE_ERRORS],
  // A missing or extra field is refused before the call waits for its session: nothing is pressed.
  prepare: (args) => mouseStep(args),
  async handler(step, page) {
    return { success: true as const, message: await runMouseStep(page, step) };
  },
});
