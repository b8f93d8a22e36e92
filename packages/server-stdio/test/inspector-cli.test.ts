// A real third-party MCP client against the built server: scripts/inspector-cli.sh runs the MCP Inspector's CLI mode.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from './helpers.js';

describe('MCP Inspector (CLI mode)', () => {
  it('lists every tool, creates a session and gets well-formed errors from navigate', async () => {
    // The first run on a machine installs the pinned Inspector (and a Node 22 binary) from npm into a cache.
    const result = await run('bash', [path.join(REPO_ROOT, 'scripts', 'inspector-cli.sh')], { cwd: REPO_ROOT, timeout: 600_000 });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    for (const step of [1, 2, 3, 4, 5]) expect(result.stdout).toMatch(new RegExp(`^ok ${step} - `, 'm'));
    expect(result.stdout).toMatch(/^ok 1 - tools\/list: create_session close_session list_sessions navigate/m);
    expect(result.stdout).toContain('all checks passed');
  }, 660_000);
});
