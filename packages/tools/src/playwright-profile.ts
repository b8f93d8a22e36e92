// The playwright profile's tools: @playwright/mcp's names and argument shapes, each naming a default tool's work (or, for two, work of their own) in the profile's call scope.
import { SessionError } from '@sessionwright/session-core';
import { z } from 'zod';
import { consoleMessages } from './console-tools.js';
import { defineTool } from './define-tool.js';
import { handleDialog } from './dialog-tools.js';
import { emulate } from './emulate-tools.js';
import { evaluate } from './evaluate-tools.js';
import { drag, fillForm } from './form-tools.js';
import { click, hover, pressKey, selectOption, type } from './input-tools.js';
import { FILE_UPLOAD_TOOL, HANDLE_DIALOG_TOOL } from './modal-state.js';
import { goBack, navigate } from './navigation-tools.js';
import { networkRequests } from './network-tools.js';
import { adapt, elementCount, elementFields, optionalSessionIdSchema, playwrightOutput, playwrightSessionTool, toTarget } from './profile-adapter.js';
import { sessionOutput } from './response.js';
import type { OwnFields } from './session-tool.js';
import { screenshot } from './screenshot-tools.js';
import { snapshot } from './snapshot-tools.js';
import { tabs } from './tab-tools.js';
import { readUploads, uploadFile } from './upload-tools.js';
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

