// Serves the task site on 127.0.0.1: routes each request to its page, keeps the state the bench checks after each task.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LocalServer, readBody, send, startLocalServer } from '@sessionwright/test-kit';
import { accountHome, loginForm, notifications, saveNotifications, signIn } from './account.js';
import { approve, article, blog, ordersAdmin } from './content.js';
import { page } from './layout.js';
import { addToCart, cart, category, outlet, product, search, shopHome } from './shop.js';
import { signupForm, submitSignup, welcome } from './signup.js';
import { freshState, type SiteState } from './state.js';

export interface TaskSite extends LocalServer {
  state: SiteState;
  /** Forgets every cart, account, setting and visit: each server under test starts from the same site. */
  reset(): void;
}

/** A page to show, or where to send the browser next (with the session cookie a sign-in sets). */
type Answer = string | { redirect: string; cookie?: string } | undefined;

function signedIn(req: IncomingMessage, state: SiteState): boolean {
  const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  return sid !== undefined && state.signedIn.has(sid);
}

function post(req: IncomingMessage, path: string, state: SiteState, form: URLSearchParams): Answer {
  if (path === '/shop/cart') return addToCart(state, form) ? { redirect: '/shop/cart' } : undefined;
  if (path === '/signup') {
    const outcome = submitSignup(state, form);
    return 'page' in outcome ? outcome.page : welcome(outcome.created);
  }
  if (path === '/account/login') {
    const cookie = signIn(state, form);
    return cookie ? { redirect: '/account', cookie } : loginForm(true);
  }
  if (path === '/account/notifications' && signedIn(req, state)) {
    saveNotifications(state, form);
    return notifications(state, true);
  }
  if (path === '/admin/orders/approve') {
    const id = form.get('id') ?? '';
    return approve(state, id) ? { redirect: `/admin/orders?approved=${encodeURIComponent(id)}` } : undefined;
  }
  return undefined;
}

function get(req: IncomingMessage, url: URL, state: SiteState): Answer {
  const path = url.pathname;
  state.visits.push(path);
  if (path === '/' || path === '/shop') return shopHome();
  if (path === '/outlet') return outlet();
  if (path === '/shop/search') return search(url.searchParams.get('q') ?? '');
  if (path === '/shop/cart') return cart(state);
  if (path.startsWith('/shop/category/')) return category(path.slice('/shop/category/'.length));
  if (path.startsWith('/shop/product/')) return product(path.slice('/shop/product/'.length));
  if (path === '/signup') return signupForm();
  if (path === '/account/login') return loginForm();
  if (path.startsWith('/account')) {
    if (!signedIn(req, state)) return { redirect: '/account/login' };
    if (path === '/account') return accountHome();
    if (path === '/account/notifications') return notifications(state);
    return page('Your account', '<h1>Coming soon</h1>');
  }
  if (path === '/blog') return blog();
  if (path.startsWith('/blog/')) return article(path.slice('/blog/'.length));
  if (path === '/admin/orders') return ordersAdmin(state, url.searchParams.get('approved') ?? undefined);
  return undefined;
}

function answer(res: ServerResponse, outcome: Answer): void {
  if (outcome === undefined) send(res, 404, page('Not found', '<h1>Not found</h1><p><a href="/shop">Back to the shop</a></p>'));
  else if (typeof outcome === 'string') send(res, 200, outcome);
  else {
    const cookie = outcome.cookie ? { 'Set-Cookie': `sid=${outcome.cookie}; Path=/; HttpOnly` } : {};
    res.writeHead(303, { Location: outcome.redirect, 'Cache-Control': 'no-store', ...cookie });
    res.end();
  }
}

export async function startTaskSite(): Promise<TaskSite> {
  let state = freshState();
  const server = await startLocalServer(async (req, res) => {
    const form = new URLSearchParams(req.method === 'POST' ? ((await readBody(req, 1_000_000)) ?? '') : '');
    const url = new URL(req.url ?? '/', 'http://site');
    answer(res, req.method === 'POST' ? post(req, url.pathname, state, form) : get(req, url, state));
  });
  return {
    ...server,
    get state() {
      return state;
    },
    reset() {
      state = freshState();
    },
  };
}
