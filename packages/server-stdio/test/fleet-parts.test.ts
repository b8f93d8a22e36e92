// The fleet's small parts on a clock the test moves: the relay's signature and replay window, the warnings about ignored records, placement's caching and its answers to a replica that refuses, and membership's expiry (on a real redis-server).
import type { Logger } from '@sessionwright/session-core';
import { silentLogger } from '@sessionwright/session-core/parts';
import { hasProgram, startRedis, type RedisServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SessionManager } from '@sessionwright/session-core';
import type { Directory, SessionRecord } from '../src/fleet/directory.js';
import { FleetKeys } from '../src/fleet/fleet-keys.js';
import { HandOver, type Held } from '../src/fleet/hand-over.js';
import { Placement } from '../src/fleet/placement.js';
import type { Relay, RemoteCall } from '../src/fleet/relay.js';
import { HEARTBEAT_MS, HEARTBEAT_TTL_MS, Membership, type ReplicaInfo } from '../src/fleet/membership.js';
import { connectRedis } from '../src/fleet/redis-store.js';
import { RELAY_ENVELOPE_HEADER, RELAY_SIGNATURE_HEADER, RelaySignature, type SignedRequest } from '../src/fleet/relay-signature.js';
import { UntrustedRecords } from '../src/fleet/untrusted-records.js';

const KEY = 'parts-test-store-key-0123456789';

/** A clock and timers that move only when the test says so. */
class ManualTime {
  now = 1_800_000_000_000;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();
  private next = 1;
  readonly clock = { now: () => this.now };
  readonly timers = {
    setTimeout: (callback: () => void, ms: number) => {
      const id = this.next++;
      this.pending.set(id, { at: this.now + ms, callback });
      return id;
    },
    clearTimeout: (handle: unknown) => void this.pending.delete(handle as number),
  };

  /** Moves time on, firing what falls due. */
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.pending]) {
      if (timer.at > this.now) continue;
      this.pending.delete(id);
      timer.callback();
    }
  }

  get timersPending(): number {
    return this.pending.size;
  }
}

const request: SignedRequest = { method: 'POST', path: '/mcp', destination: 'http://10.0.0.2:8931', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };
const envelope = { identity: 'identity:alice', guarded: true, hops: 1, liveBase: 'http://lb:80' };

describe("the relay's signature", () => {
  it('accepts a request once, for its replica, method, path and body only, within its window', () => {
    const time = new ManualTime();
    const signature = new RelaySignature({ keys: new FleetKeys(KEY), clock: time.clock });
    const verify = (signed: Record<string, string>, changed: Partial<SignedRequest> = {}) =>
      signature.verify({ ...request, ...changed }, signed[RELAY_SIGNATURE_HEADER], signed[RELAY_ENVELOPE_HEADER]);

    const signed = signature.sign(request, envelope);
    for (const changed of [{ destination: 'http://10.0.0.3:8931' }, { body: `${request.body} ` }, { method: 'GET' }, { path: '/messages?sessionId=x' }]) {
      expect(verify(signed, changed)).toBeUndefined();
    }
    expect(verify(signed)).toEqual(envelope);
    time.advance(10_000);
    expect(verify(signed)).toBeUndefined(); // replayed

    // Too old, and signed with another key or by no one: refused.
    const old = signature.sign(request, envelope);
    time.advance(31_000);
    expect(verify(old)).toBeUndefined();
    const other = new RelaySignature({ keys: new FleetKeys('another-key-0123456789abcdef'), clock: time.clock });
    expect(verify(other.sign(request, envelope))).toBeUndefined();
    expect(signature.verify(request, undefined, undefined)).toBeUndefined();
    expect(signature.verify(request, 'garbage', 'e30')).toBeUndefined();
    const fresh = signature.sign(request, envelope);
    expect(
      verify({ ...fresh, [RELAY_ENVELOPE_HEADER]: Buffer.from(JSON.stringify({ ...envelope, identity: 'identity:bob' })).toString('base64url') }),
    ).toBeUndefined();
    expect(verify(fresh)).toEqual(envelope);
  });

  it('remembers a nonce as long as its request could be accepted, and forgets it after', () => {
    const time = new ManualTime();
    const signature = new RelaySignature({ keys: new FleetKeys(KEY), clock: time.clock });
    // Signed by a replica whose clock is 25 s ahead: accepted now, and still refused when replayed 50 s later.
    time.now += 25_000;
    const ahead = signature.sign(request, envelope);
    time.now -= 25_000;
    expect(signature.verify(request, ahead[RELAY_SIGNATURE_HEADER], ahead[RELAY_ENVELOPE_HEADER])).toEqual(envelope);
    time.advance(50_000);
    expect(signature.verify(request, ahead[RELAY_SIGNATURE_HEADER], ahead[RELAY_ENVELOPE_HEADER])).toBeUndefined();
  });
});

