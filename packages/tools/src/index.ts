// Public API of @sessionwright/tools: the tool list and the pieces a server needs to serve it.
import type { AnyTool } from './define-tool.js';
import { click, type } from './input-tools.js';
import { navigate } from './navigation-tools.js';
import { closeSession, createSession, listSessions } from './session-tools.js';

export {
  annotationsFor,
  defineTool,
  withImages,
  type AnyTool,
  type SessionAccess,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolImage,
  type ToolKind,
  type ToolOptions,
  type WithImages,
} from './define-tool.js';
export { onSession, runTool, type ToolOutcome } from './run-tool.js';
export { checkUrl } from './navigation-tools.js';

/** Every tool of the default profile, in the order clients list them. */
export const allTools: readonly AnyTool[] = [createSession, closeSession, listSessions, navigate, click, type];
