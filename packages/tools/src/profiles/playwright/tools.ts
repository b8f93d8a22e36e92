// The playwright profile's tools: @playwright/mcp's names and argument shapes, each naming a default tool's work (or, for two, work of their own) in the profile's call scope.
import { SessionError } from '@sessionwright/session-core';
import { COLLECTOR_CAPACITY } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { consoleMessages } from '../../tools/console.js';
import { defineTool } from '../../framework/define-tool.js';
import { handleDialog } from '../../tools/dialog.js';
import { emulate } from '../../tools/emulate.js';
import { evaluate } from '../../tools/evaluate.js';
import { ONE_QUERY_MESSAGE, find, findOutput, findQueryFields, oneQuery } from '../../tools/find.js';
import { drag, fillForm } from '../../tools/form.js';
import { click, hover, pressKey, selectOption, type } from '../../tools/input.js';
import { FILE_UPLOAD_TOOL, HANDLE_DIALOG_TOOL } from '../../framework/modal-state.js';
import { goBack, navigate } from '../../tools/navigation.js';
import { networkRequests } from '../../tools/network.js';
import { numbered, numberedOutput } from './core-tools.js';
import { outputPath, writeOutputFile } from '../../framework/output-files.js';
import {
  SESSION_NOTE,
  SNAPSHOT_NOTE,
  adapt,
  elementCount,
  elementFields,
  optionalSessionIdSchema,
  playwrightOutput,
  playwrightSessionTool,
  toTarget,
} from './adapter.js';
import { FILENAME_NOTE, filenameSchema, sessionOutput } from '../../framework/response.js';
import { MAX_SELECTOR, modifiersSchema, mouseButtonSchema, refText } from '../../framework/schemas.js';
import { MAX_SNAPSHOT_MAX_CHARS } from '../../page/snapshot.js';
import type { OwnFields } from '../../framework/define-session-tool.js';
import { scaleSchema, screenshot } from '../../tools/screenshot.js';
import { renderMatches, type LineMatcher, type SnapshotSearch } from '../../page/snapshot-search.js';
import { boxesSchema, snapshot } from '../../tools/snapshot.js';
import { readUploads, uploadFile } from '../../tools/upload.js';
import { waitFor } from '../../tools/wait.js';

/** An input that names exactly one element (ref or target), plus the tool's own fields and the optional sessionId. */
function elementInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, ...elementFields, sessionId: optionalSessionIdSchema }).refine((args) => elementCount(args) === 1, {
    message: 'name the element with one of "ref" (from browser_snapshot) or "target" (a ref or a selector)',
    path: ['ref'],
  });
}

/** An input that may narrow to one element: at most one of ref or target. */
function optionalElementInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, ...elementFields, sessionId: optionalSessionIdSchema }).refine((args) => elementCount(args) <= 1, {
    message: 'give at most one of "ref" or "target"',
    path: ['ref'],
  });
}

const ELEMENT_ERRORS_NOTE =
  'Errors: ELEMENT_NOT_FOUND (nothing matches; for a ref, take a new browser_snapshot), ELEMENT_AMBIGUOUS (the selector matches several elements)';

