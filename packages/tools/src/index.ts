// Public API of @sessionwright/tools: the tool lists and profiles, and what a server needs to serve them or to add tools of its own.
import { consoleMessages } from './console-tools.js';
import type { AnyTool, ToolCapability } from './define-tool.js';
import { handleDialog } from './dialog-tools.js';
import { emulate } from './emulate-tools.js';
import { drag, fillForm } from './form-tools.js';
import { networkTools } from './network-tools.js';
import { mouse } from './mouse-tools.js';
import { route } from './route-tools.js';
import { savePdf } from './pdf-tools.js';
import { getConfig } from './config-tools.js';
import { runCodeUnsafe } from './run-code-tools.js';
import { uploadFile } from './upload-tools.js';
import { evaluate } from './evaluate-tools.js';
import { find } from './find-tools.js';
import { check, click, hover, pressKey, selectOption, type, uncheck } from './input-tools.js';
import { goBack, goForward, navigate, reload } from './navigation-tools.js';
import { screenshot } from './screenshot-tools.js';
import { closeSession, createSession, listSessions } from './session-tools.js';
import { snapshot } from './snapshot-tools.js';
import { storageTools } from './storage-tools.js';
import { stateTools } from './state-tools.js';
import { tabs } from './tab-tools.js';
import { testingTools } from './testing-tools.js';
import { waitFor } from './wait-tools.js';
import { liveView, requestHuman } from './live-tools.js';
import { startTrace, stopTrace } from './trace-tools.js';
import { video } from './video-tools.js';
import { highlight } from './highlight-tools.js';
import { recordActions, resume } from './recording-tools.js';

export {
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
  type HandOff,
  type HandOffOutcome,
  type LiveViewAccess,
  type LiveViewLink,
  type ToolDefinition,
  type ToolKind,
  type ToolOptions,
} from './define-tool.js';
export { defineSessionTool, type CallScope, type OwnFields, type SessionTool, type SessionToolSpec, type SessionToolWork } from './session-tool.js';
export { sessionOutput, type Attachment, type ToolResponse, type WithAttachments } from './response.js';
export { runTool, type ToolOutcome } from './run-tool.js';
export { ImplicitSession } from './implicit-session.js';
export type { ToolVocabulary } from './next-steps.js';
export { PROFILE_NAMES, playwrightProfile, sessionsProfile, type Profile, type ProfileName } from './profiles.js';
export { imageSize, type ImageSize } from './image.js';
export { LIVE_VIEW_RESOURCE_URI } from './live-tools.js';
export { readsRequestList } from './network-tools.js';
export { UNSAFE_CODE_TOOLS } from './run-code-tools.js';

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

/** Every tool of the default profile, in the order clients list them: lifecycle, navigation, reading, input, waiting, evaluate. */
export const allTools: readonly AnyTool[] = [
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

/** The capability groups `--caps` may name (docs/agent-tools.md); `all` names every one. */
export const CAPABILITIES: readonly ToolCapability[] = ['network', 'storage', 'states', 'pdf', 'live', 'devtools', 'testing', 'vision', 'config', 'unsafe'];

/** Every tool of the default profile, the capability groups included: what the README documents. */
export const everyTool: readonly AnyTool[] = [...allTools, ...capabilityTools];

/**
 * The tools a server lists for these capability groups: the default list, then each asked-for group's tools.
 * The one place the list is filtered; unknown names are the caller's to refuse (the CLI does, at start-up).
 */
export function toolsFor(caps: readonly string[]): AnyTool[] {
  const wanted = new Set(caps.includes('all') ? CAPABILITIES : caps);
  return [...allTools, ...capabilityTools.filter((tool) => tool.capability !== undefined && wanted.has(tool.capability))];
}
