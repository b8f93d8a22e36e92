// The demo site's HTML: a small tea shop with a sign-in form, a greeting page, a searchable list and a slow report.
import { escapeHtml } from '@sessionwright/test-kit/loopback';

export interface DemoUser {
  username: string;
  /** Shown on the sign-in page on purpose: this is a demo, and the demo script types them. */
  password: string;
  displayName: string;
  /** Each user's pages get their own accent colour, so screenshots of different sessions look different at a glance. */
  color: string;
  /** Shown on the greeting page, so each user's page differs in more than the name. */
  favourite: string;
}

export const DEMO_USERS: readonly DemoUser[] = [
  { username: 'alice', password: 'wonderland', displayName: 'Alice', color: '#0f766e', favourite: 'Earl Grey' },
  { username: 'bob', password: 'builder', displayName: 'Bob', color: '#c2410c', favourite: 'Assam' },
  { username: 'carol', password: 'singer', displayName: 'Carol', color: '#7e22ce', favourite: 'Jasmine Pearls' },
];

const SITE_NAME = 'Teahouse';

/** Drawn inline rather than an emoji: headless machines often have no emoji font, and a missing glyph shows as a box. */
const CUP = `<svg class="cup" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="M4 9h13v5a6 6 0 0 1-6 6h-1a6 6 0 0 1-6-6z" fill="currentColor"/><path d="M17 11h1.5a2.5 2.5 0 0 1 0 5H16" fill="none" stroke="currentColor" stroke-width="2"/><path d="M8 3c0 1.5 1.5 1.5 1.5 3M12 3c0 1.5 1.5 1.5 1.5 3" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>`;

/** The title of the greeting page for a user; the demo checks it to prove each session sees only its own user. */
export function welcomeTitle(user: DemoUser): string {
  return `Welcome, ${user.displayName} · ${SITE_NAME}`;
}

export const TEAS: readonly { name: string; origin: string; kind: string }[] = [
  { name: 'Assam', origin: 'India', kind: 'black' },
  { name: 'Darjeeling', origin: 'India', kind: 'black' },
  { name: 'Earl Grey', origin: 'England', kind: 'black' },
  { name: 'Genmaicha', origin: 'Japan', kind: 'green' },
  { name: 'Gyokuro', origin: 'Japan', kind: 'green' },
  { name: 'Jasmine Pearls', origin: 'China', kind: 'green' },
  { name: 'Longjing', origin: 'China', kind: 'green' },
  { name: 'Matcha', origin: 'Japan', kind: 'green' },
  { name: 'Oolong Tieguanyin', origin: 'China', kind: 'oolong' },
  { name: 'Pu-erh', origin: 'China', kind: 'dark' },
  { name: 'Rooibos', origin: 'South Africa', kind: 'herbal' },
  { name: 'Sencha', origin: 'Japan', kind: 'green' },
];

/** A whole page: `title` is escaped, `body` is trusted HTML. `accent` colours the header bar. */
export function layout(title: string, body: string, options: { user?: DemoUser | undefined; accent?: string } = {}): string {
  const accent = options.accent ?? options.user?.color ?? '#334155';
  const who = options.user
    ? `<span class="who">Signed in as <b>${escapeHtml(options.user.username)}</b></span>
       <form method="post" action="/logout"><button class="link" id="sign-out">Sign out</button></form>`
    : `<a href="/login">Sign in</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/site.css">
<style>:root { --accent: ${accent}; }</style>
</head>
<body>
<header>
  <a class="brand" href="/">${CUP}${SITE_NAME}</a>
  <nav><a href="/teas">Teas</a><a href="/slow">Slow report</a><a href="/welcome">My page</a></nav>
  <div class="account">${who}</div>
</header>
<main>
${body}
</main>
</body>
</html>
`;
}

export function homePage(user: DemoUser | undefined): string {
  return layout(
    SITE_NAME,
    `<h1>A very small tea shop</h1>
<p>This site ships with sessionwright so the demo and the inspector have something to browse offline.</p>
<ul class="cards">
  <li><a href="/login">Sign in</a><span>a form with three demo users</span></li>
  <li><a href="/welcome">My page</a><span>greets whoever this browser session signed in as</span></li>
  <li><a href="/teas">Teas</a><span>a list you can search</span></li>
  <li><a href="/slow">Slow report</a><span>answers after two seconds</span></li>
</ul>`,
    { user },
  );
}

