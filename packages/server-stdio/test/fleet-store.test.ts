import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { hasProgram, freePort, startFixtureServer, startRedis, type FixtureServer, type RedisServer } from '@sessionwright/test-kit';
import { isKeyMismatch, silentLogger } from '@sessionwright/session-core/parts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, startHttpServer } from '../src/index.js';
import { CHECKPOINT_MAX_BYTES } from '../src/fleet/checkpointer.js';
import { CLI_PATH, run, tempDirs } from './helpers.js';
import { closeInProcessReplicas, startInProcessReplica, type InProcessReplica } from './fleet-helpers.js';
import { modernCall } from './modern-helpers.js';

const parts = hasProgram('redis-server');
const KEY = 'fleet-store-test-key-0123456789';
const OTHER_KEY = 'another-fleet-key-0123456789ab';
let fixture: FixtureServer;
const tempDir = tempDirs('sw-fleet-store-');

beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
});

/** A page function that writes `megabytes` of IndexedDB and a localStorage item on the page's origin. */
const fillStorage = (megabytes: number) => `async () => {
  const megabytes = ${megabytes};
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('big', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('blobs');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const transaction = db.transaction('blobs', 'readwrite');
    transaction.objectStore('blobs').put('x'.repeat(megabytes * 1024 * 1024), 1);
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
  });
  db.close();
  localStorage.setItem('kept', 'yes');
  return true;
}`;

