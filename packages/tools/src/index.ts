// Public API of @sessionwright/tools: the tool lists and profiles, and what a server needs to serve them or to add tools of its own.
import { consoleMessages } from './tools/console.js';
import { CAPABILITIES, type AnyTool } from './framework/define-tool.js';
import { handleDialog } from './tools/dialog.js';
import { emulate } from './tools/emulate.js';
import { drag, fillForm } from './tools/form.js';
import { networkTools } from './tools/network.js';
import { mouse } from './tools/mouse.js';
import { route } from './tools/route.js';
import { savePdf } from './tools/pdf.js';
import { getConfig } from './tools/config.js';
import { runCodeUnsafe } from './tools/run-code.js';
import { uploadFile } from './tools/upload.js';
import { evaluate } from './tools/evaluate.js';
import { find } from './tools/find.js';
import { check, click, hover, pressKey, selectOption, type, uncheck } from './tools/input.js';
import { goBack, goForward, navigate, reload } from './tools/navigation.js';
import { screenshot } from './tools/screenshot.js';
import { closeSession, createSession, listSessions } from './tools/lifecycle.js';
import { snapshot } from './tools/snapshot.js';
import { storageTools } from './tools/storage.js';
import { stateTools } from './tools/state.js';
import { tabs } from './tools/tabs.js';
import { testingTools } from './tools/testing.js';
import { waitFor } from './tools/wait.js';
import { liveView, liveViewControl, liveViewFrame, liveViewInput, requestHuman } from './tools/live.js';
import { startTrace, stopTrace } from './tools/trace.js';
import { video } from './tools/video.js';
import { highlight } from './tools/highlight.js';
import { recordActions, resume } from './tools/recording.js';
import { runSteps } from './tools/steps.js';

export {
  CAPABILITIES,
  annotationsFor,
  defineTool,
  type AllowedRoots,
  type AnyTool,
  type ImplicitSessionAccess,
  type SavedStateAccess,
  type SessionAccess,
  type ToolAnnotations,
  type ToolCapability,
  type ToolContext,
  type GiveBackSource,
  type HandOff,
  type HandOffEnd,
  type HandOffOutcome,
  type LiveControl,
  type LiveFrame,
  type LiveViewAccess,
  type LiveViewLink,
  type ToolDefinition,
  type ToolKind,
  type ToolOptions,
} from './framework/define-tool.js';
export {
  defineSessionTool,
  type CallScope,
  type OwnFields,
  type SessionTool,
  type SessionToolSpec,
  type SessionToolWork,
} from './framework/define-session-tool.js';
export { sessionOutput, type Attachment, type ToolResponse, type WithAttachments } from './framework/response.js';
export { runTool, type ToolOutcome } from './framework/define-tool.js';
export { SNAPSHOT_MIME_TYPE, SNAPSHOT_URI_TEMPLATE, readSnapshotFile } from './framework/snapshot-file.js';
export { ImplicitSession } from './profiles/playwright/implicit-session.js';
export type { ToolVocabulary } from './framework/next-steps.js';
export { PROFILE_NAMES, playwrightProfile, sessionsProfile, type Profile, type ProfileName } from './profiles/profiles.js';
export { imageSize, type ImageSize } from './page/image.js';
export { LIVE_VIEW_RESOURCE_URI, MAX_APP_RESULT_CHARS, MAX_INPUT_EVENTS, personInputSchema } from './tools/live.js';
export { readsRequestList } from './tools/network.js';
export { UNSAFE_CODE_TOOLS } from './tools/run-code.js';

/**
 * Tools of the capability groups (docs/agent-tools.md), each marked with its `capability`; not in allTools.
 * A server adds the groups `--caps` asks for.
 */
export const capabilityTools: readonly AnyTool[] = [
  ...networkTools,
  route,
  ...storageTools,
  ...stateTools,
  ...testingTools,
  savePdf,
  liveView,
  requestHuman,
  liveViewFrame,
  liveViewControl,
  liveViewInput,
  startTrace,
  stopTrace,
  video,
  highlight,
  recordActions,
  resume,
  mouse,
  getConfig,
  runCodeUnsafe,
];

/** The default profile's tools but run_steps, in the order clients list them: lifecycle, navigation, reading, input, waiting, evaluate. */
const defaultTools: readonly AnyTool[] = [
  createSession,
  closeSession,
  listSessions,
  navigate,
  goBack,
  goForward,
  reload,
  snapshot,
  find,
  screenshot,
  click,
  type,
  pressKey,
  hover,
  selectOption,
  check,
  uncheck,
  waitFor,
  evaluate,
  tabs,
  fillForm,
  uploadFile,
  drag,
  handleDialog,
  consoleMessages,
  emulate,
];

/** Every tool of the default profile, in the order clients list them, run_steps last (its steps: the default page tools). */
export const allTools: readonly AnyTool[] = [...defaultTools, runSteps(defaultTools)];

/** Every tool of the default profile, the capability groups included: what the README documents. */
export const everyTool: readonly AnyTool[] = [...allTools, ...capabilityTools];

/**
 * The tools a server lists for these capability groups: the default list, then each asked-for group's tools.
 * The one place the list is filtered; unknown names are the caller's to refuse (the CLI does, at start-up).
 */
export function toolsFor(caps: readonly string[]): AnyTool[] {
  const wanted = new Set<string>(caps.includes('all') ? CAPABILITIES : caps);
  const added = capabilityTools.filter((tool) => tool.capability !== undefined && wanted.has(tool.capability));
  // run_steps takes as steps the page tools of the groups served with it.
  return [...defaultTools, runSteps([...defaultTools, ...added]), ...added];
}
