// Reading a page as an AI-mode aria snapshot with refs, capped for a model: used by the snapshot tool and by the response builder.
import { browserError } from '@sessionwright/session-core';
import { firstLine, isTimeoutError, messageOf, serverSide, defined } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import { DEFAULT_ELEMENT_TIMEOUT, type ElementTarget } from './element.js';
import { onElement } from './actions.js';
import { browserFailure } from './errors.js';

/** About 10 000 tokens: a whole ordinary page fits, a huge one is cut with a note. */
export const DEFAULT_SNAPSHOT_MAX_CHARS = 40_000;
export const MAX_SNAPSHOT_MAX_CHARS = 200_000;
/** A page whose script never yields must not hang the call. */
const SNAPSHOT_TIMEOUT = 15_000;

interface CappedSnapshot {
  snapshot: string;
  truncated?: true;
  note?: string;
}

/**
 * Cuts a snapshot at the last whole line within maxChars and says what was left out, where the cut fell
 * (the containers it is inside, with their refs), and how to get the rest.
 */
export function capSnapshot(text: string, maxChars: number): CappedSnapshot {
  if (text.length <= maxChars) return { snapshot: text };
  const newline = text.lastIndexOf('\n', maxChars);
  const cut = newline > 0 ? newline : maxChars;
  const kept = text.slice(0, cut);
  const rest = text.slice(cut).replace(/^\n/, '');
  const keptLines = kept.split('\n').length;
  const totalLines = keptLines + rest.split('\n').length;
  const hiddenRefs = rest.match(/\[ref=[^\]]+\]/g)?.length ?? 0;
  const inside = containersAt(kept.split('\n'), indentOf(rest.split('\n', 1)[0] ?? ''));
  const innermost = /\[ref=([^\]]+)\]/.exec(inside[0] ?? '')?.[1];
  const where = innermost ? ` The cut falls inside ${inside.join(' inside ')}: take a snapshot of ref "${innermost}" to see that part.` : '';
  return {
    snapshot: kept,
    truncated: true,
    note:
      `Snapshot cut at ${kept.length} of ${text.length} characters (${keptLines} of ${totalLines} lines shown; ${hiddenRefs} more element refs not shown).${where} ` +
      `To see the rest, take a snapshot of a selector or ref naming one part of the page (a list, form, main or region), with a small depth (e.g. 2) for an outline first, ` +
      `or with a larger maxChars (up to ${MAX_SNAPSHOT_MAX_CHARS}).`,
  };
}

/** The nearest enclosing lines (shallower indentation) of a line at `indent` after `lines`, innermost first, those with refs only. */
function containersAt(lines: string[], indent: number): string[] {
  const found: string[] = [];
  let depth = indent;
  for (let i = lines.length - 1; i >= 0 && depth > 0 && found.length < 3; i -= 1) {
    const line = lines[i] ?? '';
    const own = indentOf(line);
    if (own >= depth) continue;
    depth = own;
    const head = /^\s*- (.*?)(?::\s*.*)?$/.exec(line)?.[1];
    if (head?.includes('[ref=')) found.push(head.slice(0, 120));
  }
  return found;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The page's (or one element's) AI-mode aria snapshot, capped. */
export async function readSnapshot(
  page: Page,
  options: { target?: ElementTarget; depth?: number | undefined; maxChars?: number | undefined; boxes?: boolean | undefined } = {},
): Promise<CappedSnapshot> {
  const snapshotOptions = {
    mode: 'ai' as const,
    timeout: SNAPSHOT_TIMEOUT,
    ...defined({ depth: options.depth }),
    ...(options.boxes ? { boxes: true } : {}),
  };
  const target = options.target;
  let text: string;
  if (target && (target.selector !== undefined || target.ref !== undefined)) {
    text = await onElement(page, target, 'read', DEFAULT_ELEMENT_TIMEOUT, async (locator) => {
      // A selector may name something the page is still rendering; a ref was already checked by onElement.
      if (target.selector !== undefined) await locator.waitFor({ state: 'attached', timeout: DEFAULT_ELEMENT_TIMEOUT });
      return locator.ariaSnapshot(snapshotOptions);
    });
  } else {
    text = await wholePage(page, snapshotOptions);
  }
  // Playwright marks clickable elements [cursor=pointer]; on a link or button the role already says so, and the mark
  // costs a model tokens on every such line.
  text = text.replace(/^(\s*- (?:link|button)\b.*?) \[cursor=pointer\]/gm, '$1');
  if (text.trim() === '') {
    return {
      snapshot: '',
      note: 'The page (or element) has no accessible content. If the page is blank, navigate to a URL first; if it is still loading, wait for it.',
    };
  }
  return capSnapshot(text, options.maxChars ?? DEFAULT_SNAPSHOT_MAX_CHARS);
}

