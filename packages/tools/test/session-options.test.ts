// create_session's identity options in process (runTool over a real SessionManager, Chromium, the fixture server and a forward proxy): each session dressed as asked, the effective options echoed without secrets, bad options refused, header values never shown.
import { BASIC_AUTH, startForwardProxy, type FixtureServer, type ForwardProxy } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const SECRETS = { proxyPassword: 'proxy-pw-4d1e', httpPassword: 'http-pw-8c2b', cookieValue: 'cookie-val-61f0', header: 'header-token-0a9e' };

// As a server started with --max-sessions 5.
const harness = useTools({ maxSessions: 5 });
const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
let fixture: FixtureServer;
let proxy: ForwardProxy;

beforeAll(async () => {
  fixture = harness.fixture();
  proxy = await startForwardProxy({ hosts: { 'only-via-proxy.test': fixture.url }, credentials: { username: 'proxy-user', password: SECRETS.proxyPassword } });
});
afterAll(async () => {
  await proxy?.close();
});

describe('create_session options', () => {
  const evaluate = async (sessionId: string, fn: string) => expectSuccess(await tool('evaluate', { sessionId, function: fn })).result;

  it('dresses two sessions differently, echoes the effective options without secrets, and lists device or viewport', async () => {
    const [phone, desk] = await Promise.all([
      tool('create_session', {
        device: 'Pixel 7',
        locale: 'ja-JP',
        timezoneId: 'Asia/Tokyo',
        colorScheme: 'dark',
        proxy: { server: proxy.url, username: 'proxy-user', password: SECRETS.proxyPassword },
        httpCredentials: { username: BASIC_AUTH.username, password: BASIC_AUTH.password },
        extraHTTPHeaders: { 'X-Api-Token': SECRETS.header, 'X-Team': 'mobile' },
        blockResources: ['image', 'font'],
      }),
      tool('create_session', {
        viewport: { width: 1000, height: 640 },
        userAgent: 'desk-agent/2',
        locale: 'en-GB',
        timezoneId: 'Europe/London',
        storageState: { cookies: [{ name: 'pref', value: SECRETS.cookieValue, domain: '127.0.0.1', path: '/' }], origins: [] },
      }),
    ]);
    const phoneResult = expectSuccess(phone);
    const deskResult = expectSuccess(desk);
    try {
      expect(phoneResult).toMatchObject({
        sessionId: expect.any(String),
        createdAt: expect.any(Number),
        expiresAt: expect.any(Number),
        message: expect.any(String),
      });
      expect(phoneResult.options).toMatchObject({
        device: 'Pixel 7',
        viewport: { width: 412, height: 839 },
        isMobile: true,
        locale: 'ja-JP',
        timezoneId: 'Asia/Tokyo',
        colorScheme: 'dark',
        proxy: { server: proxy.url },
        httpCredentials: { username: BASIC_AUTH.username },
        extraHTTPHeaders: { 'X-Api-Token': '(hidden)', 'X-Team': '(hidden)' },
        blockResources: ['image', 'font'],
      });
      expect(deskResult.options).toEqual({
        viewport: { width: 1000, height: 640 },
        userAgent: 'desk-agent/2',
        locale: 'en-GB',
        timezoneId: 'Europe/London',
        storageState: {
          cookies: [{ name: 'pref', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }],
          origins: [],
        },
      });

      // Each page sees its own identity (the phone's width is left out: without a viewport meta tag a phone lays out 980 px wide).
      const identity =
        "() => [Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.language, matchMedia('(prefers-color-scheme: dark)').matches, innerWidth]";
      await Promise.all([phoneResult.sessionId, deskResult.sessionId].map((sessionId) => tool('navigate', { sessionId, url: fixture.urlFor('/pages/home') })));
      expect((await evaluate(phoneResult.sessionId, identity)).slice(0, 3)).toEqual(['Asia/Tokyo', 'ja-JP', true]);
      expect(await evaluate(deskResult.sessionId, identity)).toEqual(['Europe/London', 'en-GB', false, 1000]);
      expectSuccess(await tool('navigate', { sessionId: phoneResult.sessionId, url: 'http://only-via-proxy.test/echo-headers.json' }));
      const phoneHeaders = JSON.parse(await evaluate(phoneResult.sessionId, '() => document.body.innerText'));
      expect(phoneHeaders).toMatchObject({
        'accept-language': expect.stringMatching(/^ja-JP/),
        'x-team': 'mobile',
        'user-agent': expect.stringContaining('Pixel 7'),
      });
      const navigated = await tool('navigate', { sessionId: deskResult.sessionId, url: 'http://only-via-proxy.test/echo-headers.json', timeout: 15_000 });
      expectError(navigated, 'NAVIGATION_FAILED', deskResult.sessionId);

      const listed = expectSuccess(await tool('list_sessions'));
      const byId = new Map(listed.sessions.map((entry: { sessionId: string }) => [entry.sessionId, entry]));
      expect(byId.get(phoneResult.sessionId)).toMatchObject({
        device: 'Pixel 7',
        viewport: { width: 412, height: 839 },
        url: expect.any(String),
        title: expect.any(String),
      });
      expect(byId.get(deskResult.sessionId)).toMatchObject({ viewport: { width: 1000, height: 640 } });
      expect(byId.get(deskResult.sessionId)).not.toHaveProperty('device');

      const everything = JSON.stringify([phone.result, desk.result, listed]);
      for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
      expect(everything).not.toContain(BASIC_AUTH.password);
    } finally {
      await Promise.all([phoneResult.sessionId, deskResult.sessionId].map((sessionId) => tool('close_session', { sessionId })));
    }
  });

  it('answers INVALID_PARAMETERS for bad options and leaves no half-made session', async () => {
    const bad: Record<string, unknown>[] = [
      { device: 'Galaxy S99 Ultra' },
      { timezoneId: 'Atlantis/Capital' },
      { locale: 'xx_INVALID' },
      { permissions: ['mind-reading'] },
      { viewport: { width: -5, height: 100 } },
      { viewport: { width: 0, height: 100 } },
      { screenSize: 'big' },
      { proxy: { server: 'gopher://127.0.0.1:70' } },
      { proxy: { server: 'http://' } },
      { blockResources: ['script'] },
    ];
    for (const args of bad) {
      const error = expectError(await tool('create_session', args), 'INVALID_PARAMETERS');
      expect(error.message.length).toBeGreaterThan(10);
    }
    const unknownDevice = expectError(await tool('create_session', { device: 'iPhone 15 Pro Maxx' }), 'INVALID_PARAMETERS');
    expect(unknownDevice.message).toContain('"iPhone 15 Pro Max"');
    expect(unknownDevice.details.suggestions).toContain('iPhone 15 Pro Max');
    expect(expectSuccess(await tool('list_sessions')).sessions).toEqual([]);
    // The slots are free: sessions are still created up to the limit.
    const created = await Promise.all(Array.from({ length: 5 }, () => tool('create_session', { colorScheme: 'dark' })));
    const ids = created.map((outcome) => expectSuccess(outcome).sessionId as string);
    await Promise.all(ids.map((sessionId) => tool('close_session', { sessionId })));
  });

  it('refuses a device name of a million characters by its length, without quoting it back, and serves the next call', async () => {
    const error = expectError(await tool('create_session', { device: 'Z'.repeat(1_000_000) }), 'INVALID_PARAMETERS');
    expect(error.message).toMatch(/device/);
    expect(JSON.stringify(error)).not.toContain('Z'.repeat(20));
    expect(JSON.stringify(error).length).toBeLessThan(2_000);
    const { sessionId } = expectSuccess(await tool('create_session', { device: 'Pixel 7' }));
    expectSuccess(await tool('close_session', { sessionId }));
  });
});

