// The one place a tool outcome becomes an MCP CallToolResult (spec §2).
import type { ToolOutcome } from '@sessionwright/tools';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Success: structuredContent plus the same object as JSON text first, images after. Failure: isError plus the error JSON. */
export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(outcome.error.toJSON()) }] };
  }
  return {
    structuredContent: outcome.data,
    content: [
      { type: 'text', text: JSON.stringify(outcome.data) },
      ...outcome.images.map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mimeType })),
    ],
  };
}
