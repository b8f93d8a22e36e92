// The command starts Chromium before Playwright has loaded, as its last start with the same settings launched it: the
// launch takes that browser when it asks for the same command, and nothing started early outlives the command or its use.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAlive, pipeBrowsers, startFixtureServer, waitFor, type FixtureServer, type ProcInfo } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectSuccess, startCli } from './helpers.js';

let fixture: FixtureServer;
beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { app: '<!doctype html><title>Early</title><p>served</p>' } });
});
afterAll(() => fixture.close());

/** A cache home and a temporary directory of the test's own: the launch records and every browser profile land there. */
function sandbox() {
  const root = mkdtempSync(path.join(tmpdir(), 'sessionwright-early-'));
  const cache = path.join(root, 'cache');
  const tmp = path.join(root, 'tmp');
  for (const dir of [cache, tmp]) mkdirSync(dir);
  const env = { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cache, TMPDIR: tmp };
  const launchDir = path.join(cache, 'sessionwright', 'launch');
  const records = () => readdirSync(launchDir).filter((name) => !name.endsWith('.tmp'));
  return { root, tmp, env, launchDir, records, remove: () => rmSync(root, { recursive: true, force: true }) };
}
/** Runs a test in a sandbox of its own, removed afterwards. */
async function inSandbox(test: (box: ReturnType<typeof sandbox>) => Promise<void>): Promise<void> {
  const box = sandbox();
  try {
    await test(box);
  } finally {
    box.remove();
  }
}

const profileOf = (proc: ProcInfo) => /--user-data-dir=(\S+)/.exec(proc.cmdline)?.[1] ?? '';

async function openAndNavigate(client: Parameters<typeof call>[0]): Promise<void> {
  const { sessionId } = expectSuccess(await call(client, 'create_session'));
  expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/app') }));
  const snapshot = expectSuccess(await call(client, 'snapshot', { sessionId }));
  expect(JSON.stringify(snapshot)).toContain('served');
}

describe('the browser started early', () => {
  it(
    'is the one the next start with the same settings uses, in a profile of its own that goes with it',
    () =>
      inSandbox(async (box) => {
        const first = await startCli([], { env: box.env });
        try {
          await openAndNavigate(first.client);
        } finally {
          await first.close();
        }
        // The first start recorded what Playwright spawned, its profile directory left out.
        expect(box.records()).toHaveLength(1);
        const recordFile = path.join(box.launchDir, box.records()[0]!);
        const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { command: string; args: string[] };
        expect(record.args).toContain('--remote-debugging-pipe');
        expect(record.args.filter((arg) => arg.startsWith('--user-data-dir='))).toEqual(['--user-data-dir=']);
        const recorded = statSync(recordFile).mtimeMs;

        const second = await startCli([], { env: box.env });
        let browser: ProcInfo | undefined;
        try {
          await openAndNavigate(second.client);
          const browsers = await pipeBrowsers(second.pid!);
          // One browser, the early one: Playwright spawned none of its own.
          expect(browsers).toHaveLength(1);
          browser = browsers[0]!;
          expect(browser.cmdline.split(' ')[0]).toBe(record.command);
          expect(profileOf(browser)).toMatch(new RegExp(`^${box.tmp}/sessionwright-profile-`));
        } finally {
          await second.close();
        }
        // Closed with the command, and its profile with it; the same command is not written again.
        await waitFor(() => !isAlive(browser!.pid), { timeout: 10_000 });
        await waitFor(() => readdirSync(box.tmp).length === 0, { timeout: 10_000 });
        expect(statSync(recordFile).mtimeMs).toBe(recorded);
      }),
    90_000,
  );

  it(
    'is killed when the launch asks for another command, which is then recorded',
    () =>
      inSandbox(async (box) => {
        const first = await startCli([], { env: box.env });
        try {
          // The record is written when the browser is up, which a loaded machine may take long for.
          await openAndNavigate(first.client);
        } finally {
          await first.close();
        }
        const recordFile = path.join(box.launchDir, box.records()[0]!);
        const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { command: string; args: string[] };
        // As if the settings had changed since (a new Playwright, another switch): the early browser is not what is asked for.
        writeFileSync(recordFile, JSON.stringify({ ...record, args: [...record.args, '--lang=xx-EARLY'] }));

        const second = await startCli([], { env: box.env });
        try {
          await openAndNavigate(second.client);
          const browsers = await pipeBrowsers(second.pid!);
          expect(browsers).toHaveLength(1);
          expect(browsers[0]!.cmdline).not.toContain('--lang=xx-EARLY');
          expect(profileOf(browsers[0]!)).toMatch(/playwright_chromiumdev_profile-/);
          // The early one's profile went with it.
          expect(readdirSync(box.tmp).filter((name) => name.startsWith('sessionwright-profile-'))).toEqual([]);
        } finally {
          await second.close();
        }
        expect(JSON.parse(readFileSync(recordFile, 'utf8'))).toEqual(record);
      }),
    90_000,
  );

  it(
    'ends with the command, whenever a signal ends it',
    () =>
      inSandbox(async (box) => {
        const first = await startCli(['--verbose'], { env: box.env });
        await first.close();
        // As soon as it is up (before the command has loaded, let alone handled signals), once the command serves, and by SIGKILL.
        for (const [signal, when] of [
          ['SIGTERM', 'early'],
          ['SIGTERM', 'serving'],
          ['SIGKILL', 'serving'],
        ] as const) {
          const command = spawn(process.execPath, [CLI_PATH, '--headless', '--verbose'], { env: box.env, stdio: ['pipe', 'ignore', 'pipe'] });
          let stderr = '';
          command.stderr.on('data', (chunk) => {
            stderr += chunk;
          });
          const exited = new Promise((resolve) => command.once('exit', resolve));
          let early: ProcInfo | undefined;
          await waitFor(
            async () => {
              early = (await pipeBrowsers(command.pid!)).find((proc) => profileOf(proc).includes('sessionwright-profile-'));
              return early !== undefined && (when === 'early' || stderr.includes('serving MCP on stdio'));
            },
            { timeout: 15_000, interval: 5 },
          );
          command.kill(signal);
          await exited;
          // SIGTERM: the command ends it on its way out, profile and all; SIGKILL: the browser sees its pipe close and exits.
          await waitFor(() => !isAlive(early!.pid), { timeout: 15_000 });
          if (signal === 'SIGTERM') expect(readdirSync(box.tmp), when).toEqual([]);
        }
      }),
    90_000,
  );

  it(
    'is let go, and its record dropped, when the start launches nothing locally any more',
    () =>
      inSandbox(async (box) => {
        const config = path.join(box.root, 'config.json');
        writeFileSync(config, '{}');
        const first = await startCli(['--config', config], { env: box.env });
        expectSuccess(await call(first.client, 'create_session'));
        await first.close();
        expect(box.records()).toHaveLength(1);
        // Same command line, but the file now names a remote browser (none listens there): nothing is launched here.
        writeFileSync(config, JSON.stringify({ browserEndpoint: ['ws://127.0.0.1:9/none'] }));
        const second = await startCli(['--config', config], { env: box.env });
        try {
          const [early] = await pipeBrowsers(second.pid!);
          expect(early && profileOf(early)).toContain('sessionwright-profile-');
          await waitFor(() => !isAlive(early!.pid), { timeout: 45_000 });
          expect(box.records()).toEqual([]);
          expect(isAlive(second.pid!)).toBe(true);
        } finally {
          await second.close();
        }
      }),
    90_000,
  );
});
