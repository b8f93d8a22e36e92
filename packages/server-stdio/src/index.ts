// Public API of @sessionwright/playwright-mcp: build the server in your own process, parse its command line, or read its flag table and tool listing.
export {
  COMBINABLE_FLAGS,
  FLAG_DEFINITIONS,
  camelCase,
  defaultText,
  envVarName,
  exampleValue,
  flagUsage,
  type FlagDefinition,
  type FlagKind,
  type FlagValue,
} from './settings/table.js';
export type { HttpOptions } from './settings/http-options.js';
export { startHttpServer, type HttpServerHandle, type HttpServerOptions } from './http/server.js';
export { createMcpServer, type McpConnection, type McpServerDeps } from './protocol/mcp-server.js';
export { META_FLAGS, UsageError, parseArgs, type CliCommand, type ServerOptions } from './settings/options.js';
export type { BrowserSetup } from './settings/setup.js';
export { createServer, type ServerHooks, type SessionwrightServer } from './runtime.js';
export { toCallToolResult } from './protocol/mcp-server.js';
export { TOOL_LISTING_FILE, packagedToolListing, type ToolListing } from './protocol/tool-listing.js';
export { describeTool, toolSurface, type ToolSurface } from './protocol/tool-surface.js';
export { VERSION } from './version.js';
