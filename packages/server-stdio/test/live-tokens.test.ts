// Live-view links in process: a token works for its one session until it expires or the session ends; a page's stream ends with it; keys typed in the view reach the page.
import { BrowserHost, SessionManager, silentLogger } from '@sessionwright/session-core';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveViews } from '../src/live-view/live-views.js';
import { LiveTokens, MAX_TOKENS_PER_SESSION } from '../src/live-view/tokens.js';

let host: BrowserHost;
let manager: SessionManager;
let fixture: FixtureServer;

beforeAll(async () => {
  fixture = await startFixtureServer();
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host });
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
      await session.control?.acquired;
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
