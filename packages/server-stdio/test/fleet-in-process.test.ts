// The fleet's parts in this process, on a real redis-server: the directory's atomic updates, membership, the store, the keys, and two replicas forwarding, listing and handing over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasProgram, startFixtureServer, startRedis, type FixtureServer, type RedisServer } from '@sessionwright/test-kit';
import { silentLogger } from '@sessionwright/session-core/parts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, startHttpServer } from '../src/index.js';
import { Directory } from '../src/fleet/directory.js';
import { FleetKeys } from '../src/fleet/fleet-keys.js';
import { Membership } from '../src/fleet/membership.js';
import { RedisStore, connectRedis } from '../src/fleet/redis-store.js';
import { RELAY_ENVELOPE_HEADER, RELAY_SIGNATURE_HEADER, RelaySignature } from '../src/fleet/relay-signature.js';
import { UntrustedRecords } from '../src/fleet/untrusted-records.js';
import { closeInProcessReplicas, startInProcessReplica, type InProcessReplica } from './fleet-helpers.js';
import { modernCall } from './modern-helpers.js';

const parts = hasProgram('redis-server');
const KEY = 'in-process-store-key-0123456789';
let redis: RedisServer;
const keys = new FleetKeys(KEY);
const untrusted = new UntrustedRecords({ logger: silentLogger, clock: { now: () => Date.now() } });

beforeAll(async () => {
  if (parts) redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.close();
});

describe.skipIf(!parts)('the directory, the store and the keys', () => {
  it('lets one replica of two claim a session, and never brings a released session back', async () => {
    const connection = connectRedis(redis.url);
    await new Promise((resolve) => connection.once('ready', resolve));
    try {
      const directory = new Directory({ redis: connection, keys, untrusted, ttlMs: 60_000 });
      const record = { sessionId: 's1', replica: 'http://a:1', identity: 'identity:alice', guarded: true, generation: 1 };
      expect(await directory.register(record)).toBe(true);
      expect(await directory.lookup('s1')).toMatchObject({ replica: 'http://a:1', generation: 1, state: 'open', guarded: true });
      // Two replicas claim it from the dead one at once: exactly one wins, with the next generation.
      const claims = await Promise.all([directory.claim(record, 'http://b:1', 'http://a:1', 1), directory.claim(record, 'http://c:1', 'http://a:1', 1)]);
      expect(claims.filter((claim) => claim === 2)).toHaveLength(1);
      const winner = claims[0] === 2 ? 'http://b:1' : 'http://c:1';
      // The old replica's touch (an older generation) changes nothing.
      expect(await directory.touch({ ...record })).toBe(false);
      expect(await directory.touch({ ...record, replica: winner, generation: 2 })).toBe(true);
      expect(await directory.release({ ...record, replica: winner, generation: 2 })).toBe(true);
      // A touch racing the release, and a register after it, cannot reopen it.
      expect(await directory.touch({ ...record, replica: winner, generation: 2 })).toBe(false);
      expect(await directory.register({ ...record, replica: winner, generation: 2 })).toBe(false);
      expect(await directory.claim(record, 'http://d:1', winner, 2)).toBeUndefined();
      expect((await directory.lookup('s1'))?.state).toBe('closed');
      // An identity's places across the fleet: two of two, then none until one is given back.
      expect(await directory.reserve('identity:bob', 'x', 2)).toBe(true);
      expect(await directory.reserve('identity:bob', 'y', 2)).toBe(true);
      expect(await directory.reserve('identity:bob', 'z', 2)).toBe(false);
      await directory.unreserve('identity:bob', 'x');
      expect(await directory.reserve('identity:bob', 'z', 2)).toBe(true);
      expect((await directory.sessionsOf('identity:bob')).sort()).toEqual(['y', 'z']);
      const timers = { setTimeout: () => 0, clearTimeout() {} };
      const membership = new Membership({
        redis: connection,
        keys,
        untrusted,
        logger: silentLogger,
        clock: { now: () => Date.now() },
        timers,
        info: () => ({ sessions: 1, maxSessions: 5, draining: false }),
      });
      membership.start('http://a:1');
      await membership.beat();
      expect(await membership.live(true)).toEqual([{ url: 'http://a:1', sessions: 1, maxSessions: 5, draining: false }]);
      await membership.leave();
      expect(await membership.live(true)).toEqual([]);
    } finally {
      connection.disconnect();
    }
  });

  it('stores, lists and expires records, and answers store_unavailable while Redis is away', async () => {
    const connection = connectRedis(redis.url);
    await new Promise((resolve) => connection.once('ready', resolve));
    const store = new RedisStore(connection);
    try {
      await store.set('t/one', new Uint8Array([1, 2, 3]));
      await store.set('t/two', new Uint8Array([4]), { ttlMs: 50 });
      expect([...((await store.get('t/one')) ?? [])]).toEqual([1, 2, 3]);
      expect((await store.keys('t/')).sort()).toEqual(['t/one', 't/two']);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(await store.get('t/two')).toBeUndefined();
      expect(await store.delete('t/one')).toBe(true);
      expect(await store.delete('t/one')).toBe(false);
      await redis.stop();
      await expect(store.get('t/one')).rejects.toMatchObject({ code: 'BROWSER_ERROR', details: { reason: 'store_unavailable' } });
    } finally {
      await redis.start();
      await store.close();
    }
  });

  it('signs records for their key only', () => {
    const record = keys.signRecord('replica:a', '{"url":"http://a:1"}');
    expect(keys.openRecord('replica:a', record)).toBe('{"url":"http://a:1"}');
    expect(keys.openRecord('replica:b', record)).toBeUndefined();
    expect(keys.openRecord('replica:a', record.replace('a:1', 'b:1'))).toBeUndefined();
    expect(new FleetKeys('another-key-0123456789abcdef').openRecord('replica:a', record)).toBeUndefined();
    for (const garbage of [null, 12, '', 'null', '.x', `${'0'.repeat(64)}.x`]) expect(keys.openRecord('replica:a', garbage)).toBeUndefined();
  });
});

