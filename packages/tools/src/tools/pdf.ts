// The `pdf` capability: save_pdf prints the session's page to a PDF (Chromium only).
import { SessionError, browserError } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { outputPath, writeOutputFile } from '../framework/output-files.js';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** PDF printing exists only in Chromium; elsewhere BROWSER_ERROR with reason `unsupported`, before anything is tried. */
export function requirePdfSupport(browserName: string): void {
  if (browserName === 'chromium') return;
  throw browserError(
    'unsupported',
    `Saving a PDF needs Chromium; this server runs ${browserName}. Take a screenshot instead, or use a server started with --browser chromium.`,
    {
      details: { browser: browserName },
    },
  );
}

/** How many pages a PDF has: its page objects, not the page-tree nodes (/Type /Pages). */
export function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

export const savePdf = defineSessionTool({
  name: 'save_pdf',
  title: 'Save page as PDF',
  description: 'Prints the page to a PDF, returned after the JSON.',
  notes:
    'The PDF (as for print media) comes as an embedded resource after the JSON (mime type application/pdf), with its size and page count. ' +
    'Use it to keep a receipt, an invoice or a report as the site prints it. Chromium only. ' +
    'With filename the PDF is written to that file inside --output-dir (never outside it) instead, and the result says where. ' +
    'Errors: INVALID_PARAMETERS (pageRanges not like "1-3, 5", or beyond the last page; a filename without --output-dir or ' +
    'outside it), BROWSER_ERROR with details.reason "unsupported" (the server runs Firefox or WebKit), SESSION_NOT_FOUND / ' +
    'SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    landscape: z.boolean().optional().describe('Default portrait.'),
    printBackground: z.boolean().optional().describe('Print backgrounds.'),
    pageRanges: z
      .string()
      .max(200)
      .regex(/^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/, 'page ranges look like "1-3, 5"')
      .optional()
      .describe('e.g. "1-3, 5" (default all).'),
    filename: z.string().min(1).max(1_000).optional().describe('Write to this file in --output-dir instead.'),
  }),
  output: sessionOutput({
    bytes: z.number().describe('Size of the PDF.'),
    pages: z.number().optional().describe('How many pages it has.'),
    file: z.string().optional().describe('With filename: the file the PDF was written to.'),
  }),
  kind: 'read',
  capability: 'pdf',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  // A filename that leads out of --output-dir is refused before the page is printed.
  prepare: ({ filename, ...args }, ctx) => ({ ...args, file: filename === undefined ? undefined : outputPath(ctx.options, filename) }),
  async handler({ landscape = false, printBackground = false, pageRanges, file }, page, response, ctx) {
    requirePdfSupport(response.session.browser.browserType().name());
    const pdf = await page.pdf({ landscape, printBackground, ...defined({ pageRanges }) }).catch((error: unknown) => {
      const message = error instanceof Error ? (error.message.split('\n', 1)[0] ?? '') : String(error);
      if (pageRanges !== undefined && /page range/i.test(message)) {
        throw new SessionError('INVALID_PARAMETERS', `pageRanges "${pageRanges}" does not fit this document: ${message}`, { details: { pageRanges } });
      }
      throw browserError('unknown', `The page could not be printed to PDF: ${message}`, { details: { browserMessage: message } });
    });
    const pages = pdfPageCount(pdf);
    if (file !== undefined)
      return { bytes: pdf.length, ...(pages > 0 ? { pages } : {}), file: await writeOutputFile(ctx.options, file, pdf, response.session.downloads) };
    response.attach({ type: 'resource', uri: `sessionwright://pdf/${Date.now()}.pdf`, mimeType: 'application/pdf', blob: pdf.toString('base64') });
    return { bytes: pdf.length, ...(pages > 0 ? { pages } : {}) };
  },
});
