// The live view as an MCP App: live_view's `_meta.ui` and the ui:// resource hosts render inline, registered with the official ext-apps helpers.
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { LIVE_VIEW_RESOURCE_URI } from '@sessionwright/tools';
import { mcpAppHtml } from './app-page.js';

/**
 * The tool's `_meta` as MCP Apps hosts read it: `ui.resourceUri`, and beside it the older `ui/resourceUri` key that
 * ext-apps' registerAppTool also writes. That helper registers through McpServer.registerTool, which validates
 * arguments itself; tools here are served by mcp-server.ts's own handler, so their listing carries both keys itself.
 */
export function appToolMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const resourceUri = (meta.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  return typeof resourceUri !== 'string' || RESOURCE_URI_META_KEY in meta ? meta : { ...meta, [RESOURCE_URI_META_KEY]: resourceUri };
}

/**
 * Registers the live view's ui:// resource (text/html;profile=mcp-app): a page that draws the session from frames it
 * gets through the host (app-page.ts). It asks the host for no frame domain and no connection, so it works under the
 * strictest policy, and over stdio it opens no listener.
 */
export function registerLiveViewResource(server: McpServer): void {
  const config = { description: "A browser session's current tab, live, with Take control and Give back control.", _meta: { ui: { prefersBorder: true } } };
  registerAppResource(server, 'Live view', LIVE_VIEW_RESOURCE_URI, config, () => ({
    contents: [
      {
        uri: LIVE_VIEW_RESOURCE_URI,
        mimeType: RESOURCE_MIME_TYPE,
        text: mcpAppHtml(),
        _meta: { ui: { prefersBorder: true } },
      },
    ],
  }));
}
