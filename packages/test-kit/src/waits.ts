// Waiting in tests for what a test means, never for a fixed time: a line a process writes, or a window in which something must not happen.
import { waitFor } from './processes.js';

/**
 * Waits until `output()` (what a process wrote on stderr, say) shows `pattern` after its first `from` characters;
 * rejects once `timeout` ms pass without that, with the text that did come.
 */
export async function waitForOutput(
  output: () => string,
  pattern: RegExp,
  { from = 0, timeout = 10_000 }: { from?: number; timeout?: number } = {},
): Promise<void> {
  try {
    await waitFor(() => pattern.test(output().slice(from)), { timeout, interval: 20 });
  } catch {
    throw new Error(`waitForOutput: no ${pattern} within ${timeout} ms in:\n${output().slice(from).slice(-2_000)}`);
  }
}

/**
 * Checks `cond` throughout `ms` and rejects as soon as it is false: for what must not happen while a window lasts (a
 * load that waits for its turn, a browser that is not this process's to close). A window is the only way to see that
 * something does not happen; the check fails the moment it does, rather than after the window.
 */
export async function holdsFor(
  cond: () => boolean | Promise<boolean>,
  ms: number,
  { interval = 20, what = 'the condition' }: { interval?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!(await cond())) throw new Error(`holdsFor: ${what} stopped holding ${ms - Math.max(0, deadline - Date.now())} ms into its ${ms} ms`);
    if (Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, Math.max(1, deadline - Date.now()))));
  }
}