type SnapshotOptions = { mode: 'ai'; timeout: number; depth?: number; boxes?: boolean };

/** The whole page's snapshot: the quick way where it gives Playwright's answer, else Playwright's public call. */
export async function wholePage(page: Page, options: SnapshotOptions): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), options.timeout);
  });
  let text: string | undefined | 'late';
  let browserMessage: string | undefined;
  try {
    text = await Promise.race([quickSnapshot(page, options), late]);
    if (text !== 'late') text ??= await page.ariaSnapshot(options);
  } catch (error) {
    if (!isTimeoutError(error)) throw browserFailure(error);
    text = 'late';
    browserMessage = firstLine(messageOf(error));
  } finally {
    clearTimeout(timer);
  }
  if (text !== 'late') return text;
  throw browserError(
    'unknown',
    `The page did not produce a snapshot within ${options.timeout} ms (a script may be keeping it busy). Try again, or take a screenshot.`,
    { details: { timeout: options.timeout, ...(browserMessage ? { browserMessage } : {}) } },
  );
}

/** What the quick path needs of Playwright's server-side frame and injected script; anything else counts as missing. */
interface ServerFrame {
  context(world: 'utility'): Promise<{ injectedScript(): Promise<InjectedHandle> }>;
}
interface InjectedHandle {
  evaluate<R, A>(pageFunction: (injected: InjectedScript, arg: A) => R, arg: A): Promise<R>;
}
interface InjectedScript {
  document: Document;
  ariaSnapshot?: (root: Element, options: { mode: 'ai'; depth?: number; boxes?: boolean }) => string;
  _lastAriaSnapshotForQuery?: { iframeRefs?: unknown };
}

/**
 * The page's snapshot from Playwright's own injected script in one evaluation, the YAML made in the page: exactly what
 * `page.ariaSnapshot()` answers (the same code, the same refs, kept for `aria-ref` the same way), sooner. The
 * public call first sends the snapshot as a tree in Playwright's wire encoding, decodes it and renders it here, and
 * passes through Playwright's client layer both ways. Undefined (the public call follows) where this process cannot
 * reach Playwright's server side, where its internals look different, for a page with frames (the public call walks
 * into them), and whenever the quick way fails (no body yet, a navigation destroyed the context): the public call
 * then waits, retries and words the error as Playwright does.
 */
export async function quickSnapshot(page: Page, options: { depth?: number; boxes?: boolean }): Promise<string | undefined> {
  if (page.frames().length !== 1) return undefined;
  const frame = serverSide(page.mainFrame()) as Partial<ServerFrame> | undefined;
  if (typeof frame?.context !== 'function') return undefined;
  try {
    const injected = await (await frame.context('utility')).injectedScript();
    const text = await injected.evaluate(
      (injected, snapshotOptions) => {
        const root = injected.document.querySelector('body,frameset');
        if (!root || typeof injected.ariaSnapshot !== 'function') return null;
        const yaml = injected.ariaSnapshot(root, snapshotOptions);
        // An iframe added since the page's frames were counted still needs the public call's walk into it.
        const iframes = injected._lastAriaSnapshotForQuery?.iframeRefs;
        return Array.isArray(iframes) && iframes.length === 0 ? yaml : null;
      },
      { mode: 'ai' as const, ...defined({ depth: options.depth }), ...(options.boxes ? { boxes: true } : {}) },
    );
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
