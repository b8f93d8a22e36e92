// Runs the example script of docs/library.md and the README with node, importing the built package by its own name, against the fixture server; both pages show it as it is.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

function runExample(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['examples/two-sessions.mjs', ...args], { cwd: packageDir, timeout: 45_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

let server: FixtureServer;
beforeAll(async () => {
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
    throw new Error('session-core is not built: run `pnpm --filter @sessionwright/session-core build` first');
  }
  server = await startFixtureServer();
});
afterAll(() => server.close());

describe('examples/two-sessions.mjs', () => {
  it('drives two isolated sessions and exits 0', async () => {
    const url = server.urlFor('/pages/home');
    const { code, stdout, stderr } = await runExample([url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(/^browser: .+/),
      'A title: Home',
      'B title: Home',
      'A cookies: visited=a',
      'B cookies: (none)',
      'A after close: SESSION_NOT_FOUND',
      'open sessions: 1',
      '',
    ]);
    expect(server.requests.filter((path) => path === '/pages/home')).toHaveLength(2);
  });

  it('exits 2 with a usage line when no URL is given', async () => {
    const { code, stdout, stderr } = await runExample([]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('usage: node examples/two-sessions.mjs <url>');
  });
});

describe('the pages that show examples/two-sessions.mjs', () => {
  const example = readFileSync(new URL('../examples/two-sessions.mjs', import.meta.url), 'utf8');
  it.each(['../../../docs/library.md', '../README.md'])('%s shows it as it is', (page) => {
    expect(readFileSync(new URL(page, import.meta.url), 'utf8')).toContain(`\`\`\`js\n${example}\`\`\`\n`);
  });
});
