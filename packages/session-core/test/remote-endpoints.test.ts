// Sessions on browsers served elsewhere: real launchServer() browser servers in child processes, spread, lost, restarted, capped.
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import {
  isAlive,
  startBrowserServer,
  startFixtureServer,
  startVersionMismatchServer,
  waitFor,
  type BrowserServer,
  type FixtureServer,
} from '@sessionwright/test-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RemoteBrowser, SessionManager, type Logger, type Session } from '../src/index.js';
import { playwrightVersion, resolveExecutable } from '../src/parts.js';
import { rejectionOf } from './session-errors.js';

const PLAYWRIGHT = createRequire(import.meta.url).resolve('playwright');
const EXECUTABLE = resolveExecutable({ browser: 'chromium', headless: true }).executablePath;

function serverOptions(extra: { port?: number; wsPath?: string } = {}) {
  return { playwright: PLAYWRIGHT, ...(EXECUTABLE === undefined ? {} : { executablePath: EXECUTABLE }), ...extra };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), debug: (m) => lines.push(`debug ${m}`) };
}

/** A source that retries quickly, so a restarted server is found again within a test's patience. */
function remote(endpoint: string, logger?: Logger): RemoteBrowser {
  return new RemoteBrowser({ kind: 'connect', endpoint, retryInitial: 100, retryMax: 1_000, ...(logger ? { logger } : {}) });
}

/** Sources connected before the test counts where sessions go (otherwise the first may all land on the quicker one). */
async function connected(...sources: RemoteBrowser[]): Promise<RemoteBrowser[]> {
  await Promise.all(sources.map((source) => source.start().browser()));
  return sources;
}

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let fixture: FixtureServer;
let serverA: BrowserServer;
let serverB: BrowserServer;
const managers: SessionManager[] = [];
function track(manager: SessionManager): SessionManager {
  managers.push(manager);
  return manager;
}

beforeAll(async () => {
  fixture = await startFixtureServer();
  [serverA, serverB] = await Promise.all([startBrowserServer(serverOptions()), startBrowserServer(serverOptions())]);
});

// Some tests kill a browser server (and one brings it back): every test starts with both up, whatever ran before it.
beforeEach(async () => {
  if (!isAlive(serverA.pid)) serverA = await startBrowserServer(serverOptions());
  if (!isAlive(serverB.pid)) serverB = await startBrowserServer(serverOptions());
});

afterAll(async () => {
  await Promise.all(managers.map((manager) => manager.shutdown()));
  await Promise.all([serverA.kill(), serverB.kill(), fixture.close()]);
});

const labelOf = (server: BrowserServer) => `ws://127.0.0.1:${server.port}`;

function countBy(sessions: Session[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const session of sessions) counts[session.endpoint] = (counts[session.endpoint] ?? 0) + 1;
  return counts;
}

