// The failures the page routines name: an element action's (decided by asking the page what is true now, not by reading English error text) and the browser's own, as BROWSER_ERROR.
import type { Locator, Page } from 'playwright';
import { SessionError, browserError, isSessionError } from '@sessionwright/session-core';
import { firstLine, isTimeoutError, messageOf, orAfter, defined } from '@sessionwright/session-core/parts';
import { describeTarget, inspectElement, targetDetails, type ElementAction, type ElementTarget } from './element.js';

/**
 * The error for an element action that threw: ELEMENT_NOT_FOUND, ELEMENT_AMBIGUOUS, ELEMENT_NOT_CLICKABLE or
 * ELEMENT_NOT_EDITABLE, decided by the element's state; INVALID_PARAMETERS for a selector that does not parse.
 */
export async function elementError(
  error: unknown,
  locator: Locator,
  context: { action: ElementAction; target: ElementTarget; timeout?: number },
): Promise<SessionError> {
  if (isSessionError(error)) return error;
  const { action, target } = context;
  const what = describeTarget(target);
  const base = { ...targetDetails(target), ...defined({ timeout: context.timeout }) };
  const browserMessage = firstLine(messageOf(error));
  const state = await inspectElement(locator);

  if ('invalid' in state) {
    // A page that crashed or closed under the action rejects every query, whatever the selector or ref: that is the
    // browser failing, not the caller. Only a page that still answers may blame the selector or ref.
    if (!(await pageAnswers(locator.page()))) {
      return browserError(
        'page_crashed',
        `The page crashed or was closed during the ${action} on ${what}. The session opens a fresh blank page for the next call; load the page again, then retry.`,
        {
          details: { ...base, browserMessage: firstLine(state.invalid), next: 'load_page' },
        },
      );
    }
    if (target.ref !== undefined) {
      return new SessionError('ELEMENT_NOT_FOUND', `No element has ${what} on the current page: refs change when the page changes.`, {
        details: { ...base, browserMessage: firstLine(state.invalid), next: 'new_snapshot' },
      });
    }
    return new SessionError('INVALID_PARAMETERS', `The ${what} is not a valid selector: ${firstLine(state.invalid)}`, {
      details: { ...base, browserMessage: firstLine(state.invalid) },
    });
  }
  if (state.count === 0) {
    const hint = target.ref !== undefined ? ' The ref may be stale.' : ' Check the selector.';
    return new SessionError('ELEMENT_NOT_FOUND', `No element matches ${what}${context.timeout ? ` within ${context.timeout} ms` : ''}.${hint}`, {
      details: { ...base, next: 'new_snapshot' },
    });
  }
  if (state.count > 1) {
    return new SessionError(
      'ELEMENT_AMBIGUOUS',
      `${capitalize(what)} matches ${state.count} elements; make it match exactly one (add an id or :nth-match(), or use a ref).`,
      {
        details: { ...base, count: state.count, matches: state.matches, next: 'new_snapshot' },
      },
    );
  }
  if (action === 'edit' && !state.editable) {
    const reason = !state.enabled ? 'disabled' : state.visible ? 'not an editable field (or readonly)' : 'hidden';
    return new SessionError(
      'ELEMENT_NOT_EDITABLE',
      `The element ${state.matches[0] ?? what} cannot be typed into: it is ${reason}. ${EDIT_ADVICE[reason] ?? ''}`.trimEnd(),
      {
        details: { ...base, reason, element: state.matches[0] },
      },
    );
  }
  const reason = !state.visible
    ? 'hidden'
    : !state.enabled && action !== 'hover' && action !== 'read'
      ? 'disabled'
      : state.coveredBy
        ? `covered by ${state.coveredBy}`
        : undefined;
  if (reason && action !== 'read') {
    const advice = state.coveredBy ? 'Close or scroll away what covers it first (a dialog, a banner), then try again.' : (USE_ADVICE[reason] ?? '');
    return new SessionError('ELEMENT_NOT_CLICKABLE', `The element ${state.matches[0] ?? what} cannot be used: it is ${reason}. ${advice}`.trimEnd(), {
      details: { ...base, reason, element: state.matches[0], browserMessage },
    });
  }
  if (isTimeoutError(error)) {
    return new SessionError(
      'ELEMENT_NOT_CLICKABLE',
      `The element ${state.matches[0] ?? what} did not become ready for ${action} within ${context.timeout ?? 'the'} ms (it may be moving or re-rendering). Try again once the page has settled, or with a longer timeout.`,
      {
        details: { ...base, reason: 'not stable', element: state.matches[0], browserMessage },
      },
    );
  }
  return browserFailure(error);
}

/**
 * What to do about an element that exists but refuses an action, said in its error: the tool descriptions a model
 * reads leave this to the error, since it matters only when it happens.
 */
const USE_ADVICE: Partial<Record<string, string>> = {
  hidden: 'Make it visible first (open the menu, tab or section it is in), or wait until it shows; a snapshot shows what the page offers.',
  disabled: 'Wait until it is enabled (a form may need other fields filled in first); a snapshot shows what the page offers.',
};

const EDIT_ADVICE: Partial<Record<string, string>> = {
  ...USE_ADVICE,
  'not an editable field (or readonly)': 'Name a text field (a textbox in the snapshot) instead.',
};

/** Whether the page still runs script (false once it crashed or closed); bounded, so a wedged page cannot hang an error report. */
async function pageAnswers(page: Page): Promise<boolean> {
  if (page.isClosed()) return false;
  return orAfter(
    page.evaluate(() => true).catch(() => false),
    2_000,
    false,
  );
}

/**
 * A failure as a SessionError: a SessionError stays as it is; anything else is BROWSER_ERROR reason `unknown` with the
 * browser's own message ("<tool> failed: …", or "The browser reported an error: …" without a tool).
 */
export function browserFailure(error: unknown, tool?: string): SessionError {
  if (isSessionError(error)) return error;
  const text = firstLine(messageOf(error));
  return browserError('unknown', tool === undefined ? `The browser reported an error: ${text}` : `${tool} failed: ${text}`, {
    details: { browserMessage: messageOf(error).slice(0, 1000) },
    cause: error,
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
