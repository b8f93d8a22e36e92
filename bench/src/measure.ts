// What the long-running sections share: create_session latency, PSS once the browser settled, waiting for a server log line.
import { treePss } from '@sessionwright/test-kit';
import { summarize } from './stats.js';
import { jsonOf, timedCall, type Connection } from './systems.js';

/** create_session (then close) a few times, a second apart so the warm pool refills as it would between agents' sessions. */
export async function createLatency(connection: Connection, times: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const created = await timedCall(connection.client, 'create_session');
    latencies.push(created.ms);
    await timedCall(connection.client, 'close_session', { sessionId: String(jsonOf(created).sessionId) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return latencies;
}

/** Waits until the server's stderr shows a line matching `pattern` past offset `from` (by default, after this moment). */
export async function waitForLine(connection: Connection, pattern: RegExp, timeout: number, from = connection.stderr().length): Promise<boolean> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (pattern.test(connection.stderr().slice(from))) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Median of three PSS readings 300 ms apart, after a pause for the browser to settle. */
export async function settledPss(pid: number, pauseMs = 2_000): Promise<number> {
  const readings: number[] = [];
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  for (let i = 0; i < 3; i += 1) {
    readings.push(await treePss(pid));
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return summarize(readings).median;
}