describe('warnings about ignored records', () => {
  it('warns once a minute per kind, naming no value, and counts the rest into the next', () => {
    const time = new ManualTime();
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (message) => void warnings.push(message) };
    const untrusted = new UntrustedRecords({ logger, clock: time.clock });
    for (let index = 0; index < 5; index += 1) untrusted.ignored('heartbeat');
    untrusted.ignored('session entry');
    expect(warnings).toHaveLength(2);
    time.advance(59_000);
    untrusted.ignored('heartbeat');
    expect(warnings).toHaveLength(2);
    time.advance(2_000);
    untrusted.ignored('heartbeat');
    expect(warnings).toHaveLength(3);
    expect(warnings[2]).toContain('5 more');
  });
});

/** A replica's placement over a directory, replicas and a relay the test plays, counting what it is asked. */
function placementOn(time: ManualTime, options: { holds?: boolean; record?: SessionRecord; answers?: RemoteCall[] }) {
  const asked = { touch: 0, lookup: 0, claim: 0, relayed: 0 };
  const held = new Map<string, Held>(options.holds ? [['s1', { identity: 'identity:alice', guarded: true, generation: 1 }]] : []);
  const directory = {
    touch: async () => {
      asked.touch += 1;
      return true;
    },
    lookup: async () => {
      asked.lookup += 1;
      return options.record;
    },
    register: async () => true,
    claim: async () => {
      asked.claim += 1;
      return undefined;
    },
  } as unknown as Directory;
  const manager = { has: (id: string) => held.has(id), size: held.size, maxSessions: 10 } as unknown as SessionManager;
  const replicas: ReplicaInfo[] = [{ url: 'http://b:1', sessions: 1, maxSessions: 10, draining: false }];
  const membership = { isLive: async (url: string) => replicas.some((replica) => replica.url === url), live: async () => replicas } as unknown as Membership;
  const result: CallToolResult = { content: [{ type: 'text', text: '{}' }] };
  const relay = {
    call: async () => {
      asked.relayed += 1;
      return options.answers?.shift() ?? { kind: 'result', result };
    },
  } as unknown as Relay;
  const common = { directory, manager, logger: silentLogger, clock: time.clock, held, url: () => 'http://a:1' };
  const handOver = new HandOver({ ...common, checkpoints: { now: async () => {}, read: async () => undefined }, forget: () => {} });
  const placement = new Placement({
    ...common,
    keys: new FleetKeys(KEY),
    membership,
    relay,
    handOver,
    timers: time.timers,
    draining: () => false,
    storeUp: () => true,
    takesSessionId: () => true,
    runLocally: async () => result,
    dropMoved: async () => {},
  });
  const route = () => placement.route({ identity: 'identity:alice', guarded: true }, 'snapshot', { sessionId: 's1' }, new AbortController().signal);
  return { asked, route };
}

const elsewhere: SessionRecord = { sessionId: 's1', replica: 'http://b:1', identity: 'identity:alice', guarded: true, generation: 3, state: 'open' };