describe.skipIf(!parts)('saved states in a fleet: two replicas, each with its own folder, one Redis', () => {
  let redis: RedisServer;
  const replicas: InProcessReplica[] = [];
  // Each replica on a machine of its own: nothing shared but the store.
  const replica = (storeKey: string) => startInProcessReplica(redis.url, storeKey, { caps: ['states'], dataDir: tempDir() });

  beforeAll(async () => {
    redis = await startRedis();
    for (let index = 0; index < 2; index += 1) replicas.push(await replica(KEY));
  }, 120_000);
  afterAll(async () => {
    await closeInProcessReplicas(replicas);
    await redis?.close();
  });

  it('lists and uses through one replica a state saved through the other', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const sessionId = (await modernCall(a.base, 'create_session')).json.sessionId as string;
    await modernCall(a.base, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=ada') });
    expect((await modernCall(a.base, 'save_state', { sessionId, name: 'ada signed in' })).json.name).toBe('ada signed in');
    const listed = (await modernCall(b.base, 'list_states')).json.states as { name: string }[];
    expect(listed.map((state) => state.name)).toContain('ada signed in');
    const started = (await modernCall(b.base, 'create_session', { state: 'ada signed in' })).json;
    expect(started.sessionId).toEqual(expect.any(String));
    await modernCall(b.base, 'navigate', { sessionId: started.sessionId, url: fixture.urlFor('/account') });
    expect(JSON.stringify((await modernCall(b.base, 'snapshot', { sessionId: started.sessionId })).json)).toContain('Signed in as ada');
    expect((await modernCall(a.base, 'delete_state', { name: 'ada signed in' })).json.name).toBe('ada signed in');
    expect((await modernCall(b.base, 'list_states')).json.states).toEqual([]);
    for (const id of [sessionId, started.sessionId]) await modernCall(b.base, 'close_session', { sessionId: id });
  }, 120_000);

  it('keeps the per-identity limit fleet-wide: 24 saves at once from 8 sessions on two replicas, starting at 45 states, leave exactly 50', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    for (let index = 0; index < 45; index += 1) await a.runtime.states.save('local', `kept ${index}`, { cookies: [], origins: [] });
    const sessions = await Promise.all(
      Array.from({ length: 8 }, async (_, index) => {
        const base = index % 2 === 0 ? a.base : b.base;
        return { base, sessionId: (await modernCall(base, 'create_session')).json.sessionId as string };
      }),
    );
    const saves = await Promise.all(
      sessions.flatMap(({ base, sessionId }, index) =>
        [0, 1, 2].map(async (round) => (await modernCall(base, 'save_state', { sessionId, name: `new ${index}-${round}` })).json),
      ),
    );
    expect(saves.filter((answer) => answer.errorCode === undefined)).toHaveLength(5);
    expect(saves.filter((answer) => answer.errorCode === 'INVALID_PARAMETERS' && answer.details?.state === 'too_many')).toHaveLength(19);
    expect((await modernCall(b.base, 'list_states')).json.states).toHaveLength(50);
    expect((await modernCall(a.base, 'list_states')).json.states).toHaveLength(50);
    for (const { base, sessionId } of sessions) await modernCall(base, 'close_session', { sessionId });
  }, 180_000);

  it('refuses at start a replica whose --store-key is not the fleet’s, saying why and naming the flag, never a key, and a --state-key beside --store', async () => {
    const refused = await replica(OTHER_KEY).catch((error: unknown) => error);
    expect(isKeyMismatch(refused)).toBe(true);
    // In a fleet the store key seals the states: a --state-key beside it is refused, not silently ignored.
    await expect(startInProcessReplica(redis.url, KEY, { stateKey: OTHER_KEY })).rejects.toThrow(/--state-key does not apply with --store/);
    const port = await freePort();
    const cli = await run(process.execPath, [CLI_PATH, '--port', String(port), '--headless', '--store', redis.url, '--data-dir', tempDir()], {
      env: { ...process.env, SESSIONWRIGHT_STORE_KEY: OTHER_KEY },
      timeout: 60_000,
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('--store-key');
    expect(cli.stderr).not.toContain(OTHER_KEY);
  }, 120_000);
});

describe('one server with --data-dir: its key checked, rotated, and its checkpoints bounded', () => {
  const start = async (dataDir: string, keys: { stateKey: string; stateKeyPrevious?: string }) => {
    const runtime = createServer({ headless: true, dataDir, ...keys }, silentLogger);
    await runtime.checkStore();
    const http = await startHttpServer(runtime, { port: 0, host: '127.0.0.1', allowedHosts: [], allowedOrigins: [], authToken: undefined });
    return {
      runtime,
      http,
      async close() {
        await http.close();
        await runtime.close();
      },
    };
  };

  it('refuses a wrong --state-key at start, naming the flag and never the key', async () => {
    const dataDir = tempDir();
    const first = createServer({ headless: true, dataDir, stateKey: KEY }, silentLogger);
    await first.checkStore();
    await first.close();
    const cli = await run(process.execPath, [CLI_PATH, '--headless', '--data-dir', dataDir, '--state-key', OTHER_KEY], { timeout: 60_000 });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('--state-key');
    expect(cli.stderr).not.toContain(OTHER_KEY);
  }, 120_000);

  it('seals the checkpoints again when the key is rotated: the session is restored under the new key', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, { stateKey: KEY });
    const sessionId = (await modernCall(first.http.url, 'create_session')).json.sessionId as string;
    await modernCall(first.http.url, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=grace') });
    await first.close();
    const second = await start(dataDir, { stateKey: OTHER_KEY, stateKeyPrevious: KEY });
    await second.close();
    // Without the previous key from now on: the checkpoint opens with the new one.
    const third = await start(dataDir, { stateKey: OTHER_KEY });
    try {
      const restored = await modernCall(third.http.url, 'snapshot', { sessionId });
      expect(restored.json.restored).toMatchObject({ at: expect.any(Number) });
      expect(JSON.stringify(restored.json)).toContain('Signed in as grace');
    } finally {
      await third.close();
    }
  }, 120_000);

  it('keeps each checkpoint within its size: three sessions with big IndexedDB are checkpointed without it, and their restore says so', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, { stateKey: KEY });
    const megabytes = Math.ceil((CHECKPOINT_MAX_BYTES * 1.5) / (1024 * 1024));
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const sessionId = (await modernCall(first.http.url, 'create_session')).json.sessionId as string;
      await modernCall(first.http.url, 'navigate', { sessionId, url: fixture.urlFor('/') });
      expect((await modernCall(first.http.url, 'evaluate', { sessionId, function: fillStorage(megabytes) })).json.result).toBe(true);
      ids.push(sessionId);
    }
    await first.close();
    const folder = path.join(dataDir, 'checkpoints');
    const files = await readdir(folder);
    expect(files.sort()).toEqual([...ids].sort());
    for (const file of files) expect((await stat(path.join(folder, file))).size).toBeLessThanOrEqual(CHECKPOINT_MAX_BYTES + 64);
    const second = await start(dataDir, { stateKey: KEY });
    try {
      const origin = new URL(fixture.urlFor('/')).origin;
      for (const sessionId of ids) {
        const restored = (await modernCall(second.http.url, 'evaluate', { sessionId, function: '() => localStorage.getItem("kept")' })).json;
        expect(restored.result).toBe('yes');
        expect(restored.restored.lost).toContain(`the IndexedDB of ${origin} (too large for a checkpoint)`);
      }
    } finally {
      await second.close();
    }
  }, 240_000);
});
