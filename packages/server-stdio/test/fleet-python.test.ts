// The official Python MCP SDK's 2025 client (legacy SSE, as agent frameworks' PlaywrightSession connects) drives a fleet through HAProxy in round robin: its messages reach the replica that holds its stream.
import { hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, startFleet, type Fleet } from './fleet-helpers.js';
import { runPythonClient, skipWithoutSdk, summaryOf } from './python-client.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
let fixture: FixtureServer;
let fleet: Fleet;

beforeAll(async () => {
  if (!parts) return;
  fixture = await startFixtureServer();
  fleet = await startFleet(3, ['--profile', 'playwright']);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
});

describe.skipIf(!parts)('the Python MCP SDK 2025 client against a fleet of three behind HAProxy', () => {
  it('drives its implicit page and two sessions over legacy SSE, its messages spread over the replicas', async (ctx) => {
    const page = fixture.urlFor('/pages/form');
    // Two agents at once (two identities, so each lists its own three sessions), each on its own stream: the balancer
    // sends each message to any replica.
    const runs = await Promise.all([
      runPythonClient([page, 'sse', fleet.balancer.url], ALICE),
      runPythonClient([fixture.urlFor('/pages/home'), 'sse', `${fleet.balancer.url}/sse`], BOB),
    ]);
    skipWithoutSdk(ctx, ...runs);
    const summaries = runs.map(summaryOf);
    expect(summaries[0]).toEqual({ url: page, title: 'Form', refs: true, sessions: 3 });
    expect(summaries[1]).toEqual({ url: fixture.urlFor('/pages/home'), title: 'Home', refs: true, sessions: 3 });
  }, 480_000);
});
