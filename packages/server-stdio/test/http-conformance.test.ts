// The official MCP conformance suite against /mcp in both protocol eras, through the same script CI and people run (scripts/conformance.sh).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from './helpers.js';

describe('@modelcontextprotocol/conformance (server scenarios)', () => {
  it('passes everything outside the baselines: the 2025 suite with its six required scenarios, and every applicable 2026-07-28 check', async () => {
    // The first run installs the 2026 suite (and a Node 22 for it) into the cache: npm, a minute at most.
    const result = await run('bash', [path.join(REPO_ROOT, 'scripts', 'conformance.sh')], { cwd: REPO_ROOT, timeout: 480_000 });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const at = result.stdout.indexOf('conformance: 2026 era');
    const [old, modern] = [result.stdout.slice(0, at), result.stdout.slice(at)];
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'server-sse-multiple-streams', 'dns-rebinding-protection']) {
      expect(old).toContain(`✓ ${scenario}: `);
    }
    // Passed whole, or failing only the checks the baseline names (fixture tools, prompts, resources).
    for (const scenario of [
      'tools-list',
      'http-header-validation',
      'http-custom-header-server-validation',
      'dns-rebinding-protection',
      'server-sse-multiple-streams',
    ]) {
      expect(modern).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    }
    expect(modern).toMatch(/server-stateless: 2\d passed, 4 failed, 4 of them in the baseline/);
    expect(modern).toMatch(/caching: 4 passed, 3 failed, 3 of them in the baseline/);
    expect(modern).toContain('every failure is in the baseline');
  }, 540_000);
});
