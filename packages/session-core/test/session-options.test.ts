// Per-session identity in one browser: each session sees its own device, place, language, proxy, headers and sign-in, and bad options open nothing.
import { BASIC_AUTH, startFixtureServer, startForwardProxy, waitFor, type FixtureServer, type ForwardProxy } from '@sessionwright/test-kit';
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveSessionOptions } from '../src/context-options.js';
import { BrowserHost, SessionManager, isSessionError, type Session, type SessionOptions } from '../src/index.js';

const HIDDEN_HOST = 'http://only-via-proxy.test';
const PROXY_CREDENTIALS = { username: 'proxy-user', password: 'proxy-secret-9f2c' };

let fixture: FixtureServer;
let proxy: ForwardProxy;
let host: BrowserHost;
let manager: SessionManager;
let browser: Browser;
const opened: Session[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer();
  // A page that sizes itself to the device, as real mobile sites do (without it a phone lays out 980 px wide).
  fixture.addPage(
    'fit',
    '<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Fit</title></head><body>fit</body></html>',
  );
  fixture.addPage('script', '<!doctype html><html><head><title>static</title></head><body><script>document.title = "script ran"</script></body></html>');
  proxy = await startForwardProxy({ hosts: { 'only-via-proxy.test': fixture.url }, credentials: PROXY_CREDENTIALS });
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host, maxSessions: 6 });
  browser = await host.browser();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((session) => manager.close(session.id).catch(() => {})));
});
afterAll(async () => {
  await manager.shutdown();
  await proxy.close();
  await fixture.close();
});

async function create(options?: SessionOptions): Promise<Session> {
  const session = await manager.create(options === undefined ? {} : { options });
  opened.push(session);
  return session;
}

const on = <T>(session: Session, fn: (page: Page) => Promise<T>) => manager.run(session.id, fn);

async function headersSeen(session: Session): Promise<Record<string, string>> {
  return on(session, async (page) => {
    const response = await page.goto(fixture.urlFor('/echo-headers.json'));
    return (await response!.json()) as Record<string, string>;
  });
}

async function environment(session: Session) {
  return on(session, async (page) => {
    await page.goto(fixture.urlFor('/pages/fit'));
    return page.evaluate(() => ({
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      language: navigator.language,
      width: window.innerWidth,
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      touch: navigator.maxTouchPoints > 0,
    }));
  });
}

/** Loads a page with one image (tagged so the fixture's log tells the sessions apart) and says whether it loaded. */
async function imageStatus(session: Session, tag: string): Promise<string> {
  return on(session, async (page) => {
    await page.goto(fixture.urlFor(`/image-page?tag=${tag}`));
    await page.waitForFunction(() => document.getElementById('status')?.textContent !== 'pending');
    return (await page.textContent('#status')) ?? '';
  });
}

async function heading(session: Session, url: string): Promise<string> {
  return on(session, async (page) => {
    await page.goto(url);
    return (await page.textContent('h1')) ?? '';
  });
}

