// Page reading: the snapshot tool, and the capped snapshot other tools attach with includeSnapshot.
import { SessionError, browserError, firstLine, isTimeoutError, type ElementTarget } from '@sessionwright/session-core';
import type { Page } from 'playwright';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { onElement, pageState } from './page-helpers.js';
import { onSession } from './run-tool.js';
import { DEFAULT_ELEMENT_TIMEOUT, optionalTargetInput, sessionIdSchema, sessionResultFields } from './schemas.js';

/** About 10 000 tokens: a whole ordinary page fits, a huge one is cut with a note. */
export const DEFAULT_SNAPSHOT_MAX_CHARS = 40_000;
const MAX_SNAPSHOT_MAX_CHARS = 200_000;
/** A page whose script never yields must not hang the call. */
const SNAPSHOT_TIMEOUT = 15_000;

export interface CappedSnapshot {
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
  const where = innermost ? ` The cut falls inside ${inside.join(' inside ')}: call snapshot with ref "${innermost}" to see that part.` : '';
  return {
    snapshot: kept,
    truncated: true,
    note:
      `Snapshot cut at ${kept.length} of ${text.length} characters (${keptLines} of ${totalLines} lines shown; ${hiddenRefs} more element refs not shown).${where} ` +
      `To see the rest, call snapshot with a selector or ref naming one part of the page (a list, form, main or region), with a small depth (e.g. 2) for an outline first, ` +
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
async function readSnapshot(
  page: Page,
  options: { target?: ElementTarget; depth?: number | undefined; maxChars?: number | undefined } = {},
): Promise<CappedSnapshot> {
  const snapshotOptions = { mode: 'ai' as const, timeout: SNAPSHOT_TIMEOUT, ...(options.depth === undefined ? {} : { depth: options.depth }) };
  const target = options.target;
  let text: string;
  if (target && (target.selector !== undefined || target.ref !== undefined)) {
    text = await onElement(page, target, 'read', DEFAULT_ELEMENT_TIMEOUT, async (locator) => {
      // A selector may name something the page is still rendering; a ref was already checked by onElement.
      if (target.selector !== undefined) await locator.waitFor({ state: 'attached', timeout: DEFAULT_ELEMENT_TIMEOUT });
      return locator.ariaSnapshot(snapshotOptions);
    });
  } else {
    try {
      text = await page.ariaSnapshot(snapshotOptions);
    } catch (error) {
      if (isTimeoutError(error)) {
        throw new SessionError('BROWSER_ERROR', `The page did not produce a snapshot within ${SNAPSHOT_TIMEOUT} ms (a script may be keeping it busy). Try again, or take a screenshot.`, {
          details: { timeout: SNAPSHOT_TIMEOUT },
        });
      }
      throw browserError(error);
    }
  }
  // Playwright marks clickable elements [cursor=pointer]; on a link or button the role already says so, and the mark
  // costs a model tokens on every such line.
  text = text.replace(/^(\s*- (?:link|button)\b.*?) \[cursor=pointer\]/gm, '$1');
  if (text.trim() === '') {
    return { snapshot: '', note: 'The page (or element) has no accessible content. If the page is blank, navigate first; if it is still loading, use wait_for.' };
  }
  return capSnapshot(text, options.maxChars ?? DEFAULT_SNAPSHOT_MAX_CHARS);
}

/** The includeSnapshot fields of an action's result: the snapshot of the page the session is on now. */
export async function snapshotFields(
  page: Page,
  include: boolean | undefined,
): Promise<{ snapshot?: string; snapshotTruncated?: true; snapshotNote?: string }> {
  if (!include) return {};
  let capped: CappedSnapshot;
  try {
    capped = await readSnapshot(page);
  } catch (error) {
    // The action itself succeeded; a page still changing under the snapshot must not turn that into a failure.
    return { snapshotNote: `No snapshot could be taken after the action (${error instanceof Error ? firstLine(error.message) : String(error)}). Call snapshot.` };
  }
  const { snapshot, truncated, note } = capped;
  return { snapshot, ...(truncated ? { snapshotTruncated: true as const } : {}), ...(note === undefined ? {} : { snapshotNote: note }) };
}

export const snapshot = defineTool({
  name: 'snapshot',
  title: 'Page snapshot',
  description:
    'Returns the page\'s accessibility snapshot: a YAML-like outline of roles, names, text and states, in which every element you can act on carries a ref, e.g. `button "Send" [ref=e12]` ' +
    '(elements inside iframes have a frame prefix, e.g. f2e5). Use it first to understand a page, then pass a ref to click, type, hover, select_option, press_key, wait_for or evaluate. ' +
    'Refs belong to the current document: after a navigation or a big page change, take a new snapshot (an old ref gives ELEMENT_NOT_FOUND). ' +
    `Name an element (selector or ref) to get only that part; depth limits how deep the outline goes. Long snapshots are cut at maxChars (default ${DEFAULT_SNAPSHOT_MAX_CHARS}) with truncated: true and a note saying what was cut and which ref to ask for next. ` +
    'Errors: ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS for a selector or ref that does not name exactly one element, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: optionalTargetInput({
    sessionId: sessionIdSchema,
    depth: z.number().int().min(1).max(1_000).optional().describe('How many levels deep to go (1: only the top element and its children). Default: all levels.'),
    maxChars: z
      .number()
      .int()
      .min(1_000)
      .max(MAX_SNAPSHOT_MAX_CHARS)
      .optional()
      .describe(`Cut the snapshot after this many characters, at a line boundary (default ${DEFAULT_SNAPSHOT_MAX_CHARS}).`),
  }),
  output: z.object({
    url: z.string(),
    title: z.string(),
    snapshot: z.string().describe('The snapshot text; elements you can act on carry [ref=…].'),
    truncated: z.boolean().optional().describe('True when the snapshot was cut at maxChars.'),
    note: z.string().optional().describe('What was cut and how to see the rest, or why the snapshot is empty.'),
    ...sessionResultFields,
  }),
  kind: 'read',
  errors: ['ELEMENT_NOT_FOUND', 'ELEMENT_AMBIGUOUS', 'INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ sessionId, selector, ref, depth, maxChars }, ctx) {
    return onSession(ctx, sessionId, async (page) => {
      const capped = await readSnapshot(page, { target: { selector, ref }, depth, maxChars });
      return { ...(await pageState(page)), ...capped };
    });
  },
});
