// The official MCP conformance suite against /mcp, through the same script CI and people run (scripts/conformance.sh).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from './helpers.js';

describe('@modelcontextprotocol/conformance (server scenarios)', () => {
  it('passes everything outside scripts/conformance-baseline.json, including the six required scenarios', async () => {
    const result = await run('bash', [path.join(REPO_ROOT, 'scripts', 'conformance.sh')], { cwd: REPO_ROOT, timeout: 240_000 });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'logging-set-level', 'server-sse-multiple-streams', 'dns-rebinding-protection']) {
      expect(result.stdout).toContain(`✓ ${scenario}: `);
    }
  }, 300_000);
});
