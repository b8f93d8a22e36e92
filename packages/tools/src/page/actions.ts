// Acting on the page, as several tools do: finding one element and acting on it, and waiting out a navigation or a new tab an action started.
import { SessionError } from '@sessionwright/session-core';
import type { Frame, Locator, Page, Request } from 'playwright';
import type { ElementAction, ElementTarget } from './element.js';
import { elementError } from './errors.js';

/** A locator for a selector (CSS, XPath, text=, role=, …) or a snapshot ref (resolved by Playwright's aria-ref engine). */
export function locate(page: Page, target: ElementTarget): Locator {
  if (target.ref !== undefined) return page.locator(`aria-ref=${target.ref}`);
  if (target.selector !== undefined) return page.locator(target.selector);
  throw new SessionError('INVALID_PARAMETERS', 'Name the element with either `selector` or `ref`.');
}

/**
 * Runs an element action, turning any failure into the element error code that fits the element's state.
 * A ref is checked first: a ref that no longer resolves will not come back, so it fails at once instead of after the timeout.
 */
export async function onElement<T>(
  page: Page,
  target: ElementTarget,
  action: ElementAction,
  timeout: number,
  fn: (locator: Locator) => Promise<T>,
  options: { checkRef?: boolean } = {},
): Promise<T> {
  const locator = locate(page, target);
  try {
    if (target.ref !== undefined && (options.checkRef ?? true) && (await locator.count()) === 0) throw new Error('stale ref');
    return await fn(locator);
  } catch (error) {
    throw await elementError(error, locator, { action, target, timeout });
  }
}

/** How long an action waits for a tab it started opening to appear, and for that tab to load. */
const NEW_TAB_APPEAR_TIMEOUT = 5_000;

/**
 * Runs an action and, only if it started a navigation of the main frame, waits for that navigation to load.
 * If it started opening a new tab (target=_blank, window.open), waits for the tab to appear and load, so the
 * result already describes it (the session follows the newest tab). An action that does neither returns as soon
 * as it is done: no fixed sleep. A tab opened later (from a timer) is reported by the next call.
 */
export async function actAndSettle<T>(page: Page, timeout: number, action: () => Promise<T>): Promise<T> {
  const context = page.context();
  let navigated = false;
  let tabStarting = false;
  let opened: Page | undefined;
  const onNavigation = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true;
  };
  const onRequest = (request: Request) => {
    if (!request.isNavigationRequest()) return;
    const frame = frameOf(request);
    if (frame === page.mainFrame()) navigated = true;
    // A navigation request with no frame yet is the first load of a tab being created.
    if (frame === undefined) tabStarting = true;
  };
  const onPage = (created: Page) => {
    opened = created;
  };
  page.on('framenavigated', onNavigation);
  context.on('request', onRequest);
  context.on('page', onPage);
  try {
    const result = await action();
    if (tabStarting && !opened) {
      await context.waitForEvent('page', { timeout: NEW_TAB_APPEAR_TIMEOUT }).catch(() => undefined);
    }
    // Playwright's action returns after a navigation it started has committed; wait for that document to load.
    if (navigated && !page.isClosed()) await page.waitForLoadState('load', { timeout }).catch(() => {});
    const tab = opened as Page | undefined;
    if (tab && !tab.isClosed()) await tab.waitForLoadState('load', { timeout }).catch(() => {});
    return result;
  } finally {
    page.off('framenavigated', onNavigation);
    context.off('request', onRequest);
    context.off('page', onPage);
  }
}

export function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    // Playwright throws for a navigation request issued before its frame exists: a new tab's first document.
    return undefined;
  }
}
