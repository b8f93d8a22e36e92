// Public API of @sessionwright/tools: the tool list and the pieces a server needs to serve it.
import type { AnyTool } from './define-tool.js';
import { evaluate } from './evaluate-tools.js';
import { check, click, hover, pressKey, selectOption, type, uncheck } from './input-tools.js';
import { goBack, goForward, navigate, reload } from './navigation-tools.js';
import { screenshot } from './screenshot-tools.js';
import { closeSession, createSession, listSessions } from './session-tools.js';
import { snapshot } from './snapshot-tools.js';
import { storageTools } from './storage-tools.js';
import { waitFor } from './wait-tools.js';

export {
  annotationsFor,
  defineTool,
  type AnyTool,
  type SessionAccess,
  type ToolAnnotations,
  type ToolCapability,
  type ToolContext,
  type ImplicitSessionAccess,
  type ToolDefinition,
  type ToolKind,
  type ToolOptions,
} from './define-tool.js';
export { imageSize, type ImageSize } from './image.js';
export { SESSIONS_VOCABULARY, nextStepSentence, withNextStep, type ToolVocabulary } from './next-steps.js';
export { ToolResponse, sessionOutput, withAttachments, type Attachment, type WithAttachments } from './response.js';
export { onSession, runTool, type ToolOutcome } from './run-tool.js';
export { ImplicitSession } from './implicit-session.js';
export { PLAYWRIGHT_VOCABULARY, PROFILE_NAMES, playwrightProfile, playwrightTools, sessionsProfile, type Profile, type ProfileName } from './profiles.js';
export { cookies, exportStorageState } from './storage-tools.js';
export { storageTools };

/**
 * Tools of the capability groups (spec §3.1 "Capabilities"), each marked with its `capability`; not in allTools.
 * A server adds the groups `--caps` asks for.
 */
export const capabilityTools: readonly AnyTool[] = [...storageTools];

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
];
