// The live view as an MCP App: live_view's `_meta.ui` and the ui:// resource hosts render inline, registered with the official ext-apps helpers.
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY, getUiCapability, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, McpServer } from '@modelcontextprotocol/server';
import { SessionError } from '@sessionwright/session-core';
import { LIVE_VIEW_RESOURCE_URI } from '@sessionwright/tools';
import { mcpAppHtml } from './app-page.js';

/**
 * The tool's `_meta` as MCP Apps hosts read it: `ui.resourceUri`, and beside it the older `ui/resourceUri` key that
 * ext-apps' registerAppTool also writes. That helper registers through McpServer.registerTool, which validates
 * arguments itself; tools here are served by protocol/mcp-server.ts's own handler, so their listing carries both keys itself.
 */
export function appToolMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const resourceUri = (meta.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  return typeof resourceUri !== 'string' || RESOURCE_URI_META_KEY in meta ? meta : { ...meta, [RESOURCE_URI_META_KEY]: resourceUri };
}

/** Whether a tool is for an MCP App alone (`_meta.ui.visibility: ["app"]`): hosts keep it from the model. */
export function isAppOnly(meta: Record<string, unknown> | undefined): boolean {
  const visibility = (meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(visibility) && visibility.length > 0 && visibility.every((who) => who === 'app');
}

/**
 * The refusal of an app-only tool to a client that did not declare MCP Apps support (the ui extension in its
 * capabilities); undefined for a client that did. Such a client has no app to draw the tool's answers, so the call
 * comes from a model, which must not act as the person in the live view (docs/live-view.md).
 */
export function appOnlyRefusal(tool: string, capabilities: ClientCapabilities | undefined, sessionId: string | undefined): SessionError | undefined {
  if (getUiCapability(capabilities) !== undefined) return undefined;
  return new SessionError(
    'INVALID_PARAMETERS',
    `${tool} belongs to the live view app, which the person's host runs; this client declared no MCP Apps support (${EXTENSION_ID}). ` +
      'To show the session to a person use live_view; to hand it to them and wait, request_human.',
    { details: { reason: 'app_only', tool }, ...(sessionId === undefined ? {} : { sessionId }) },
  );
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