describe('several browser endpoints', () => {
  it('spread new sessions by load and label each with scheme, host and port only', async () => {
    const manager = track(new SessionManager({ host: await connected(remote(serverA.wsEndpoint), remote(serverB.wsEndpoint)), warmSessions: 1 }));
    const sessions: Session[] = [];
    for (let i = 0; i < 4; i += 1) sessions.push(await manager.create());
    expect(countBy(sessions)).toEqual({ [labelOf(serverA)]: 2, [labelOf(serverB)]: 2 });
    // Concurrent creations count while in flight, so they spread too.
    const more = await Promise.all([manager.create(), manager.create()]);
    expect(countBy(more)).toEqual({ [labelOf(serverA)]: 1, [labelOf(serverB)]: 1 });
    for (const session of [...sessions, ...more]) {
      const title = await manager.run(session.id, async (page) => {
        await page.goto(fixture.urlFor('/'));
        return page.title();
      });
      expect(title).not.toBe('');
    }
    const listed = await manager.list();
    expect(listed.map((info) => info.endpoint).sort()).toEqual([...sessions, ...more].map((session) => session.endpoint).sort());
    const text = JSON.stringify(listed);
    expect(text).not.toContain(serverA.wsPath);
    expect(text).not.toContain(serverB.wsPath);
    await manager.shutdown();
  });

  it('respect a per-endpoint maxSessions from the URL fragment', async () => {
    const [a, b] = await connected(remote(`${serverA.wsEndpoint}#maxSessions=1`), remote(`${serverB.wsEndpoint}#maxSessions=2`));
    expect([a?.maxSessions, b?.maxSessions]).toEqual([1, 2]);
    const manager = track(new SessionManager({ host: [a, b] as RemoteBrowser[], maxSessions: 10 }));
    const sessions = [await manager.create(), await manager.create(), await manager.create()];
    expect(countBy(sessions)).toEqual({ [labelOf(serverA)]: 1, [labelOf(serverB)]: 2 });
    const full = await rejectionOf(manager.create());
    expect(full.code).toBe('MAX_SESSIONS_REACHED');
    expect(full.details).toMatchObject({ scope: 'endpoint', maxSessions: 3 });
    // A closed session frees its endpoint's place.
    await manager.close(sessions.find((session) => session.endpoint === labelOf(serverA))?.id ?? '');
    expect((await manager.create()).endpoint).toBe(labelOf(serverA));
    await manager.shutdown();
  });

  it('only disconnect on shutdown: the browser servers stay up and serve the next client', async () => {
    const source = remote(serverA.wsEndpoint).start();
    const manager = track(new SessionManager({ host: source }));
    const session = await manager.create();
    await manager.run(session.id, (page) => page.goto(fixture.urlFor('/')));
    await manager.shutdown();
    expect(source.available).toBe(false);
    expect(session.browser.isConnected()).toBe(false);
    expect(isAlive(serverA.pid)).toBe(true);
    const again = track(new SessionManager({ host: remote(serverA.wsEndpoint).start() }));
    const next = await again.create();
    expect(next.endpoint).toBe(labelOf(serverA));
    await again.shutdown();
  });

  it('lose one: only its sessions end, new ones go to the other, and it is used again once back at the same address', async () => {
    const logger = recordingLogger();
    const a = remote(serverA.wsEndpoint, logger);
    const b = remote(serverB.wsEndpoint, logger);
    await connected(a, b);
    const manager = track(new SessionManager({ host: [a, b], warmSessions: 1, logger }));
    const sessions: Session[] = [];
    for (let i = 0; i < 4; i += 1) sessions.push(await manager.create());
    const onA = sessions.filter((session) => session.endpoint === labelOf(serverA));
    const onB = sessions.filter((session) => session.endpoint === labelOf(serverB));
    expect([onA.length, onB.length]).toEqual([2, 2]);

    // A call in flight on A when it goes.
    // Its outcome is awaited from the start: it settles while the server is being killed.
    const inFlight = rejectionOf(manager.run(onA[0]!.id, (page) => page.goto(fixture.urlFor('/hang'))));
    await waitFor(() => fixture.requests.includes('/hang'));
    const { port, wsPath } = serverA;
    await serverA.kill();

    const lost = await inFlight;
    expect(lost.code).toBe('SESSION_NOT_FOUND');
    expect(lost.details?.reason).toBe('browser_disconnected');
    await waitFor(() => !a.available);
    for (const session of onA) {
      const error = await rejectionOf(manager.run(session.id, (page) => page.title()));
      expect(error.code).toBe('SESSION_NOT_FOUND');
      expect(error.details?.reason).toBe('browser_disconnected');
    }
    for (const session of onB) {
      await manager.run(session.id, (page) => page.goto(fixture.urlFor('/')));
    }
    const meanwhile = [await manager.create(), await manager.create()];
    expect(countBy(meanwhile)).toEqual({ [labelOf(serverB)]: 2 });

    serverA = await startBrowserServer(serverOptions({ port, wsPath }));
    await waitFor(() => a.available, { timeout: 20_000 });
    // A holds nothing and B four: the next sessions go to A.
    const back = [await manager.create(), await manager.create()];
    expect(countBy(back)).toEqual({ [labelOf(serverA)]: 2 });
    for (const session of back) await manager.run(session.id, (page) => page.goto(fixture.urlFor('/')));
    expect(logger.lines.join('\n')).not.toContain(wsPath);
    await manager.shutdown();
  });

  it('with every endpoint down, create answers no_browser_available at once instead of hanging', async () => {
    const a = remote(serverA.wsEndpoint);
    const b = remote(serverB.wsEndpoint);
    await connected(a, b);
    const manager = track(new SessionManager({ host: [a, b] }));
    await manager.create();
    await Promise.all([serverA.kill(), serverB.kill()]);
    await waitFor(() => !a.available && !b.available);
    const started = Date.now();
    const error = await rejectionOf(manager.create());
    // A hang guard, not a benchmark: a creation with nothing to connect to waits a few seconds at most.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.details?.reason).toBe('no_browser_available');
    expect(error.details?.endpoints).toEqual([
      expect.objectContaining({ endpoint: labelOf(serverA) }),
      expect.objectContaining({ endpoint: labelOf(serverB) }),
    ]);
    expect(JSON.stringify(error.details) + error.message).not.toContain(serverA.wsPath);
    await manager.shutdown();
  });
});

describe('one endpoint that cannot serve us', () => {
  it('answers version_mismatch with both versions when the server runs another Playwright', async () => {
    const mismatch = await startVersionMismatchServer('1.99');
    try {
      const manager = track(new SessionManager({ host: remote(mismatch.url).start() }));
      const error = await rejectionOf(manager.create());
      expect(error.code).toBe('BROWSER_ERROR');
      expect(error.details).toMatchObject({ reason: 'version_mismatch', serverVersion: '1.99', clientVersion: playwrightVersion() });
      expect(error.message).toContain('1.99');
      expect(error.message).toContain(playwrightVersion());
      await manager.shutdown();
    } finally {
      await mismatch.close();
    }
  });

  it('answers browser_unreachable when nothing listens there, with no token or path in the answer or the log', async () => {
    const port = await closedPort();
    const logger = recordingLogger();
    const source = remote(`ws://127.0.0.1:${port}/secret-path-1234?token=hunter2#maxSessions=3`, logger).start();
    expect(source.label).toBe(`ws://127.0.0.1:${port}`);
    const manager = track(new SessionManager({ host: source, logger }));
    const error = await rejectionOf(manager.create());
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.details).toMatchObject({ reason: 'browser_unreachable', endpoint: `ws://127.0.0.1:${port}` });
    const everything = `${error.message} ${JSON.stringify(error.details)} ${logger.lines.join('\n')}`;
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('secret-path-1234');
    expect(logger.lines.some((line) => line.includes(`ws://127.0.0.1:${port}`))).toBe(true);
    await manager.shutdown();
  });
});
