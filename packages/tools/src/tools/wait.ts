// The wait_for tool: wait until text appears or goes, or an element reaches a state; WAIT_TIMEOUT when it does not in time.
import { SessionError } from '@sessionwright/session-core';
import { isTimeoutError } from '@sessionwright/session-core/parts';
import type { Locator, Page } from 'playwright';
import { z } from 'zod';
import type { ToolContext } from '../framework/define-tool.js';
import { describeTarget, inspectElement, type ElementTarget } from '../page/element.js';
import { locate } from '../page/actions.js';
import { elementError } from '../page/errors.js';
import { sessionOutput } from '../framework/response.js';
import { refSchema, selectorSchema, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

const DEFAULT_WAIT_TIMEOUT = 10_000;

type ElementState = 'visible' | 'hidden' | 'attached' | 'detached';

/** Text shown on the page (main frame): visible elements whose text contains it, case-insensitively. */
function visibleText(page: Page, text: string): Locator {
  return page.getByText(text).filter({ visible: true }).first();
}

/** How often a wait looks at whether its caller cancelled it: Playwright's own waits cannot be aborted. */
const CANCEL_CHECK_MS = 500;

/** Waits in slices of at most CANCEL_CHECK_MS, so a cancelled wait ends soon and frees its session's queue. */
async function waitInSlices(locator: Locator, state: ElementState, timeout: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const slice = Math.max(1, Math.min(CANCEL_CHECK_MS, deadline - Date.now()));
    try {
      return await locator.waitFor({ state, timeout: slice });
    } catch (error) {
      if (!isTimeoutError(error) || signal.aborted || Date.now() >= deadline) throw error;
    }
  }
}

async function waitForCondition(
  page: Page,
  condition: { text?: string | undefined; textGone?: string | undefined; target?: ElementTarget; state: ElementState },
  timeout: number,
  signal: AbortSignal,
): Promise<string> {
  if (condition.text !== undefined) {
    await waitInSlices(visibleText(page, condition.text), 'attached', timeout, signal);
    return `The text ${JSON.stringify(condition.text)} is on the page.`;
  }
  if (condition.textGone !== undefined) {
    await waitInSlices(visibleText(page, condition.textGone), 'detached', timeout, signal);
    return `The text ${JSON.stringify(condition.textGone)} is no longer on the page.`;
  }
  const target = condition.target ?? {};
  const locator = locate(page, target);
  const appearing = condition.state === 'visible' || condition.state === 'attached';
  try {
    // A ref that resolves to nothing never will (refs belong to one document): say so now rather than time out.
    if (target.ref !== undefined && appearing && (await locator.count()) === 0) throw new Error('stale ref');
    await waitInSlices(locator, condition.state, timeout, signal);
  } catch (error) {
    if (isTimeoutError(error)) throw error;
    // Not a timeout: a selector that does not parse, several matches (strict), or a ref from another document.
    throw await elementError(error, locator, { action: 'wait', target });
  }
  return `The element ${describeTarget(target)} is ${condition.state}.`;
}

