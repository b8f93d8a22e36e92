// Naming an element: the selector or snapshot ref that names it, how it reads in messages, and the state of what it matches now.
import { messageOf } from '@sessionwright/session-core/parts';
import type { Locator } from 'playwright';

/** How long, in ms, an element action waits for its element unless the call gives a timeout. */
export const DEFAULT_ELEMENT_TIMEOUT = 5_000;

/** Exactly one of the two names the element an action is about. */
export interface ElementTarget {
  selector?: string | undefined;
  ref?: string | undefined;
}

/** What kind of action failed, which decides the code for an element that exists but refused it. */
export type ElementAction = 'click' | 'hover' | 'edit' | 'select' | 'check' | 'read' | 'wait';

/** How a target reads in messages: `selector "#go"` or `ref e12`. */
export function describeTarget(target: ElementTarget): string {
  return target.ref !== undefined ? `ref ${target.ref}` : `selector ${JSON.stringify(target.selector)}`;
}

/** The target as error details: `{ref}` or `{selector}`. */
export function targetDetails(target: ElementTarget): Record<string, string> {
  return target.ref !== undefined ? { ref: target.ref } : { selector: target.selector ?? '' };
}

/** The state of what a locator matches, read from the page in one go. */
export interface ElementState {
  count: number;
  visible: boolean;
  enabled: boolean;
  editable: boolean;
  /** Set when the element's centre is covered by another element. */
  coveredBy?: string;
  /** Short descriptions of the first few matches. */
  matches: string[];
}

/**
 * Reads what the locator matches now. A selector that cannot be parsed, or a ref that no snapshot issued,
 * makes Playwright reject at once; that comes back as `invalid` with the browser's own words.
 */
export async function inspectElement(locator: Locator): Promise<ElementState | { invalid: string }> {
  let count: number;
  try {
    count = await locator.count();
  } catch (error) {
    return { invalid: messageOf(error) };
  }
  const matches = await locator
    .evaluateAll((elements) =>
      elements.slice(0, 3).map((element) => {
        const id = element.id ? `#${element.id}` : '';
        const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        return `<${element.tagName.toLowerCase()}${id}>${text ? ` "${text}"` : ''}`;
      }),
    )
    .catch(() => [] as string[]);
  if (count !== 1) return { count, visible: false, enabled: false, editable: false, matches };
  const one = locator.first();
  const [visible, enabled, editable] = await Promise.all([
    one.isVisible().catch(() => false),
    one.isEnabled({ timeout: 1000 }).catch(() => false),
    one.isEditable({ timeout: 1000 }).catch(() => false),
  ]);
  const coveredBy = visible
    ? await one
        .evaluate((element) => {
          const box = element.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          if (!hit || element.contains(hit) || hit.contains(element)) return undefined;
          return `<${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ''}>`;
        })
        .catch(() => undefined)
    : undefined;
  return { count, visible, enabled, editable, matches, ...(coveredBy ? { coveredBy } : {}) };
}
