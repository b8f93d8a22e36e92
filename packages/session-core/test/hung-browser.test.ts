// A browser that hangs (stopped with SIGSTOP): closing a session and shutting down still end in a few seconds, and no browser process is left.
import { browserProcesses, forceKill, isAlive, waitFor } from '@sessionwright/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';

const stopped: number[] = [];
// Whatever happened, leave nothing stopped or running behind.
afterAll(() => forceKill(stopped));

describe('a browser that stops answering', () => {
  it('lets close and shutdown return within seconds, and leaves no browser process', async () => {
    const host = new BrowserHost({ headless: true }).start();
    const manager = new SessionManager({ host, warmSessions: 1 });
    const [a, b] = await Promise.all([manager.create(), manager.create()]);
    await manager.run(a.id, (page) => page.goto('about:blank'));
    const processes = await browserProcesses(process.pid);
    const mains = processes.filter((p) => p.ppid === process.pid);
    expect(mains).toHaveLength(1);
    const main = mains[0]!.pid;
    const pids = processes.map((p) => p.pid);
    process.kill(main, 'SIGSTOP');
    stopped.push(...pids);

    let started = Date.now();
    await manager.close(a.id);
    // The context close cannot finish; the session gives up after its bound (2 s), well under 10.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(() => manager.get(a.id)).toThrow(/closed/);

    started = Date.now();
    await manager.shutdown();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(() => manager.get(b.id)).toThrow(/closed/);
    // The host killed the stopped browser; every process it had is gone.
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { timeout: 10_000 });
    expect(await browserProcesses(process.pid)).toEqual([]);
  });
});
