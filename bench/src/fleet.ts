// The fleet section: three replicas on one Redis behind HAProxy; a forwarded call against a direct one, SIGKILL to first answered call, a rolling restart under load.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { freePort, startHaproxy, startRedis } from '@sessionwright/test-kit';
import type { BenchContext } from './context.js';
import { summarize } from './stats.js';
import { SESSIONWRIGHT_CLI } from './systems.js';

export interface FleetResult {
  replicas: number;
  /** navigate on a session, sent to the replica that holds it vs to another replica (forwarded), in ms. */
  direct: { p50: number; p95: number; n: number };
  forwarded: { p50: number; p95: number; n: number };
  /** From SIGKILL of a replica to the first answered call of each of its sessions (restored on another), in ms. */
  failover: { sessions: number; p50: number; max: number };
  /** Every replica restarted in turn (SIGTERM, start) while clients call through the balancer. */
  rollingRestart: { calls: number; failed: number; durationMs: number };
}

const KEY = 'bench-fleet-store-key-0123456789';

interface Replica {
  base: string;
  args: string[];
  child: ChildProcess;
}

async function startReplica(ctx: BenchContext, base: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SESSIONWRIGHT_CLI, ...args], {
    env: { ...process.env, SESSIONWRIGHT_STORE_KEY: KEY },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica ${base} did not listen within 60 s:\n${stderr}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica ${base} exited (${code}):\n${stderr}`));
    });
  });
  ctx.log(`fleet: replica ${base} up`);
  return child;
}

let nextId = 1;

/** One 2026-07-28 tools/call on a socket of its own; the parsed result, or throws for a failed call. */
async function callTool(base: string, name: string, args: Record<string, unknown>): Promise<any> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench-fleet', version: '0.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': name,
    ...(typeof args.sessionId === 'string' ? { 'Mcp-Param-Session-Id': args.sessionId } : {}),
  };
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(`${base}/mcp`, { method: 'POST', headers, agent: false }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      res.on('end', () => (res.statusCode === 200 ? resolve(data) : reject(new Error(`HTTP ${res.statusCode}: ${data.slice(0, 200)}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  const line = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .findLast((candidate) => candidate.startsWith('data:'))
        ?.slice(5);
  const message = JSON.parse(line ?? 'null');
  const result = message?.result;
  const json = JSON.parse(result?.content?.[0]?.text ?? 'null');
  if (!result || result.isError) throw new Error(`${name} failed: ${JSON.stringify(json ?? message)}`);
  return json;
}

async function holder(balancer: string, replicas: Replica[], sessionId: string): Promise<Replica> {
  const listed = await callTool(balancer, 'list_sessions', {});
  const label = listed.sessions.find((session: { sessionId: string }) => session.sessionId === sessionId)?.replica;
  const found = replicas.find((replica) => new URL(replica.base).host === label);
  if (!found) throw new Error(`no replica holds ${sessionId}`);
  return found;
}

const stats = (values: number[]) => {
  const summary = summarize(values);
  return { p50: summary.median, p95: summary.p95, n: summary.n };
};

export async function runFleet(ctx: BenchContext): Promise<FleetResult> {
  const redis = await startRedis();
  const replicas: Replica[] = [];
  let balancer: { url: string; close(): Promise<void> } | undefined;
  try {
    for (let index = 0; index < 3; index += 1) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const args = [
        '--port',
        String(port),
        '--headless',
        '--executable-path',
        ctx.executable,
        '--store',
        redis.url,
        '--advertise-url',
        base,
        '--max-sessions',
        '20',
      ];
      replicas.push({ base, args, child: await startReplica(ctx, base, args) });
    }
    const lb = await startHaproxy(replicas.map((replica) => replica.base));
    balancer = lb;
    const url = (iteration: number) => ctx.appUrl(iteration);

    // Forwarded vs direct: the same session, called at its own replica and at another, interleaved.
    const sessionId = (await callTool(lb.url, 'create_session', {})).sessionId as string;
    const own = await holder(lb.url, replicas, sessionId);
    const other = replicas.find((replica) => replica !== own)!;
    const direct: number[] = [];
    const forwarded: number[] = [];
    for (let iteration = 0; iteration < ctx.config.warmup + ctx.config.iterations; iteration += 1) {
      for (const [target, samples] of iteration % 2 === 0
        ? ([
            [own, direct],
            [other, forwarded],
          ] as const)
        : ([
            [other, forwarded],
            [own, direct],
          ] as const)) {
        const started = performance.now();
        await callTool(target.base, 'navigate', { sessionId, url: url(iteration) });
        if (iteration >= ctx.config.warmup) samples.push(performance.now() - started);
      }
    }
    ctx.log(`fleet: direct p50 ${stats(direct).p50.toFixed(1)} ms, forwarded p50 ${stats(forwarded).p50.toFixed(1)} ms`);

    // SIGKILL: sessions on one replica, checkpointed, then the replica is killed; each session's next call at a survivor.
    const victim = replicas[0]!;
    const victims: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const id = (await callTool(victim.base, 'create_session', {})).sessionId as string;
      await callTool(victim.base, 'navigate', { sessionId: id, url: url(index) });
      victims.push(id);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const killedAt = performance.now();
    victim.child.kill('SIGKILL');
    const survivor = replicas[1]!;
    const failoverTimes = await Promise.all(
      victims.map(async (id) => {
        const answer = await callTool(survivor.base, 'snapshot', { sessionId: id });
        if (answer.restored === undefined) throw new Error('the first call after the kill did not say restored');
        return performance.now() - killedAt;
      }),
    );
    ctx.log(`fleet: SIGKILL to first answered call, max ${Math.max(...failoverTimes).toFixed(0)} ms over ${victims.length} sessions`);
    victim.child = await startReplica(ctx, victim.base, victim.args);

    // A rolling restart under load: three clients call through the balancer while each replica restarts in turn.
    const loadSessions = await Promise.all([0, 1, 2].map(async () => (await callTool(lb.url, 'create_session', {})).sessionId as string));
    let stop = false;
    let calls = 0;
    let failed = 0;
    const load = loadSessions.map(async (id, index) => {
      let iteration = index;
      while (!stop) {
        iteration += 1;
        try {
          await callTool(lb.url, 'navigate', { sessionId: id, url: url(iteration) });
        } catch (error) {
          failed += 1;
          ctx.error('fleet.rolling-restart', error);
        }
        calls += 1;
      }
    });
    const restartStarted = performance.now();
    for (const replica of replicas) {
      const exited = new Promise((resolve) => replica.child.once('exit', resolve));
      replica.child.kill('SIGTERM');
      await exited;
      replica.child = await startReplica(ctx, replica.base, replica.args);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    stop = true;
    await Promise.all(load);
    const durationMs = performance.now() - restartStarted;
    ctx.log(`fleet: rolling restart, ${calls} calls, ${failed} failed`);
    return {
      replicas: replicas.length,
      direct: stats(direct),
      forwarded: stats(forwarded),
      failover: { sessions: failoverTimes.length, p50: stats(failoverTimes).p50, max: Math.max(...failoverTimes) },
      rollingRestart: { calls, failed, durationMs },
    };
  } finally {
    await balancer?.close();
    for (const replica of replicas) if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGKILL');
    await redis.close();
  }
}
