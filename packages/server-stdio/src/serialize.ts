// The one place a tool outcome becomes an MCP CallToolResult (README: Results).
import type { ToolOutcome } from '@sessionwright/tools';
import type { CallToolResult } from '@modelcontextprotocol/server';

/** Success: structuredContent plus the same object as JSON text first, attachments (images, embedded files) after. Failure: isError plus the error JSON. */
export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(outcome.error.toJSON()) }] };
  }
  return {
    structuredContent: outcome.data,
    content: [
      { type: 'text', text: JSON.stringify(outcome.data) },
      ...outcome.attachments.map((attachment) =>
        attachment.type === 'image'
          ? { type: 'image' as const, data: attachment.data, mimeType: attachment.mimeType }
          : { type: 'resource' as const, resource: { uri: attachment.uri, mimeType: attachment.mimeType, blob: attachment.blob } },
      ),
    ],
  };
}
