// Runs the official Python MCP SDK's client (scripts/python-client.sh) for the tests, and reads what it printed.
import { spawn } from 'node:child_process';
import { expect, type TestContext } from 'vitest';
import { REPO_ROOT } from './helpers.js';

export interface PythonRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What the client prints as its last line when every check passed. */
export interface PythonSummary {
  url: string;
  title: string;
  refs: boolean;
  sessions: number;
  dialog?: string;
}

/** scripts/python-client.sh's exit status when pip cannot install the Python SDK here (no index this machine's pip knows serves it). */
const SDK_UNAVAILABLE = 77;

/** Runs scripts/python-client.sh with these arguments (and a bearer token, if given); its exit code and output. */
export function runPythonClient(args: string[], token?: string): Promise<PythonRun> {
  return new Promise((resolve, reject) => {
    const env = token === undefined ? process.env : { ...process.env, SESSIONWRIGHT_BEARER: token };
    const child = spawn('bash', [`${REPO_ROOT}scripts/python-client.sh`, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
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

/** Skips (saying why) when the Python SDK cannot be had on this machine: that is the machine's limit, not the server's fault. */
export function skipWithoutSdk(ctx: TestContext, ...runs: PythonRun[]): void {
  const unavailable = runs.find((run) => run.code === SDK_UNAVAILABLE);
  if (!unavailable) return;
  process.stderr.write(`${ctx.task.file.name}: skipped: ${unavailable.stderr.trim().split('\n').at(-1)}\n`);
  ctx.skip();
}

/** The one JSON line the client prints when every check passed; a failed run fails the test with the client's stderr. */
export function summaryOf(run: PythonRun): PythonSummary {
  expect(run.code, `python client failed:\n${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as PythonSummary;
}
