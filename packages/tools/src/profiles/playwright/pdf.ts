// The playwright profile's browser_pdf_save: save_pdf's work under @playwright/mcp's name, with its default file name.
import { z } from 'zod';
import { defaultFileName } from '../../framework/output-files.js';
import { savePdf } from '../../tools/pdf.js';
import { optionalSessionIdSchema, playwrightOutput, playwrightSessionTool } from './adapter.js';

/**
 * save_pdf under @playwright/mcp's name: without filename the PDF goes to `page-<time>-<random>.pdf` in --output-dir as there,
 * or, on a server without one, comes back in the answer as from save_pdf.
 */
export const browserPdfSave = playwrightSessionTool({
  name: 'browser_pdf_save',
  title: 'Save as PDF',
  description: 'Saves the page as a PDF file in --output-dir.',
  notes:
    'Prints the page (as for print media) to filename inside --output-dir (never outside it), by default page-<time>-<random>.pdf; the result says where. ' +
    'Without --output-dir the PDF comes back after the JSON instead. Chromium only. ' +
    'Errors: INVALID_PARAMETERS (a filename outside --output-dir), BROWSER_ERROR with details.reason "unsupported" (the server runs Firefox or WebKit).',
  input: z.strictObject({
    filename: z.string().min(1).max(1_000).optional().describe('File in --output-dir (default page-<time>-<random>.pdf).'),
    sessionId: optionalSessionIdSchema,
  }),
  output: playwrightOutput(savePdf.output),
  kind: 'read',
  capability: 'pdf',
  errors: savePdf.errors,
  prepare({ filename }, ctx) {
    const named = filename ?? (ctx.options.outputDir === undefined ? undefined : defaultFileName('page', 'pdf'));
    return savePdf.work.prepare?.(named === undefined ? {} : { filename: named }, ctx);
  },
  handler: (prepared, page, response, ctx) => savePdf.work.handler(prepared, page, response, ctx),
});