describe('header values given to a session', () => {
  it('are never echoed, whatever the header is called: not in a result, the list, or a request shown', async () => {
    const given = { 'X-JWT': 'eyJhbGciOiJIUzI1NiJ9.jwt-value-7c31', 'X-Signature': 'signature-value-5e08', 'X-Team': 'team-value-91ab' };
    const created = await tool('create_session', { extraHTTPHeaders: given });
    const { sessionId } = expectSuccess(created);
    try {
      expect(expectSuccess(created).options.extraHTTPHeaders).toEqual({ 'X-JWT': '(hidden)', 'X-Signature': '(hidden)', 'X-Team': '(hidden)' });
      const emulated = await tool('emulate', { sessionId, extraHTTPHeaders: { 'X-Request-Sig': 'emulated-value-33d2' } });
      expect(expectSuccess(emulated).extraHTTPHeaders).toEqual({ 'X-Request-Sig': '(hidden)' });
      expectSuccess(await tool('emulate', { sessionId, extraHTTPHeaders: given }));
      expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
      const requests = expectSuccess(await tool('network_requests', { sessionId })).requests as { id: string; url: string }[];
      const page = requests.find((request) => request.url.endsWith('/pages/home'));
      expect(page).toBeDefined();
      const shown = await tool('network_request', { sessionId, id: page?.id });
      // The page's request carried them (their names are there), with the values hidden.
      expect(expectSuccess(shown).requestHeaders).toMatchObject({ 'x-jwt': '(hidden)', 'x-signature': '(hidden)', 'x-team': '(hidden)' });
      const listed = await tool('list_sessions');
      const everything = JSON.stringify([created, emulated, shown, listed]);
      for (const secret of [...Object.values(given), 'emulated-value-33d2']) expect(everything).not.toContain(secret);
    } finally {
      expectSuccess(await tool('close_session', { sessionId }));
    }
  });
});