describe('two differently-dressed sessions side by side in one browser', () => {
  it('each sees only its own device, place, language, headers, proxy, credentials and image rule', async () => {
    const [phone, desk] = await Promise.all([
      create({
        device: 'iPhone 15',
        locale: 'de-DE',
        timezoneId: 'Asia/Tokyo',
        colorScheme: 'dark',
        extraHTTPHeaders: { 'X-Identity': 'phone' },
        proxy: { server: proxy.url, ...PROXY_CREDENTIALS },
        blockResources: ['image'],
        httpCredentials: { ...BASIC_AUTH },
      }),
      create({
        viewport: { width: 900, height: 700 },
        userAgent: 'sessionwright-desk/1.0',
        locale: 'fr-FR',
        timezoneId: 'America/New_York',
        colorScheme: 'light',
        extraHTTPHeaders: { 'X-Identity': 'desk' },
      }),
    ]);
    expect(phone.browser).toBe(desk.browser);

    const [phoneHeaders, deskHeaders] = await Promise.all([headersSeen(phone), headersSeen(desk)]);
    expect(phoneHeaders['user-agent']).toContain('iPhone');
    expect(phoneHeaders['accept-language']).toMatch(/^de-DE/);
    expect(phoneHeaders['x-identity']).toBe('phone');
    expect(deskHeaders['user-agent']).toBe('sessionwright-desk/1.0');
    expect(deskHeaders['accept-language']).toMatch(/^fr-FR/);
    expect(deskHeaders['x-identity']).toBe('desk');

    const [phoneEnv, deskEnv] = await Promise.all([environment(phone), environment(desk)]);
    expect(phoneEnv).toEqual({ timeZone: 'Asia/Tokyo', language: 'de-DE', width: 393, dark: true, touch: true });
    expect(deskEnv).toEqual({ timeZone: 'America/New_York', language: 'fr-FR', width: 900, dark: false, touch: false });

    // Only the proxied session reaches the host that exists behind the proxy, and its proxy password was accepted.
    expect(await heading(phone, `${HIDDEN_HOST}/account`)).toBe('Not signed in');
    expect(proxy.requests.some((request) => request.url === `${HIDDEN_HOST}/account` && request.authorized)).toBe(true);
    const throughProxy = proxy.requests.length;
    await heading(desk, fixture.urlFor('/account'));
    expect(proxy.requests.length).toBe(throughProxy);

    // Images: blocked for one, loaded for its neighbour; the blocked one never reached the server.
    const [phoneImage, deskImage] = await Promise.all([imageStatus(phone, 'phone'), imageStatus(desk, 'desk')]);
    expect(phoneImage).toBe('failed');
    expect(deskImage).toBe('loaded');
    expect(fixture.requests).toContain('/image.png?tag=desk');
    expect(fixture.requests).not.toContain('/image.png?tag=phone');

    // Basic auth: the session with credentials is let in, the other is turned away.
    expect(await heading(phone, fixture.urlFor('/basic-auth'))).toBe(`Hello ${BASIC_AUTH.username}`);
    expect(await heading(desk, fixture.urlFor('/basic-auth'))).toBe('Unauthorized');

    const listed = await manager.list();
    expect(listed.find((info) => info.sessionId === phone.id)).toMatchObject({ device: 'iPhone 15', viewport: { width: 393, height: 659 } });
    const deskInfo = listed.find((info) => info.sessionId === desk.id);
    expect(deskInfo?.viewport).toEqual({ width: 900, height: 700 });
    expect(deskInfo?.device).toBeUndefined();

    // Last, because Chromium's error page still loads after the failed navigation: the other session cannot reach the hidden host.
    const direct = await on(desk, (page) => page.goto(`${HIDDEN_HOST}/account`, { timeout: 15_000 })).then(
      () => 'reached',
      (error: unknown) => String(error),
    );
    expect(direct).toMatch(/ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED/);
  });

  it('lets explicit options override what the device set, and echoes the effective options', async () => {
    const session = await create({ device: 'Pixel 7', viewport: { width: 500, height: 800 }, userAgent: 'custom-agent' });
    expect(session.options).toMatchObject({
      device: 'Pixel 7',
      viewport: { width: 500, height: 800 },
      userAgent: 'custom-agent',
      isMobile: true,
      hasTouch: true,
    });
    const seen = await on(session, async (page) => {
      await page.goto(fixture.urlFor('/pages/fit'));
      return page.evaluate(() => [innerWidth, navigator.userAgent, navigator.maxTouchPoints > 0]);
    });
    expect(seen).toEqual([500, 'custom-agent', true]);
  });

  it('passes geolocation and permissions, and offline and javaScriptEnabled', async () => {
    const located = await create({ geolocation: { latitude: 52.52, longitude: 13.4 }, permissions: ['geolocation'] });
    const where = await on(located, async (page) => {
      await page.goto(fixture.urlFor('/pages/home'));
      return page.evaluate(
        () =>
          new Promise<number[]>((resolve, reject) => navigator.geolocation.getCurrentPosition((p) => resolve([p.coords.latitude, p.coords.longitude]), reject)),
      );
    });
    expect(where).toEqual([52.52, 13.4]);

    const offline = await create({ offline: true });
    await expect(on(offline, (page) => page.goto(fixture.urlFor('/pages/home')))).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);

    const [noScript, scripted] = await Promise.all([create({ javaScriptEnabled: false }), create()]);
    const titleAfterScript = (session: Session) =>
      on(session, async (page) => {
        await page.goto(fixture.urlFor('/pages/script'));
        return page.title();
      });
    expect(await titleAfterScript(noScript)).toBe('static');
    expect(await titleAfterScript(scripted)).toBe('script ran');
  });
});

describe('a sign-in carried over with a storage state', () => {
  it('starts a session signed in from another one’s state; a third without it is not', async () => {
    const first = await create();
    expect(await heading(first, fixture.urlFor('/sign-in?user=alice'))).toBe('Signed in as alice');
    const state = await on(first, (page) => page.context().storageState());
    expect(state.cookies.map((cookie) => cookie.name)).toContain('session');

    const second = await create({ storageState: state });
    const third = await create();
    expect(await heading(second, fixture.urlFor('/account'))).toBe('Signed in as alice');
    expect(await heading(third, fixture.urlFor('/account'))).toBe('Not signed in');

    // The echo names the cookie but never repeats its value.
    const token = state.cookies.find((cookie) => cookie.name === 'session')!.value;
    expect(second.options.storageState?.cookies.map((cookie) => cookie.name)).toContain('session');
    expect(JSON.stringify(second.options)).not.toContain(token);
  });
});