describe.skipIf(!parts)('two replicas in this process', () => {
  let fixture: FixtureServer;
  const replicas: InProcessReplica[] = [];

  beforeAll(async () => {
    fixture = await startFixtureServer();
    for (let index = 0; index < 2; index += 1) replicas.push(await startInProcessReplica(redis.url, KEY, { maxSessionsPerClient: 3 }));
  }, 120_000);
  afterAll(async () => {
    await closeInProcessReplicas(replicas);
    await fixture?.close();
  });

  it('closes its own copy of a session that moved while it was cut off, and serves it from where it went', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const sessionId = (await modernCall(a.base, 'create_session')).json.sessionId as string;
    await modernCall(a.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // B took the session over (as it would from a replica it could not reach), while A still holds its copy.
    const connection = connectRedis(redis.url);
    await new Promise((resolve) => connection.once('ready', resolve));
    try {
      const directory = new Directory({ redis: connection, keys, untrusted, ttlMs: 60_000 });
      const record = await directory.lookup(sessionId);
      if (record === undefined) throw new Error('no directory entry');
      expect(await directory.claim(record, b.base, a.base, record.generation)).toBe(record.generation + 1);
    } finally {
      connection.disconnect();
    }
    const answer = await modernCall(a.base, 'snapshot', { sessionId });
    expect(answer.response.result.isError, JSON.stringify(answer.json)).toBeFalsy();
    expect(answer.json.title).toBe('Form');
    expect(a.runtime.manager.size).toBe(0);
    expect(b.runtime.manager.size).toBe(1);
    expect((await modernCall(a.base, 'close_session', { sessionId })).json.success).toBe(true);
    expect(b.runtime.manager.size).toBe(0);
  }, 120_000);

  it('forwards a call to the replica that holds its session, lists every replica, and restores a session handed over', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const sessionId = (await modernCall(a.base, 'create_session')).json.sessionId as string;
    const navigated = await modernCall(b.base, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=ada') });
    expect(navigated.json.title).toBe('Signed in');
    expect(a.runtime.manager.size).toBe(1);
    expect(b.runtime.manager.size).toBe(0);
    const listed = (await modernCall(b.base, 'list_sessions')).json;
    expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, replica: new URL(a.base).host })]);
    // Signed with another key, or a signature made up: refused before anything runs.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const other = new RelaySignature({ keys: new FleetKeys('another-key-0123456789abcdef'), clock: { now: () => Date.now() } });
    const forged = other.sign({ method: 'POST', path: '/mcp', destination: a.base, body }, { identity: 'local', guarded: false, hops: 1 });
    for (const headers of [forged, { [RELAY_SIGNATURE_HEADER]: `${Date.now()}.${'0'.repeat(32)}.${'0'.repeat(64)}`, [RELAY_ENVELOPE_HEADER]: 'e30' }]) {
      const refused = await fetch(`${a.base}/mcp`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
      expect(refused.status).toBe(403);
    }
    expect((await fetch(`${a.base}/healthz`)).status).toBe(200);
    // A checkpoint follows the call; then A hands its session over, and B restores it for the next call.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await a.runtime.fleet?.drain();
    expect(a.runtime.manager.size).toBe(0);
    const restored = await modernCall(b.base, 'navigate', { sessionId, url: fixture.urlFor('/account') });
    expect(restored.json.restored).toMatchObject({ at: expect.any(Number), lost: expect.any(Array) });
    expect(JSON.stringify((await modernCall(b.base, 'snapshot', { sessionId })).json)).toContain('Signed in as ada');
    expect(b.runtime.manager.size).toBe(1);
    expect((await modernCall(b.base, 'close_session', { sessionId })).json.success).toBe(true);
  }, 120_000);

  it("hands a replica's sessions over when the program that embeds it closes its runtime, with nothing of the command's", async () => {
    const c = await startInProcessReplica(redis.url, KEY);
    const [b] = replicas as [(typeof replicas)[0]];
    const sessionId = (await modernCall(c.base, 'create_session')).json.sessionId as string;
    await modernCall(c.base, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=lin') });
    expect(c.runtime.manager.size).toBe(1);
    // What a program does to stop its server: close the HTTP server, then the runtime (which drains its keeper).
    await closeInProcessReplicas([c]);
    const restored = await modernCall(b.base, 'snapshot', { sessionId });
    expect(restored.response.result.isError, JSON.stringify(restored.json)).toBeFalsy();
    expect(restored.json.restored).toMatchObject({ at: expect.any(Number) });
    expect(JSON.stringify(restored.json)).toContain('Signed in as lin');
    expect((await modernCall(b.base, 'close_session', { sessionId })).json.success).toBe(true);
  }, 120_000);
});

