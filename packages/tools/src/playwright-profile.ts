// The playwright profile's tools: @playwright/mcp's names and argument shapes, each a thin adapter over a default tool's handler.
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { evaluate } from './evaluate-tools.js';
import { click, hover, pressKey, selectOption, type } from './input-tools.js';
import { goBack, navigate } from './navigation-tools.js';
import { adapt, elementCount, elementFields, onSessionOrImplicit, optionalSessionIdSchema, toTarget } from './profile-adapter.js';
import { sessionOutput } from './response.js';
import { onSession } from './run-tool.js';
import { screenshot } from './screenshot-tools.js';
import { snapshot } from './snapshot-tools.js';
import { waitFor } from './wait-tools.js';

/** An input that names exactly one element (ref, target or selector), plus the tool's own fields and the optional sessionId. */
function elementInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, ...elementFields, sessionId: optionalSessionIdSchema }).refine((args) => elementCount(args) === 1, {
    message: 'name the element with one of "ref" (from browser_snapshot) or "target" (a ref or a selector)',
    path: ['ref'],
  });
}

/** An input that may narrow to one element: at most one of ref, target or selector. */
function optionalElementInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, ...elementFields, sessionId: optionalSessionIdSchema }).refine((args) => elementCount(args) <= 1, {
    message: 'give at most one of "ref", "target" or "selector"',
    path: ['ref'],
  });
}

/** Said by every tool that acts on a page: which session it acts on. */
const SESSION_NOTE = "Acts on this connection's own browser page (opened on the first call) unless sessionId names a session from create_session.";

/** Said by the tools whose result carries the page: the snapshot comes with it, as from browser_snapshot. */
const SNAPSHOT_NOTE = "The result JSON carries url, title and the page's snapshot after the action (refs for the next call).";

const ELEMENT_ERRORS_NOTE =
  'Errors: ELEMENT_NOT_FOUND (nothing matches; for a ref, take a new browser_snapshot), ELEMENT_AMBIGUOUS (the selector matches several elements)';

