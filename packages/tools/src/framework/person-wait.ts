// Telling a client its call waits for a person: progress notifications while a person has control of the session.
import type { ControlLease } from '@sessionwright/session-core/parts';
import type { ToolContext } from './define-tool.js';

/** How often a waiting call says it is still waiting (clients that reset their own timeout on progress keep waiting). */
const WAITING_PROGRESS_MS = 5_000;

/**
 * Reports through ctx.progress that the call waits for the person who has control, at once and every few seconds,
 * until they give it back or stop() is called (the call ended). Returns stop.
 */
export function reportWaitForPerson(
  ctx: ToolContext,
  lease: ControlLease,
  message = 'Waiting: a person has control of this session in its live view; the call runs when they give it back.',
): () => void {
  let beat = 0;
  const say = () => {
    beat += 1;
    ctx.progress(beat, undefined, message);
  };
  say();
  const timer = setInterval(say, WAITING_PROGRESS_MS);
  timer.unref();
  const stop = () => clearInterval(timer);
  void lease.released.then(stop);
  return stop;
}
