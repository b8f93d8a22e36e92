// Small page routines several tools share: reading url/title, and waiting out a navigation an action started.
import type { Frame, Page } from 'playwright';

export async function pageState(page: Page): Promise<{ url: string; title: string }> {
  return { url: page.url(), title: await page.title().catch(() => '') };
}

/**
 * Runs an action and, only if it started a navigation of the main frame, waits for that navigation to load.
 * An action that navigates nothing returns as soon as it is done: no fixed sleep.
 */
export async function actAndSettle<T>(page: Page, timeout: number, action: () => Promise<T>): Promise<T> {
  let navigated = false;
  const onNavigation = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true;
  };
  const onRequest = (request: { isNavigationRequest(): boolean; frame(): Frame }) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigated = true;
  };
  page.on('framenavigated', onNavigation);
  page.on('request', onRequest);
  try {
    const result = await action();
    // Playwright's action returns after a navigation it started has committed; wait for that document to load.
    if (navigated && !page.isClosed()) await page.waitForLoadState('load', { timeout }).catch(() => {});
    return result;
  } finally {
    page.off('framenavigated', onNavigation);
    page.off('request', onRequest);
  }
}
