// What a result says when its session was restored for the call: the `restored` field of its output schema and of its content.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Restored } from '../fleet/restored.js';

/** The `restored` field in a session tool's output schema. */
export const RESTORED_SCHEMA = {
  type: 'object',
  description: 'Present once, on the first result after the session was restored from its checkpoint: take a new snapshot.',
  properties: {
    at: { type: 'number', description: 'When it was restored (ms since epoch).' },
    lost: { type: 'array', items: { type: 'string' }, description: 'What the checkpoint could not keep.' },
  },
  required: ['at', 'lost'],
  additionalProperties: false,
} as const;

/** A result with the `restored` note of a session restored for it (structured and as text); any other answer as it is. */
export function withRestored<T extends object>(result: T, restored: Restored): T {
  if (!('content' in result) || !('structuredContent' in result)) return result;
  const call = result as unknown as CallToolResult;
  if (call.isError || call.structuredContent === undefined) return result;
  const data = { ...call.structuredContent, restored };
  const [first, ...rest] = call.content;
  const content = first?.type === 'text' ? [{ type: 'text' as const, text: JSON.stringify(data) }, ...rest] : call.content;
  return { ...result, structuredContent: data, content };
}
