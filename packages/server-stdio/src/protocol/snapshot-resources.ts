// The playwright profile's snapshot files as MCP resources: a client that cannot read the server's disk (over HTTP) reads the file an action's resource link names, and only its own.
import { type McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { SNAPSHOT_MIME_TYPE, SNAPSHOT_URI_TEMPLATE, readSnapshotFile, type SessionAccess, type ToolOptions } from '@sessionwright/tools';

/**
 * Registers `sessionwright://snapshot/{name}` on one caller's server: a name is looked for only in that caller's own
 * folder (its tool options) or its own sessions' folders, so another caller's file is not found, exactly as a missing one.
 * Not listed: the links in results name them.
 */
export function registerSnapshotResources(mcp: McpServer, caller: { options: ToolOptions; sessions: SessionAccess }): void {
  mcp.registerResource(
    'Page snapshot',
    new ResourceTemplate(SNAPSHOT_URI_TEMPLATE, { list: undefined }),
    { mimeType: SNAPSHOT_MIME_TYPE, description: "The page's accessibility snapshot after an action, with refs to act on." },
    async (uri, variables) => {
      const name = typeof variables.name === 'string' ? decodeURIComponent(variables.name) : '';
      const text = await readSnapshotFile(name, caller.options, caller.sessions);
      if (text === undefined) throw new ResourceNotFoundError(uri.href);
      return { contents: [{ uri: uri.href, mimeType: SNAPSHOT_MIME_TYPE, text }] };
    },
  );
}
