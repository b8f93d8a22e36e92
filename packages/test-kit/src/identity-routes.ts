// Fixture routes that show who a browser session is: the headers it sent, a basic-auth door, a cookie sign-in, an image.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, send } from '@sessionwright/loopback';
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
 * - `/image.png?tag=…`: a tiny image; `/image-page?tag=…` shows it and reports in `#status` whether it loaded.
 */
export function identityRoutes(): (req: IncomingMessage, res: ServerResponse, url: URL) => boolean {
  // Tokens only this server issued count: a copied state signs in, a made-up cookie does not.
  const signedIn = new Map<string, string>();
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
