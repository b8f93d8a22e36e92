// Clients on the official Python MCP SDK: one written as agent frameworks' PlaywrightSession is (2025 era) drives --profile
// playwright over stdio and over legacy SSE at the bare URL; the SDK's own Client negotiates 2026-07-28 over /mcp and stdio.
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from './helpers.js';
import { type HttpCli, startHttpCli } from './http-helpers.js';
import { runPythonClient, skipWithoutSdk, summaryOf } from './python-client.js';

/** The first run installs the Python MCP SDK into a cached venv (scripts/python-client.sh): a minute or so where pip installs it from the configured index. */
const FIRST_RUN_TIMEOUT = 480_000;

let fixture: FixtureServer;
beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
});

describe('the Python MCP SDK client (PlaywrightSession)', () => {
  it(
    'over stdio: browser_navigate, browser_snapshot read as JSON, two sessions by sessionId, a confirm answered with browser_handle_dialog',
    async (ctx) => {
      const page = fixture.urlFor('/pages/home');
      const dialog = fixture.urlFor('/pages/dialog');
      const run = await runPythonClient([page, '--dialog', dialog, 'stdio', process.execPath, CLI_PATH, '--headless', '--profile', 'playwright']);
      skipWithoutSdk(ctx, run);
      const summary = summaryOf(run);
      expect(summary).toEqual({ url: page, title: 'Home', refs: true, sessions: 3, dialog: 'confirm' });
    },
    FIRST_RUN_TIMEOUT,
  );

  describe('over legacy SSE at the bare URL', () => {
    let server: HttpCli;
    beforeAll(async () => {
      server = await startHttpCli(['--profile', 'playwright']);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it(
      'gives each connection its own page, as for the first client',
      async (ctx) => {
        const page = fixture.urlFor('/pages/form');
        // Two agents at once, each on its own connection: each sees only its own page and sessions.
        const runs = await Promise.all([
          runPythonClient([page, 'sse', server.base]),
          runPythonClient([fixture.urlFor('/pages/home'), 'sse', `${server.base}/`]),
        ]);
        skipWithoutSdk(ctx, ...runs);
        expect(summaryOf(runs[0])).toEqual({ url: page, title: 'Form', refs: true, sessions: 3 });
        expect(summaryOf(runs[1])).toEqual({ url: fixture.urlFor('/pages/home'), title: 'Home', refs: true, sessions: 3 });
      },
      FIRST_RUN_TIMEOUT,
    );
  });
});

describe("the Python MCP SDK's 2026-07-28 Client", () => {
  let server: HttpCli;
  beforeAll(async () => {
    server = await startHttpCli();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The JSON line python-modern-client.py prints when every check passed. */
  function modernSummaryOf(run: { code: number | null; stdout: string; stderr: string }) {
    expect(run.code, `python client failed:\n${run.stderr}`).toBe(0);
    return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { protocols: string[]; clicked: string; other: string };
  }

  it(
    'over /mcp: creates two sessions with one client and drives them from later, independent clients, in parallel',
    async (ctx) => {
      const run = await runPythonClient(['modern', fixture.urlFor('/pages/form'), 'http', `${server.base}/mcp`]);
      skipWithoutSdk(ctx, run);
      expect(modernSummaryOf(run)).toEqual({ protocols: ['2026-07-28'], clicked: fixture.urlFor('/submit'), other: 'about:blank' });
    },
    FIRST_RUN_TIMEOUT,
  );

  it(
    'over stdio: the same, in one server process',
    async (ctx) => {
      const run = await runPythonClient(['modern', fixture.urlFor('/pages/form'), 'stdio', process.execPath, CLI_PATH, '--headless']);
      skipWithoutSdk(ctx, run);
      expect(modernSummaryOf(run)).toEqual({ protocols: ['2026-07-28'], clicked: fixture.urlFor('/submit'), other: 'about:blank' });
    },
    FIRST_RUN_TIMEOUT,
  );
});
