// Live-view links in process: a token works for its one session until it expires or the session ends; a page's stream ends with it; keys typed in the view reach the page.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BrowserHost, SessionManager } from '@sessionwright/session-core';
import { silentLogger } from '@sessionwright/session-core/parts';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionSlots } from '../src/http/connection-slots.js';
import { LiveViews } from '../src/live-view/live-views.js';
import { LiveTokens, MAX_TOKENS_PER_SESSION } from '../src/live-view/tokens.js';

let host: BrowserHost;
let manager: SessionManager;
let fixture: FixtureServer;

beforeAll(async () => {
  fixture = await startFixtureServer();
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host, maxSessions: 20 });
  await host.browser();
});
afterAll(async () => {
  await manager.shutdown();
  await fixture.close();
});

describe('LiveTokens', () => {
  it('finds a token by id and secret; a wrong secret is 403, an unknown id, an expired token or an ended session 404', async () => {
    let now = 1_000;
    const tokens = new LiveTokens(() => now);
    const session = await manager.create();
    const other = await manager.create();
    const { token, secret } = tokens.mint(session, 5_000);
    const { token: otherToken, secret: otherSecret } = tokens.mint(other, 5_000);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(tokens.check(token.id, secret)).toEqual({ ok: true, token });
    expect(tokens.check(token.id, otherSecret)).toEqual({ ok: false, status: 403 });
    expect(tokens.check(otherToken.id, secret)).toEqual({ ok: false, status: 403 });
    expect(tokens.check('nope', secret)).toEqual({ ok: false, status: 404 });
    now += 5_000;
    expect(tokens.check(token.id, secret)).toEqual({ ok: false, status: 404 });
    now -= 5_000;
    await manager.close(other.id);
    expect(tokens.check(otherToken.id, otherSecret)).toEqual({ ok: false, status: 404 });
    await manager.close(session.id);
  });

  it('keeps at most a bounded number of links per session, retiring the oldest', async () => {
    const tokens = new LiveTokens();
    const session = await manager.create();
    const first = tokens.mint(session, 60_000);
    for (let i = 0; i < MAX_TOKENS_PER_SESSION; i += 1) tokens.mint(session, 60_000);
    expect(tokens.validFor(session)).toHaveLength(MAX_TOKENS_PER_SESSION);
    expect(tokens.check(first.token.id, first.secret)).toEqual({ ok: false, status: 404 });
    await manager.close(session.id);
  });
});

describe('LiveViews', () => {
  it('serves a link until it expires, then 404, and tells an open page its link expired', async () => {
    const live = new LiveViews({ logger: silentLogger, ttlMs: 2_000 });
    try {
      const session = await manager.create();
      const { url, expiresAt } = await live.open(session);
      expect(expiresAt - Date.now()).toBeLessThanOrEqual(2_000);
      expect((await fetch(url)).status).toBe(200);
      const stream = await fetch(`${url}events`);
      expect(stream.status).toBe(200);
      const text = await stream.text();
      expect(text).toContain('event: hello');
      expect(text).toContain('link has expired');
      expect((await fetch(url)).status).toBe(404);
      await manager.close(session.id);
    } finally {
      await live.close();
    }
  });

  it('sends keys typed in the view to the focused field, only while control is held', async () => {
    const live = new LiveViews({ logger: silentLogger });
    try {
      const session = await manager.create();
      await manager.run(session.id, async (page) => {
        await page.goto(fixture.urlFor('/pages/form'));
        await page.focus('#name');
      });
      const { url } = await live.open(session);
      const origin = new URL(url).origin;
      const events = await fetch(`${url}events`);
      const reader = events.body?.getReader();
      const first = new TextDecoder().decode((await reader?.read())?.value);
      const viewer = /"viewer":"([^"]+)"/.exec(first)?.[1] ?? '';
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/json', 'X-Live-Viewer': viewer },
          body: JSON.stringify(body),
        });
      const keys = [...'Ada'].flatMap((key) => [
        { kind: 'key', type: 'down', key, code: `Key${key.toUpperCase()}`, keyCode: key.toUpperCase().charCodeAt(0) },
        { kind: 'key', type: 'up', key, code: `Key${key.toUpperCase()}`, keyCode: key.toUpperCase().charCodeAt(0) },
      ]);
      expect((await post('input', { events: keys })).status).toBe(409);
      expect((await post('control', { action: 'take' })).status).toBe(200);
      await session.control.lease?.acquired;
      expect((await post('input', { events: keys })).status).toBe(200);
      expect((await post('input', { events: [{ kind: 'key', type: 'down', key: 'Enter', code: 'Enter', keyCode: 13, extra: 1 }] })).status).toBe(400);
      expect((await post('control', { action: 'give_back' })).status).toBe(200);
      expect(await manager.run(session.id, (page) => page.inputValue('#name'))).toBe('Ada');
      await reader?.cancel();
      await manager.close(session.id);
    } finally {
      await live.close();
    }
  });
});