describe('secrets', () => {
  it('leaves passwords, cookie values and every header value out of the echo and the list', async () => {
    const session = await create({
      proxy: { server: proxy.url, ...PROXY_CREDENTIALS },
      httpCredentials: { username: 'alice', password: 'http-secret-77aa' },
      extraHTTPHeaders: { Authorization: 'Bearer header-secret-31', 'X-Plain': 'visible' },
      storageState: { cookies: [{ name: 'sid', value: 'cookie-secret-5e', domain: '127.0.0.1', path: '/' }], origins: [] },
    });
    const shown = JSON.stringify([session.options, await manager.list()]);
    for (const secret of ['proxy-secret-9f2c', 'proxy-user', 'http-secret-77aa', 'header-secret-31', 'cookie-secret-5e']) expect(shown).not.toContain(secret);
    expect(session.options).toMatchObject({
      proxy: { server: proxy.url },
      httpCredentials: { username: 'alice' },
      extraHTTPHeaders: { Authorization: '(hidden)', 'X-Plain': '(hidden)' },
    });
    // The cookie itself was set for real.
    expect(await on(session, (page) => page.context().cookies())).toMatchObject([{ name: 'sid', value: 'cookie-secret-5e' }]);
  });

  it('never shows the value of a header it was given, whatever its name, in the echo, after emulate, or as one a request carried', async () => {
    const secrets = { 'X-JWT': 'eyJhbGciOi.jwt-secret-1c', 'X-Signature': 'sig-secret-9d', 'X-Team': 'qa-secret-4b' };
    const session = await create({ extraHTTPHeaders: secrets });
    expect(session.options.extraHTTPHeaders).toEqual({ 'X-JWT': '(hidden)', 'X-Signature': '(hidden)', 'X-Team': '(hidden)' });
    const emulated = await on(session, () => session.emulation.emulate({ extraHTTPHeaders: { 'X-Api-Sig': 'later-secret-2f' } }));
    expect(emulated.extraHTTPHeaders).toEqual({ 'X-Api-Sig': '(hidden)' });
    const shown = JSON.stringify([session.options, emulated, await manager.list()]);
    for (const secret of [...Object.values(secrets), 'later-secret-2f']) expect(shown).not.toContain(secret);
    // A request the page sent carried them: whoever shows it hides what the session was given, by any case of the name.
    expect(['x-jwt', 'X-SIGNATURE', 'x-team', 'x-api-sig'].every((name) => session.emulation.hidesHeaderValue(name))).toBe(true);
    expect(session.emulation.hidesHeaderValue('accept')).toBe(false);
  });
});

