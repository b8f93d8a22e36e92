// Fixture routes that show who a browser session is: the headers it sent, a basic-auth door, a cookie sign-in, an image.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, send } from './local-server.js';
import { htmlPage } from './fixture-pages.js';

/** The basic-auth route's account: `/basic-auth` answers 401 to anyone else. */
export const BASIC_AUTH = { username: 'fixture-user', password: 'fixture-pass' } as const;

/** A 1×1 transparent PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * Handles the identity routes; false when `path` is none of them.
 * - `/echo-headers.json`: the request's headers as JSON (names in lower case).
 * - `/basic-auth`: 401 with a Basic challenge unless the request carries BASIC_AUTH; then "Hello <user>".
 * - `/sign-in?user=NAME`: sets an HttpOnly `session` cookie holding a random token; `/account` says who it belongs to.
 * - `/login`: a sign-in form (`#user`, `#sign-in`) that goes to `/sign-in`: a site that signs in with a cookie.
 * - `/token-login`: a sign-in form whose button fetches a token from `/token?user=NAME`, keeps it in localStorage
 *   (`token`) and goes to `/token-account`, which shows in `#account` (and its title) who the stored token belongs to,
 *   asked of `/whoami?token=…`: a site that signs in with a localStorage token.
 * - `/image.png?tag=…`: a tiny image; `/image-page?tag=…` shows it and reports in `#status` whether it loaded.
 */
export function identityRoutes(): (req: IncomingMessage, res: ServerResponse, url: URL) => boolean {
  // Tokens only this server issued count: a copied state signs in, a made-up cookie does not.
  const signedIn = new Map<string, string>();
  const tokens = new Map<string, string>();
  return (req, res, url) => {
    switch (url.pathname) {
      case '/echo-headers.json':
        send(res, 200, JSON.stringify(req.headers), 'application/json');
        return true;
      case '/basic-auth': {
        const expected = `Basic ${Buffer.from(`${BASIC_AUTH.username}:${BASIC_AUTH.password}`).toString('base64')}`;
        if (req.headers.authorization !== expected) {
          res.setHeader('WWW-Authenticate', 'Basic realm="fixture"');
          send(res, 401, htmlPage('Unauthorized', '<h1 id="auth">Unauthorized</h1>'));
        } else {
          send(res, 200, htmlPage('Authorized', `<h1 id="auth">Hello ${escapeHtml(BASIC_AUTH.username)}</h1>`));
        }
        return true;
      }
      case '/sign-in': {
        const user = url.searchParams.get('user') ?? 'someone';
        const token = randomBytes(16).toString('hex');
        signedIn.set(token, user);
        res.setHeader('Set-Cookie', `session=${token}; Path=/; HttpOnly; SameSite=Lax`);
        send(res, 200, htmlPage('Signed in', `<h1 id="account">Signed in as ${escapeHtml(user)}</h1>`));
        return true;
      }
      case '/account': {
        const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
        const user = token === undefined ? undefined : signedIn.get(token);
        send(res, 200, htmlPage('Account', `<h1 id="account">${user === undefined ? 'Not signed in' : `Signed in as ${escapeHtml(user)}`}</h1>`));
        return true;
      }
      case '/login':
        send(
          res,
          200,
          htmlPage('Sign in', '<form action="/sign-in"><input id="user" name="user" aria-label="User"><button id="sign-in">Sign in</button></form>'),
        );
        return true;
      case '/token-login':
        send(
          res,
          200,
          htmlPage(
            'Token sign in',
            `<input id="user" aria-label="User"><button id="sign-in">Sign in</button>
<script>
  document.getElementById('sign-in').addEventListener('click', async () => {
    const user = document.getElementById('user').value || 'someone';
    const { token } = await (await fetch('/token?user=' + encodeURIComponent(user))).json();
    localStorage.setItem('token', token);
    location.href = '/token-account';
  });
</script>`,
          ),
        );
        return true;
      case '/token': {
        const token = randomBytes(16).toString('hex');
        tokens.set(token, url.searchParams.get('user') ?? 'someone');
        send(res, 200, JSON.stringify({ token }), 'application/json');
        return true;
      }
      case '/whoami': {
        const user = tokens.get(url.searchParams.get('token') ?? '');
        send(res, 200, JSON.stringify({ user: user ?? null }), 'application/json');
        return true;
      }
      case '/token-account':
        send(
          res,
          200,
          htmlPage(
            'Token account',
            `<h1 id="account">Checking</h1>
<script>
  (async () => {
    const token = localStorage.getItem('token') || '';
    const { user } = await (await fetch('/whoami?token=' + encodeURIComponent(token))).json();
    const text = user === null ? 'Not signed in' : 'Signed in as ' + user;
    document.getElementById('account').textContent = text;
    document.title = text;
  })();
</script>`,
          ),
        );
        return true;
      case '/image.png':
        res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'no-store' });
        res.end(PIXEL);
        return true;
      case '/image-page': {
        const src = `/image.png?tag=${encodeURIComponent(url.searchParams.get('tag') ?? '')}`;
        send(
          res,
          200,
          htmlPage(
            'Image',
            `<p id="status">pending</p>
<img id="pic" src="${escapeHtml(src)}" alt="pixel" onload="document.getElementById('status').textContent = 'loaded'" onerror="document.getElementById('status').textContent = 'failed'">`,
          ),
        );
        return true;
      }
      default:
        return false;
    }
  };
}
