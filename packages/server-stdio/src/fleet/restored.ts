// What a result says when its session was restored for the call (from a checkpoint, after its replica or server was gone).
import type { CallToolResult } from '@modelcontextprotocol/server';

/** What a restored session could not keep; its first result says so, with when it was restored. */
export const RESTORED_LOST = [
  "the page's in-memory state (script variables, unsaved form input)",
  'element refs (take a new snapshot)',
  'a running trace or recording',
  'console, network and dialog history',
] as const;

export interface Restored {
  /** When the session was restored (ms since epoch). */
  at: number;
  lost: readonly string[];
}

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

/**
 * What a call becomes in a fleet: a result from the replica that ran it, or "run it here" (perhaps on a session just
 * restored), with `ended` to call once it has run (a hand-over of its session waits for that).
 */
export type Routed = { kind: 'result'; result: CallToolResult } | { kind: 'local'; restored?: Restored; ended?: () => void };

/** A result with the `restored` note of a session restored for it (structured and as text); any other answer as it is. */
export function withRestored<T extends object>(result: T, restored: Restored | undefined): T {
  if (restored === undefined || !('content' in result) || !('structuredContent' in result)) return result;
  const call = result as unknown as CallToolResult;
  if (call.isError || call.structuredContent === undefined) return result;
  const data = { ...call.structuredContent, restored };
  const [first, ...rest] = call.content;
  const content = first?.type === 'text' ? [{ type: 'text' as const, text: JSON.stringify(data) }, ...rest] : call.content;
  return { ...result, structuredContent: data, content };
}
