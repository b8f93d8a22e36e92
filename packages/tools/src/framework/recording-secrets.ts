// Traces and videos are refused while the server hides secrets (--secrets): what they keep cannot be cleaned of them (docs/decisions.md).
import { SessionError } from '@sessionwright/session-core';
import type { ToolOptions } from './define-tool.js';

/**
 * INVALID_PARAMETERS (details.reason `secrets_set`) for a trace or a video to start while the server runs with
 * --secrets, before anything is recorded or written: a trace keeps DOM snapshots, network bodies and screenshots,
 * a video keeps frames, and a screenshot or a frame is an image no text filter can clean.
 */
export function refuseRecordingWithSecrets(options: ToolOptions, what: 'trace' | 'video'): void {
  if (options.secrets === undefined || Object.keys(options.secrets).length === 0) return;
  throw new SessionError(
    'INVALID_PARAMETERS',
    `No ${what} is recorded on this server: it runs with --secrets, and a ${what} keeps ` +
      `${what === 'trace' ? 'DOM snapshots, network bodies and screenshots' : 'frames of the page'} that a secret typed or shown could ` +
      'not be cleaned from (screenshots and frames are images). Record on a server without --secrets.',
    { details: { reason: 'secrets_set' } },
  );
}
