// A stopped browser (SIGSTOP) behind the real CLI: close_session answers in seconds, and shutdown leaves no browser process.
import { browserProcesses, forceKill, isAlive, waitFor } from '@sessionwright/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { call, expectSuccess, startCli } from './helpers.js';

const touched: number[] = [];
// Whatever happened, leave nothing stopped or running behind.
afterAll(() => forceKill(touched));

describe('a browser that stops answering, behind the CLI', () => {
  it('close_session answers within seconds, and when stdin closes the server exits and no browser process remains', async () => {
    const server = await startCli(['--warm-sessions', '1']);
    const serverPid = server.pid!;
    touched.push(serverPid);
    const sessionId = expectSuccess(await call(server.client, 'create_session')).sessionId as string;
    expectSuccess(await call(server.client, 'navigate', { sessionId, url: 'about:blank' }));
    const processes = await browserProcesses(serverPid);
    const main = processes.find((p) => p.ppid === serverPid);
    expect(main).toBeDefined();
    touched.push(...processes.map((p) => p.pid));
    process.kill(main!.pid, 'SIGSTOP');

    const started = Date.now();
    expect(expectSuccess(await call(server.client, 'close_session', { sessionId })).success).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);

    await server.close();
    await waitFor(() => !isAlive(serverPid), { timeout: 15_000 });
    await waitFor(() => processes.every((p) => !isAlive(p.pid)), { timeout: 10_000 });
  });
});
