// A profile is a list of tools plus the words its messages use: `sessions` (the default) and `playwright` (a drop-in for @playwright/mcp clients).
import { z } from 'zod';
import type { AnyTool } from '../framework/define-tool.js';
import {
  browserClick,
  browserClose,
  browserConsoleMessages,
  browserDrag,
  browserEvaluate,
  browserFileUpload,
  browserFillForm,
  browserFind,
  browserHandleDialog,
  browserHover,
  browserNavigate,
  browserNavigateBack,
  browserNetworkRequests,
  browserPressKey,
  browserResize,
  browserSelectOption,
  browserSnapshot,
  browserTakeScreenshot,
  browserType,
  browserWaitFor,
} from './playwright/tools.js';
import { browserDrop, browserEmulateMedia, browserNetworkRequest } from './playwright/core-tools.js';
import { SESSIONS_VOCABULARY, type ToolVocabulary } from '../framework/next-steps.js';
import { closeSession, createSession, listSessions } from '../tools/lifecycle.js';
import { liveView, liveViewControl, liveViewFrame, liveViewInput, requestHuman } from '../tools/live.js';
import { adapt, besideInProfile, optionalSessionIdSchema } from './playwright/adapter.js';
import { startTrace, stopTrace } from '../tools/trace.js';
import { playwrightVideoTools } from './playwright/video.js';
import { playwrightHighlightTools } from './playwright/highlight.js';
import { browserAnnotate, browserResume, playwrightRecordingTools } from './playwright/recording.js';
import { playwrightStorageTools } from './playwright/storage.js';
import { playwrightTestingTools } from './playwright/testing.js';
import { playwrightMouseTools } from './playwright/mouse.js';
import { playwrightNetworkTools } from './playwright/network.js';
import { browserGetConfig } from './playwright/config.js';
import { browserPdfSave } from './playwright/pdf.js';
import { browserRunCodeUnsafe } from './playwright/run-code.js';
import { browserTabs } from './playwright/tabs.js';
import { browserRunSteps } from './playwright/steps.js';

export const PROFILE_NAMES = ['sessions', 'playwright'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface Profile {
  name: ProfileName;
  /** The tools clients list, in order. */
  tools: readonly AnyTool[];
  /** What the server tells a client at initialize. */
  instructions: string;
  /** Whether each connection gets an implicit session that tools use when no sessionId is given. */
  implicitSession: boolean;
  /** The tool names its messages use when they say what to do next. */
  vocabulary: ToolVocabulary;
}

/** The playwright profile's tool names, for the sentences that say what to do next. */
const PLAYWRIGHT_VOCABULARY: ToolVocabulary = {
  ...SESSIONS_VOCABULARY,
  snapshot: 'browser_snapshot',
  navigate: 'browser_navigate',
};

/** The playwright profile: @playwright/mcp's core tool names and shapes over the same handlers, plus the session tools. */
const playwrightTools: readonly AnyTool[] = [
  browserNavigate,
  browserNavigateBack,
  browserSnapshot,
  browserFind,
  browserClick,
  browserType,
  browserPressKey,
  browserHover,
  browserSelectOption,
  browserDrag,
  browserFillForm,
  browserFileUpload,
  browserDrop,
  browserHandleDialog,
  browserEvaluate,
  browserWaitFor,
  browserTakeScreenshot,
  browserConsoleMessages,
  browserNetworkRequests,
  browserNetworkRequest,
  browserTabs,
  browserResize,
  browserEmulateMedia,
  browserClose,
  browserRunCodeUnsafe,
  createSession,
  closeSession,
  listSessions,
];

/**
 * The playwright profile's capability tools, each with an optional sessionId: tracing under @playwright/mcp's
 * `devtools` names, and the live view and hand-over under the default profile's names.
 */
const playwrightCapabilityTools: readonly AnyTool[] = [
  adapt({
    name: 'browser_start_tracing',
    title: 'Start tracing',
    description: 'Starts recording a Playwright trace of the page; browser_stop_tracing writes it.',
    input: z.strictObject({ sessionId: optionalSessionIdSchema }),
    base: startTrace,
    toBase: () => ({}),
  }),
  adapt({
    name: 'browser_stop_tracing',
    title: 'Stop tracing',
    description: 'Stops the trace and writes it as a .zip file; `npx playwright show-trace <path>` opens it.',
    input: z.strictObject({ sessionId: optionalSessionIdSchema }),
    base: stopTrace,
    toBase: () => ({}),
  }),
  ...playwrightVideoTools,
  ...playwrightRecordingTools,
  browserResume,
  ...playwrightHighlightTools,
  browserAnnotate,
  besideInProfile(liveView),
  besideInProfile(requestHuman),
  besideInProfile(liveViewFrame),
  besideInProfile(liveViewControl),
  besideInProfile(liveViewInput),
  ...playwrightStorageTools,
  ...playwrightTestingTools,
  ...playwrightMouseTools,
  ...playwrightNetworkTools,
  browserGetConfig,
  browserPdfSave,
];

/** The playwright profile, with the capability groups `caps` names (`all`: every one). */
export function playwrightProfile(caps: readonly string[] = []): Profile {
  const wanted = (capability: string) => caps.includes('all') || caps.includes(capability);
  const tools = [...playwrightTools, ...playwrightCapabilityTools.filter((tool) => tool.capability !== undefined && wanted(tool.capability))];
  return {
    name: 'playwright',
    // browser_run_steps takes as steps the browser_* page tools served with it.
    tools: wanted('steps') ? [...tools, browserRunSteps(tools)] : tools,
    instructions:
      "The browser_* tools act on this connection's own browser page, opened on the first call: browser_navigate to a URL, " +
      'browser_snapshot to read it (refs for browser_click, browser_type…), browser_find to locate one element without reading ' +
      'the whole page. ' +
      'A dialog or file chooser the page opens stays open: the result says so in modalState, and browser_handle_dialog or browser_file_upload answers it. ' +
      'For several pages in parallel, call create_session and pass its sessionId to any browser_* tool. Failures answer a JSON ' +
      'object with errorCode and a message that says what to do next.',
    implicitSession: true,
    vocabulary: PLAYWRIGHT_VOCABULARY,
  };
}

export function sessionsProfile(tools: readonly AnyTool[]): Profile {
  return {
    name: 'sessions',
    tools,
    instructions:
      'Call create_session to get a sessionId, pass it to every browser tool, and close_session when done. ' +
      'snapshot reads a page with a ref on each element to act on; find locates one element without reading the whole page. ' +
      'Sessions are isolated from each other and can be used in parallel. Failures answer a JSON object with errorCode and a ' +
      'message that says what to do next.',
    implicitSession: false,
    vocabulary: SESSIONS_VOCABULARY,
  };
}