describe('one server with --data-dir, in this process', () => {
  it('takes a final checkpoint of each session at close, and the next server restores them at their next call', async () => {
    const fixture = await startFixtureServer();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sw-kept-'));
    const start = async () => {
      const runtime = createServer({ headless: true, dataDir, stateKey: KEY }, silentLogger);
      const http = await startHttpServer(runtime, { port: 0, host: '127.0.0.1', allowedHosts: [], allowedOrigins: [], authToken: undefined });
      return { runtime, http };
    };
    try {
      const first = await start();
      const sessionId = (await modernCall(first.http.url, 'create_session')).json.sessionId as string;
      await modernCall(first.http.url, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=grace') });
      await first.http.close();
      await first.runtime.close();
      const second = await start();
      try {
        const restored = await modernCall(second.http.url, 'snapshot', { sessionId });
        expect(restored.json.restored).toMatchObject({ at: expect.any(Number) });
        expect(JSON.stringify(restored.json)).toContain('Signed in as grace');
        // Another id, and one that is no session id at all, are unknown as ever.
        expect((await modernCall(second.http.url, 'snapshot', { sessionId: 'not-a-session' })).json.errorCode).toBe('SESSION_NOT_FOUND');
        expect((await modernCall(second.http.url, 'close_session', { sessionId })).json.success).toBe(true);
        expect((await modernCall(second.http.url, 'snapshot', { sessionId })).json.errorCode).toMatch(/SESSION_(NOT_FOUND|EXPIRED)/);
      } finally {
        await second.http.close();
        await second.runtime.close();
      }
    } finally {
      await fixture.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
