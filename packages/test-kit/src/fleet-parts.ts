// The real parts a fleet runs on, for tests and the benchmark: Debian's redis-server and HAProxy on loopback ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The HAProxy configuration in the repository, with placeholders for the address and the servers. */
export const HAPROXY_CONFIG = fileURLToPath(new URL('../../../deploy/haproxy.cfg', import.meta.url));
/** A balancer that does not retry (TCP checks, no retry-on): what a Kubernetes Service or an L4 balancer does. */
export const HAPROXY_PLAIN_CONFIG = fileURLToPath(new URL('../../../deploy/haproxy-plain.cfg', import.meta.url));

/** Whether a program is on PATH (or at one of Debian's sbin paths, where haproxy lives). */
export function hasProgram(name: string): boolean {
  return programPath(name) !== undefined;
}

function programPath(name: string): string | undefined {
  for (const folder of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin']) {
    const candidate = path.join(folder, name);
    if (spawnSync('test', ['-x', candidate]).status === 0) return candidate;
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it next). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGKILL: nothing to keep); start() brings it back, empty, on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/** Starts redis-server on a random loopback port, in a temporary folder of its own, with no persistence. */
export async function startRedis(): Promise<RedisServer> {
  const binary = programPath('redis-server');
  if (binary === undefined) throw new Error('redis-server is not installed (scripts/setup.sh installs it on Debian)');
  const folder = mkdtempSync(path.join(tmpdir(), 'sw-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const process_ = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', folder, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = process_;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => {
        process_.kill('SIGKILL');
        reject(new Error(`redis-server did not start within 30 s:\n${output}`));
      }, 30_000);
      process_.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      process_.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });
  };
  const stop = async () => {
    const current = child;
    child = undefined;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async close() {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export interface Balancer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts HAProxy with deploy/haproxy.cfg in round robin in front of `backends` (`http://127.0.0.1:PORT` each), checking
 * each one's /healthz every 500 ms (down after two failed checks).
 */
export async function startHaproxy(backends: readonly string[], configFile = HAPROXY_CONFIG): Promise<Balancer> {
  const binary = programPath('haproxy');
  if (binary === undefined) throw new Error('haproxy is not installed (scripts/setup.sh installs it on Debian)');
  const folder = mkdtempSync(path.join(tmpdir(), 'sw-haproxy-'));
  const port = await freePort();
  const servers = backends.map((backend, index) => `  server r${index} ${new URL(backend).host} check inter 500ms fall 2 rise 1`).join('\n');
  const config = readFileSync(configFile, 'utf8').replace('{{BIND}}', `127.0.0.1:${port}`).replace('{{SERVERS}}', servers);
  const file = path.join(folder, 'haproxy.cfg');
  writeFileSync(file, config);
  const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready once it accepts connections on its port.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not listen within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Ready once it has seen a replica up: its first health checks run after it starts listening.
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`haproxy saw no replica up within 10 s (last status ${status}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function accepts(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