describe('live pages per link and per identity', () => {
  /** Opens a live page's stream; its status, its text once it ends (at most `waitMs`), and a way to end it. */
  async function openStream(url: string) {
    const stop = new AbortController();
    const response = await fetch(`${url}events`, { signal: stop.signal });
    const text = (waitMs: number) => Promise.race([response.text(), new Promise<string>((resolve) => setTimeout(() => resolve('(still open)'), waitMs))]);
    return { status: response.status, text, close: () => stop.abort() };
  }

  it('ends the stream of a link at once when newer links retire it', async () => {
    const live = new LiveViews({ logger: silentLogger });
    try {
      const session = await manager.create();
      const { url } = await live.open(session);
      const stream = await openStream(url);
      expect(stream.status).toBe(200);
      for (let i = 0; i < MAX_TOKENS_PER_SESSION; i += 1) await live.open(session);
      const text = await stream.text(10_000);
      expect(text).toContain('replaced by newer ones');
      expect((await fetch(url)).status).toBe(404);
      await manager.close(session.id);
    } finally {
      await live.close();
    }
  });

  it("caps one identity's streams below the server's, so another identity's first page still opens", async () => {
    const live = new LiveViews({ logger: silentLogger });
    const streams: { close(): void }[] = [];
    try {
      const alices = await Promise.all([1, 2, 3].map(() => manager.create({ identity: 'identity:alice' })));
      const bobs = await manager.create({ identity: 'identity:bob' });
      const links = await Promise.all(alices.map((session) => live.open(session)));
      // Eight pages on each of two sessions: alice's share.
      for (const { url } of links.slice(0, 2)) {
        for (let i = 0; i < 8; i += 1) {
          const stream = await openStream(url);
          streams.push(stream);
          expect(stream.status).toBe(200);
        }
      }
      const past = await openStream(links[2]?.url ?? '');
      streams.push(past);
      expect(past.status).toBe(429);
      const bob = await openStream((await live.open(bobs)).url);
      streams.push(bob);
      expect(bob.status).toBe(200);
      // One of alice's pages closes: she may open another.
      streams[0]?.close();
      await expect
        .poll(async () => {
          const again = await openStream(links[2]?.url ?? '');
          streams.push(again);
          return again.status;
        })
        .toBe(200);
      for (const session of [...alices, bobs]) await manager.close(session.id);
    } finally {
      for (const stream of streams) stream.close();
      await live.close();
    }
  });

  it("counts a page's stream with its identity's connections", async () => {
    const live = new LiveViews({ logger: silentLogger });
    const slots = new ConnectionSlots(10, 2);
    const listener = createServer((req, res) => void live.handle(req, res));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const identities: (string | undefined)[] = [];
    live.serveOn({
      baseUrl: `http://127.0.0.1:${port}`,
      hostAllowed: () => true,
      allowedOrigins: [],
      takeSlot: (identity) => {
        identities.push(identity);
        const holder = { client: identity, dormantSince: undefined, evict() {} };
        const refusal = slots.take(holder);
        return refusal === undefined ? { release: () => slots.release(holder) } : { refused: `refused: ${refusal}.` };
      },
    });
    const streams: { close(): void }[] = [];
    try {
      const session = await manager.create({ identity: 'identity:alice' });
      // Alice has one MCP connection open already: one more slot is hers.
      const connection = { client: 'identity:alice', dormantSince: undefined, evict() {} };
      expect(slots.take(connection)).toBeUndefined();
      const { url } = await live.open(session);
      const first = await openStream(url);
      streams.push(first);
      expect(first.status).toBe(200);
      const second = await openStream(url);
      streams.push(second);
      expect(second.status).toBe(429);
      expect(await second.text(5_000)).toContain('refused: client');
      // Her share is taken by the page: a new connection of hers is refused too, until the page closes.
      expect(slots.take({ client: 'identity:alice', dormantSince: undefined, evict() {} })).toBe('client');
      first.close();
      await expect.poll(() => slots.size).toBe(1);
      expect(identities.every((identity) => identity === 'identity:alice')).toBe(true);
      await manager.close(session.id);
    } finally {
      for (const stream of streams) stream.close();
      await live.close();
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
