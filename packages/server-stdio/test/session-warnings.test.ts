// A session's warnings reach only its identity (docs/http.md): a runaway page stopped in alice's session is told to alice's connections as an MCP log message, never to bob's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSuccess } from './helpers.js';
import { connectStreamable, startHttpCli, type HttpCli } from './http-helpers.js';

const ALICE = 'alice-token-9f4c1e7a';
const BOB = 'bob-token-2b6d8a0c31';

const PAGES = {
  'flood-console': `<title>Console flood</title><script>setInterval(() => { for (let i = 0; i < 20000; i++) console.log('line ' + i); }, 0);</script>`,
};

let dir: string;
let server: HttpCli;
let fixture: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-session-warnings-'));
  writeFileSync(path.join(dir, 'tokens'), `alice ${ALICE}\nbob ${BOB}\n`);
  fixture = await startFixtureServer({ pages: PAGES });
  server = await startHttpCli(['--auth-tokens-file', path.join(dir, 'tokens'), '--call-timeout', '30000']);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await server?.stop();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A 2025 client of `token`, and the log messages the server sends it. */
async function as(token: string): Promise<{ client: Client; logs: string[] }> {
  const { client } = await connectStreamable(server.base, { Authorization: `Bearer ${token}` });
  clients.push(client);
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(`${notification.params.level} ${String(notification.params.data)}`);
  });
  return { client, logs };
}

describe("a session's warnings", () => {
  it("reach its identity's connections and no other identity's", async () => {
    const alice = await as(ALICE);
    const aliceElsewhere = await as(ALICE);
    const bob = await as(BOB);
    const bobSession = expectSuccess(await call(bob.client, 'create_session')).sessionId as string;
    const aliceSession = expectSuccess(await call(alice.client, 'create_session')).sessionId as string;
    // alice's page floods the console until the runaway guard stops it.
    // The stop is answered once, to the call that meets it (the navigation itself, or a later one).
    let answer = await call(alice.client, 'navigate', { sessionId: aliceSession, url: fixture.urlFor('/pages/flood-console') });
    for (const started = Date.now(); !answer.isError && Date.now() - started < 60_000; ) {
      answer = await call(alice.client, 'evaluate', { sessionId: aliceSession, function: '() => document.title' });
    }
    expect(answer.json).toMatchObject({ errorCode: 'BROWSER_ERROR', details: { reason: 'runaway_page', bound: 'console' } });
    const warning = (logs: string[]) => logs.find((line) => line.includes('passed the console bound'));
    await expect.poll(() => warning(alice.logs), { timeout: 10_000 }).toBeDefined();
    expect(warning(alice.logs)).toMatch(new RegExp(`^warning session ${aliceSession.slice(0, 8)}`));
    // Every connection of the identity hears of it.
    await expect.poll(() => warning(aliceElsewhere.logs), { timeout: 10_000 }).toBeDefined();
    // bob's connection, busy the while, hears nothing of it, nor of alice's session at all.
    expectSuccess(await call(bob.client, 'navigate', { sessionId: bobSession, url: 'data:text/html,<title>Bob</title>' }));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(warning(bob.logs)).toBeUndefined();
    expect(bob.logs.join('\n')).not.toContain(aliceSession.slice(0, 8));
  }, 90_000);
});
