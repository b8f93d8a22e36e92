// A local HTTP server on 127.0.0.1 with deterministic pages and routes for browser tests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { builtinPages, htmlPage } from './fixture-pages.js';
import { agentRoutes } from './agent-routes.js';
import { identityRoutes } from './identity-routes.js';
import { escapeHtml, readBody, send, startLocalServer } from './local-server.js';

/** One POST to /submit or /beacon, as the server received it. */
export interface RecordedPost {
  /** `/submit` or `/beacon`. */
  path: string;
  /** The Content-Type header, or '' when absent. */
  contentType: string;
  /** The raw body decoded as UTF-8. */
  body: string;
  /** Parsed fields for urlencoded and JSON-object bodies; {} otherwise. */
  fields: Record<string, string>;
  /** Date.now() when the body finished arriving. */
  at: number;
}

export interface FixtureServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** `urlFor('/pages/form')` → `http://127.0.0.1:PORT/pages/form`. */
  urlFor(path: string): string;
  /** Every form post and beacon, in arrival order. */
  posts: RecordedPost[];
  /** Every request path (with query string), in arrival order; /favicon.ico is left out. */
  requests: string[];
  /** Adds or replaces the page served at /pages/<name>. */
  addPage(name: string, html: string): void;
  /** Stops listening and destroys every open socket (keep-alive, /hang, /wait). */
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  /** Extra pages served at /pages/<name>; they override built-ins of the same name. */
  pages?: Record<string, string>;
}

export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const pages = builtinPages();
  for (const [name, html] of Object.entries(options.pages ?? {})) pages.set(name, html);
  const posts: RecordedPost[] = [];
  const requests: string[] = [];
  const identity = identityRoutes();
  const agent = agentRoutes();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // Browsers fetch the favicon at unpredictable moments; recording it would make `requests` flaky.
    if (path === '/favicon.ico') return send(res, 204, '');
    requests.push(`${path}${url.search}`);

    if (method === 'POST' && (path === '/submit' || path === '/beacon')) {
      const post = await readPost(req, path);
      posts.push(post);
      if (path === '/beacon') return send(res, 204, '');
      const items = Object.entries(post.fields).map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`);
      return send(res, 200, htmlPage('Submitted', `<h1>Submitted</h1>\n<dl id="fields">${items.join('')}</dl>`));
    }
    if (agent(req, res, url, async () => (await readBody(req)) ?? '')) return;
    if (method !== 'GET' && method !== 'HEAD') return notFound(res);
    if (identity(req, res, url)) return;

    if (path === '/' || path.startsWith('/pages/')) {
      const name = path === '/' ? 'home' : decodeURIComponent(path.slice('/pages/'.length));
      const html = pages.get(name);
      return html === undefined ? notFound(res) : send(res, 200, html);
    }
    if (path === '/wait' || path.startsWith('/wait/')) {
      const raw = path === '/wait' ? url.searchParams.get('ms') : path.slice('/wait/'.length);
      const ms = Math.max(0, Number(raw) || 0);
      const timer = setTimeout(() => send(res, 200, htmlPage(`Waited ${ms}`, `<h1>Waited ${ms}</h1>`)), ms);
      // A client that gives up (or close()) must not leave the timer holding the event loop.
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/set-cookie') {
      const name = url.searchParams.get('name');
      if (!name) return send(res, 400, htmlPage('Bad Request', '<p>name is required</p>'));
      const value = url.searchParams.get('value') ?? '';
      // Encoded so arbitrary input can't produce an invalid header (Node throws on those).
      res.setHeader('Set-Cookie', `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Path=/`);
      return send(res, 200, htmlPage('Cookie set', `<h1>Cookie set</h1>`));
    }
    if (path === '/echo-cookie') {
      const cookie = req.headers.cookie ?? '';
      return send(res, 200, htmlPage('Cookies', `<pre id="cookies">${escapeHtml(cookie)}</pre>`));
    }
    if (path === '/echo-cookie.json') {
      return send(res, 200, JSON.stringify({ cookie: req.headers.cookie ?? '' }), 'application/json');
    }
    if (path.startsWith('/status/')) {
      const code = Number(path.slice('/status/'.length));
      // 1xx would confuse the client and Node rejects codes outside 100-999.
      if (!Number.isInteger(code) || code < 200 || code > 599) return notFound(res);
      return send(res, code, htmlPage(`Status ${code}`, `<h1>Status ${code}</h1>`));
    }
    if (path === '/redirect') {
      res.setHeader('Location', url.searchParams.get('to') ?? '/');
      return send(res, 302, '');
    }
    if (path === '/hang') return; // Never answered; close() destroys the socket.
    return notFound(res);
  }

  const local = await startLocalServer(handle);
  return {
    url: local.url,
    port: local.port,
    urlFor: local.urlFor,
    posts,
    requests,
    addPage: (name, html) => void pages.set(name, html),
    close: local.close,
  };
}

function notFound(res: ServerResponse): void {
  send(res, 404, htmlPage('Not Found', '<h1>Not Found</h1>'));
}

async function readPost(req: IncomingMessage, path: string): Promise<RecordedPost> {
  const body = (await readBody(req)) ?? '';
  const contentType = req.headers['content-type'] ?? '';
  return { path, contentType, body, fields: parseFields(contentType, body), at: Date.now() };
}

/** Parses urlencoded or JSON-object bodies into string fields; anything else (text, multipart) gives {}. */
function parseFields(contentType: string, body: string): Record<string, string> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return {};
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  return {};
}
