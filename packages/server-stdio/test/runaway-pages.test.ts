// Runaway pages end to end (docs/limits.md): a flooding session is stopped with runaway_page while another session's navigations keep their speed, and over HTTP each identity has a browser of its own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pipeBrowsers, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, useServerWithFixture } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';

const FLOODS = {
  'flood-console': `<title>Console flood</title><script>setInterval(() => { for (let i = 0; i < 20000; i++) console.log('line ' + i); }, 0);</script>`,
  'flood-fetch': `<title>Fetch flood</title><script>setInterval(() => { for (let i = 0; i < 200; i++) fetch('/status/204?' + Math.random()).catch(() => {}); }, 0);</script>`,
  'flood-worker': `<title>Worker flood</title><script>new Worker(URL.createObjectURL(new Blob(["setInterval(() => { for (let i = 0; i < 20000; i++) console.log('w' + i); }, 0)"])));</script>`,
  plain: '<title>Plain</title><p>plain</p>',
};

const CALL_TIMEOUT = 30_000;

/** Navigates to the plain page `times` times, or for `forMs`, and answers how long each navigation took. */
async function navigations(navigate: () => Promise<void>, until: { times?: number; forMs?: number }): Promise<number[]> {
  const took: number[] = [];
  const end = Date.now() + (until.forMs ?? 0);
  while (took.length < (until.times ?? 0) || Date.now() < end) {
    const started = Date.now();
    await navigate();
    took.push(Date.now() - started);
  }
  return took;
}

/**
 * The flooding session's calls until one answers an error (its navigation to the flood, then a title read, again and
 * again): that error, and how long the calls took in all.
 */
async function firstError(load: () => Promise<Outcome>, read: () => Promise<Outcome>): Promise<{ json: any; ms: number }> {
  const started = Date.now();
  for (let outcome = await load(); ; outcome = await read()) {
    if (outcome.isError) return { json: outcome.json, ms: Date.now() - started };
    if (Date.now() - started > 60_000) throw new Error('no call answered an error within a minute');
  }
}

type Outcome = { isError: boolean; json: Record<string, unknown> };

describe('over one connection', () => {
  const server = useServerWithFixture(['--max-sessions', '20', '--call-timeout', String(CALL_TIMEOUT)], { pages: FLOODS });

  it.each(['flood-console', 'flood-fetch'])('stops %s with runaway_page while another session navigates at its usual speed', async (page) => {
    const other = await server.createSession();
    const flooder = await server.createSession();
    const plain = server.fixture().urlFor('/pages/plain');
    const navigate = async () => void expectSuccess(await server.call('navigate', { sessionId: other, url: plain, timeout: CALL_TIMEOUT }));
    const baseline = await navigations(navigate, { times: 5 });
    const stopped = firstError(
      () => server.call('navigate', { sessionId: flooder, url: server.fixture().urlFor(`/pages/${page}`) }),
      () => server.call('evaluate', { sessionId: flooder, function: '() => document.title' }),
    );
    const during = await navigations(navigate, { forMs: 8_000 });
    const { json, ms } = await stopped;
    expect(json).toMatchObject({ errorCode: 'BROWSER_ERROR', sessionId: flooder, details: { reason: 'runaway_page', pageReplaced: true } });
    expect(json.details.bound).toBe(page === 'flood-fetch' ? 'requests' : 'console');
    expect(json.message).toMatch(/stopped it/);
    // The flooder's own calls end within the ceiling however busy the browser is.
    expect(ms).toBeLessThan(CALL_TIMEOUT * 2);
    // Wide margins: the same flood left unchecked held the other session's navigations for tens of seconds.
    expect(Math.max(...during), `baseline ${baseline.join(' ')}; during ${during.join(' ')}`).toBeLessThan(Math.max(...baseline) + 8_000);
    // Reported once: the session goes on, on a fresh blank page.
    expect(expectSuccess(await server.call('snapshot', { sessionId: flooder })).url).toBe('about:blank');
  });
});

describe('over HTTP with identities', () => {
  let dir: string;
  let http: HttpCli;
  let fixture: FixtureServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-runaway-'));
    const tokens = path.join(dir, 'tokens');
    writeFileSync(tokens, 'alice alice-token-5e1d0c\nbob bob-token-a41f93\n');
    fixture = await startFixtureServer({ pages: FLOODS });
    http = await startHttpCli(['--auth-tokens-file', tokens, '--call-timeout', String(CALL_TIMEOUT)]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await http?.stop();
    await fixture?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function as(token: string): Promise<Client> {
    const { client } = await connectStreamable(http.base, { Authorization: `Bearer ${token}` });
    clients.push(client);
    return client;
  }

  it("gives each identity a browser of its own, so a flood only the collectors see does not slow the other's navigations", async () => {
    const [alice, bob] = await Promise.all([as('alice-token-5e1d0c'), as('bob-token-a41f93')]);
    const flooder = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    const other = expectSuccess(await call(bob, 'create_session')).sessionId as string;
    expect(await pipeBrowsers(http.pid)).toHaveLength(2);
    const plain = fixture.urlFor('/pages/plain');
    const navigate = async () => void expectSuccess(await call(bob, 'navigate', { sessionId: other, url: plain, timeout: CALL_TIMEOUT }));
    const baseline = await navigations(navigate, { times: 5 });
    const stopped = firstError(
      () => call(alice, 'navigate', { sessionId: flooder, url: fixture.urlFor('/pages/flood-worker') }),
      () => call(alice, 'evaluate', { sessionId: flooder, function: '() => document.title' }),
    );
    const during = await navigations(navigate, { forMs: 8_000 });
    expect(Math.max(...during), `baseline ${baseline.join(' ')}; during ${during.join(' ')}`).toBeLessThan(Math.max(...baseline) + 8_000);
    const { json } = await stopped;
    expect(json.details).toMatchObject({ reason: 'runaway_page', bound: 'console' });
    expectError(await call(bob, 'navigate', { sessionId: flooder, url: plain }), 'SESSION_NOT_FOUND', flooder);
  });
});
