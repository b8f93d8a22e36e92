// emulate: changes a session's viewport, media features, location, network state and extra headers after creation.
import { sessionOptionsShape } from '@sessionwright/session-core/parts';
import { z } from 'zod';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** The media features only emulate sets (a session starts with the browser's own). */
const mediaFeatureFields = {
  forcedColors: z.enum(['active', 'none']).optional().describe('forced-colors.'),
  contrast: z.enum(['more', 'no-preference']).optional().describe('prefers-contrast.'),
  media: z.enum(['screen', 'print']).optional().describe('CSS media type.'),
};

export const emulate = defineSessionTool({
  name: 'emulate',
  title: 'Change device settings',
  description: "Changes the session's viewport, media, location, network or headers.",
  notes:
    "Changes this session's settings from now on, for every tab: viewport (page size), colorScheme (prefers-color-scheme), " +
    'reducedMotion, forcedColors, contrast (prefers-contrast), media (the CSS media type: print renders as for printing), ' +
    'geolocation (also grants the page permission to read it), ' +
    'offline (cut the network, or restore it), extraHTTPHeaders (sent with every request; replaces the earlier set). Give any of ' +
    'them; the result is the effective settings (header values hidden). ' +
    "Use it to check a responsive layout, dark mode, or a page's offline behaviour without a new session; to start as another " +
    'device, create_session with device instead. ' +
    'Errors: INVALID_PARAMETERS (a value out of range), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    viewport: sessionOptionsShape.viewport,
    colorScheme: sessionOptionsShape.colorScheme,
    reducedMotion: sessionOptionsShape.reducedMotion,
    ...mediaFeatureFields,
    geolocation: sessionOptionsShape.geolocation,
    offline: z.boolean().optional().describe('false: back online.'),
    extraHTTPHeaders: sessionOptionsShape.extraHTTPHeaders,
  }),
  output: sessionOutput({
    viewport: z.object({ width: z.number(), height: z.number() }).nullable().describe('The page size now.'),
    colorScheme: z.enum(['light', 'dark', 'no-preference']).optional(),
    reducedMotion: z.enum(['reduce', 'no-preference']).optional(),
    forcedColors: z.enum(['active', 'none']).optional(),
    contrast: z.enum(['more', 'no-preference']).optional(),
    media: z.enum(['screen', 'print']).optional(),
    geolocation: z.object({ latitude: z.number(), longitude: z.number(), accuracy: z.number().optional() }).optional(),
    offline: z.boolean().optional(),
    extraHTTPHeaders: z.record(z.string(), z.string()).optional().describe('The header names; every value shows as "(hidden)".'),
  }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ sessionId: _sessionId, ...settings }, _page, response) {
    return { ...(await response.session.emulation.emulate(settings)) };
  },
});
