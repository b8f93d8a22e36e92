// Session defaults: what every session of a manager starts with (context options, page scripts, request origins), pooled sessions included, under each session's own options; bad defaults are refused naming the option.
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, isSessionError, type Session } from '../src/index.js';
import { resolveSessionDefaults, type SessionDefaults } from '../src/parts.js';

let fixture: FixtureServer;
let host: BrowserHost;
let manager: SessionManager;

beforeAll(async () => {
  fixture = await startFixtureServer();
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({
    host,
    maxSessions: 4,
    // One ready context, so the first option-free session comes from the pool: it must carry the defaults too.
    warmSessions: 1,
    sessionDefaults: {
      userAgent: 'default-agent/1',
      deviceScaleFactor: 2,
      serviceWorkers: 'block',
      initScripts: ['window.__defaultScript = 7;'],
      blockedOrigins: [`http://localhost:${fixture.port}`],
    },
  });
  await host.browser();
});
afterAll(async () => {
  await manager.shutdown();
  await fixture.close();
});

const on = <T>(session: Session, fn: (page: Page) => Promise<T>, by: SessionManager = manager) => by.run(session.id, fn);

const probe = (session: Session) =>
  on(session, async (page) => {
    await page.goto(fixture.urlFor('/pages/home'));
    return page.evaluate(() => [navigator.userAgent, devicePixelRatio, (window as unknown as { __defaultScript?: number }).__defaultScript]);
  });

const reaches = (session: Session, url: string, by: SessionManager = manager) =>
  on(
    session,
    (page) =>
      page.goto(url).then(
        () => 'reached',
        (error: Error) => (/ERR_BLOCKED_BY_CLIENT/.test(error.message) ? 'blocked' : error.message),
      ),
    by,
  );

describe('a manager with session defaults', () => {
  it('gives them to an option-free session (from the warm pool), and to one with options under its own', async () => {
    const plain = await manager.create();
    expect(await probe(plain)).toEqual(['default-agent/1', 2, 7]);
    expect(await reaches(plain, fixture.urlFor('/pages/form'))).toBe('reached');
    // Last: the error page Chromium commits after a blocked navigation could interrupt a navigation right after it.
    expect(await reaches(plain, `http://localhost:${fixture.port}/pages/home`)).toBe('blocked');

    const own = await manager.create({ options: { userAgent: 'own-agent/2', blockResources: ['image'] } });
    expect(await probe(own)).toEqual(['own-agent/2', 2, 7]);
    expect(await reaches(own, `http://localhost:${fixture.port}/pages/home`)).toBe('blocked');
    await Promise.all([manager.close(plain.id), manager.close(own.id)]);
  });

  it('lets requests go only to allowed origins (a port wildcard too), blocked ones first', async () => {
    const only = new SessionManager({ host, sessionDefaults: { allowedOrigins: [`http://127.0.0.1:${fixture.port}`] } });
    const session = await only.create();
    expect(await reaches(session, fixture.urlFor('/pages/home'), only)).toBe('reached');
    expect(await reaches(session, `http://localhost:${fixture.port}/pages/home`, only)).toBe('blocked');
    await only.close(session.id);

    const anyPort = new SessionManager({ host, sessionDefaults: { allowedOrigins: ['http://localhost:*'], blockedOrigins: ['127.0.0.1'] } });
    const other = await anyPort.create();
    expect(await reaches(other, `http://localhost:${fixture.port}/pages/home`, anyPort)).toBe('reached');
    // A bare host rule means the scheme's default port, so 127.0.0.1:<port> is not blocked but not allowed either.
    expect(await reaches(other, fixture.urlFor('/pages/home'), anyPort)).toBe('blocked');
    await anyPort.close(other.id);
  });
});

describe("the defaults' headers", () => {
  it("are sent by every session and their values hidden as a session's own are, whatever their names", async () => {
    const withHeaders = new SessionManager({ host, sessionDefaults: { extraHTTPHeaders: { 'X-Team-Key': 'default-secret-9c1' } } });
    const session = await withHeaders.create();
    const echoed = await on(session, async (page) => (await page.goto(fixture.urlFor('/echo-headers.json')))?.text(), withHeaders);
    expect(echoed).toContain('default-secret-9c1');
    expect(session.emulation.hidesHeaderValue('x-team-key')).toBe(true);
    expect(session.emulation.hidesHeaderValue('x-other')).toBe(false);
    await withHeaders.close(session.id);
  });
});

describe('resolveSessionDefaults', () => {
  const refused = (defaults: unknown): { option: unknown; message: string } => {
    try {
      resolveSessionDefaults(defaults);
    } catch (error) {
      if (isSessionError(error) && error.code === 'INVALID_PARAMETERS') return { option: error.details?.option, message: error.message };
      throw error;
    }
    throw new Error(`accepted ${JSON.stringify(defaults)}`);
  };

  it('refuses a bad default naming the option, as a session option is refused', () => {
    expect(refused({ allowedOrigins: ['https://example.com/path'] })).toMatchObject({
      option: 'allowedOrigins',
      message: expect.stringContaining('is not an origin'),
    });
    expect(refused({ blockedOrigins: 'example.com' }).option).toBe('blockedOrigins');
    expect(refused({ deviceScaleFactor: 0 }).option).toBe('deviceScaleFactor');
    expect(refused({ serviceWorkers: 'sometimes' }).option).toBe('serviceWorkers');
    expect(refused({ screen: { width: 10 } }).option).toBe('screen');
    expect(refused({ initScripts: [1] }).option).toBe('initScripts');
    expect(refused({ viewport: { width: 0, height: 10 } }).option).toBe('viewport');
    expect(refused({ telepathy: true }).message).toContain('Unknown session option "telepathy"');
    expect(() => new SessionManager({ host, sessionDefaults: { device: 'Nokia 3310' } as SessionDefaults })).toThrow(/Unknown device "Nokia 3310"/);
  });

  it('builds the context options: explicit fields over the device, as for a session', () => {
    const resolved = resolveSessionDefaults({ device: 'iPhone 15', deviceScaleFactor: 1, viewport: { width: 400, height: 800 }, initScripts: ['1'] });
    expect(resolved.contextOptions).toMatchObject({ isMobile: true, deviceScaleFactor: 1, viewport: { width: 400, height: 800 } });
    expect(resolved.initScripts).toEqual(['1']);
  });
});
