// The official Python MCP SDK's 2025 client (legacy SSE, as agent frameworks' PlaywrightSession connects) drives a fleet through HAProxy in round robin: its messages reach the replica that holds its stream.
import { spawn } from 'node:child_process';
import { hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, startFleet, type Fleet } from './fleet-helpers.js';
import { REPO_ROOT } from './helpers.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
/** scripts/python-client.sh's exit status when pip cannot install the Python SDK here. */
const SDK_UNAVAILABLE = 77;
let fixture: FixtureServer;
let fleet: Fleet;

beforeAll(async () => {
  if (!parts) return;
  fixture = await startFixtureServer();
  fleet = await startFleet(3, ['--profile', 'playwright']);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
});

/** Runs scripts/python-client.sh with a client's token; its exit code and output. */
function runPythonClient(token: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [`${REPO_ROOT}scripts/python-client.sh`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SESSIONWRIGHT_BEARER: token },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!parts)('the Python MCP SDK 2025 client against a fleet of three behind HAProxy', () => {
  it('drives its implicit page and two sessions over legacy SSE, its messages spread over the replicas', async (ctx) => {
    const page = fixture.urlFor('/pages/form');
    // Two agents at once (two identities, so each lists its own three sessions), each on its own stream: the balancer
    // sends each message to any replica.
    const runs = await Promise.all([
      runPythonClient(ALICE, [page, 'sse', fleet.balancer.url]),
      runPythonClient(BOB, [fixture.urlFor('/pages/home'), 'sse', `${fleet.balancer.url}/sse`]),
    ]);
    const unavailable = runs.find((run) => run.code === SDK_UNAVAILABLE);
    if (unavailable) {
      process.stderr.write(`fleet-python.test: skipped: ${unavailable.stderr.trim().split('\n').at(-1)}\n`);
      ctx.skip();
    }
    const summaries = runs.map((run) => {
      expect(run.code, `python client failed:\n${run.stderr}`).toBe(0);
      return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as unknown;
    });
    expect(summaries[0]).toEqual({ url: page, title: 'Form', refs: true, sessions: 3 });
    expect(summaries[1]).toEqual({ url: fixture.urlFor('/pages/home'), title: 'Home', refs: true, sessions: 3 });
  }, 480_000);
});