export const browserWaitFor = playwrightSessionTool({
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
  output: playwrightOutput(waitOutput),
  kind: 'read',
  errors: waitFor.errors,
  async handler({ time, text, textGone }, page, response, ctx) {
    const started = Date.now();
    const ms = Math.min(time ?? 0, MAX_TIME_WAIT_S) * 1_000;
    await sleep(ms, ctx.signal);
    let result: OwnFields<typeof waitOutput> = { success: true as const, message: `Waited ${ms / 1_000} s.`, waitedMs: ms };
    // The default tool waits for one condition at a time.
    for (const condition of [textGone === undefined ? undefined : { textGone }, text === undefined ? undefined : { text }]) {
      if (condition !== undefined) result = await waitFor.work.handler(condition, page, response, ctx);
    }
    return { ...result, waitedMs: Date.now() - started };
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

export const browserDrag = adapt({
  name: 'browser_drag',
  title: 'Drag mouse',
  description:
    'Drags one element onto another with the mouse (HTML5 drag and drop, sortable lists, sliders): the start element by startRef (from browser_snapshot) or startTarget (a ref or a selector), the drop target by endRef or endTarget. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_CLICKABLE (hidden or covered); details.end says which end failed.`,
  input: z
    .strictObject({
      startElement: elementFields.element.describe('A human-readable description of the element to drag.'),
      startRef: elementFields.ref.describe('The ref of the element to drag, from the latest browser_snapshot.'),
      startTarget: elementFields.target.describe('The element to drag: a ref, or else a Playwright selector.'),
      endElement: elementFields.element.describe('A human-readable description of the element to drop onto.'),
      endRef: elementFields.ref.describe('The ref of the element to drop onto, from the latest browser_snapshot.'),
      endTarget: elementFields.target.describe('The element to drop onto: a ref, or else a Playwright selector.'),
      sessionId: optionalSessionIdSchema,
    })
    .refine((args) => (args.startRef === undefined) !== (args.startTarget === undefined), {
      message: 'name the element to drag with one of "startRef" or "startTarget"',
      path: ['startRef'],
    })
    .refine((args) => (args.endRef === undefined) !== (args.endTarget === undefined), {
      message: 'name the element to drop onto with one of "endRef" or "endTarget"',
      path: ['endRef'],
    }),
  base: drag,
  snapshot: true,
  toBase: ({ startRef, startTarget, endRef, endTarget }) => ({
    from: toTarget({ ref: startRef, target: startTarget }),
    to: toTarget({ ref: endRef, target: endTarget }),
  }),
});

/** The field kinds of @playwright/mcp's browser_fill_form; checkboxes and radio buttons take "true" or "false". */
const FIELD_TYPES = ['textbox', 'checkbox', 'radio', 'combobox', 'slider'] as const;
const BOOLEAN_FIELDS: ReadonlySet<string> = new Set(['checkbox', 'radio']);

const formFieldSchema = z
  .strictObject({
    name: z.string().max(1_000).describe('A human-readable name of the field, e.g. "Email".'),
    type: z.enum(FIELD_TYPES).describe('The kind of field: textbox, checkbox, radio, combobox (a <select>) or slider.'),
    ref: elementFields.ref,
    target: elementFields.target,
    value: z
      .string()
      .max(100_000)
      .describe('The value: text for a textbox or slider, "true" or "false" for a checkbox or radio button, the option\'s label (or value) for a combobox.'),
  })
  .refine((field) => (field.ref === undefined) !== (field.target === undefined), {
    message: 'name the field with one of "ref" (from browser_snapshot) or "target" (a ref or a selector)',
    path: ['ref'],
  })
  .refine((field) => !BOOLEAN_FIELDS.has(field.type) || field.value === 'true' || field.value === 'false', {
    message: 'a checkbox or radio field takes "true" or "false"',
    path: ['value'],
  });

export const browserFillForm = adapt({
  name: 'browser_fill_form',
  title: 'Fill form',
  description:
    'Fills several form fields in one call, in order: each names its field by ref (from browser_snapshot) or target, its type (textbox, checkbox, radio, combobox, slider) and its value ' +
    '("true"/"false" for a checkbox or radio button, the option for a combobox). It does not submit: click the submit button next. A field that fails stops the call; details.field is its index. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_EDITABLE (disabled, readonly, or not that kind of field), INVALID_PARAMETERS (an option that does not exist).`,
  input: z.strictObject({
    fields: z.array(formFieldSchema).min(1).max(200).describe('The fields to fill, in order.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: fillForm,
  snapshot: true,
  toBase: ({ fields }) => ({
    fields: fields.map(({ type, ref, target, value }) => ({ ...toTarget({ ref, target }), value: BOOLEAN_FIELDS.has(type) ? value === 'true' : value })),
  }),
});

export const browserHandleDialog = adapt({
  name: HANDLE_DIALOG_TOOL,
  title: 'Handle a dialog',
  description:
    'Answers the JavaScript dialog (alert, confirm, prompt, beforeunload) the page holds open: accept: true presses OK (with promptText for a prompt), accept: false presses Cancel. ' +
    'An action whose page opened a dialog returns at once with modalState saying so; until it is answered, other calls refuse to run. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS when no dialog is open (details.reason "no_dialog").`,
  input: z.strictObject({
    accept: z.boolean().describe('true: accept the dialog (OK); false: dismiss it (Cancel).'),
    promptText: z.string().max(10_000).optional().describe('For a prompt: the text to answer with.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: handleDialog,
  snapshot: true,
  modal: 'answers-dialog',
  toBase: ({ accept, promptText }) => ({ accept, promptText }),
});

const uploadOutput = sessionOutput(
  {
    success: z.literal(true),
    message: z.string(),
    files: z.array(z.object({ name: z.string(), bytes: z.number() })).describe('The files given to the page, in order; empty when the chooser was cancelled.'),
  },
  { snapshot: true },
);

/**
 * Not an adapter over upload_file: that tool opens the chooser itself (it clicks an element), while here the chooser
 * is already open and held by the session. It reads the files with upload_file's own reader (the same allowed
 * directories and limits) and hands them to the held chooser.
 */
export const browserFileUpload = playwrightSessionTool({
  name: FILE_UPLOAD_TOOL,
  title: 'Upload files',
  description:
    'Answers the file chooser the page holds open (after a click on an "Upload" button or a file input, whose result carries modalState): paths are the files to give it, ' +
    "which must lie inside an allowed directory (--file-root, else the client's MCP roots, else over stdio the working directory). Without paths the chooser is cancelled. " +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS (no file chooser open, a missing file, a path outside the allowed directories, over 20 MB, several files for a single-file chooser).`,
  input: z.strictObject({
    paths: z
      .array(z.string().min(1).max(4_096))
      .max(100)
      .optional()
      .describe('Absolute paths of the files to upload, one or several. Leave it out to cancel the file chooser.'),
    sessionId: optionalSessionIdSchema,
  }),
  output: playwrightOutput(uploadOutput),
  kind: 'action',
  errors: uploadFile.errors,
  modal: 'answers-file-chooser',
  snapshot: true,
  async prepare({ paths }, ctx) {
    const wanted = paths ?? [];
    if (wanted.length === 0) return [];
    return readUploads(
      wanted.map((path) => ({ path })),
      ctx.roots ? await ctx.roots() : { directories: [], source: 'none' },
    );
  },
  async handler(payloads, _page, response) {
    const held = response.session.modalState;
    if (held?.type === 'fileChooser' && !held.multiple && payloads.length > 1) {
      throw new SessionError('INVALID_PARAMETERS', `This file chooser takes one file; ${payloads.length} were given.`, {
        details: { reason: 'single file input', files: payloads.length },
      });
    }
    await response.session.answerPendingFileChooser(payloads);
    const files = payloads.map((payload) => ({ name: payload.name, bytes: payload.buffer.length }));
    return {
      success: true as const,
      message: files.length === 0 ? 'The file chooser was cancelled.' : `Gave ${files.length} file${files.length === 1 ? '' : 's'} to the file chooser.`,
      files,
    };
  },
});

export const browserConsoleMessages = adapt({
  name: 'browser_console_messages',
  title: 'Get console messages',
  description:
    'Returns the console messages of the page (every tab of the session), uncaught exceptions included as errors, oldest first: level is the lowest level to include ' +
    '("error", "warning", "info" by default, or "debug" for everything); onlyErrors: true is level "error". ' +
    `${SESSION_NOTE}`,
  input: z
    .strictObject({
      level: z
        .enum(['error', 'warning', 'info', 'debug'])
        .optional()
        .describe('The lowest level to include; each level includes the more severe ones. Default "info".'),
      onlyErrors: z.boolean().optional().describe('Only errors (the same as level "error").'),
      filename: z
        .string()
        .max(1_000)
        .optional()
        .describe('Accepted for compatibility and ignored: the messages are returned in the result, never written to a file.'),
      sessionId: optionalSessionIdSchema,
    })
    .refine((args) => args.level === undefined || args.onlyErrors === undefined, { message: 'give "level" or "onlyErrors", not both', path: ['onlyErrors'] }),
  base: consoleMessages,
  toBase: ({ level, onlyErrors }) => ({ level: onlyErrors ? 'error' : level }),
});

export const browserNetworkRequests = adapt({
  name: 'browser_network_requests',
  title: 'List network requests',
  description:
    'Lists the requests the page (every tab of the session) made, oldest first: method, url, resource type, status (null while pending or when it failed) and failure. ' +
    `Images, fonts, stylesheets and media are left out unless includeStatic: true. ${SESSION_NOTE}`,
  input: z.strictObject({
    includeStatic: z.boolean().optional().describe('Also list images, fonts, stylesheets and media (default false).'),
    filename: z.string().max(1_000).optional().describe('Accepted for compatibility and ignored: the list is returned in the result, never written to a file.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: networkRequests,
  toBase: ({ includeStatic }) => ({ includeStatic }),
});

export const browserTabs = adapt({
  name: 'browser_tabs',
  title: 'Manage tabs',
  description:
    'Lists, opens, selects or closes the browser tabs: action "list"; "new" opens a blank tab and acts on it (then browser_navigate); "select" with index acts on that tab; "close" closes the tab at index (default the current one). ' +
    `The result lists the tabs (index, url, title, current). After new, select and close it carries the current tab's snapshot. ${SESSION_NOTE} Errors: INVALID_PARAMETERS (no tab at that index, select without index).`,
  input: z.strictObject({
    action: z.enum(['list', 'new', 'select', 'close']).describe('"list", "new", "select" (needs index) or "close" (index, default the current tab).'),
    index: z.number().int().min(0).max(10_000).optional().describe("For select and close: the tab's index from the list."),
    sessionId: optionalSessionIdSchema,
  }),
  base: tabs,
  snapshot: ({ action }) => action !== 'list',
  toBase: ({ action, index }) => ({ action, index }),
});

export const browserResize = adapt({
  name: 'browser_resize',
  title: 'Resize browser window',
  description: `Resizes the page's viewport to width × height CSS pixels (for every tab of the session, and those opened later). ${SESSION_NOTE} Errors: INVALID_PARAMETERS (a size out of range).`,
  input: z.strictObject({
    width: z.number().int().describe('Width in CSS pixels.'),
    height: z.number().int().describe('Height in CSS pixels.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: emulate,
  toBase: ({ width, height }) => ({ viewport: { width, height } }),
});
