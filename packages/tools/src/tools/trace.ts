// The `devtools` capability: start_trace and stop_trace record a Playwright trace of one session (actions, DOM snapshots, screenshots, network).
import { z } from 'zod';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { refuseRecordingWithSecrets } from '../framework/recording-secrets.js';

export const fileSchema = z.object({
  path: z.string().describe('Absolute path of the file.'),
  bytes: z.number(),
  removed: z.literal(true).optional().describe("Went with the session's folder as it closed (no --keep-downloads)."),
  stopped: z.string().optional().describe("Why the recording ended early, or was cut: it passed the session's byte limit."),
  dropped: z.literal(true).optional().describe("Not written: even cut, it would pass the session's byte limit."),
});

export const startTrace = defineSessionTool({
  name: 'start_trace',
  title: 'Start a trace',
  description: 'Starts recording a Playwright trace of the session; stop_trace writes it.',
  notes:
    'The trace holds each action with DOM snapshots and screenshots around it, and the network. Closing the session also writes it. ' +
    "It counts against the session's limits on files (--max-download-bytes, --max-downloads, shared with downloads, videos and " +
    'saved files): past the byte limit it is stopped and written as far as it got, and a saved zip that would pass the limit ' +
    'is cut (resources left out) or not written (dropped); stop_trace (or close_session) lists it with stopped saying which. ' +
    'Errors: INVALID_PARAMETERS (reason trace_running when one is already being recorded, file_limit when the session wrote its ' +
    'most files or bytes, secrets_set on a server run with --secrets, which records no traces), SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({ sessionId: sessionIdSchema }),
  output: sessionOutput({ tracing: z.literal(true), message: z.string() }),
  kind: 'action',
  capability: 'devtools',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler(_args, _page, response, ctx) {
    refuseRecordingWithSecrets(ctx.options, 'trace');
    await response.session.recordings.startTrace();
    return { tracing: true as const, message: 'Recording a trace of this session; stopping it writes the file, and so does closing the session.' };
  },
});

export const stopTrace = defineSessionTool({
  name: 'stop_trace',
  title: 'Stop the trace',
  description: "Stops the session's trace and writes it as a .zip file; `npx playwright show-trace <path>` opens it.",
  notes:
    "The file is trace-N.zip in the session's folder (inside the caller's folder of --output-dir; a temporary folder without " +
    'it), which goes with the session unless the server runs with --keep-downloads. ' +
    'Errors: INVALID_PARAMETERS (reason no_trace) when none is being recorded, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({ sessionId: sessionIdSchema }),
  output: sessionOutput({ trace: fileSchema, message: z.string() }),
  kind: 'action',
  capability: 'devtools',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler(_args, _page, response) {
    const trace = await response.session.recordings.stopTrace();
    if (trace.dropped) return { trace, message: `No trace was written: ${trace.stopped}.` };
    const early = trace.stopped === undefined ? '' : ` It was stopped early or cut: ${trace.stopped}.`;
    return { trace, message: `Trace written.${early} Open it with: npx playwright show-trace ${JSON.stringify(trace.path)}` };
  },
});