export const waitFor = defineSessionTool({
  name: 'wait_for',
  title: 'Wait for condition',
  description: 'Waits until text appears or vanishes, or an element reaches a state.',
  notes:
    'Returns how long it took. Give exactly one condition: text (visible text containing this, case-insensitive, appears), ' +
    'textGone (no visible text contains this any more), or an element (selector or ref) with state: "visible" (default), ' +
    '"hidden", "attached" (in the DOM) or "detached" (removed). ' +
    'Use it after an action whose effect comes later (a search result, a spinner going away, a slow page). Text is looked for in ' +
    'the main page, not inside iframes. ' +
    `A condition that is already true returns at once. Errors: WAIT_TIMEOUT (not true within timeout, default ${DEFAULT_WAIT_TIMEOUT} ms; take a snapshot to see the page), ` +
    'ELEMENT_AMBIGUOUS (the selector matches several elements), ELEMENT_NOT_FOUND (a ref from an older document: take a new ' +
    'snapshot), INVALID_PARAMETERS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z
    .strictObject({
      sessionId: sessionIdSchema,
      text: z.string().min(1).max(1_000).optional().describe('Text to appear.'),
      textGone: z.string().min(1).max(1_000).optional().describe('Text to vanish.'),
      selector: selectorSchema.optional(),
      ref: refSchema.optional(),
      state: z.enum(['visible', 'hidden', 'attached', 'detached']).optional().describe('Default visible.'),
      timeout: z.number().int().min(1).max(300_000).optional().describe(`Ms (default ${DEFAULT_WAIT_TIMEOUT}).`),
    })
    .refine(
      (args) =>
        [args.text, args.textGone, args.selector ?? args.ref].filter((value) => value !== undefined).length === 1 &&
        !(args.selector !== undefined && args.ref !== undefined),
      {
        message: 'give exactly one condition: "text", "textGone", or an element ("selector" or "ref")',
        path: ['text'],
      },
    )
    .refine((args) => args.state === undefined || args.selector !== undefined || args.ref !== undefined, {
      message: '"state" applies only with "selector" or "ref"',
      path: ['state'],
    }),
  output: sessionOutput({ success: z.literal(true), message: z.string(), waitedMs: z.number().describe('How long the wait took, in ms.') }),
  kind: 'read',
  errors: ['WAIT_TIMEOUT', 'ELEMENT_AMBIGUOUS', 'ELEMENT_NOT_FOUND', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ text, textGone, selector, ref, state = 'visible', timeout = DEFAULT_WAIT_TIMEOUT }, page, _response, ctx) {
    const condition = { text, textGone, target: { selector, ref }, state };
    const started = Date.now();
    let message: string;
    try {
      message = await reportWaiting(ctx, timeout, () => waitForCondition(page, condition, timeout, ctx.signal));
    } catch (error) {
      if (!isTimeoutError(error)) throw error;
      throw await waitTimeout(page, condition, timeout, Date.now() - started);
    }
    return { success: true as const, message, waitedMs: Date.now() - started };
  },
});

async function waitTimeout(
  page: Page,
  condition: { text?: string | undefined; textGone?: string | undefined; target: ElementTarget; state: ElementState },
  timeout: number,
  waitedMs: number,
): Promise<SessionError> {
  const url = page.url();
  if (condition.text !== undefined || condition.textGone !== undefined) {
    const gone = condition.textGone !== undefined;
    const text = condition.text ?? condition.textGone ?? '';
    return new SessionError(
      'WAIT_TIMEOUT',
      `${gone ? 'The text' : 'No visible text containing'} ${JSON.stringify(text)} ${gone ? 'was still on the page' : 'appeared'} after ${timeout} ms. Take a snapshot to see what the page shows, or wait longer.`,
      { details: { [gone ? 'textGone' : 'text']: text, timeout, waitedMs, url } },
    );
  }
  const target = condition.target;
  const state = await inspectElement(locate(page, target));
  const count = 'count' in state ? state.count : 0;
  return new SessionError(
    'WAIT_TIMEOUT',
    `The element ${describeTarget(target)} was not ${condition.state} after ${timeout} ms (it matches ${count} element${count === 1 ? '' : 's'} now). Take a snapshot to see the page, or wait longer.`,
    {
      details: {
        ...(target.ref !== undefined ? { ref: target.ref } : { selector: target.selector }),
        state: condition.state,
        timeout,
        waitedMs,
        matches: count,
        url,
      },
    },
  );
}

/**
 * Runs a wait on the page, sending progress once a second to a client that asked for it:
 * progress is the time waited and total the timeout (none when the timeout is 0, no limit), both in ms.
 */
async function reportWaiting<T>(ctx: ToolContext, timeout: number, wait: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const total = timeout > 0 ? timeout : undefined;
  const report = () => {
    const waited = Date.now() - started;
    ctx.progress(waited, total, `Waited ${Math.round(waited / 1000)} s${total === undefined ? '' : ` of ${Math.round(total / 1000)} s`}`);
  };
  report();
  const ticker = setInterval(report, 1_000);
  try {
    return await wait();
  } finally {
    clearInterval(ticker);
  }
}
