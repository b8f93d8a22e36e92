// The `devtools` capability's highlight: a box drawn over an element that stays until hidden, to point a person (live view, video) at it; profiles/playwright/highlight.ts names it for the playwright profile.
import { SessionError } from '@sessionwright/session-core';
import { z } from 'zod';
import { onElement } from '../page/actions.js';
import { sessionOutput } from '../framework/response.js';
import { DEFAULT_ELEMENT_TIMEOUT, elementTimeoutSchema, optionalTargetInput, sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

export const styleSchema = z.string().max(2_000);

export const highlight = defineSessionTool({
  name: 'highlight',
  title: 'Highlight an element',
  description: 'Draws a box over an element that stays until hidden, to show a person (live view, video) where to look.',
  notes:
    'style adds inline CSS to the box (e.g. "outline: 2px dashed red"); every element the selector matches is boxed. hide: true ' +
    'removes the box of that element, or with no selector or ref every box on the tab. ' +
    'Errors: INVALID_PARAMETERS (no element named without hide), ELEMENT_NOT_FOUND (for a ref, take a new snapshot), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: optionalTargetInput({
    sessionId: sessionIdSchema,
    style: styleSchema.optional().describe('CSS of the box.'),
    hide: z.boolean().optional().describe('Remove instead.'),
    timeout: elementTimeoutSchema,
  }),
  output: sessionOutput({ highlighted: z.boolean(), message: z.string() }),
  kind: 'read',
  capability: 'devtools',
  errors: ['INVALID_PARAMETERS', 'ELEMENT_NOT_FOUND', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  defaultTimeout: 'element',
  prepare(args) {
    if (args.hide === true && args.style !== undefined) {
      throw new SessionError('INVALID_PARAMETERS', 'style is for drawing a box; leave it out with hide: true.', {
        details: { reason: 'unexpected_field', fields: ['style'] },
      });
    }
    if (args.hide !== true && args.selector === undefined && args.ref === undefined) {
      throw new SessionError(
        'INVALID_PARAMETERS',
        'Name the element to highlight with selector or ref (from snapshot), or pass hide: true to remove every box.',
        {
          details: { reason: 'missing_field', fields: ['selector', 'ref'] },
        },
      );
    }
    return args;
  },
  async handler({ selector, ref, style, hide, timeout = DEFAULT_ELEMENT_TIMEOUT }, page) {
    const target = { selector, ref };
    if (hide === true && selector === undefined && ref === undefined) {
      await page.hideHighlight();
      return { highlighted: false, message: 'Every highlight on this tab is hidden.' };
    }
    return onElement(page, target, 'read', timeout, async (locator) => {
      // Waits for the element as the other element tools do, so a missing one is ELEMENT_NOT_FOUND, not a silent no-op.
      await locator.first().waitFor({ state: 'attached', timeout });
      if (hide === true) {
        await locator.hideHighlight();
        return { highlighted: false, message: 'The highlight of the element is hidden.' };
      }
      await locator.highlight(style === undefined ? {} : { style });
      return { highlighted: true, message: 'The element is highlighted until highlight with hide: true removes it.' };
    });
  },
});
