// The settings beyond the flag table (BrowserSetup): what the playwright profile's flags set for every session, the launch, remote browsers, timeouts and recording.
import type { ConsoleLevel, SessionDefaults } from '@sessionwright/session-core/parts';

/**
 * Settings the flag table does not carry: what every session starts with, how the browser is launched or reached, the
 * defaults of calls, and what is recorded. The playwright profile fills them from @playwright/mcp's flags, variables
 * and config file (docs/compat.md); elsewhere they stay as in NO_SETUP.
 */
export interface BrowserSetup {
  /** What every new session starts with (context options, page scripts, request origins); create_session's own options override each. */
  sessionDefaults: SessionDefaults | undefined;
  /** For the browser launched here: Chromium's sandbox, extra switches, how long the launch may take. */
  launch: { chromiumSandbox?: boolean; args?: string[]; timeout?: number };
  /** For remote browsers: headers sent when connecting (secrets, never printed), and how long an attempt may take (0: no limit). */
  endpoints: { cdpHeaders?: Record<string, string>; cdpTimeout?: number; connectHeaders?: Record<string, string>; connectTimeout?: number };
  /** How long element actions and navigations wait when a call gives no timeout. */
  timeouts: { element?: number; navigation?: number };
  /** The lowest level console messages are read from when a call names none. */
  consoleLevel: ConsoleLevel | undefined;
  /** omit: results carry no images (a screenshot answers its JSON alone). */
  imageResponses: 'allow' | 'omit';
  /** --snapshot-mode: full, the playwright profile's actions write the page's snapshot to a file; none, they write none. */
  snapshotMode: 'full' | 'none';
  /**
   * What to record under --output-dir, for the tracing and video capability: a trace of every session, a video of its
   * pages at this size, the session's log. Kept here for it; nothing is recorded yet.
   */
  recording: { trace: boolean; video: { width: number; height: number } | undefined; session: boolean };
  /** Secret values by name (--secrets, or a config file's `secrets`): never shown, typed by name (see protocol/redaction.ts). */
  secrets?: Readonly<Record<string, string>>;
}

/** No setup beyond the table: Playwright's and each tool's defaults. */
export const NO_SETUP: BrowserSetup = {
  sessionDefaults: undefined,
  launch: {},
  endpoints: {},
  timeouts: {},
  consoleLevel: undefined,
  imageResponses: 'allow',
  snapshotMode: 'full',
  recording: { trace: false, video: undefined, session: false },
};
