// The machine and the exact versions a run used, for the report.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { PLAYWRIGHT_MCP_CLI, SESSIONWRIGHT_CLI } from './systems.js';

export interface Environment {
  date: string;
  node: string;
  os: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  loadBefore: number[];
  loadAfter: number[];
  commit: string;
  versions: Record<string, string>;
  executable: { path: string; version: string; kind: string };
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The headless shell sessionwright itself would pick; every system gets the same binary. */
export function benchExecutable(explicit: string | undefined): { path: string; kind: string } {
  if (explicit) return { path: explicit, kind: 'given with --executable-path' };
  const resolved = resolveExecutable({ browser: 'chromium', headless: true });
  if (resolved.executablePath) return { path: resolved.executablePath, kind: resolved.description };
  // Playwright's own build: ask Playwright where its headless shell lives.
  const require = createRequire(import.meta.url);
  const { chromium } = require('playwright') as typeof import('playwright');
  return { path: chromium.executablePath(), kind: resolved.description };
}

/** The version of `name` as resolved from `fromFile`: walks up from its entry to the package.json that names it. */
function packageVersion(fromFile: string, name: string, entry = ''): string {
  try {
    let dir = path.dirname(createRequire(fromFile).resolve(`${name}${entry}`));
    for (;;) {
      try {
        const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (json.name === name && json.version) return json.version;
      } catch {
        // No package.json at this level.
      }
      const parent = path.dirname(dir);
      if (parent === dir) return 'unknown';
      dir = parent;
    }
  } catch {
    return 'unknown';
  }
}

function run(command: string, args: string[], cwd?: string): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', cwd, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** The commit being measured, read when the run starts: edits made while it runs are not in the build it measures. */
export function describeCommit(): string {
  const dirty = run('git', ['status', '--porcelain'], repoRoot) ? ' (with uncommitted changes)' : '';
  return `${run('git', ['rev-parse', '--short', 'HEAD'], repoRoot)}${dirty}`;
}

export function describeEnvironment(executable: { path: string; kind: string }, loadBefore: number[], commit: string): Environment {
  const sessionwrightPackage = path.join(path.dirname(SESSIONWRIGHT_CLI), '..', 'package.json');
  const playwrightMcpPackage = path.join(path.dirname(PLAYWRIGHT_MCP_CLI), 'package.json');
  return {
    date: new Date().toISOString(),
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadBefore,
    loadAfter: os.loadavg(),
    commit,
    versions: {
      '@sessionwright/playwright-mcp': (JSON.parse(readFileSync(sessionwrightPackage, 'utf8')) as { version: string }).version,
      'playwright (sessionwright, raw)': packageVersion(sessionwrightPackage, 'playwright'),
      '@playwright/mcp': (JSON.parse(readFileSync(playwrightMcpPackage, 'utf8')) as { version: string }).version,
      'playwright-core (@playwright/mcp)': packageVersion(playwrightMcpPackage, 'playwright-core'),
      '@modelcontextprotocol/sdk (clients)': packageVersion(import.meta.url, '@modelcontextprotocol/sdk', '/client/index.js'),
    },
    executable: { path: executable.path, kind: executable.kind, version: run(executable.path, ['--version']) },
  };
}
