// The demo site over plain HTTP: cookie sign-in per user, the greeting, the search, and the slow page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, TEAS, welcomeTitle } from '../src/demo-site/pages.js';
import { startDemoSite, type DemoSite } from '../src/demo-site/server.js';

let site: DemoSite;
beforeAll(async () => {
  site = await startDemoSite();
});
afterAll(() => site.close());

const titleOf = (html: string) => /<title>(.*)<\/title>/.exec(html)?.[1];

async function signIn(username: string, password: string): Promise<Response> {
  return fetch(site.urlFor('/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
    redirect: 'manual',
  });
}

describe('demo site', () => {
  it('lists the demo accounts on the sign-in page', async () => {
    const html = await (await fetch(site.urlFor('/login'))).text();
    for (const user of DEMO_USERS) {
      expect(html).toContain(`<code>${user.username}</code>`);
      expect(html).toContain(`<code>${user.password}</code>`);
    }
    expect(html).toContain('id="username"');
    expect(html).toContain('id="sign-in"');
  });

  it('signs each user in with a cookie of their own and greets only that user', async () => {
    const cookies = new Map<string, string>();
    for (const user of DEMO_USERS) {
      const response = await signIn(user.username, user.password);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/welcome');
      cookies.set(user.username, (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
    }
    expect(new Set(cookies.values()).size).toBe(DEMO_USERS.length);
    for (const user of DEMO_USERS) {
      const response = await fetch(site.urlFor('/welcome'), { headers: { cookie: cookies.get(user.username) ?? '' } });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(titleOf(html)).toBe(welcomeTitle(user));
      expect(html).toContain(`Hello, ${user.displayName}!`);
    }
  });

  it('refuses a wrong password and greets nobody without a cookie', async () => {
    const refused = await signIn('alice', 'nope');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(await refused.text()).toContain('id="error"');
    const anonymous = await fetch(site.urlFor('/welcome'));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Nobody is signed in');
  });

  it('forgets a session on sign-out', async () => {
    const cookie = ((await signIn('bob', 'builder')).headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const out = await fetch(site.urlFor('/logout'), { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect(out.status).toBe(303);
    expect((await fetch(site.urlFor('/welcome'), { headers: { cookie } })).status).toBe(401);
  });

  it('filters the tea list on the server by name, origin or kind', async () => {
    const japanese = TEAS.filter((tea) => tea.origin === 'Japan').length;
    const html = await (await fetch(site.urlFor('/teas?q=japan'))).text();
    expect(html).toContain(`<p id="count">${japanese} of ${TEAS.length} teas</p>`);
    expect(html.match(/<li hidden>/g)?.length).toBe(TEAS.length - japanese);
  });

  it('answers /slow only after the delay it was asked for', async () => {
    const started = Date.now();
    const response = await fetch(site.urlFor('/slow?ms=300'));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<b>300 ms</b>');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers 404 for unknown paths', async () => {
    expect((await fetch(site.urlFor('/nope'))).status).toBe(404);
  });
});
