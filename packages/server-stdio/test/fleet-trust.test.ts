// A fleet trusts no record it cannot verify and no relayed request it has seen: forged store records, replayed relays and a refusing replica, against two replicas in this process on a real redis-server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type Server, createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '@sessionwright/session-core/parts';
import { freePort, hasProgram, startFixtureServer, startRedis, type FixtureServer, type RedisServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetKeys } from '../src/fleet/fleet-keys.js';
import { connectRedis } from '../src/fleet/redis-store.js';
import { RelaySignature } from '../src/fleet/relay-signature.js';
import { createServer, startHttpServer, type HttpServerHandle, type SessionwrightServer } from '../src/index.js';
import { call, expectSuccess } from './helpers.js';
import { connectStreamable } from './http-helpers.js';
import { modernCall } from './modern-helpers.js';

const parts = hasProgram('redis-server');
const KEY = 'trust-test-store-key-0123456789';
const ALICE = 'alice-token-trust-0123456789';
const BOB = 'bob-token-trust-0123456789ab';
const alice = { token: ALICE };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'trust-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const bob = { token: BOB };

/** What an HTTP server of the test received. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A server that records every request and answers as `answer` says (forward to a replica, or refuse). */
interface Recorder {
  base: string;
  received: Received[];
  server: Server;
  /** undefined: forwarded to `target`; a status: answered with it. */
  refuse: number | undefined;
}

async function startRecorder(target?: string): Promise<Recorder> {
  const recorder: Recorder = { base: '', received: [], server: undefined as unknown as Server, refuse: target === undefined ? 200 : undefined };
  recorder.server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      recorder.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
      if (recorder.refuse !== undefined || target === undefined) {
        res.writeHead(recorder.refuse ?? 200, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\\"forged\\":true}"}]}}');
        return;
      }
      const outgoing = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers, agent: false }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      outgoing.on('error', () => res.destroy());
      outgoing.end(body);
    });
  });
  await new Promise<void>((resolve) => recorder.server.listen(0, '127.0.0.1', resolve));
  recorder.base = `http://127.0.0.1:${(recorder.server.address() as AddressInfo).port}`;
  return recorder;
}

interface Replica {
  runtime: SessionwrightServer;
  http: HttpServerHandle;
  /** Where this test reaches it. */
  base: string;
  /** Where the other replica reaches it (its --advertise-url). */
  advertised: string;
}

let redis: RedisServer;
let fixture: FixtureServer;
let folder: string;
let forged: Recorder;
/** In front of B, as its advertise URL: records what A relays to B, and can refuse it. */
let proxy: Recorder;
const replicas: Replica[] = [];

async function startReplica(tokens: string, port: number, advertiseUrl: string): Promise<Replica> {
  const http = {
    port,
    host: '127.0.0.1',
    allowedHosts: [],
    allowedOrigins: [],
    authToken: undefined,
    authTokensFile: tokens,
    store: redis.url,
    storeKey: KEY,
    advertiseUrl,
  };
  const runtime = createServer(
    {
      headless: true,
      // live_view: a live page's requests are relayed too.
      caps: ['live'],
      http: { ...http, allowUnauthenticated: false, allowUnsafeCode: false, maxConnections: 20, maxConnectionsPerClient: undefined, drainWindow: 0 },
    },
    silentLogger,
  );
  return { runtime, http: await startHttpServer(runtime, http), base: `http://127.0.0.1:${port}`, advertised: advertiseUrl };
}

beforeAll(async () => {
  if (!parts) return;
  redis = await startRedis();
  fixture = await startFixtureServer();
  folder = mkdtempSync(path.join(tmpdir(), 'sw-fleet-trust-'));
  const tokens = path.join(folder, 'tokens');
  writeFileSync(tokens, `alice ${ALICE}\nbob ${BOB}\n`);
  forged = await startRecorder();
  const portA = await freePort();
  const portB = await freePort();
  proxy = await startRecorder(`http://127.0.0.1:${portB}`);
  replicas.push(await startReplica(tokens, portA, `http://127.0.0.1:${portA}`));
  replicas.push(await startReplica(tokens, portB, proxy.base));
}, 120_000);

