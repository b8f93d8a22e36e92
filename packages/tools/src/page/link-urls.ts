// Where links go: the absolute URL of each link a ref names, as the page resolves it (its base URL, inside its own frame).
import type { Page } from 'playwright';

/** How long one link's URL is waited for: its ref comes from a snapshot just taken, so it resolves at once or not at all. */
const LINK_URL_TIMEOUT_MS = 2_000;

/**
 * The URL of each ref's element when it is a link with an href (`a` or `area`), resolved by the page itself against
 * its document's base URL, so a relative href comes back absolute; a ref whose element is gone or has no href has none.
 */
export async function linkUrls(page: Page, refs: Iterable<string>): Promise<Map<string, string>> {
  const found = await Promise.all(
    [...new Set(refs)].map(async (ref) => {
      const url = await page
        .locator(`aria-ref=${ref}`)
        .evaluate(
          (element) => ((element instanceof HTMLAnchorElement || element instanceof HTMLAreaElement) && element.hasAttribute('href') ? element.href : null),
          undefined,
          {
            timeout: LINK_URL_TIMEOUT_MS,
          },
        )
        .catch(() => null);
      return [ref, url] as const;
    }),
  );
  return new Map(found.filter((entry): entry is readonly [string, string] => entry[1] !== null));
}
