// Where a call runs in a fleet or with --data-dir, and what a session restored for it lost (from a checkpoint, after its replica or server was gone).
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SessionError } from '@sessionwright/session-core';

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

/**
 * What a call becomes in a fleet: a result from the replica that ran it, an error that answers it, or "run it here"
 * (perhaps on a session just restored), with `ended` to call once it has run (a hand-over of its session waits for that).
 */
export type Routed =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'error'; error: SessionError }
  | { kind: 'local'; restored?: Restored; ended?: () => void };
