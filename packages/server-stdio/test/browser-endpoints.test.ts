// --browser-endpoint and --cdp-endpoint end to end: the built CLI over stdio in front of real browser servers and a CDP Chromium.
import { createRequire } from 'node:module';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import {
  browserProcesses,
  isAlive,
  startBrowserServer,
  startCdpBrowser,
  startFixtureServer,
  startVersionMismatchServer,
  waitFor,
  type BrowserServer,
  type FixtureServer,
} from '@sessionwright/test-kit';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectError, expectSuccess, run, startCli } from './helpers.js';

const require = createRequire(import.meta.url);
const PLAYWRIGHT = require.resolve('playwright');
const EXECUTABLE =
  resolveExecutable({ browser: 'chromium', headless: true }).executablePath ??
  (require('playwright') as { chromium: { executablePath(): string } }).chromium.executablePath();

let fixture: FixtureServer;
beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(() => fixture.close());

describe('--browser-endpoint', () => {
  let serverA: BrowserServer;
  let serverB: BrowserServer;
  beforeAll(async () => {
    [serverA, serverB] = await Promise.all([
      startBrowserServer({ playwright: PLAYWRIGHT, executablePath: EXECUTABLE }),
      startBrowserServer({ playwright: PLAYWRIGHT, executablePath: EXECUTABLE }),
    ]);
  });
  afterAll(() => Promise.all([serverA.kill(), serverB.kill()]));

  it('spreads sessions over two servers, launches nothing locally, keeps tokens out of results and logs, and survives losing one', async () => {
    const labelA = `ws://127.0.0.1:${serverA.port}`;
    const labelB = `ws://127.0.0.1:${serverB.port}`;
    const conn = await startCli([
      '--browser-endpoint',
      `${serverA.wsEndpoint}?token=SECRET-TOKEN-A`,
      '--browser-endpoint',
      `${serverB.wsEndpoint}?token=SECRET-TOKEN-B#maxSessions=5`,
      '--max-sessions',
      '20',
    ]);
    try {
      // Both connected before counting where sessions go (the first would otherwise all land on the quicker one).
      await waitFor(
        () => conn.stderrText().includes(`browser endpoint ${labelA} connected`) && conn.stderrText().includes(`browser endpoint ${labelB} connected`),
        {
          timeout: 20_000,
        },
      );
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) ids.push(expectSuccess(await call(conn.client, 'create_session')).sessionId as string);
      for (const sessionId of ids) {
        // The title comes through Playwright's public API here: a browser server has no server-side session in this process.
        expect(expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') })).title).toBe('Home');
      }
      const listed = expectSuccess(await call(conn.client, 'list_sessions'));
      const endpointOf = new Map<string, string>(
        listed.sessions.map((session: { sessionId: string; endpoint: string }) => [session.sessionId, session.endpoint]),
      );
      expect([...endpointOf.values()].sort()).toEqual([labelA, labelA, labelB, labelB].sort());
      // Sessions run on the servers' browsers: this server started none of its own.
      expect(await browserProcesses(conn.pid!)).toEqual([]);

      await serverA.kill();
      const onA = ids.filter((id) => endpointOf.get(id) === labelA);
      const onB = ids.filter((id) => endpointOf.get(id) === labelB);
      for (const sessionId of onA) {
        const lost = expectError(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }), 'SESSION_NOT_FOUND', sessionId);
        expect(lost.details.reason).toBe('browser_disconnected');
      }
      for (const sessionId of onB) expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
      const next = expectSuccess(await call(conn.client, 'create_session')).sessionId as string;
      const after = expectSuccess(await call(conn.client, 'list_sessions'));
      expect(after.sessions.find((session: { sessionId: string }) => session.sessionId === next).endpoint).toBe(labelB);

      await serverB.kill();
      await waitFor(() => conn.stderrText().includes(`browser endpoint ${labelB} disconnected`));
      const none = expectError(await call(conn.client, 'create_session'), 'BROWSER_ERROR');
      expect(none.details.reason).toBe('no_browser_available');

      const everything = `${JSON.stringify(listed)} ${JSON.stringify(after)} ${JSON.stringify(none)} ${conn.stderrText()}`;
      for (const secret of ['SECRET-TOKEN-A', 'SECRET-TOKEN-B', serverA.wsPath, serverB.wsPath]) expect(everything).not.toContain(secret);
      expect(conn.stderrText()).toContain(labelA);
    } finally {
      await conn.close();
    }
    expect(conn.stderrText()).not.toContain('SECRET-TOKEN');
  });

  it('answers version_mismatch with both versions when the server runs another Playwright', async () => {
    const mismatch = await startVersionMismatchServer('1.99');
    const conn = await startCli(['--browser-endpoint', mismatch.url]);
    try {
      const error = expectError(await call(conn.client, 'create_session'), 'BROWSER_ERROR');
      expect(error.details).toMatchObject({
        reason: 'version_mismatch',
        serverVersion: '1.99',
        clientVersion: (require('playwright/package.json') as { version: string }).version,
      });
    } finally {
      await conn.close();
      await mismatch.close();
    }
  });
});

describe('--cdp-endpoint', () => {
  it('runs sessions on a Chromium it did not start, and leaves it running after exiting', async () => {
    const chromium = await startCdpBrowser({ executablePath: EXECUTABLE });
    try {
      const conn = await startCli(['--cdp-endpoint', chromium.endpoint]);
      const serverPid = conn.pid!;
      try {
        const { sessionId } = expectSuccess(await call(conn.client, 'create_session'));
        const page = expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
        expect(page.title).toBe('Home');
        const listed = expectSuccess(await call(conn.client, 'list_sessions'));
        expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, endpoint: chromium.endpoint })]);
      } finally {
        await conn.close();
      }
      await waitFor(() => !isAlive(serverPid), { timeout: 10_000 });
      expect(isAlive(chromium.pid)).toBe(true);
      // Still serving CDP: the next client gets it.
      const pw = require('playwright') as typeof import('playwright');
      const browser: Browser = await pw.chromium.connectOverCDP(chromium.endpoint);
      expect(browser.isConnected()).toBe(true);
      await browser.close();
      expect(isAlive(chromium.pid)).toBe(true);
    } finally {
      await chromium.kill();
    }
  });
});

describe('endpoint flags', () => {
  it.each([
    [['--browser-endpoint', 'not a url'], 'browser endpoint must be a URL'],
    [['--browser-endpoint', 'ftp://host:21/'], 'must start with ws://'],
    [['--cdp-endpoint', 'http://127.0.0.1:9222/#maxSessions=0'], 'maxSessions'],
    [['--browser-endpoint', 'ws://127.0.0.1:3000/?token=SECRET-IN-FLAG#cap=2'], 'unknown endpoint setting'],
    [['--browser-endpoint'], 'needs a value'],
  ])('%j exits with status 2 and one line, naming no token', async (flags, message) => {
    const result = await run(process.execPath, [CLI_PATH, ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('SECRET-IN-FLAG');
  });
});
