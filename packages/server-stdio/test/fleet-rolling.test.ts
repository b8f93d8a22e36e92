// A deploy that needs no help from the balancer: a rolling restart behind HAProxy that does not retry (TCP checks, no retry-on), under load from a 2025 and a 2026-07-28 client, fails no call.
import { HAPROXY_PLAIN_CONFIG, hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, startFleet, type Fleet } from './fleet-helpers.js';
import { connectStreamable } from './http-helpers.js';
import { modernCall } from './modern-helpers.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
const alice = { token: ALICE };
let fixture: FixtureServer;
let fleet: Fleet;

beforeAll(async () => {
  if (!parts) return;
  fixture = await startFixtureServer();
  fleet = await startFleet(3, [], HAPROXY_PLAIN_CONFIG);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
});

/** Whether an SDK error is a 404 for the client's MCP connection: the protocol's word to initialize again. */
const connectionEnded = (error: unknown) => /\b404\b|Session not found/.test(String(error));

describe.skipIf(!parts)('a rolling restart behind a balancer that does not retry', () => {
  it('restarts every replica, one after another, under load from both eras, and fails no call', async () => {
    const pages = ['/pages/home', '/pages/form'];
    const modernSession = (await modernCall(fleet.balancer.url, 'create_session', {}, alice)).json.sessionId as string;
    const connect = async () => (await connectStreamable(fleet.balancer.url, { Authorization: `Bearer ${ALICE}` })).client;
    let client: Client = await connect();
    /** A new MCP connection; one whose handshake met a replica ending its drain window (404) is made again. */
    const reconnect = async (): Promise<Client> => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await connect();
        } catch (error) {
          if (!connectionEnded(error) || attempt === 5) {
            failures.push(`2025 initialize: ${String(error)}`);
            return client;
          }
        }
      }
    };
    const created = (await client.callTool({ name: 'create_session', arguments: {} })).content as { text: string }[];
    const legacySession = (JSON.parse(created[0]?.text ?? '{}') as { sessionId: string }).sessionId;
    let stop = false;
    const failures: string[] = [];
    let modernCalls = 0;
    let legacyCalls = 0;
    let reconnects = 0;
    const modernLoad = (async () => {
      while (!stop) {
        const url = fixture.urlFor(pages[modernCalls % 2]!);
        try {
          const answer = await modernCall(fleet.balancer.url, 'navigate', { sessionId: modernSession, url }, alice);
          modernCalls += 1;
          if (answer.status !== 200 || answer.response?.result?.isError || answer.json?.url !== url)
            failures.push(`2026: ${answer.status} ${JSON.stringify(answer.json ?? answer.response)}`);
        } catch (error) {
          failures.push(`2026: ${String(error)}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    })();
    const legacyLoad = (async () => {
      while (!stop) {
        const url = fixture.urlFor(pages[legacyCalls % 2]!);
        try {
          const result = await client.callTool({ name: 'navigate', arguments: { sessionId: legacySession, url } });
          legacyCalls += 1;
          const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
          if (result.isError || !text.includes(url)) failures.push(`2025: ${text}`);
        } catch (error) {
          // The MCP connection lived on a replica that stopped: the client initializes a new one, as the protocol asks, and calls again.
          if (!connectionEnded(error)) {
            failures.push(`2025: ${String(error)}`);
            // A failure is reported, never spun on: the restarts go on meanwhile.
            await new Promise((resolve) => setTimeout(resolve, 200));
          } else {
            reconnects += 1;
            await client.close().catch(() => {});
            client = await reconnect();
          }
        }
      }
    })();
    for (const replica of fleet.replicas) {
      await replica.stop();
      await replica.start();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    stop = true;
    await Promise.all([modernLoad, legacyLoad]);
    expect(failures, fleet.replicas.map((replica) => replica.cli.stderr().slice(-3000)).join('\n----\n')).toEqual([]);
    expect(modernCalls).toBeGreaterThan(10);
    expect(legacyCalls).toBeGreaterThan(10);
    // At most one new connection per restart, and one more for a connection opened at a replica in its drain window.
    expect(reconnects).toBeLessThanOrEqual(2 * fleet.replicas.length);
    await client.close();
  }, 300_000);
});
