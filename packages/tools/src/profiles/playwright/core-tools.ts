// The playwright profile's core tools over capabilities its first list did not name: browser_emulate_media (emulate), browser_drop (upload_file's drop) and browser_network_request (network_request by number).
import { z } from 'zod';
import { dropDataSchema } from '../../tools/drop.js';
import { emulate } from '../../tools/emulate.js';
import { isSessionError, SessionError } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import { FILENAME_NOTE, filenameSchema } from '../../framework/response.js';
import { networkRequest, networkRequests } from '../../tools/network.js';
import {
  SESSION_NOTE,
  SNAPSHOT_NOTE,
  adapt,
  elementCount,
  elementFields,
  optionalSessionIdSchema,
  playwrightOutput,
  playwrightSessionTool,
  toTarget,
} from './adapter.js';
import { uploadFile } from '../../tools/upload.js';

/**
 * What null restores, as @playwright/mcp's null clears an override: the value the browser has when nothing is emulated
 * (Playwright's own defaults, headless or not).
 */
const UNEMULATED = { colorScheme: 'light', reducedMotion: 'no-preference', forcedColors: 'none', contrast: 'no-preference', media: 'screen' } as const;

type MediaFeature = keyof typeof UNEMULATED;

const mediaFeature = <Values extends readonly [string, ...string[]]>(values: Values, what: string) =>
  z.enum(values).nullable().optional().describe(`${what}; null clears.`);

export const browserEmulateMedia = adapt({
  name: 'browser_emulate_media',
  title: 'Emulate media features',
  description: 'Emulates CSS media features, e.g. dark color scheme or print media.',
  notes:
    'Sets CSS media features for the page and every tab of the session from now on: colorScheme (prefers-color-scheme), ' +
    'reducedMotion (prefers-reduced-motion), forcedColors, contrast (prefers-contrast), media (the CSS media type: print renders ' +
    'as for printing). ' +
    `Features left out stay as they are; null clears an override (back to the browser's own: light, no-preference, none, no-preference, screen). The result lists the effective settings. ${SESSION_NOTE} ` +
    'Errors: INVALID_PARAMETERS (no feature given, or a value not in the list).',
  input: z
    .strictObject({
      colorScheme: mediaFeature(['light', 'dark'], 'prefers-color-scheme'),
      reducedMotion: mediaFeature(['reduce', 'no-preference'], 'prefers-reduced-motion'),
      forcedColors: mediaFeature(['active', 'none'], 'forced-colors'),
      contrast: mediaFeature(['more', 'no-preference'], 'prefers-contrast'),
      media: mediaFeature(['screen', 'print'], 'CSS media type'),
      sessionId: optionalSessionIdSchema,
    })
    .refine((args) => (Object.keys(UNEMULATED) as MediaFeature[]).some((feature) => args[feature] !== undefined), {
      message: 'give at least one media feature to emulate (colorScheme, reducedMotion, forcedColors, contrast or media)',
      path: ['colorScheme'],
    }),
  base: emulate,
  toBase: (features) =>
    Object.fromEntries(
      (Object.keys(UNEMULATED) as MediaFeature[])
        .filter((feature) => features[feature] !== undefined)
        .map((feature) => [feature, features[feature] ?? UNEMULATED[feature]]),
    ),
});

export const browserDrop = adapt({
  name: 'browser_drop',
  title: 'Drop files or data',
  description: 'Drops files or MIME-typed data onto an element, as if dragged from outside the page.',
  notes:
    'Drops files (paths) and/or data (MIME type → text, e.g. {"text/plain": "hello", "text/uri-list": "https://example.com"}) ' +
    'onto the element named by ref (from browser_snapshot) or target: ' +
    'dragenter, dragover and drop with a DataTransfer holding them, as a drop zone expects. Paths must lie inside an allowed ' +
    "directory (--file-root, else the client's MCP roots, else over stdio the working directory). " +
    `${SNAPSHOT_NOTE} ${SESSION_NOTE} ` +
    'Errors: INVALID_PARAMETERS (neither paths nor data, a missing file, a path outside the allowed directories, over 20 MB), ' +
    'ELEMENT_NOT_FOUND / ELEMENT_AMBIGUOUS, ELEMENT_NOT_EDITABLE (the element did not accept the drop).',
  input: z
    .strictObject({
      ...elementFields,
      paths: z.array(z.string().min(1).max(4_096)).max(100).optional().describe('Absolute paths of files to drop.'),
      data: dropDataSchema.optional().describe('MIME type → text.'),
      sessionId: optionalSessionIdSchema,
    })
    .refine((args) => elementCount(args) === 1, {
      message: 'name the element with one of "ref" (from browser_snapshot) or "target" (a ref or a selector)',
      path: ['ref'],
    })
    .refine((args) => (args.paths?.length ?? 0) > 0 || args.data !== undefined, { message: 'give "paths" and/or "data" to drop', path: ['paths'] }),
  base: uploadFile,
  snapshot: true,
  toBase: ({ paths, data, element: _description, ...named }) => ({
    ...toTarget(named),
    drop: data ?? {},
    ...(paths === undefined || paths.length === 0 ? {} : { files: paths.map((path) => ({ path })) }),
  }),
});

