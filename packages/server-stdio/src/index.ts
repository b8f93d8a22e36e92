// Public API of @sessionwright/playwright-mcp: build the server in your own process, or parse its command line.
export { CONFIG_ENV, type ValueSource } from './config.js';
export {
  COMBINABLE_FLAGS,
  ENV_PREFIX,
  FLAG_DEFINITIONS,
  camelCase,
  defaultText,
  envVarName,
  exampleValue,
  flagUsage,
  type FlagDefinition,
  type FlagKind,
  type FlagValue,
} from './flags.js';
export { AUTH_TOKEN_ENV, isLoopback, type HttpOptions } from './http-options.js';
export { DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_BODY_BYTES, startHttpServer, type HttpServerHandle, type HttpServerOptions } from './http-server.js';
export { createMcpServer, describeTool, type McpConnection, type McpServerDeps } from './mcp-server.js';
export { DEFAULT_OPTIONS, META_FLAGS, UsageError, parseArgs, type CliCommand, type ServerOptions } from './options.js';
export { createServer, type ServerHooks, type SessionwrightServer } from './runtime.js';
export { toCallToolResult } from './serialize.js';
export { TOOL_LISTING_FILE, packagedToolListing, type ToolListing } from './tool-listing.js';
export { PACKAGE_NAME, SERVER_NAME, VERSION } from './version.js';
