// Searching a snapshot's text: the lines that match a text or a pattern, each with its ref and its path from the root, so an agent finds an element without reading the page.
import { runInNewContext } from 'node:vm';
import { SessionError } from '@sessionwright/session-core';
import { cut, defined } from '@sessionwright/session-core/parts';

/** What to look for: a text (any case), or a pattern (case as written; `/pattern/flags` for flags). */
export type SnapshotQuery = { text: string } | { regex: string };

/** One line that matched. */
interface SnapshotMatch {
  /** The ref of the element the line belongs to: its own, or the nearest enclosing element's. */
  ref?: string;
  /** The line as the snapshot shows it, without its indentation and ref; a long line is cut around the match. */
  line: string;
  /** The elements around it, outermost first (unnamed generic containers left out). */
  path: string;
  /** Where the link goes, absolute, when the element of the ref is a link (added by the caller, who can ask the page). */
  url?: string;
}

export interface SnapshotSearch {
  matches: SnapshotMatch[];
  /** How many lines matched; more than matches.length when the list was cut. */
  total: number;
}

/** A compiled query: where in each of the given lines the first match starts, or -1 for a line that does not match. */
export type LineMatcher = (lines: readonly string[]) => number[];

/** The most matches one answer lists: past that, a narrower query is the better next step than more lines. */
export const MAX_FIND_MATCHES = 50;
/** How long a pattern may take over one page: a pattern that backtracks without end must not hold the server. */
const PATTERN_BUDGET_MS = 1_000;
/** How much of a line a match shows, and of each enclosing element's name in a path. */
const MAX_LINE = 200;
const MAX_NAME = 60;
/** How many enclosing elements a path shows, innermost kept. */
const MAX_PATH = 5;

/**
 * The matcher for a query. A pattern is compiled here, so a bad one is refused before any page is read; it runs in a
 * separate context with a time budget (the one way to stop a backtracking regular expression in V8), and the global and
 * sticky flags are dropped, since each line is tested on its own.
 */
export function compileQuery(query: SnapshotQuery): LineMatcher {
  if ('text' in query) {
    const needle = query.text.toLowerCase();
    return (lines) => lines.map((line) => line.toLowerCase().indexOf(needle));
  }
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(query.regex);
  const [source, flags] = literal ? [literal[1] ?? '', (literal[2] ?? '').replace(/[gy]/g, '')] : [query.regex, ''];
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, flags);
  } catch (error) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      `The regex is not a valid regular expression: ${(error as Error).message}. Write /pattern/flags, e.g. /sign ?in/i.`,
      {
        details: { regex: query.regex.slice(0, 200) },
      },
    );
  }
  return (lines) => {
    try {
      return runInNewContext('lines.map((line) => line.search(pattern))', { lines, pattern }, { timeout: PATTERN_BUDGET_MS }) as number[];
    } catch {
      throw new SessionError(
        'INVALID_PARAMETERS',
        `The regex took more than ${PATTERN_BUDGET_MS} ms on this page and was stopped: make it simpler (nested repetition such as (a+)+ backtracks without end), or search for text.`,
        { details: { regex: query.regex.slice(0, 200), reason: 'too slow' } },
      );
    }
  };
}

interface Line {
  indent: number;
  /** The line without indentation, leading "- " and ref. */
  text: string;
  /** The element's role and name, for paths. */
  head: string;
  ref: string | undefined;
}

const REF_MARK = / ?\[ref=([^\]]+)\]/;

function parseLine(raw: string): Line {
  const indent = raw.length - raw.trimStart().length;
  const ref = REF_MARK.exec(raw)?.[1];
  // The colon that opens a line's children says nothing once the line stands alone.
  const text = raw.trim().replace(/^- /, '').replace(REF_MARK, '').replace(/:$/, '');
  // role, then an optional quoted name: `button "Send"`, `heading "Title" [level=1]`, `text: Hello`.
  const head = /^([^\s:"[]+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(text);
  const role = head?.[1] ?? text;
  const name = head?.[2];
  return { indent, text, ref, head: name === undefined ? role : `${role} ${cut(name, MAX_NAME)}` };
}

/** The refs of the snapshot's links (lines of role link), whose matches may say where they go. */
export function linkRefs(snapshot: string): Set<string> {
  const refs = new Set<string>();
  for (const raw of snapshot.split('\n')) {
    const line = parseLine(raw);
    if (line.ref !== undefined && /^link(?: |$)/.test(line.head)) refs.add(line.ref);
  }
  return refs;
}

/** The lines of an AI-mode snapshot that match, each with its element's ref and the elements around it. */
export function searchSnapshot(snapshot: string, matcher: LineMatcher): SnapshotSearch {
  const raw = snapshot.split('\n');
  const lines = raw.map(parseLine);
  const at = matcher(lines.map((line) => line.text));
  const matches: SnapshotMatch[] = [];
  let total = 0;
  // The enclosing elements of the current line, outermost first: popped to the line's own depth as the walk goes.
  const open: Line[] = [];
  for (const [index, line] of lines.entries()) {
    while (open.length > 0 && (open.at(-1)?.indent ?? 0) >= line.indent) open.pop();
    const found = at[index] ?? -1;
    if (found >= 0) {
      total += 1;
      if (matches.length < MAX_FIND_MATCHES) matches.push(matchOf(line, found, open));
    }
    if (line.text !== '') open.push(line);
  }
  return { matches, total };
}

function matchOf(line: Line, found: number, open: readonly Line[]): SnapshotMatch {
  const ref = line.ref ?? [...open].reverse().find((outer) => outer.ref !== undefined)?.ref;
  const named = open.filter((outer) => outer.head !== 'generic');
  const shown = named.slice(-MAX_PATH).map((outer) => outer.head);
  const path = (named.length > MAX_PATH ? ['…', ...shown] : shown).join(' > ');
  return { ...defined({ ref }), line: around(line.text, found), path };
}

/** A long line cut to the part around the match, with a little before it. */
function around(text: string, found: number): string {
  if (text.length <= MAX_LINE) return text;
  const start = Math.max(0, Math.min(found - 40, text.length - MAX_LINE));
  const end = start + MAX_LINE;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** The matches as text, one a line (`e12  main > form "Sign in" > button "Sign in"`): what a file of them holds. */
export function renderMatches(search: SnapshotSearch): string {
  const lines = search.matches.map(
    (match) =>
      `${match.ref ?? '-'}  ${[match.path, match.line].filter((part) => part !== '').join(' > ')}${match.url === undefined ? '' : `  -> ${match.url}`}`,
  );
  const more = search.total > search.matches.length ? [`… ${search.total - search.matches.length} more: search for something narrower.`] : [];
  return `${[`${search.total} matching line${search.total === 1 ? '' : 's'}`, ...lines, ...more].join('\n')}\n`;
}
