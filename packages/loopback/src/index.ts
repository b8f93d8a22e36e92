// Public API of @sessionwright/loopback: an HTTP server on 127.0.0.1 and an MCP client over a child's stdio, for the inspector, the tests and the bench.
export { escapeHtml, readBody, send, startLocalServer, type LocalServer } from './local-server.js';
export { connectStdio, type ConnectStdioOptions, type StdioConnection } from './stdio-client.js';
