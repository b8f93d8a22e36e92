// The one place a tool outcome becomes an MCP CallToolResult (README: Results).
import type { ToolOutcome } from '@sessionwright/tools';
import type { CallToolResult } from '@modelcontextprotocol/server';

/** How results are written for one server: `images: 'omit'` leaves images out (a screenshot answers its JSON alone). */
export interface SerializeOptions {
  images?: 'allow' | 'omit';
}

/**
 * Success: structuredContent plus the same object as JSON text first, attachments (images, embedded files) after;
 * with `images: 'omit'` images are left out. Failure: isError plus the error JSON.
 */
export function toCallToolResult(outcome: ToolOutcome, { images = 'allow' }: SerializeOptions = {}): CallToolResult {
  if (!outcome.ok) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(outcome.error.toJSON()) }] };
  }
  return {
    structuredContent: outcome.data,
    content: [
      { type: 'text', text: JSON.stringify(outcome.data) },
      ...outcome.attachments
        .filter((attachment) => images === 'allow' || attachment.type !== 'image')
        .map((attachment) =>
          attachment.type === 'image'
            ? { type: 'image' as const, data: attachment.data, mimeType: attachment.mimeType }
            : { type: 'resource' as const, resource: { uri: attachment.uri, mimeType: attachment.mimeType, blob: attachment.blob } },
        ),
    ],
  };
}
