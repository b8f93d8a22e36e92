// What `npx @sessionwright/playwright-mcp` will fetch: the packed public packages, installed from their tarballs into an empty folder, run.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allTools } from '@sessionwright/tools';
import { connectStdio, startFixtureServer, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, call, expectSuccess, run } from './helpers.js';

const PUBLIC_PACKAGES = [
  { dir: 'packages/session-core', name: '@sessionwright/session-core' },
  { dir: 'packages/tools', name: '@sessionwright/tools' },
  { dir: 'packages/server-stdio', name: '@sessionwright/playwright-mcp' },
];

let work: string;
let app: string;
let tarballs: string[];
let fx: FixtureServer;
let installed: StdioConnection | undefined;

const ok = (result: { code: number | null; stdout: string; stderr: string }, what: string) =>
  expect(result.code, `${what} failed:\n${result.stdout}\n${result.stderr}`).toBe(0);

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'sessionwright-pack-'));
  const packed = path.join(work, 'tarballs');
  app = path.join(work, 'app');
  mkdirSync(packed);
  mkdirSync(app);
  // One at a time: pnpm pack is quick, and the machine is shared.
  for (const pkg of PUBLIC_PACKAGES) {
    ok(await run('pnpm', ['pack', '--pack-destination', packed], { cwd: path.join(REPO_ROOT, pkg.dir), timeout: 120_000 }), `pnpm pack in ${pkg.dir}`);
  }
  tarballs = readdirSync(packed).map((file) => path.join(packed, file));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'sessionwright-pack-check', private: true }));
  // The tarballs go in together: pnpm pack turned workspace:^ into ^0.1.0, which the registry does not have (yet).
  ok(
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs], { cwd: app, timeout: 600_000 }),
    'npm install of the tarballs',
  );
  fx = await startFixtureServer();
}, 900_000);

afterAll(async () => {
  await installed?.close();
  await fx?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('are three tarballs that ship dist and package.json only, with no workspace: ranges left', async () => {
    expect(tarballs.map((file) => path.basename(file)).sort()).toEqual(
      ['sessionwright-playwright-mcp-0.1.0.tgz', 'sessionwright-session-core-0.1.0.tgz', 'sessionwright-tools-0.1.0.tgz'].sort(),
    );
    for (const tarball of tarballs) {
      const listing = await run('tar', ['tzf', tarball]);
      ok(listing, `tar tzf ${tarball}`);
      const files = listing.stdout.trim().split('\n');
      expect(files).toContain('package/package.json');
      expect(files).toContain('package/dist/index.js');
      expect(files).toContain('package/dist/index.d.ts');
      expect(
        files.filter((file) => !/^package\/(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file)),
        tarball,
      ).toEqual([]);
      const manifest = JSON.parse((await run('tar', ['xzf', tarball, '-O', 'package/package.json'])).stdout);
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
    }
  });

  it('install into an empty folder: npx sessionwright --version prints the version', async () => {
    const result = await run('npx', ['--no', '--', 'sessionwright', '--version'], { cwd: app, timeout: 60_000 });
    ok(result, 'npx sessionwright --version');
    expect(result.stdout).toBe('@sessionwright/playwright-mcp 0.1.0\n');
  });

  it('the installed bin serves tools/list over stdio and drives a session', async () => {
    installed = await connectStdio({ command: path.join(app, 'node_modules', '.bin', 'sessionwright'), args: ['--headless'] });
    const { tools } = await installed.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(allTools.map((tool) => tool.name));
    const { sessionId } = expectSuccess(await call(installed.client, 'create_session'));
    const page = expectSuccess(await call(installed.client, 'navigate', { sessionId, url: fx.urlFor('/pages/home') }));
    expect(page).toMatchObject({ title: 'Home', status: 200 });
    // It really is the installed copy running, not the workspace's.
    expect(installed.stderrText()).toContain('@sessionwright/playwright-mcp 0.1.0 serving MCP on stdio');
    expect(readFileSync(`/proc/${installed.pid}/cmdline`, 'utf8').replaceAll('\0', ' ')).toContain(app);
  });
});