export const browserNavigate = adapt({
  name: 'browser_navigate',
  title: 'Navigate to a URL',
  description: 'Opens a URL in the page.',
  notes:
    `Opens a URL in the browser page and waits until it has loaded. ${SNAPSHOT_NOTE} ${SESSION_NOTE} ` +
    'An HTTP error page (404, 500) is a success with that status. Errors: NAVIGATION_FAILED (unreachable host, refused ' +
    'connection, timeout), INVALID_PARAMETERS (not an absolute http(s), data: or about:blank URL).',
  input: z.strictObject({
    url: z.string().min(1).max(100_000).describe('Absolute URL.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: navigate,
  snapshot: true,
  toBase: ({ url }) => ({ url }),
});

export const browserNavigateBack = adapt({
  name: 'browser_navigate_back',
  title: 'Go back',
  description: 'Goes back to the previous page.',
  notes: `Goes back to the previous page in the history and waits until it has loaded; with no earlier page it says so and the page stays. ${SNAPSHOT_NOTE} ${SESSION_NOTE}`,
  input: z.strictObject({ sessionId: optionalSessionIdSchema }),
  base: goBack,
  snapshot: true,
  toBase: () => ({}),
});

export const browserSnapshot = adapt({
  name: 'browser_snapshot',
  title: 'Page snapshot',
  description: "Captures the page's accessibility snapshot, with refs to act on; better than a screenshot.",
  notes:
    "Captures the page's accessibility snapshot: an outline of roles, names and text in which every element you can act on " +
    'carries a ref, e.g. `button "Send" [ref=e12]`. ' +
    'Better than a screenshot for acting on the page: pass a ref to browser_click, browser_type, browser_hover, browser_select_option. ' +
    'The result is JSON: {url, title, snapshot}. Name an element (ref or target) for only that part; depth limits how deep it ' +
    'goes; boxes: true adds [box=x,y,width,height] (CSS pixels, viewport-relative) to each element. ' +
    `Refs belong to the current document: after a navigation take a new snapshot. ${FILENAME_NOTE} ${SESSION_NOTE}`,
  input: optionalElementInput({
    depth: z.number().int().min(1).max(1_000).optional().describe('Default all.'),
    boxes: boxesSchema,
    filename: filenameSchema,
  }),
  base: snapshot,
  // A file takes the whole snapshot; an answer is capped for the model.
  toBase: ({ depth, boxes, filename, ...element }) => ({
    ...toTarget(element),
    depth,
    boxes,
    maxChars: filename === undefined ? undefined : MAX_SNAPSHOT_MAX_CHARS,
  }),
  file: {
    content: (data) => (typeof data.snapshot === 'string' ? data.snapshot : undefined),
    omit: ['snapshot'],
  },
});

export const browserClick = adapt({
  name: 'browser_click',
  title: 'Click',
  description: 'Clicks an element.',
  notes:
    `Clicks an element named by its ref from browser_snapshot (or a target: a ref or a Playwright selector). If the click starts a navigation, waits for the new page to load. ${SNAPSHOT_NOTE} ` +
    'A click that opens a JavaScript dialog or a file chooser returns at once with modalState saying so: answer it with ' +
    'browser_handle_dialog or browser_file_upload. ' +
    `${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_CLICKABLE (hidden, disabled or covered by another element).`,
  input: elementInput({
    doubleClick: z.boolean().optional().describe('Double-click.'),
    button: mouseButtonSchema,
    modifiers: modifiersSchema,
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
  description: 'Types text into an editable element, replacing its text.',
  notes:
    'Types text into an editable element (input, textarea, contenteditable) named by its ref from browser_snapshot or a target, replacing what it held. ' +
    `submit: true presses Enter afterwards; slowly: true types one key at a time, for pages that react to each key. ${SNAPSHOT_NOTE} ${SESSION_NOTE} ` +
    `${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_EDITABLE (not a text field, or disabled/readonly).`,
  input: elementInput({
    text: z.string().max(100_000).describe('Text to type.'),
    submit: z.boolean().optional().describe('Press Enter after.'),
    slowly: z.boolean().optional().describe('Type key by key.'),
  }),
  base: type,
  snapshot: true,
  toBase: ({ text, submit, slowly, ...element }) => ({ ...toTarget(element), text, submit, clear: true, delay: slowly ? SLOW_TYPING_DELAY_MS : undefined }),
});

export const browserPressKey = adapt({
  name: 'browser_press_key',
  title: 'Press a key',
  description: 'Presses a key, e.g. Enter or ArrowLeft.',
  notes:
    'Presses a key or chord on the keyboard, sent to whatever has focus: "Enter", "ArrowLeft", "Escape", "a", "Control+A". If it ' +
    'starts a navigation, waits for the new page to load. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS for an unknown key name.`,
  input: z.strictObject({
    key: z.string().min(1).max(100).describe('Key name or character.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: pressKey,
  snapshot: true,
  toBase: ({ key }) => ({ key }),
});

export const browserHover = adapt({
  name: 'browser_hover',
  title: 'Hover mouse',
  description: 'Hovers the mouse over an element.',
  notes: `Moves the mouse over an element named by its ref from browser_snapshot or a target, e.g. to open a menu. ${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_CLICKABLE.`,
  input: elementInput({}),
  base: hover,
  snapshot: true,
  toBase: (element) => toTarget(element),
});

export const browserSelectOption = adapt({
  name: 'browser_select_option',
  title: 'Select option',
  description: 'Selects options in a dropdown.',
  notes:
    'Selects options in a <select> dropdown named by its ref from browser_snapshot or a target; each value matches an option by value or visible label. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_EDITABLE (not a <select>), INVALID_PARAMETERS (a value matches no option; details.options lists them).`,
  input: elementInput({
    values: z.array(z.string().max(10_000)).min(1).max(1_000).describe('Values or labels.'),
  }),
  base: selectOption,
  snapshot: true,
  toBase: ({ values, ...element }) => ({ ...toTarget(element), values }),
});

export const browserEvaluate = adapt({
  name: 'browser_evaluate',
  title: 'Evaluate JavaScript',
  description: 'Evaluates a JavaScript function on the page or an element.',
  notes:
    'Runs a JavaScript function in the page and returns its result as JSON (key result): "() => document.title", or with an ' +
    'element (ref or target) "(element) => element.textContent". ' +
    `${FILENAME_NOTE} ${SESSION_NOTE} Errors: BROWSER_ERROR when the function throws (details.pageMessage), INVALID_PARAMETERS when it does not parse, ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS for the element.`,
  input: optionalElementInput({
    function: z.string().min(1).max(100_000).describe('() => … or (element) => …'),
    filename: filenameSchema,
  }),
  base: evaluate,
  toBase: ({ function: source, filename: _file, ...element }) => ({ ...toTarget(element), function: source }),
  file: {
    content: (data) => ('type' in data ? `${JSON.stringify(data.result, null, 2) ?? 'undefined'}\n` : undefined),
    omit: ['result'],
  },
});

export const browserTakeScreenshot = adapt({
  name: 'browser_take_screenshot',
  title: 'Take a screenshot',
  description: 'Takes a screenshot; to act on the page use browser_snapshot.',
  notes:
    'Takes a screenshot of the viewport, the full page (fullPage: true) or one element (ref or target). content[0] is JSON {url, ' +
    'title, width, height, bytes, format}; the image follows as content[1]. ' +
    'scale "device" captures device pixels (sharper on a high-density device), "css" (default) one pixel per CSS pixel. ' +
    `Large captures are scaled down. To act on the page use browser_snapshot, not a screenshot. With filename the image is written to that file inside --output-dir (never outside it; refused without --output-dir) instead of returned, and the answer says where (file). ${SESSION_NOTE}`,
  input: optionalElementInput({
    type: z.enum(['png', 'jpeg']).optional().describe('Default png.'),
    fullPage: z.boolean().optional().describe('Whole page.'),
    scale: scaleSchema,
    filename: filenameSchema,
  }),
  base: screenshot,
  toBase: ({ type: format, fullPage, scale, filename, ...element }) => ({
    ...toTarget(element),
    format: format ?? (filename && /\.jpe?g$/i.test(filename) ? 'jpeg' : undefined),
    fullPage,
    scale,
  }),
  file: {
    content: (_data, attachments) => {
      const image = attachments.find((attachment) => attachment.type === 'image');
      return image === undefined ? undefined : Buffer.from(image.data, 'base64');
    },
    omit: [],
  },
});

/** The longest a time wait may take, in seconds, as in @playwright/mcp. */
const MAX_TIME_WAIT_S = 30;

const waitOutput = sessionOutput({ success: z.literal(true), message: z.string(), waitedMs: z.number().describe('How long the wait took, in ms.') });

export const browserWaitFor = playwrightSessionTool({
  name: 'browser_wait_for',
  title: 'Wait for',
  description: 'Waits for text to appear or disappear, or for time to pass.',
  notes:
    `Waits for text to appear (text), for text to disappear (textGone), or for a number of seconds to pass (time, at most ${MAX_TIME_WAIT_S}). ` +
    `Give at least one; with time and a text, the time passes first. ${SESSION_NOTE} ` +
    'Errors: WAIT_TIMEOUT when the text did not appear or go within 10 s (take a browser_snapshot to see the page).',
  input: z
    .strictObject({
      time: z.number().min(0).max(3_600).optional().describe(`Seconds (at most ${MAX_TIME_WAIT_S}).`),
      text: z.string().min(1).max(1_000).optional().describe('Text to appear.'),
      textGone: z.string().min(1).max(1_000).optional().describe('Text to vanish.'),
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
  description: 'Closes the page.',
  notes:
    "Closes this connection's browser page and its session, and its isolated contexts (cookies and storage are gone); the next " +
    'browser_* call opens a new blank page. With sessionId, closes that session instead. ' +
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
  description: 'Drags one element onto another.',
  notes:
    'Drags one element onto another with the mouse (HTML5 drag and drop, sortable lists, sliders): the start element by startRef ' +
    '(from browser_snapshot) or startTarget (a ref or a selector), the drop target by endRef or endTarget. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_CLICKABLE (hidden or covered); details.end says which end failed.`,
  input: z
    .strictObject({
      startElement: elementFields.element.describe('What is dragged, for the log.'),
      startRef: elementFields.ref.describe('Same as startTarget (a ref).'),
      startTarget: elementFields.target.describe('Ref or selector to drag.'),
      endElement: elementFields.element.describe('What it is dropped on, for the log.'),
      endRef: elementFields.ref.describe('Same as endTarget (a ref).'),
      endTarget: elementFields.target.describe('Ref or selector to drop on.'),
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
    name: z.string().max(1_000),
    type: z.enum(FIELD_TYPES),
    ref: refText.optional(),
    target: z.string().min(1).max(MAX_SELECTOR).optional(),
    value: z.string().max(100_000),
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
  description: 'Fills several form fields.',
  notes:
    'Fills several form fields in one call, in order: each names its field by ref (from browser_snapshot) or target, its type ' +
    '(textbox, checkbox, radio, combobox, slider) and its value ' +
    '("true"/"false" for a checkbox or radio button, the option for a combobox). It does not submit: click the submit button ' +
    'next. A field that fails stops the call; details.field is its index. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ${ELEMENT_ERRORS_NOTE}, ELEMENT_NOT_EDITABLE (disabled, readonly, or not that kind of field), INVALID_PARAMETERS (an option that does not exist).`,
  input: z.strictObject({
    fields: z.array(formFieldSchema).min(1).max(200).describe('Each {name, type, ref or target, value}.'),
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
  description: 'Answers the dialog the page holds open.',
  notes:
    'Answers the JavaScript dialog (alert, confirm, prompt, beforeunload) the page holds open: accept: true presses OK (with ' +
    'promptText for a prompt), accept: false presses Cancel. ' +
    'An action whose page opened a dialog returns at once with modalState saying so; until it is answered, other calls refuse to run. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS when no dialog is open (details.reason "no_dialog").`,
  input: z.strictObject({
    accept: z.boolean().describe('true: OK; false: Cancel.'),
    promptText: z.string().max(10_000).optional().describe('For a prompt.'),
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
  description: 'Gives files to the file chooser the page holds open, or cancels it.',
  notes:
    'Answers the file chooser the page holds open (after a click on an "Upload" button or a file input, whose result carries ' +
    'modalState): paths are the files to give it, ' +
    "which must lie inside an allowed directory (--file-root, else the client's MCP roots, else over stdio the working " +
    'directory). Without paths the chooser is cancelled. ' +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS (no file chooser open, a missing file, a path outside the allowed directories, over 20 MB, several files for a single-file chooser).`,
  input: z.strictObject({
    paths: z.array(z.string().min(1).max(4_096)).max(100).optional().describe('Absolute paths; none cancels.'),
    sessionId: optionalSessionIdSchema,
  }),
  output: playwrightOutput(uploadOutput, { snapshot: true }),
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
    const held = response.session.modal.state;
    if (held?.type === 'fileChooser' && !held.multiple && payloads.length > 1) {
      throw new SessionError('INVALID_PARAMETERS', `This file chooser takes one file; ${payloads.length} were given.`, {
        details: { reason: 'single file input', files: payloads.length },
      });
    }
    await response.session.modal.answerFileChooser(payloads);
    const files = payloads.map((payload) => ({ name: payload.name, bytes: payload.buffer.length }));
    return {
      success: true as const,
      message: files.length === 0 ? 'The file chooser was cancelled.' : `Gave ${files.length} file${files.length === 1 ? '' : 's'} to the file chooser.`,
      files,
    };
  },
});

const consoleOutput = consoleMessages.output as z.ZodObject;

/**
 * console_messages' work with @playwright/mcp's arguments: by default only what came since the current tab last loaded
 * a page (the cursor the default tool answers as loadCursor), everything kept with all: true.
 */
export const browserConsoleMessages = playwrightSessionTool({
  name: 'browser_console_messages',
  title: 'Get console messages',
  description: "Returns the page's console messages.",
  notes:
    'Returns the console messages of the page (every tab of the session), uncaught exceptions included as errors, oldest first: ' +
    'level is the lowest level to include ' +
    '("error", "warning", "info" by default, or "debug" for everything); onlyErrors: true is level "error". ' +
    `Only what came since the current tab last loaded a page, unless all: true (everything since the session began). ${FILENAME_NOTE} ${SESSION_NOTE}`,
  input: z
    .strictObject({
      level: z.enum(['error', 'warning', 'info', 'debug']).optional().describe('Lowest level (default info).'),
      onlyErrors: z.boolean().optional().describe('Same as level error.'),
      all: z.boolean().optional().describe('Since the session began, not the last page load.'),
      filename: filenameSchema,
      sessionId: optionalSessionIdSchema,
    })
    .refine((args) => args.level === undefined || args.onlyErrors === undefined, { message: 'give "level" or "onlyErrors", not both', path: ['onlyErrors'] }),
  output: playwrightOutput(consoleOutput),
  kind: 'read',
  errors: consoleMessages.errors,
  async handler({ level, onlyErrors, all, filename }, page, response, ctx) {
    const since = all === true ? undefined : response.session.collectors.consoleSinceNavigation(page);
    // A file takes every message kept; an answer the default number.
    const limit = filename === undefined ? undefined : COLLECTOR_CAPACITY;
    return consoleMessages.work.handler({ level: onlyErrors ? 'error' : level, since, limit }, page, response, ctx);
  },
  file: {
    content: (data) => (Array.isArray(data.messages) ? consoleLog(data.messages as ConsoleLine[]) : undefined),
    omit: ['messages'],
  },
});

type ConsoleLine = { type: string; text: string; url?: string; line?: number };

/** Console messages as a log file: one line each, `[type] text (url:line)`. */
function consoleLog(messages: readonly ConsoleLine[]): string {
  return messages.map(({ type, text, url, line }) => `[${type}] ${text}${url ? ` (${url}${line === undefined ? '' : `:${line}`})` : ''}\n`).join('');
}

export const browserNetworkRequests = playwrightSessionTool({
  name: 'browser_network_requests',
  title: 'List network requests',
  description: "Lists the page's network requests, numbered for browser_network_request.",
  notes:
    'Lists the requests the page (every tab of the session) made, oldest first: index (for browser_network_request), method, ' +
    'url, resource type, status (null while pending or when it failed) and failure. ' +
    'Only those since the current tab last loaded a page, unless all: true (everything kept since the session began). Numbers ' +
    'stay the same for the whole session. filter keeps URLs matching a regular expression ("/api/.*user"). ' +
    `Images, fonts, stylesheets and media are left out unless static: true (includeStatic is the same). ${FILENAME_NOTE} ${SESSION_NOTE} Errors: INVALID_PARAMETERS (a filter that is not a regular expression).`,
  input: z.strictObject({
    static: z.boolean().optional().describe('Also images, fonts, stylesheets, media.'),
    includeStatic: z.boolean().optional().describe('Same as static.'),
    filter: z.string().min(1).max(1_000).optional().describe('URL regexp, e.g. "/api/.*user".'),
    all: z.boolean().optional().describe('Since the session began, not the last page load.'),
    filename: filenameSchema,
    sessionId: optionalSessionIdSchema,
  }),
  output: numberedOutput(playwrightOutput(networkRequests.output as z.ZodObject)),
  kind: 'read',
  errors: networkRequests.errors,
  // @playwright/mcp's filter is a regular expression's source; ours reads one written /…/.
  async prepare({ static: withStatic, includeStatic, filter, all, filename }, ctx) {
    const read = await (networkRequests.work.prepare as NonNullable<typeof networkRequests.work.prepare>)(
      {
        includeStatic: withStatic ?? includeStatic,
        filter: filter === undefined ? undefined : `/${filter}/`,
        limit: filename === undefined ? undefined : COLLECTOR_CAPACITY,
      },
      ctx,
    );
    return { read, all: all === true };
  },
  async handler({ read, all }, page, response, ctx) {
    const since = all ? undefined : response.session.collectors.requestsSinceNavigation(page);
    return numbered(await networkRequests.work.handler({ ...read, since }, page, response, ctx));
  },
  file: {
    content: (data) => (Array.isArray(data.requests) ? requestLog(data.requests as RequestLine[]) : undefined),
    omit: ['requests'],
  },
});

type RequestLine = { index: number; method: string; url: string; status: number | null; failure?: string };

/** The request list as a log file: `12. [GET] url => [200]`, as @playwright/mcp numbers it. */
function requestLog(requests: readonly RequestLine[]): string {
  return requests
    .map(
      ({ index, method, url, status, failure }) =>
        `${index}. [${method}] ${url}${status === null ? (failure ? ` => [FAILED] ${failure}` : '') : ` => [${status}]`}\n`,
    )
    .join('');
}

export const browserResize = adapt({
  name: 'browser_resize',
  title: 'Resize browser window',
  description: "Resizes the page's viewport.",
  notes: `Resizes the page's viewport to width × height CSS pixels (for every tab of the session, and those opened later). ${SESSION_NOTE} Errors: INVALID_PARAMETERS (a size out of range).`,
  input: z.strictObject({
    width: z.number().int().describe('CSS pixels.'),
    height: z.number().int().describe('CSS pixels.'),
    sessionId: optionalSessionIdSchema,
  }),
  base: emulate,
  toBase: ({ width, height }) => ({ viewport: { width, height } }),
});

/**
 * find's work with @playwright/mcp's arguments; `filename` writes the matches to that file under --output-dir instead
 * of answering them (refused when the server has no --output-dir, or the name leads out of it).
 */
export const browserFind = playwrightSessionTool({
  name: 'browser_find',
  title: 'Find in page snapshot',
  description: 'Finds text in the page snapshot: only the matching lines, with their refs.',
  notes:
    'Cheaper than browser_snapshot for locating one element: each matching line comes with the ref to act on and its path from ' +
    'the root (main > form "Sign in"); a match that is a link also carries url, where it goes (absolute). ' +
    'text matches in any case; regex is a JavaScript regular expression, /pattern/flags for flags. At most 50 matches are ' +
    'listed, fewer with maxResults; total counts them all. ' +
    `With filename the matches are written to that file inside --output-dir (never outside it) and the result says where. ${SESSION_NOTE} ` +
    'Errors: INVALID_PARAMETERS (neither or both of text and regex, a regex that does not compile or runs too long, a filename ' +
    'without --output-dir or outside it).',
  input: z
    .strictObject({
      ...findQueryFields,
      maxResults: z.number().int().min(1).max(1_000_000).optional().describe('At most this many matches (50 at most).'),
      filename: z.string().min(1).max(1_000).optional().describe('Write to this file in --output-dir instead.'),
      sessionId: optionalSessionIdSchema,
    })
    .refine(oneQuery, { message: ONE_QUERY_MESSAGE, path: ['text'] }),
  output: playwrightOutput(findOutput.extend({ file: z.string().optional().describe('With filename: the file the matches were written to.') })),
  kind: 'read',
  errors: find.errors,
  async prepare({ text, regex, filename, maxResults }, ctx) {
    const matcher = (await find.work.prepare?.({ text, regex }, ctx)) as LineMatcher;
    return { matcher, maxResults, file: filename === undefined ? undefined : outputPath(ctx.options, filename) };
  },
  async handler({ matcher, maxResults, file }, page, response, ctx) {
    const all = (await find.work.handler(matcher, page, response, ctx)) as SnapshotSearch;
    const found = maxResults === undefined ? all : { ...all, matches: all.matches.slice(0, maxResults) };
    if (file === undefined) return { ...found };
    return { total: found.total, file: await writeOutputFile(ctx.options, file, renderMatches(found), response.session.downloads) };
  },
});