/** Lets the promises waiting on Redis-like fakes settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('placement', () => {
  it('confirms a session it holds with the directory at most once a second', async () => {
    const time = new ManualTime();
    const { asked, route } = placementOn(time, { holds: true });
    for (let index = 0; index < 3; index += 1) expect((await route()).kind).toBe('local');
    expect(asked.touch).toBe(1);
    time.advance(999);
    await route();
    expect(asked.touch).toBe(1);
    time.advance(2);
    await route();
    expect(asked.touch).toBe(2);
  });

  it("reads another replica's session entry at most once a second, and relays its calls there", async () => {
    const time = new ManualTime();
    const { asked, route } = placementOn(time, { record: elsewhere });
    expect((await route()).kind).toBe('result');
    expect((await route()).kind).toBe('result');
    expect(asked).toMatchObject({ lookup: 1, relayed: 2 });
    time.advance(1_001);
    await route();
    expect(asked).toMatchObject({ lookup: 2, relayed: 3, claim: 0 });
  });

  it('never claims a session from a replica that answers: a 403 is final, a 503 is asked again after the entry is read again', async () => {
    const time = new ManualTime();
    const refused = placementOn(time, { record: elsewhere, answers: [{ kind: 'refused', status: 403 }] });
    const answer = await refused.route();
    expect(answer).toMatchObject({ kind: 'error', error: { code: 'BROWSER_ERROR' } });
    expect(refused.asked.claim).toBe(0);

    const busy = placementOn(time, {
      record: elsewhere,
      answers: [
        { kind: 'refused', status: 503 },
        { kind: 'refused', status: 499 },
      ],
    });
    const routed = busy.route();
    for (let round = 0; round < 2; round += 1) {
      await settle();
      time.advance(100);
    }
    expect((await routed).kind).toBe('result');
    expect(busy.asked).toMatchObject({ relayed: 3, lookup: 3, claim: 0 });

    // A refused connection is a replica gone: its session is claimed.
    const gone = placementOn(time, { record: elsewhere, answers: [{ kind: 'gone' }] });
    const claimed = gone.route();
    await settle();
    time.advance(100);
    await claimed;
    expect(gone.asked.claim).toBeGreaterThanOrEqual(1);
  });
});

const parts = hasProgram('redis-server');
let redis: RedisServer;
beforeAll(async () => {
  if (parts) redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.close();
});

describe.skipIf(!parts)('membership', () => {
  it('beats every second, counts a replica alive until its heartbeat expires, and lists replicas without a scan', async () => {
    const connection = connectRedis(redis.url);
    await new Promise((resolve) => connection.once('ready', resolve));
    try {
      const time = new ManualTime();
      const keys = new FleetKeys(KEY);
      const untrusted = new UntrustedRecords({ logger: silentLogger, clock: time.clock });
      let sessions = 0;
      const member = () =>
        new Membership({
          redis: connection,
          keys,
          untrusted,
          logger: silentLogger,
          clock: time.clock,
          timers: time.timers,
          info: () => ({ sessions, maxSessions: 4, draining: false }),
        });
      const a = member();
      const b = member();
      a.start('http://a:1');
      b.start('http://b:1');
      await a.beat();
      await b.beat();
      expect((await a.live(true)).map((replica) => replica.url).sort()).toEqual(['http://a:1', 'http://b:1']);
      expect(time.timersPending).toBe(2);

      // A beats, B has gone silent: once B's heartbeat is older than its lifetime, only A is alive.
      b.stop();
      sessions = 3;
      time.advance(HEARTBEAT_MS);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the beat's write to Redis
      expect(await a.live(true)).toEqual(
        expect.arrayContaining([{ url: 'http://a:1', sessions: 3, maxSessions: 4, draining: false }, expect.objectContaining({ url: 'http://b:1' })]),
      );
      time.advance(HEARTBEAT_TTL_MS - HEARTBEAT_MS);
      await a.beat();
      expect((await a.live(true)).map((replica) => replica.url)).toEqual(['http://a:1']);
      expect(await a.isLive('http://b:1')).toBe(false);
      expect(await b.isLive('http://a:1')).toBe(true);
      await a.leave();
      expect(await b.live(true)).toEqual([]);
      expect(await connection.zcard('sessionwright:replicas')).toBe(0);
    } finally {
      connection.disconnect();
    }
  });
});
