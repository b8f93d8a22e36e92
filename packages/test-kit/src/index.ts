// Public API of @sessionwright/test-kit: fixture web server, process-tree helpers, MCP client helpers.
export { startFixtureServer } from './fixture-server.js';
export type { FixtureServer, FixtureServerOptions, RecordedPost } from './fixture-server.js';
export { descendants, forceKill, isAlive, browserProcesses, pipeBrowsers, pss, treePss, waitFor } from './processes.js';
export type { ProcInfo } from './processes.js';
export { holdsFor, waitForOutput } from './waits.js';
export { callJson, type JsonToolResult } from './mcp-client.js';
export { isAppOnly, toolListCost, type ListedTool, type ToolListCost } from './tool-list-cost.js';
// The generic client lives in @sessionwright/loopback (the inspector uses it too); tests and the bench take it from here.
export { connectStdio, type ConnectStdioOptions, type StdioConnection } from '@sessionwright/loopback';
export { startForwardProxy } from './forward-proxy.js';
export type { ForwardProxy, ForwardProxyOptions, ProxiedRequest } from './forward-proxy.js';
export { BASIC_AUTH } from './identity-routes.js';
export { startBrowserServer, startCdpBrowser, startVersionMismatchServer } from './browser-servers.js';
export type { BrowserServer, BrowserServerOptions, CdpBrowser, VersionMismatchServer } from './browser-servers.js';
export { LARGE_BODY_LENGTH } from './agent-routes.js';
export { readZip } from './zip.js';
export { declarationReport, publicApi, reported } from './public-api.js';
export { freePort, hasProgram, startHaproxy, startRedis, HAPROXY_CONFIG } from './fleet-parts.js';
export type { Balancer, RedisServer } from './fleet-parts.js';