describe('validation before anything opens', () => {
  const cases: [string, unknown, RegExp][] = [
    ['an unknown device', { device: 'iPhone 15 Prro' }, /Unknown device "iPhone 15 Prro".*"iPhone 15 Pro"/],
    ['an invalid time zone', { timezoneId: 'Mars/Olympus_Mons' }, /not a time zone/],
    ['an invalid locale', { locale: 'en_US' }, /not a valid locale/],
    ['an unknown permission', { permissions: ['geolocation', 'telepathy'] }, /Unknown permission "telepathy"/],
    ['a zero viewport', { viewport: { width: 0, height: 600 } }, /viewport.width/],
    ['a negative viewport', { viewport: { width: 800, height: -1 } }, /viewport.height/],
    ['an unknown option', { device: 'Pixel 7', screenSize: 3 }, /Unknown session option "screenSize"/],
    ['an unknown proxy field', { proxy: { server: 'http://127.0.0.1:1', pass: 'x' } }, /proxy.pass/],
    ['a proxy URL of another scheme', { proxy: { server: 'ftp://127.0.0.1:21' } }, /scheme "ftp"/],
    ['an unparsable proxy URL', { proxy: { server: 'http://exa mple:80' } }, /proxy.server/],
    ['a proxy URL with credentials in it', { proxy: { server: 'http://user:pw@127.0.0.1:3128' } }, /carries credentials/],
    ['a socks5 proxy with a password', { proxy: { server: 'socks5://127.0.0.1:1080', username: 'u', password: 'p' } }, /socks5/],
    ['a storage state given as a file path', { storageState: '/etc/passwd' }, /file path is not accepted/],
    ['a cookie without a domain', { storageState: { cookies: [{ name: 'a', value: 'b', path: '/' }] } }, /cookies\[0\].domain/],
    ['an unknown resource type', { blockResources: ['script'] }, /Cannot block "script"/],
    ['a bad colour scheme', { colorScheme: 'sepia' }, /colorScheme/],
  ];

  it.each(cases)('refuses %s with INVALID_PARAMETERS and leaves no session or context behind', async (_name, options, message) => {
    const contexts = browser.contexts().length;
    const error = await manager.create({ options: options as SessionOptions }).then(
      (session) => {
        opened.push(session);
        return undefined;
      },
      (failure: unknown) => failure,
    );
    expect(isSessionError(error) && error.code).toBe('INVALID_PARAMETERS');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/create_session|list_sessions/);
    expect(manager.size).toBe(0);
    expect(browser.contexts().length).toBe(contexts);
  });

  it('refuses a device name of a million characters by its length, at once, without quoting it back', () => {
    let error: unknown;
    try {
      resolveSessionOptions({ device: 'Z'.repeat(1_000_000) });
    } catch (failure) {
      error = failure;
    }
    expect(isSessionError(error) && error.code).toBe('INVALID_PARAMETERS');
    expect(isSessionError(error) && error.details).toMatchObject({ option: 'device' });
    expect((error as Error).message).toMatch(/100 characters/);
    expect(JSON.stringify(isSessionError(error) && error.toJSON()).length).toBeLessThan(500);
  });

  it('bounds every string and list an option takes, so no input costs more than reading it', () => {
    const long = (length: number) => 'a'.repeat(length);
    const cases: [string, Record<string, unknown>][] = [
      ['userAgent', { userAgent: long(3_000) }],
      ['locale', { locale: long(200) }],
      ['timezoneId', { timezoneId: long(200) }],
      ['permissions', { permissions: Array.from({ length: 51 }, () => 'geolocation') }],
      ['extraHTTPHeaders', { extraHTTPHeaders: { 'X-Long': long(10_000) } }],
      ['extraHTTPHeaders', { extraHTTPHeaders: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`X-H${i}`, 'v'])) }],
      ['httpCredentials', { httpCredentials: { username: 'u', password: long(2_000) } }],
      ['proxy', { proxy: { server: `http://${long(3_000)}:1` } }],
      ['storageState', { storageState: { cookies: Array.from({ length: 3_001 }, (_, i) => ({ name: `c${i}`, value: 'v', domain: 'a.test', path: '/' })) } }],
      ['blockResources', { blockResources: ['image', 'font', 'media', 'stylesheet', 'image'] }],
    ];
    for (const [option, options] of cases) {
      let error: unknown;
      try {
        resolveSessionOptions(options);
      } catch (failure) {
        error = failure;
      }
      expect(isSessionError(error) && error.details, option).toMatchObject({ option });
    }
  });

  it('suggests close device names in details', () => {
    let error: unknown;
    try {
      resolveSessionOptions({ device: 'Pixel 77' });
    } catch (failure) {
      error = failure;
    }
    expect(isSessionError(error) && error.details).toMatchObject({ option: 'device', suggestions: expect.arrayContaining(['Pixel 7']) });
  });

  it('never quotes a password it refuses', () => {
    expect(() => resolveSessionOptions({ httpCredentials: { username: 'a', password: 42 } })).toThrow(/httpCredentials.password must be a string/);
    try {
      resolveSessionOptions({ proxy: { server: 'http://user:pw-secret@127.0.0.1:3128' } });
    } catch (error) {
      expect(JSON.stringify(isSessionError(error) && error.toJSON())).not.toContain('pw-secret');
    }
  });

  it('keeps a bad request from holding a slot: a full manager still creates once the bad one failed', async () => {
    const small = new SessionManager({ host, maxSessions: 1 });
    await expect(small.create({ options: { timezoneId: 'Nowhere/Never' } })).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    const session = await small.create({ options: { locale: 'ja-JP' } });
    expect(small.size).toBe(1);
    await small.close(session.id);
  });
});

describe('the warm pool', () => {
  it('serves option-free sessions only; a session with options opens its own context', async () => {
    const pooledHost = new BrowserHost({ headless: true }).start();
    const pooled = new SessionManager({ host: pooledHost, warmSessions: 1 });
    try {
      const pooledBrowser = await pooledHost.browser();
      await waitFor(() => pooledBrowser.contexts().length === 1 && pooledBrowser.contexts()[0]!.pages().length === 1, { timeout: 15_000 });
      const [ready] = pooledBrowser.contexts();

      const dressed = await pooled.create({ options: { colorScheme: 'dark' } });
      expect(dressed.context).not.toBe(ready);
      expect(pooledBrowser.contexts()).toContain(ready);

      const plain = await pooled.create({ options: {} });
      expect(plain.context).toBe(ready);
      expect(plain.options).toEqual({});
    } finally {
      await pooled.shutdown();
    }
  });
});