afterAll(async () => {
  for (const { runtime, http } of replicas) {
    await http.close();
    await runtime.close();
  }
  for (const recorder of [forged, proxy]) recorder?.server.close();
  await fixture?.close();
  await redis?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A plain Redis client, as anyone who can write to the store has. */
async function storeWriter() {
  const connection = connectRedis(redis.url);
  await new Promise((resolve) => connection.once('ready', resolve));
  return connection;
}

function pair(): [Replica, Replica] {
  const [a, b] = replicas;
  if (!a || !b) throw new Error('two replicas expected');
  return [a, b];
}

describe.skipIf(!parts)('a fleet and a store that lies', () => {
  it('follows no forged heartbeat, session entry or live-view link, and keeps answering right, list_sessions included', async () => {
    const [a, b] = pair();
    const sessionId = (await modernCall(a.base, 'create_session', {}, alice)).json.sessionId as string;
    expect((await modernCall(a.base, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=ada') }, alice)).json.title).toBe('Signed in');
    const writer = await storeWriter();
    try {
      const future = String(Date.now() + 600_000);
      const info = (url: string) => JSON.stringify({ url, sessions: 0, maxSessions: 100, draining: false });
      // A heartbeat for the test's own server, as a replica without the key would write it; and garbage beside it.
      await writer.set(`sessionwright:replica:${forged.base}`, info(forged.base), 'PX', 600_000);
      await writer.zadd('sessionwright:replicas', future, forged.base);
      for (const [member, value] of [
        ['http://127.0.0.1:1', 'null'],
        ['http://127.0.0.1:2', '{garbage'],
        ['http://127.0.0.1:3/evil?x=1', info('http://127.0.0.1:3/evil?x=1')],
        ['null', 'null'],
        ['http://127.0.0.1:4', `${'0'.repeat(64)}.${info('http://127.0.0.1:4')}`],
      ] as const) {
        await writer.set(`sessionwright:replica:${member}`, value, 'PX', 600_000);
        await writer.zadd('sessionwright:replicas', future, member);
      }
      // Alice's session "moved" to the forged replica and "belongs" to bob; a session entry made up for alice; one of garbage.
      await writer.hset(`sessionwright:session:${sessionId}`, { replica: forged.base, identity: 'identity:bob', gen: '9', mac: '0'.repeat(64) });
      await writer.hset('sessionwright:session:made-up', { replica: forged.base, identity: 'identity:alice', guarded: '1', gen: '1', state: 'open' });
      await writer.hset('sessionwright:session:garbage', { replica: 'null', identity: '', gen: 'x' });
      // A live-view link that "lives" at the forged replica.
      await writer.set('sessionwright:live/forged-link', forged.base, 'PX', 600_000);
    } finally {
      writer.disconnect();
    }

    // Through either replica, in both eras, alice's calls run on her session at A, as before (A writes its entry again
    // within a reconcile round; until then B knows no entry for it).
    for (const base of [a.base, b.base]) {
      if (base === b.base) await new Promise((resolve) => setTimeout(resolve, 2_500));
      const answer = await modernCall(base, 'navigate', { sessionId, url: fixture.urlFor('/account') }, alice);
      expect(answer.response.result.isError, JSON.stringify(answer.json)).toBeFalsy();
      expect(JSON.stringify((await modernCall(base, 'snapshot', { sessionId }, alice)).json)).toContain('Signed in as ada');
    }
    const { client } = await connectStreamable(b.base, { Authorization: `Bearer ${ALICE}` });
    try {
      expect(JSON.stringify(expectSuccess(await call(client, 'snapshot', { sessionId })))).toContain('Signed in as ada');
    } finally {
      await client.close();
    }
    // Bob gets nothing of it; the made-up entry is no session of alice's.
    expect((await modernCall(b.base, 'snapshot', { sessionId }, bob)).json.errorCode).toBe('SESSION_NOT_FOUND');
    expect((await modernCall(b.base, 'snapshot', { sessionId: 'made-up' }, alice)).json.errorCode).toBe('SESSION_NOT_FOUND');
    expect((await modernCall(b.base, 'snapshot', { sessionId: 'garbage' }, alice)).json.errorCode).toBe('SESSION_NOT_FOUND');
    // list_sessions works and lists the real replicas only.
    for (const base of [a.base, b.base]) {
      const listed = await modernCall(base, 'list_sessions', {}, alice);
      expect(listed.response.result.isError, JSON.stringify(listed.json)).toBeFalsy();
      expect(listed.json.sessions).toEqual([expect.objectContaining({ sessionId, replica: new URL(a.base).host })]);
    }
    // A 2025 connection id naming the forged replica, with a made-up MAC or none, is no connection.
    const encoded = Buffer.from(forged.base, 'utf8').toString('base64url');
    for (const id of [`${crypto.randomUUID()}.${encoded}`, `${crypto.randomUUID()}.${encoded}.${'0'.repeat(64)}`]) {
      const answer = await fetch(`${b.base}/mcp`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ALICE}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(answer.status).toBe(404);
    }
    // The forged live link is not followed.
    expect((await fetch(`${b.base}/live/forged-link/secret-of-the-link`)).status).toBe(404);

    expect(forged.received).toEqual([]);
    expect(a.runtime.manager.has(sessionId)).toBe(true);
    expect(b.runtime.manager.size).toBe(0);
    expect((await modernCall(a.base, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 120_000);

  it('relays with no client credential, and refuses a relayed request replayed, redirected or given another body', async () => {
    const [a, b] = pair();
    proxy.received.length = 0;
    const sessionId = (await modernCall(b.base, 'create_session', {}, alice)).json.sessionId as string;
    const relayed = await modernCall(a.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, { ...alice, headers: { Cookie: 'theirs=1' } });
    expect(relayed.response.result.isError, JSON.stringify(relayed.json)).toBeFalsy();
    const { client } = await connectStreamable(a.base, { Authorization: `Bearer ${ALICE}` });
    try {
      expectSuccess(await call(client, 'snapshot', { sessionId }));
    } finally {
      await client.close();
    }
    expect(proxy.received.length).toBeGreaterThanOrEqual(2);
    for (const request of proxy.received) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers.cookie).toBeUndefined();
      expect(JSON.stringify(request)).not.toContain(ALICE);
      expect(request.headers['x-sessionwright-relay']).toBeTypeOf('string');
    }

    // A captured request, sent again to its replica or to the other one: refused.
    const captured = proxy.received[0] as Received;
    const headers = Object.fromEntries(
      Object.entries(captured.headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name)),
    ) as Record<string, string>;
    const replay = (base: string) => fetch(new URL(captured.url, base), { method: captured.method, headers, body: captured.body });
    expect((await replay(b.base)).status).toBe(403);
    expect((await replay(a.base)).status).toBe(403);

    // One signed by the same code: good once, for its replica and its body only.
    const signer = new RelaySignature({ keys: new FleetKeys(KEY), clock: { now: () => Date.now() } });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } });
    const fresh = () => ({
      ...Object.fromEntries(Object.entries(headers).filter(([name]) => !['mcp-method', 'mcp-name', 'mcp-param-session-id'].includes(name))),
      'mcp-method': 'tools/list',
      ...signer.sign({ method: 'POST', path: '/mcp', destination: b.advertised, body }, { identity: 'identity:alice', guarded: true, hops: 1 }),
    });
    const signed = fresh();
    const send = (base: string, payload: string, signedHeaders: Record<string, string>) =>
      fetch(`${base}/mcp`, { method: 'POST', headers: signedHeaders, body: payload });
    expect((await send(b.base, body.replace('"id":7', '"id":8'), signed)).status).toBe(403);
    expect((await send(a.base, body, fresh())).status).toBe(403);
    const accepted = await send(b.base, body, signed);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect((await send(b.base, body, signed)).status).toBe(403);
    expect((await modernCall(b.base, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 120_000);

  it("binds a live page's relayed POST to its body: an altered body is refused, the captured one served once", async () => {
    const [a, b] = pair();
    const sessionId = (await modernCall(b.base, 'create_session', {}, alice)).json.sessionId as string;
    const link = await modernCall(b.base, 'live_view', { sessionId }, alice);
    expect(link.response.result.isError, JSON.stringify(link.json)).toBeFalsy();
    const { pathname } = new URL(link.json.url as string);
    const take = JSON.stringify({ action: 'take' });
    /** A POST as the live page sends it from A's address (its Origin), or as captured, to `base` with A's Host kept. */
    const post = (base: string, path: string, headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const outgoing = httpRequest(
          new URL(path, base),
          { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    const fromPage = { 'content-type': 'application/json', origin: a.base, host: new URL(a.base).host };
    // Relayed to B through A, and served there: the page is not connected, which only the issuing replica can say.
    const served = await post(a.base, `${pathname}control`, fromPage, take);
    expect(served.status, served.text).toBe(409);
    // Captured on its way to B (the proxy answers in B's place and passes nothing on).
    proxy.received.length = 0;
    proxy.refuse = 503;
    try {
      expect((await post(a.base, `${pathname}control`, fromPage, take)).status).toBe(503);
    } finally {
      proxy.refuse = undefined;
    }
    const captured = proxy.received.find((request) => request.url.endsWith('/control')) as Received;
    expect(captured.body).toBe(take);
    expect(captured.headers['x-sessionwright-relay']).toBeTypeOf('string');
    const headers = Object.fromEntries(
      Object.entries(captured.headers).filter(([name]) => !['connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name)),
    ) as Record<string, string>;
    // Another body under its signature: refused. Its own body: served, once.
    expect((await post(b.base, captured.url, headers, JSON.stringify({ action: 'give_back' }))).status).toBe(403);
    expect((await post(b.base, captured.url, headers, '')).status).toBe(403);
    const delivered = await post(b.base, captured.url, headers, take);
    expect(delivered.status, delivered.text).toBe(409);
    expect((await post(b.base, captured.url, headers, take)).status).toBe(403);
    expect((await modernCall(b.base, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 120_000);

  it("passes a 2025 connection's progress on from the replica that runs its call", async () => {
    const [a, b] = pair();
    const sessionId = (await modernCall(b.base, 'create_session', {}, alice)).json.sessionId as string;
    const { client } = await connectStreamable(a.base, { Authorization: `Bearer ${ALICE}` });
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'navigate', arguments: { sessionId, url: fixture.urlFor('/pages/slow-image') } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(progress).toEqual([0, 1, 2]);
    } finally {
      await client.close();
    }
    expect(a.runtime.manager.has(sessionId)).toBe(false);
    expect((await modernCall(b.base, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 120_000);

  it('never takes a session from a replica that answers, even with a refusal', async () => {
    const [a, b] = pair();
    const sessionId = (await modernCall(b.base, 'create_session', {}, alice)).json.sessionId as string;
    expect((await modernCall(b.base, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=ada') }, alice)).json.title).toBe('Signed in');
    proxy.refuse = 403;
    try {
      const refused = await modernCall(a.base, 'navigate', { sessionId, url: fixture.urlFor('/account') }, alice);
      expect(refused.response.result.isError).toBe(true);
      expect(refused.json.errorCode).toBe('BROWSER_ERROR');
      const { client } = await connectStreamable(a.base, { Authorization: `Bearer ${ALICE}` });
      try {
        expect((await call(client, 'snapshot', { sessionId })).isError).toBe(true);
      } finally {
        await client.close();
      }
    } finally {
      proxy.refuse = undefined;
    }
    // Its session stayed where it was, signed in.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(a.runtime.manager.has(sessionId)).toBe(false);
    expect(b.runtime.manager.has(sessionId)).toBe(true);
    const answer = await modernCall(a.base, 'navigate', { sessionId, url: fixture.urlFor('/account') }, alice);
    expect(answer.response.result.isError, JSON.stringify(answer.json)).toBeFalsy();
    expect(answer.json.restored).toBeUndefined();
    expect(JSON.stringify((await modernCall(a.base, 'snapshot', { sessionId }, alice)).json)).toContain('Signed in as ada');
    expect((await modernCall(a.base, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 120_000);

  it('refuses to start with an advertise URL that is more than http(s)://host:port', async () => {
    for (const advertiseUrl of ['http://127.0.0.1:1/fleet', 'http://user:pw@127.0.0.1:1', 'ftp://127.0.0.1:1', 'http://127.0.0.1:1?x=1']) {
      const port = await freePort();
      const http = { port, host: '127.0.0.1', allowedHosts: [], allowedOrigins: [], authToken: undefined, store: redis.url, storeKey: KEY, advertiseUrl };
      const runtime = createServer(
        {
          headless: true,
          http: {
            ...http,
            allowUnauthenticated: false,
            allowUnsafeCode: false,
            drainWindow: 0,
            maxConnections: 5,
            authTokensFile: undefined,
            maxConnectionsPerClient: undefined,
          },
        },
        silentLogger,
      );
      try {
        await expect(startHttpServer(runtime, http)).rejects.toThrow(/http\(s\):\/\/host:port/);
      } finally {
        await runtime.close();
      }
    }
  }, 60_000);
});
