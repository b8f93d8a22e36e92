// A browser that hangs (stopped with SIGSTOP): closing a session, retiring a browser and shutting down still end in bounded time, and no browser process is left.
import { browserProcesses, forceKill, holdsFor, isAlive, waitFor } from '@sessionwright/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager } from '../src/index.js';

const stopped: number[] = [];
const hosts: BrowserHost[] = [];
// Whatever happened, leave nothing stopped or running behind.
afterAll(async () => {
  forceKill(stopped);
  await Promise.all(hosts.map((host) => host.close()));
});

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

describe('a retired browser with contexts still closing', () => {
  /** A host with one context open in its browser, and the pid of that browser's main process. */
  async function hostWithContext() {
    const warnings: string[] = [];
    const logger = { info: () => {}, debug: () => {}, warn: (message: string) => warnings.push(message) };
    const host = new BrowserHost({ headless: true, logger });
    hosts.push(host);
    const browser = await host.browser();
    const context = await browser.newContext();
    await context.newPage();
    const main = (await browserProcesses(process.pid)).find((p) => p.ppid === process.pid);
    if (!main) throw new Error('no browser process');
    return { host, browser, context, main: main.pid, warnings };
  }

  it('is closed once they have closed, not killed under them', async () => {
    const { host, browser, context, main, warnings } = await hostWithContext();
    process.kill(main, 'SIGSTOP');
    stopped.push(main);
    // Stopped, the browser cannot finish this close; retire() must wait for it, past its 1.5 s kill bound, not kill it.
    const closing = context.close();
    const old = host.rotate();
    expect(old).toBe(browser);
    const retired = host.retire(browser);
    await holdsFor(() => browser.isConnected(), 3_000, { what: 'the retired browser connected' });
    expect(browser.isConnected()).toBe(true);
    process.kill(main, 'SIGCONT');
    await retired;
    await closing;
    expect(browser.isConnected()).toBe(false);
    expect(warnings).toEqual([]);
    await host.close();
  });

  it('is killed once none of them has closed for its bound, saying so, and leaves no process', async () => {
    const { host, browser, context, main, warnings } = await hostWithContext();
    const pids = (await browserProcesses(process.pid)).map((p) => p.pid);
    process.kill(main, 'SIGSTOP');
    stopped.push(...pids);
    void context.close().catch(() => {});
    host.rotate();
    const started = Date.now();
    await host.retire(browser);
    // 10 s without a context closing, then 1.5 s for the close.
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(warnings[0]).toMatch(/closed none of its last 1 contexts in 10 s; closing it anyway/);
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { timeout: 10_000 });
    await host.close();
    expect(await browserProcesses(process.pid)).toEqual([]);
  }, 40_000);
});
