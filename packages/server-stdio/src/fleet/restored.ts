// Where a call runs in a fleet or with --data-dir (the keeper that decides it), what it passes back to its client from elsewhere, and what a session restored for it lost (from a checkpoint, after its replica or server was gone).
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SessionError } from '@sessionwright/session-core';
import type { CallerScope, SessionKeeper } from '../identity/session-access.js';

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

/** Passes on a call's progress (notifications/progress) as it arrives from the replica that runs it. */
export type OnProgress = (progress: number, total: number | undefined, message: string | undefined) => void;

/**
 * Asks the caller's client to open a URL for its user (URL-mode elicitation), on the connection its call arrived on:
 * the user's answer, and what to call once the person is done.
 */
export type AskUser = (question: { message: string; url: string }) => Promise<{ action: 'accept' | 'decline' | 'cancel'; complete(): void }>;

/** What a call run at another replica passes back to its caller's client while it runs: its progress, and its questions for the user. */
export interface CallLegs {
  onProgress?: OnProgress | undefined;
  ask?: AskUser | undefined;
}

/**
 * What a call becomes in a fleet: a result from the replica that ran it, an error that answers it, or "run it here"
 * (perhaps on a session just restored), with `ended` to call once it has run (a hand-over of its session waits for that).
 */
export type Routed =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'error'; error: SessionError }
  | { kind: 'local'; restored?: Restored; ended?: () => void };

/**
 * The one keeper of sessions beyond this process the runtime holds (a fleet's replica, or --data-dir's checkpoints): told
 * of every session opened, used and closed through a SessionAccess, asked where each call runs, and drained before the
 * process ends.
 */
export interface Keeper extends SessionKeeper {
  /**
   * Where a call runs: here (on a session perhaps restored for it from its checkpoint), or at the replica of the fleet
   * that holds its session, whose result it answers (`legs` passes that call's progress and questions back).
   */
  route(scope: CallerScope, tool: string, args: unknown, signal: AbortSignal, legs?: CallLegs): Promise<Routed>;
  /** A final checkpoint of each session before the process ends (in a fleet, each also handed to the other replicas). */
  drain(): Promise<void>;
}
