// Public API of @sessionwright/playwright-mcp: build the server in your own process, or parse its command line.
export { createMcpServer, describeTool, type McpServerDeps } from './mcp-server.js';
export { DEFAULT_OPTIONS, UsageError, parseArgs, type CliCommand, type ServerOptions } from './options.js';
export { createServer, type SessionwrightServer } from './runtime.js';
export { toCallToolResult } from './serialize.js';
export { PACKAGE_NAME, SERVER_NAME, VERSION } from './version.js';