/** A request's number in the playwright profile: its session id's (r12 is 12), so list and details agree for the whole session. */
const indexOf = (id: string) => Number(id.slice(1));

const requestItem = (networkRequests.output as z.ZodObject).shape.requests as z.ZodArray<z.ZodObject>;

/** browser_network_requests' output: each request with its index, the number browser_network_request takes. */
export function numberedOutput(output: z.ZodObject): z.ZodObject {
  return output.extend({
    requests: z.array(requestItem.element.extend({ index: z.number().describe('For browser_network_request.') })).optional(),
  });
}

/** network_requests' fields with each request's index. */
export function numbered<Fields extends object>(fields: Fields): Fields {
  const { requests } = fields as { requests?: unknown };
  if (!Array.isArray(requests)) return fields;
  return { ...fields, requests: (requests as { id: string }[]).map((request) => ({ index: indexOf(request.id), ...request })) };
}

/** What `part` selects of a request's details, and the fields that carry it. */
const PARTS = {
  'request-headers': ['requestHeaders'],
  'request-body': ['requestBody'],
  'response-headers': ['responseHeaders'],
  'response-body': ['responseBody', 'truncated'],
} as const;

type Part = keyof typeof PARTS;
const DETAIL_FIELDS = Object.values(PARTS).flat();

const networkRequestInput = z.strictObject({
  index: z.number().int().min(1).max(1_000_000_000).describe('Number from browser_network_requests.'),
  part: z
    .enum(Object.keys(PARTS) as [Part, ...Part[]])
    .optional()
    .describe('Only this part.'),
  filename: filenameSchema,
  sessionId: optionalSessionIdSchema,
});

/** network_request's work under the number browser_network_requests gives, narrowed to one part with `part`. */
export const browserNetworkRequest = playwrightSessionTool({
  name: 'browser_network_request',
  title: 'Show one network request',
  description: 'Shows one request from browser_network_requests in full, or one part of it.',
  notes:
    'Method, url, status, request and response headers and bodies of the request numbered index in browser_network_requests; ' +
    'part narrows to request-headers, request-body, response-headers or response-body. ' +
    `Text bodies are cut at 100000 characters (truncated: true), binary bodies are a note; credentials in Authorization headers are hidden. ${FILENAME_NOTE} ${SESSION_NOTE} ` +
    'Errors: INVALID_PARAMETERS (no request has that number in this session, or it fell out of the 1000 kept: list again).',
  input: networkRequestInput,
  output: playwrightOutput(networkRequest.output as z.ZodObject).extend({ index: z.number().optional() }),
  kind: networkRequest.kind,
  errors: networkRequest.errors,
  ...defined({ capability: networkRequest.capability }),
  async handler({ index, part }, page, response, ctx) {
    let fields: Record<string, unknown>;
    try {
      fields = await networkRequest.work.handler({ id: `r${index}` }, page, response, ctx);
    } catch (error) {
      if (isSessionError(error) && error.code === 'INVALID_PARAMETERS' && typeof error.details?.id === 'string') {
        throw new SessionError('INVALID_PARAMETERS', `No request #${index} in this session. Call browser_network_requests and use an index it lists.`, {
          details: { index, reason: error.details.reason },
        });
      }
      throw error;
    }
    const kept = part === undefined ? DETAIL_FIELDS : (PARTS[part] as readonly string[]);
    const narrowed = Object.fromEntries(Object.entries(fields).filter(([key]) => kept.includes(key) || !(DETAIL_FIELDS as readonly string[]).includes(key)));
    return typeof fields.id === 'string' ? { index: indexOf(fields.id), ...narrowed } : narrowed;
  },
  file: {
    content: (data, _attachments, { part }) => {
      if (typeof data.id !== 'string') return undefined;
      if (part === undefined) return `${JSON.stringify(data, null, 2)}\n`;
      const [field] = PARTS[part];
      const value = data[field];
      if (value === undefined) return '';
      if (typeof value === 'string') return value;
      return Object.entries(value as Record<string, string>)
        .map(([name, header]) => `${name}: ${header}\n`)
        .join('');
    },
    omit: DETAIL_FIELDS,
  },
});
