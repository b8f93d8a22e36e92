// The test kit's loopback entry (@sessionwright/test-kit/loopback): an HTTP server on 127.0.0.1 and an MCP client over a child's stdio, without the fixture pages, proxies and process probes.
export { escapeHtml, readBody, send, startLocalServer, type LocalServer } from './local-server.js';
export { connectStdio, type ConnectStdioOptions, type StdioConnection } from './stdio-client.js';
