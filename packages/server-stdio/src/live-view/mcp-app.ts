// The live view as an MCP App: live_view's `_meta.ui` and the ui:// resource hosts render inline, made with the official ext-apps helpers.
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { LIVE_VIEW_RESOURCE_URI } from '@sessionwright/tools';
import { mcpAppHtml } from './page.js';

/** A resource as resources/list shows it and resources/read answers it. */
export interface AppResource {
  uri: string;
  name: string;
  description?: string;
  mimeType: string;
  _meta?: Record<string, unknown>;
  read(): Promise<{ contents: { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }[] }>;
}

/**
 * The tool's `_meta` as MCP Apps hosts read it: ext-apps' registerAppTool fills in the older `ui/resourceUri` key beside
 * `ui.resourceUri`. Tools are served through the SDK's low-level Server (mcp-server.ts), so the helper registers
 * with a stand-in that keeps what it was given.
 */
export function appToolMeta(meta: Record<string, unknown>): Record<string, unknown> {
  let normalized = meta;
  const keep = {
    registerTool(_name: string, config: { _meta?: Record<string, unknown> }) {
      normalized = config._meta ?? meta;
      return undefined as never;
    },
  };
  registerAppTool(keep as never, 'tool', { _meta: meta as { ui: { resourceUri: string } } }, () => ({ content: [] }));
  return normalized;
}

/**
 * The live view's ui:// resource (text/html;profile=mcp-app): a page that takes the link from live_view's result and
 * shows that live page in a frame. `origin` is where live pages are served, which the host must let the frame load.
 */
export function liveViewResource(origin: () => Promise<string>): AppResource {
  let made: AppResource | undefined;
  const keep = {
    registerResource(
      name: string,
      uri: string,
      config: { mimeType?: string; description?: string; _meta?: Record<string, unknown> },
      read: AppResource['read'],
    ) {
      made = {
        uri,
        name,
        mimeType: config.mimeType ?? RESOURCE_MIME_TYPE,
        ...(config.description === undefined ? {} : { description: config.description }),
        ...(config._meta === undefined ? {} : { _meta: config._meta }),
        read,
      };
      return undefined as never;
    },
  };
  const config = { description: "A browser session's current tab, live, with Take control and Give back control.", _meta: { ui: { prefersBorder: true } } };
  registerAppResource(keep as never, 'Live view', LIVE_VIEW_RESOURCE_URI, config, async () => ({
    contents: [
      {
        uri: LIVE_VIEW_RESOURCE_URI,
        mimeType: RESOURCE_MIME_TYPE,
        text: mcpAppHtml(),
        _meta: { ui: { prefersBorder: true, csp: { frameDomains: [await origin()] } } },
      },
    ],
  }));
  if (made === undefined) throw new Error('registerAppResource registered nothing');
  return made;
}