export function loginPage(options: { error?: string; username?: string } = {}): string {
  const error = options.error ? `<p class="error" id="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const rows = DEMO_USERS.map((u) => `<tr><td><code>${u.username}</code></td><td><code>${u.password}</code></td></tr>`).join('');
  return layout(
    `Sign in · ${SITE_NAME}`,
    `<h1>Sign in</h1>
<div class="split">
  <form method="post" action="/login" class="panel" id="login-form">
    ${error}
    <label for="username">Username</label>
    <input id="username" name="username" autocomplete="username" value="${escapeHtml(options.username ?? '')}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password">
    <button id="sign-in" type="submit">Sign in</button>
  </form>
  <aside class="panel muted">
    <h2>Demo accounts</h2>
    <table><thead><tr><th>username</th><th>password</th></tr></thead><tbody>${rows}</tbody></table>
  </aside>
</div>`,
  );
}

export function welcomePage(user: DemoUser | undefined): string {
  if (!user) {
    return layout(
      `Not signed in · ${SITE_NAME}`,
      `<h1 id="greeting">Nobody is signed in here</h1>
<p>This browser session has no sign-in cookie. <a href="/login">Sign in</a> first.</p>`,
    );
  }
  return layout(
    welcomeTitle(user),
    `<section class="hero">
  <h1 id="greeting">Hello, ${escapeHtml(user.displayName)}!</h1>
  <p>You are signed in as <b id="username">${escapeHtml(user.username)}</b>. Only this browser session knows that:
  other sessions in the same browser have cookies of their own.</p>
</section>
<div class="panel favourite">
  <span class="muted">Your favourite</span>
  <b id="favourite">${escapeHtml(user.favourite)}</b>
  <a href="/teas?q=${encodeURIComponent(user.favourite)}">Find it in the list →</a>
</div>`,
    { user },
  );
}

export function teasPage(query: string, user: DemoUser | undefined): string {
  const q = query.trim().toLowerCase();
  const rows = TEAS.map((tea) => {
    const hidden = q && !`${tea.name} ${tea.origin} ${tea.kind}`.toLowerCase().includes(q) ? ' hidden' : '';
    return `<li${hidden}><span class="name">${tea.name}</span> <span class="tag">${tea.kind}</span> <span class="origin">${tea.origin}</span></li>`;
  });
  const shown = rows.filter((row) => !row.includes(' hidden>')).length;
  return layout(
    `Teas · ${SITE_NAME}`,
    `<h1>Teas</h1>
<form method="get" action="/teas" class="search" role="search">
  <input id="search" name="q" type="search" placeholder="Search by name, origin or kind" value="${escapeHtml(query)}">
  <button id="search-button" type="submit">Search</button>
</form>
<p id="count">${shown} of ${TEAS.length} teas</p>
<ul id="teas" class="list">
${rows.join('\n')}
</ul>
<script>
  // Filter as you type too, so both a submitted form and typing without Enter work.
  const input = document.getElementById('search');
  input.addEventListener('input', () => {
    const q = input.value.trim().toLowerCase();
    let shown = 0;
    for (const li of document.querySelectorAll('#teas li')) {
      li.hidden = q !== '' && !li.textContent.toLowerCase().includes(q);
      if (!li.hidden) shown++;
    }
    document.getElementById('count').textContent = shown + ' of ${TEAS.length} teas';
  });
</script>`,
    { user },
  );
}

export function slowPage(ms: number, user: DemoUser | undefined): string {
  return layout(
    `Slow report · ${SITE_NAME}`,
    `<h1>Slow report</h1>
<p id="slow">This page took <b>${ms} ms</b> to answer. Try <code>navigate</code> with a small <code>timeout</code>,
or <code>waitUntil: "commit"</code>.</p>
<p><a href="/slow?ms=500">0.5 s</a> · <a href="/slow?ms=2000">2 s</a> · <a href="/slow?ms=5000">5 s</a></p>`,
    { user },
  );
}

export function notFoundPage(): string {
  return layout(`Not found · ${SITE_NAME}`, `<h1>Not found</h1><p><a href="/">Home</a></p>`);
}

export const SITE_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1e293b; background: #f8fafc; }
header { display: flex; align-items: center; gap: 24px; padding: 12px 32px; background: var(--accent); color: #fff; }
header a { color: #fff; text-decoration: none; }
header nav { display: flex; gap: 16px; flex: 1; }
header nav a { opacity: .85; }
header nav a:hover { opacity: 1; text-decoration: underline; }
.brand { font-weight: 700; font-size: 18px; display: flex; align-items: center; gap: 8px; }
main a { color: var(--accent); }
.favourite { margin-top: 16px; display: flex; align-items: baseline; gap: 12px; }
.favourite .muted { color: #64748b; }
.favourite a { margin-left: auto; }
.account { display: flex; align-items: center; gap: 12px; }
.account form { margin: 0; }
button.link { background: none; border: 1px solid rgba(255,255,255,.6); color: #fff; padding: 4px 10px; border-radius: 6px; cursor: pointer; }
main { max-width: 860px; margin: 32px auto; padding: 0 32px; }
h1 { margin: 0 0 16px; font-size: 28px; }
.cards { list-style: none; padding: 0; display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.cards li { background: #fff; border: 1px solid #e2e8f0; border-radius: 10px; padding: 14px 16px; display: flex; flex-direction: column; }
.cards a { font-weight: 600; color: var(--accent); }
.cards span { color: #64748b; font-size: 14px; }
.split { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; align-items: start; }
.panel { background: #fff; border: 1px solid #e2e8f0; border-radius: 10px; padding: 20px; }
.panel.muted { background: #f1f5f9; }
.panel h2 { margin: 0 0 8px; font-size: 16px; }
label { display: block; font-size: 14px; font-weight: 600; margin: 10px 0 4px; }
input { width: 100%; font: inherit; padding: 8px 10px; border: 1px solid #cbd5e1; border-radius: 6px; }
button { font: inherit; }
form > button[type=submit], .search button { margin-top: 14px; background: var(--accent); color: #fff; border: 0; border-radius: 6px; padding: 8px 18px; cursor: pointer; }
.error { background: #fef2f2; color: #b91c1c; border: 1px solid #fecaca; border-radius: 6px; padding: 8px 10px; margin: 0 0 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e2e8f0; }
.hero { background: #fff; border-left: 6px solid var(--accent); border-radius: 10px; padding: 24px 28px; }
.hero h1 { color: var(--accent); font-size: 36px; }
.search { display: flex; gap: 8px; align-items: center; }
.search button { margin-top: 0; }
.list { list-style: none; padding: 0; background: #fff; border: 1px solid #e2e8f0; border-radius: 10px; }
.list li { padding: 8px 16px; border-bottom: 1px solid #f1f5f9; display: flex; gap: 10px; align-items: baseline; }
.list li[hidden] { display: none; }
.list .name { font-weight: 600; flex: 1; }
.tag { font-size: 12px; background: #e2e8f0; border-radius: 999px; padding: 1px 8px; }
.origin { color: #64748b; font-size: 14px; width: 110px; }
#count { color: #64748b; }
`;
