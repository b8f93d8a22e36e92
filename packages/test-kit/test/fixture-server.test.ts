// Checks the fixture server's routes over real HTTP and the /proc helpers against a real child process.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descendants, isAlive, startFixtureServer, waitFor } from '../src/index.js';
import type { FixtureServer } from '../src/index.js';

describe('fixture server', () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await startFixtureServer({ pages: { extra: '<title>Extra</title>' } });
  });
  afterEach(() => server.close());

  it('serves built-in, extra and added pages, and 404s unknown ones', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(await (await fetch(server.url)).text()).toContain('<title>Home</title>');
    expect(await (await fetch(server.urlFor('/pages/form'))).text()).toContain('<form id="f" method="post" action="/submit">');
    expect(await (await fetch(server.urlFor('/pages/extra'))).text()).toContain('<title>Extra</title>');
    server.addPage('later', '<title>Later</title>');
    expect(await (await fetch(server.urlFor('pages/later'))).text()).toContain('<title>Later</title>');
    const missing = await fetch(server.urlFor('/pages/nope'));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<title>Not Found</title>');
    expect(server.requests).toEqual(['/', '/pages/form', '/pages/extra', '/pages/later', '/pages/nope']);
  });

  it('answers /status/<code> with that status', async () => {
    const res = await fetch(server.urlFor('/status/503'));
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('<title>Status 503</title>');
  });

  it('sets a cookie and echoes the Cookie header back, escaped', async () => {
    const set = await fetch(server.urlFor('/set-cookie?name=a&value=b'));
    expect(set.headers.get('set-cookie')).toBe('a=b; Path=/');
    expect(await set.text()).toContain('<title>Cookie set</title>');
    const echo = await fetch(server.urlFor('/echo-cookie'), { headers: { cookie: 'a=b; x=<y>' } });
    expect(await echo.text()).toContain('<pre id="cookies">a=b; x=&lt;y&gt;</pre>');
    const json = await fetch(server.urlFor('/echo-cookie.json'), { headers: { cookie: 'a=b' } });
    expect(await json.json()).toEqual({ cookie: 'a=b' });
  });

  it('redirects to the given path', async () => {
    const res = await fetch(server.urlFor('/redirect?to=/pages/list'), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/pages/list');
  });

  it('records form posts and beacons in order', async () => {
    const submitted = await fetch(server.urlFor('/submit'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada&bio=a%3Cb',
    });
    const html = await submitted.text();
    expect(html).toContain('<title>Submitted</title>');
    expect(html).toContain('<dt>bio</dt><dd>a&lt;b</dd>');
    const beacon = await fetch(server.urlFor('/beacon'), { method: 'POST', body: JSON.stringify({ n: 1 }), headers: { 'content-type': 'application/json' } });
    expect(beacon.status).toBe(204);
    await fetch(server.urlFor('/submit'), { method: 'POST', body: 'plain' });

    expect(server.posts.map((p) => [p.path, p.fields])).toEqual([
      ['/submit', { name: 'Ada', bio: 'a<b' }],
      ['/beacon', { n: '1' }],
      ['/submit', {}],
    ]);
    expect(server.posts[2]).toMatchObject({ body: 'plain', contentType: 'text/plain;charset=UTF-8' });
  });

  it('waits before answering /wait', async () => {
    const started = Date.now();
    const res = await fetch(server.urlFor('/wait?ms=300'));
    expect(await res.text()).toContain('<title>Waited 300</title>');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await (await fetch(server.urlFor('/wait/0'))).text()).toContain('<title>Waited 0</title>');
  });

  it('closes promptly despite keep-alive sockets and a hanging request', async () => {
    await (await fetch(server.url)).text(); // leaves a keep-alive socket in fetch's pool
    const hanging = fetch(server.urlFor('/hang')).catch((error: unknown) => error);
    await waitFor(() => server.requests.includes('/hang'), { timeout: 2000, interval: 10 });
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await hanging).toBeInstanceOf(Error);
  });
});

describe('process helpers', () => {
  it('finds a spawned child among the descendants, and sees it die', async () => {
    const child = spawn('sleep', ['5']);
    const pid = child.pid;
    if (pid === undefined) throw new Error('spawn failed');
    try {
      const found = await descendants(process.pid);
      expect(found).toContainEqual({ pid, ppid: process.pid, comm: 'sleep', cmdline: 'sleep 5' });
      expect(isAlive(pid)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
    await waitFor(() => !isAlive(pid), { timeout: 2000, interval: 20 });
  });

  it('rejects waitFor on timeout', async () => {
    await expect(waitFor(() => false, { timeout: 50, interval: 10 })).rejects.toThrow(/after 50 ms/);
  });
});
