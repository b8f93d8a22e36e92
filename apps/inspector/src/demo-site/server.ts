// The demo site's HTTP server on 127.0.0.1: cookie sign-in kept in memory, a searchable list and a slow page.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, send, startLocalServer } from '@sessionwright/test-kit/loopback';
import { DEMO_USERS, SITE_CSS, homePage, loginPage, notFoundPage, slowPage, teasPage, welcomePage, type DemoUser } from './pages.js';

export interface DemoSite {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** `urlFor('/login')` → `http://127.0.0.1:PORT/login`. */
  urlFor(path: string): string;
  close(): Promise<void>;
}

const COOKIE = 'teahouse_session';
/** Longer than any demo needs, short enough that a forgotten /slow?ms=… cannot hold a socket for long. */
const MAX_SLOW_MS = 10_000;

/** Starts the demo site on 127.0.0.1 (port 0 picks a free one). */
export async function startDemoSite(port = 0): Promise<DemoSite> {
  // token → user. A random token per sign-in, so two sessions signed in as different users can't be confused.
  const signedIn = new Map<string, DemoUser>();
  function userOf(req: IncomingMessage): DemoUser | undefined {
    const token = cookies(req).get(COOKIE);
    return token === undefined ? undefined : signedIn.get(token);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const user = userOf(req);

    if (method === 'POST' && url.pathname === '/login') {
      // A sign-in form is tiny; anything bigger is not worth buffering.
      const body = await readBody(req, 64 * 1024);
      if (body === undefined) throw new Error('request body too large');
      const form = new URLSearchParams(body);
      const username = (form.get('username') ?? '').trim().toLowerCase();
      const match = DEMO_USERS.find((u) => u.username === username && u.password === form.get('password'));
      if (!match) return send(res, 401, loginPage({ error: 'Unknown username or wrong password.', username }));
      const token = randomBytes(16).toString('hex');
      signedIn.set(token, match);
      res.setHeader('Set-Cookie', `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax`);
      return redirect(res, '/welcome');
    }
    if (method === 'POST' && url.pathname === '/logout') {
      const token = cookies(req).get(COOKIE);
      if (token !== undefined) signedIn.delete(token);
      res.setHeader('Set-Cookie', `${COOKIE}=; Path=/; Max-Age=0`);
      return redirect(res, '/login');
    }
    if (method !== 'GET' && method !== 'HEAD') return send(res, 405, notFoundPage());

    switch (url.pathname) {
      case '/':
        return send(res, 200, homePage(user));
      case '/login':
        return send(res, 200, loginPage());
      case '/welcome':
        // 401 without a cookie: navigate still succeeds and reports the status, which is worth seeing in the inspector.
        return send(res, user ? 200 : 401, welcomePage(user));
      case '/teas':
        return send(res, 200, teasPage(url.searchParams.get('q') ?? '', user));
      case '/slow': {
        const ms = Math.min(MAX_SLOW_MS, Math.max(0, Number(url.searchParams.get('ms') ?? 2000) || 0));
        const timer = setTimeout(() => send(res, 200, slowPage(ms, user)), ms);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case '/site.css':
        return send(res, 200, SITE_CSS, 'text/css; charset=utf-8');
      case '/favicon.ico':
        return send(res, 204, '');
      default:
        return send(res, 404, notFoundPage());
    }
  }

  const local = await startLocalServer(handle, port);
  return { url: local.url, urlFor: local.urlFor, close: local.close };
}

function redirect(res: ServerResponse, location: string): void {
  // 303 turns the POST into a GET, so a reload of the landing page does not post the form again.
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}

function cookies(req: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return jar;
}
