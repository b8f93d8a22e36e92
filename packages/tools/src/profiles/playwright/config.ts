// The playwright profile's browser_get_config: get_config's read-out with the url and title of the page open.
import { z } from 'zod';
import { defineTool } from '../../framework/define-tool.js';
import { CONFIG_NOTES, configField, openPage, readOut } from '../../tools/config.js';
import { optionalSessionIdSchema } from './adapter.js';

export const browserGetConfig = defineTool({
  name: 'browser_get_config',
  title: 'Get config',
  description: 'Answers the final config after merging flags, environment and config file, secrets masked.',
  notes: `${CONFIG_NOTES} url and title are those of the page open (about:blank when none is); the call never opens one.`,
  input: z.strictObject({ sessionId: optionalSessionIdSchema }),
  output: z.object({ config: configField, url: z.string(), title: z.string() }),
  kind: 'read',
  capability: 'config',
  errors: ['SESSION_NOT_FOUND', 'SESSION_EXPIRED'],
  async handler({ sessionId }, ctx) {
    return { config: readOut(ctx), ...(await openPage(ctx, sessionId)) };
  },
});
