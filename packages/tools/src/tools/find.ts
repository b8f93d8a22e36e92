// find: the lines of the page's snapshot that match a text or a pattern, with their refs and paths, at a fraction of the snapshot's size.
import { z } from 'zod';
import { readSnapshot } from '../page/snapshot.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { MAX_FIND_MATCHES, compileQuery, linkRefs, searchSnapshot, type SnapshotQuery } from '../page/snapshot-search.js';
import { linkUrls } from '../page/link-urls.js';

/** The query fields, shared with the playwright profile's browser_find. */
export const findQueryFields = {
  text: z.string().min(1).max(1_000).optional().describe('Text to find, any case.'),
  regex: z.string().min(1).max(1_000).optional().describe('Or /regex/flags.'),
};

/** Exactly one of text or regex. */
export function oneQuery(args: { text?: string | undefined; regex?: string | undefined }): boolean {
  return (args.text === undefined) !== (args.regex === undefined);
}

export const ONE_QUERY_MESSAGE = 'give exactly one of "text" or "regex"';

export const findOutput = sessionOutput({
  matches: z
    .array(
      z.object({
        ref: z.string().optional().describe("The ref of the line's element, or of the nearest element around it."),
        line: z.string().describe('The snapshot line, without its ref; a long line is cut around the match.'),
        path: z.string().describe('The elements around it, outermost first, e.g. main > form "Sign in".'),
        url: z.string().optional().describe('When the element of the ref is a link: where it goes (absolute URL), to navigate to it directly.'),
      }),
    )
    .describe(`The matching lines in page order, at most ${MAX_FIND_MATCHES}.`),
  total: z.number().describe('How many lines matched (more than listed when the list was cut: search for something narrower).'),
});

export const find = defineSessionTool({
  name: 'find',
  title: 'Find in page',
  description: 'Finds text in the page snapshot: only the matching lines, with their refs.',
  notes:
    'A way to locate an element without reading the whole page: find {text: "Sign in"} answers the snapshot lines that contain ' +
    'it, each with the ref to act on ' +
    "(the line's own, or the nearest enclosing element's) and its path from the root (main > form \"Sign in\"), at a fraction of the snapshot's size. " +
    'A match whose element is a link with an href also carries url: where the link goes, made absolute by the page (a ' +
    'relative href is resolved against the page), so navigate can go there without clicking, reading and going back. ' +
    'text matches in any case; regex is a JavaScript regular expression, /pattern/flags for flags (case as written otherwise). ' +
    `The whole page is searched, iframes included; at most ${MAX_FIND_MATCHES} matches are listed, and total says how many there were. ` +
    'Errors: INVALID_PARAMETERS (neither or both of text and regex; a regex that does not compile, or that runs too long on the ' +
    'page), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({ sessionId: sessionIdSchema, ...findQueryFields }).refine(oneQuery, { message: ONE_QUERY_MESSAGE, path: ['text'] }),
  output: findOutput,
  kind: 'read',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  // A regex that does not compile is refused before the call waits for its session.
  prepare: ({ text, regex }) => compileQuery((text === undefined ? { regex } : { text }) as SnapshotQuery),
  async handler(matcher, page, response) {
    response.pageSettled();
    const { snapshot } = await readSnapshot(page, { maxChars: Number.POSITIVE_INFINITY });
    const found = searchSnapshot(snapshot, matcher);
    const links = linkRefs(snapshot);
    const urls = await linkUrls(
      page,
      found.matches.flatMap(({ ref }) => (ref !== undefined && links.has(ref) ? [ref] : [])),
    );
    return { ...found, matches: found.matches.map((match) => withUrl(match, urls)) };
  },
});

/** The match with its link's URL, when its ref names a link that has one. */
function withUrl<Match extends { ref?: string | undefined }>(match: Match, urls: ReadonlyMap<string, string>): Match & { url?: string } {
  const url = match.ref === undefined ? undefined : urls.get(match.ref);
  return url === undefined ? match : { ...match, url };
}
