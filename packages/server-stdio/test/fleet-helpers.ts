// A fleet for tests and the benchmark: its own redis-server, N replicas of the built CLI on loopback, HAProxy in round robin in front.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '@sessionwright/session-core/parts';
import { freePort, startHaproxy, startRedis, type Balancer, type RedisServer } from '@sessionwright/test-kit';
import { createServer, startHttpServer, type HttpServerHandle, type ServerOptions, type SessionwrightServer } from '../src/index.js';
import { startHttpCli, type HttpCli } from './http-helpers.js';

export const STORE_KEY = 'fleet-test-store-key-0123456789';
export const ALICE = 'alice-token-0123456789abcdef';
export const BOB = 'bob-token-0123456789abcdef0';

export interface Fleet {
  redis: RedisServer;
  balancer: Balancer;
  replicas: Replica[];
  /** Stops every part. */
  close(): Promise<void>;
}

export interface Replica {
  /** `http://127.0.0.1:PORT`: its advertise URL too. */
  readonly base: string;
  readonly port: number;
  cli: HttpCli;
  /** SIGKILL: the replica is gone at once. */
  kill(): Promise<void>;
  /** SIGTERM: it hands its sessions over and exits. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * Starts Redis, `count` replicas sharing it (with alice and bob as identities, each with a state folder of its own, as
 * on a machine of its own) and HAProxy in front of them (`balancerConfig`: deploy/haproxy.cfg unless another is given).
 */
export async function startFleet(count: number, flags: string[] = [], balancerConfig?: string): Promise<Fleet> {
  const folder = mkdtempSync(path.join(tmpdir(), 'sw-fleet-'));
  const tokens = path.join(folder, 'tokens');
  writeFileSync(tokens, `alice ${ALICE}\nbob ${BOB}\n`);
  const redis = await startRedis();
  const started: Replica[] = [];
  try {
    return await startParts(redis, started, tokens, count, flags, folder, balancerConfig);
  } catch (error) {
    await Promise.all(started.map((replica) => replica.kill()));
    await redis.close();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

async function startParts(
  redis: RedisServer,
  started: Replica[],
  tokens: string,
  count: number,
  flags: string[],
  folder: string,
  balancerConfig: string | undefined,
): Promise<Fleet> {
  const replicas = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // A short drain window: the test balancers check every 500 ms.
      const args = [
        '--port',
        String(port),
        '--headless',
        '--store',
        redis.url,
        '--advertise-url',
        base,
        '--auth-tokens-file',
        tokens,
        '--drain-window',
        '2000',
        ...flags,
      ];
      const env = { ...process.env, SESSIONWRIGHT_STORE_KEY: STORE_KEY, XDG_STATE_HOME: path.join(folder, `state-${index}`) };
      const replica: Replica = {
        base,
        port,
        cli: await startHttpCli(args, { onlyFlags: true, env }),
        async kill() {
          if (replica.cli.process.exitCode !== null || replica.cli.process.signalCode !== null) return;
          replica.cli.process.kill('SIGKILL');
          await replica.cli.exited;
        },
        async stop() {
          await replica.cli.stop();
        },
        async start() {
          replica.cli = await startHttpCli(args, { onlyFlags: true, env });
        },
      };
      started.push(replica);
      return replica;
    }),
  );
  const balancer = await startHaproxy(
    replicas.map((replica) => replica.base),
    balancerConfig,
  );
  return {
    redis,
    balancer,
    replicas,
    async close() {
      await balancer.close();
      await Promise.all(replicas.map((replica) => replica.kill()));
      await redis.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A replica in this process: its runtime and HTTP server, reached at `base` (its advertise URL too). */
export interface InProcessReplica {
  runtime: SessionwrightServer;
  http: HttpServerHandle;
  base: string;
}

/**
 * A replica in this process on the Redis at `store`, with `storeKey` and the given settings; `checkStore` checks its
 * key before it listens, as the command does (and rejects as it does).
 */
export async function startInProcessReplica(store: string, storeKey: string, settings: Partial<ServerOptions> = {}): Promise<InProcessReplica> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const http = { port, host: '127.0.0.1', allowedHosts: [], allowedOrigins: [], authToken: undefined, store, storeKey, advertiseUrl: base };
  const runtime = createServer(
    {
      headless: true,
      ...settings,
      http: {
        ...http,
        allowUnauthenticated: false,
        allowUnsafeCode: false,
        maxConnections: 10,
        authTokensFile: undefined,
        maxConnectionsPerClient: undefined,
        drainWindow: 0,
      },
    },
    silentLogger,
  );
  try {
    await runtime.checkStore();
    return { runtime, http: await startHttpServer(runtime, http), base };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** Closes replicas started by startInProcessReplica, one after another. */
export async function closeInProcessReplicas(replicas: readonly InProcessReplica[]): Promise<void> {
  for (const { runtime, http } of replicas) {
    await http.close();
    await runtime.close();
  }
}