export const browserNavigate = adapt({
  name: 'browser_navigate',
  title: 'Navigate to a URL',
  description:
    `Opens a URL in the browser page and waits until it has loaded. ${SNAPSHOT_NOTE} ${SESSION_NOTE} ` +
    'An HTTP error page (404, 500) is a success with that status. Errors: NAVIGATION_FAILED (unreachable host, refused connection, timeout), INVALID_PARAMETERS (not an absolute http(s), data: or about:blank URL).',
  input: z.strictObject({
    url: z.string().min(1).max(100_000).describe('The absolute URL to open, e.g. https://example.com/.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: navigate,
  snapshot: true,
  toBase: ({ url }) => ({ url }),
});

export const browserNavigateBack = adapt({
  name: 'browser_navigate_back',
  title: 'Go back',
  description: `Goes back to the previous page in the history and waits until it has loaded; with no earlier page it says so and the page stays. ${SNAPSHOT_NOTE} ${SESSION_NOTE}`,
  input: z.strictObject({ sessionId: optionalSessionIdSchema }),
  base: goBack,
  snapshot: true,
  toBase: () => ({}),
});

export const browserSnapshot = adapt({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description:
    'Captures the page\'s accessibility snapshot: an outline of roles, names and text in which every element you can act on carries a ref, e.g. `button "Send" [ref=e12]`. ' +
    'Better than a screenshot for acting on the page: pass a ref to browser_click, browser_type, browser_hover, browser_select_option. ' +
    'The result is JSON: {url, title, snapshot}. Name an element (ref or target) for only that part; depth limits how deep it goes. ' +
    `Refs belong to the current document: after a navigation take a new snapshot. ${SESSION_NOTE}`,
  input: optionalElementInput({
    depth: z.number().int().min(1).max(1_000).optional().describe('How many levels deep to go. Default: all levels.'),
    filename: z
      .string()
      .max(1_000)
      .optional()
      .describe('Accepted for compatibility and ignored: the snapshot is always returned in the result, never written to a file.'),
  }),
  base: snapshot,
  toBase: ({ depth, ...element }) => ({ ...toTarget(element), depth }),
});

export const browserClick = adapt({
  name: 'browser_click',
  title: 'Click',
  description:
    `Clicks an element named by its ref from browser_snapshot (or a target: a ref or a Playwright selector). If the click starts a navigation, waits for the new page to load. ${SNAPSHOT_NOTE} ` +
    'A click that opens a JavaScript dialog or a file chooser returns at once with modalState saying so: answer it with browser_handle_dialog or browser_file_upload. ' +
    `${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_CLICKABLE (hidden, disabled or covered by another element).`,
  input: elementInput({
    doubleClick: z.boolean().optional().describe('Double-click instead of a single click.'),
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button, default left.'),
    modifiers: z
      .array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']))
      .max(5)
      .optional()
      .describe('Modifier keys held during the click.'),
  }),
  base: click,
  snapshot: true,
  toBase: ({ doubleClick, button, modifiers, ...element }) => ({ ...toTarget(element), clickCount: doubleClick ? 2 : undefined, button, modifiers }),
});

/** How long browser_type waits between keys with slowly: true, so key handlers in the page see each key. */
const SLOW_TYPING_DELAY_MS = 20;

export const browserType = adapt({
  name: 'browser_type',
  title: 'Type text',
  description:
    'Types text into an editable element (input, textarea, contenteditable) named by its ref from browser_snapshot or a target, replacing what it held. ' +
    `submit: true presses Enter afterwards; slowly: true types one key at a time, for pages that react to each key. ${SNAPSHOT_NOTE} ${SESSION_NOTE} ` +
    `${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_EDITABLE (not a text field, or disabled/readonly).`,
  input: elementInput({
    text: z.string().max(100_000).describe('The text to type.'),
    submit: z.boolean().optional().describe('Press Enter after typing.'),
    slowly: z.boolean().optional().describe('Type one character at a time (for pages with key handlers). By default the text is entered at once.'),
  }),
  base: type,
  snapshot: true,
  toBase: ({ text, submit, slowly, ...element }) => ({ ...toTarget(element), text, submit, clear: true, delay: slowly ? SLOW_TYPING_DELAY_MS : undefined }),
});

export const browserPressKey = adapt({
  name: 'browser_press_key',
  title: 'Press a key',
  description:
    'Presses a key or chord on the keyboard, sent to whatever has focus: "Enter", "ArrowLeft", "Escape", "a", "Control+A". If it starts a navigation, waits for the new page to load. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS for an unknown key name.`,
  input: z.strictObject({
    key: z.string().min(1).max(100).describe('Name of the key to press or a character to generate, such as "ArrowLeft" or "a".'),
    sessionId: optionalSessionIdSchema,
  }),
  base: pressKey,
  snapshot: true,
  toBase: ({ key }) => ({ key }),
});

export const browserHover = adapt({
  name: 'browser_hover',
  title: 'Hover mouse',
  description: `Moves the mouse over an element named by its ref from browser_snapshot or a target, e.g. to open a menu. ${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_CLICKABLE.`,
  input: elementInput({}),
  base: hover,
  snapshot: true,
  toBase: (element) => toTarget(element),
});

export const browserSelectOption = adapt({
  name: 'browser_select_option',
  title: 'Select option',
  description:
    'Selects options in a <select> dropdown named by its ref from browser_snapshot or a target; each value matches an option by value or visible label. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_EDITABLE (not a <select>), INVALID_PARAMETERS (a value matches no option; details.options lists them).`,
  input: elementInput({
    values: z.array(z.string().max(10_000)).min(1).max(1_000).describe('Values to select: one, or several for a multiple select.'),
  }),
  base: selectOption,
  snapshot: true,
  toBase: ({ values, ...element }) => ({ ...toTarget(element), values }),
});

export const browserEvaluate = adapt({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description:
    'Runs a JavaScript function in the page and returns its result as JSON (key result): "() => document.title", or with an element (ref or target) "(element) => element.textContent". ' +
    `${SESSION_NOTE} Errors: BROWSER_ERROR when the function throws (details.pageMessage), INVALID_PARAMETERS when it does not parse, ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS for the element.`,
  input: optionalElementInput({
    function: z.string().min(1).max(100_000).describe('() => { /* code */ } or (element) => { /* code */ } when an element is given.'),
  }),
  base: evaluate,
  toBase: ({ function: source, ...element }) => ({ ...toTarget(element), function: source }),
});

export const browserTakeScreenshot = adapt({
  name: 'browser_take_screenshot',
  title: 'Take a screenshot',
  description:
    'Takes a screenshot of the viewport, the full page (fullPage: true) or one element (ref or target). content[0] is JSON {url, title, width, height, bytes, format}; the image follows as content[1]. ' +
    `Large captures are scaled down. To act on the page use browser_snapshot, not a screenshot. ${SESSION_NOTE}`,
  input: optionalElementInput({
    type: z.enum(['png', 'jpeg']).optional().describe('Image format, default png.'),
    fullPage: z.boolean().optional().describe('Capture the whole scrollable page instead of the viewport. Not with an element.'),
    filename: z
      .string()
      .max(1_000)
      .optional()
      .describe('Accepted for compatibility and ignored: the image is returned in the result, never written to a file.'),
  }),
  base: screenshot,
  toBase: ({ type: format, fullPage, filename: _ignored, ...element }) => ({ ...toTarget(element), format, fullPage }),
});

/** The longest a time wait may take, in seconds, as in @playwright/mcp. */
const MAX_TIME_WAIT_S = 30;

const waitOutput = sessionOutput({ success: z.literal(true), message: z.string(), waitedMs: z.number().describe('How long the wait took, in ms.') });

export const browserWaitFor = defineTool({
  name: 'browser_wait_for',
  title: 'Wait for',
  description:
    `Waits for text to appear (text), for text to disappear (textGone), or for a number of seconds to pass (time, at most ${MAX_TIME_WAIT_S}). ` +
    `Give at least one; with time and a text, the time passes first. ${SESSION_NOTE} ` +
    'Errors: WAIT_TIMEOUT when the text did not appear or go within 10 s (take a browser_snapshot to see the page).',
  input: z
    .strictObject({
      time: z.number().min(0).max(3_600).optional().describe(`The time to wait, in seconds (at most ${MAX_TIME_WAIT_S} are waited).`),
      text: z.string().min(1).max(1_000).optional().describe('The text to wait for.'),
      textGone: z.string().min(1).max(1_000).optional().describe('The text to wait for to disappear.'),
      sessionId: optionalSessionIdSchema,
    })
    .refine((args) => args.time !== undefined || args.text !== undefined || args.textGone !== undefined, {
      message: 'give "time", "text" or "textGone"',
      path: ['time'],
    }),
  output: waitOutput,
  kind: 'read',
  errors: waitFor.errors,
  async handler({ time, text, textGone, sessionId }, ctx) {
    return onSessionOrImplicit(ctx, sessionId, async (id, context) => {
      const started = Date.now();
      let result = await onSession(context, id, async () => {
        const ms = Math.min(time ?? 0, MAX_TIME_WAIT_S) * 1_000;
        await sleep(ms, context.signal);
        return { success: true as const, message: `Waited ${ms / 1_000} s.`, waitedMs: ms };
      });
      // The default tool waits for one condition at a time.
      for (const condition of [textGone === undefined ? undefined : { textGone }, text === undefined ? undefined : { text }]) {
        if (condition === undefined) continue;
        result = await waitFor.handler({ sessionId: id, ...condition }, context);
      }
      return { ...result, waitedMs: Date.now() - started };
    });
  },
});

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export const browserClose = defineTool({
  name: 'browser_close',
  title: 'Close browser',
  description:
    "Closes this connection's browser page and its session (cookies and storage are gone); the next browser_* call opens a new blank page. With sessionId, closes that session instead. " +
    'Closing when nothing is open succeeds.',
  input: z.strictObject({ sessionId: optionalSessionIdSchema }),
  output: z.object({
    success: z.literal(true),
    message: z.string(),
    url: z.string().describe('Always "about:blank": no page is open any more.'),
    title: z.string().describe('Always empty.'),
  }),
  kind: 'lifecycle-close',
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'INVALID_PARAMETERS'],
  async handler({ sessionId }, ctx) {
    const closed = { success: true as const, url: 'about:blank', title: '' };
    if (sessionId !== undefined) {
      await ctx.sessions.close(sessionId);
      return { ...closed, message: 'Session closed.' };
    }
    const had = (await ctx.implicitSession?.close()) ?? false;
    return { ...closed, message: had ? 'Browser page closed. The next browser_* call opens a new one.' : 'No browser page was open.' };
  },
});
