// Runs the built `pnpm demo` script end to end (real server over stdio, real Chromium) and checks what it prints and saves.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, welcomeTitle } from '../src/demo-site/pages.js';
import { imageSize } from '@sessionwright/tools';

const DEMO = fileURLToPath(new URL('../dist/demo.js', import.meta.url));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let out: string;
beforeAll(async () => {
  if (!existsSync(DEMO)) throw new Error(`${DEMO} is missing: run pnpm build first`);
  out = await mkdtemp(join(tmpdir(), 'sessionwright-demo-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

describe('pnpm demo', () => {
  it('signs three users in at once in three isolated sessions and saves a screenshot of each', async () => {
    const { code, stdout, stderr } = await runDemo(['--out', out]);
    expect(code, `demo failed:\n${stdout}\n${stderr}`).toBe(0);

    // One table row per user: short session id, user, final URL, title, then one timing per step.
    const rows = stdout
      .split('\n')
      .map((line) => /^([0-9a-f]{8})…\s+(\w+)\s+(http:\/\/127\.0\.0\.1:\d+\/\S*)\s+(.+?)\s{2,}((?:\d+ ms\s*)+)$/.exec(line))
      .filter((match) => match !== null);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row[1])).size).toBe(3);
    expect(rows.map((row) => row[2])).toEqual(DEMO_USERS.map((user) => user.username));
    for (const [row, user] of rows.map((row, i) => [row, DEMO_USERS[i]] as const)) {
      expect(row[3]).toMatch(/\/welcome$/);
      expect(row[4]).toBe(user ? welcomeTitle(user) : '');
    }
    expect(stdout).toMatch(/^isolation\s+ok: 3 sessions, 3 different users/m);
    expect(stdout).toMatch(/^done\s+in \d+\.\d s$/m);

    const tools = /^tools\s+(.*)$/m.exec(stdout)?.[1]?.split(', ') ?? [];
    if (!tools.includes('screenshot')) {
      // Until the server has the tool, the demo must say so instead of failing.
      expect(stdout).toMatch(/^screenshots\s+unavailable/m);
      return;
    }
    for (const user of DEMO_USERS) {
      const file = join(out, `${user.username}.png`);
      const size = imageSize(await readFile(file));
      expect(size.width).toBeGreaterThan(100);
      expect(size.height).toBeGreaterThan(100);
      // The size printed is the size in the file.
      expect(stdout).toContain(`${user.username}.png (${size.width}×${size.height})`);
    }
    // Three different pictures: each session shows its own user's page.
    const bytes = await Promise.all(DEMO_USERS.map((user) => readFile(join(out, `${user.username}.png`))));
    expect(new Set(bytes.map((b) => b.toString('base64'))).size).toBe(3);
    // The demo's own deadline (120 s) says what hung; give it the time to say so.
  }, 150_000);

  it('fails with exit status 1 and says what to install when the browser cannot be found', async () => {
    const { code, stdout, stderr } = await runDemo(['--out', out, '--executable-path', '/nonexistent/chromium']);
    expect(code, stdout).toBe(1);
    expect(stderr).toMatch(/^demo failed: create for \w+: create_session answered BROWSER_ERROR$/m);
    expect(stderr).toContain('/nonexistent/chromium');
    expect(stderr).toMatch(/what to do: .*install/);
  });

  it('rejects an unknown flag with exit status 2 and the usage', async () => {
    const { code, stderr } = await runDemo(['--bogus']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: pnpm demo');
  });
});
