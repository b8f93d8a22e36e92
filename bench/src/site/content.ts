// The journal (a list of fifty articles, each with its own page) and the orders admin (one table of 1 500 rows, an Approve button on each pending one).
import { articles, money } from './data.js';
import { escapeHtml, page } from './layout.js';
import type { SiteState } from './state.js';

export function blog(): string {
  return page(
    'Journal – Northwind Outfitters',
    `<h1>Journal</h1>
<p>Field notes, buying guides and repair stories from the Northwind team.</p>
${articles
  .map(
    (a) =>
      `<article><h2><a href="/blog/${a.slug}">${escapeHtml(a.title)}</a></h2><p><time datetime="${a.date}">${a.date}</time></p><p>Notes from our team on ${escapeHtml(a.title.toLowerCase())}, with what worked for us and what did not.</p></article>`,
  )
  .join('\n')}`,
  );
}

export function article(slug: string): string | undefined {
  const a = articles.find((candidate) => candidate.slug === slug);
  if (!a) return undefined;
  const paragraphs = ['Most of us start with the wrong question.', 'We tested this over a season.', 'The numbers surprised us.', 'What we would do again.'];
  return page(
    `${a.title} – Journal`,
    `<nav aria-label="Breadcrumb"><a href="/blog">Journal</a> › ${escapeHtml(a.title)}</nav>
<article>
<h1>${escapeHtml(a.title)}</h1>
<p class="byline">By ${escapeHtml(a.author)} · ${a.minutes} min read · <time datetime="${a.date}">${a.date}</time></p>
${paragraphs
  .map(
    (lead, i) =>
      `<h2>Part ${i + 1}</h2><p>${lead} ${escapeHtml(a.title)} is a subject where habits matter more than kit, and where a little planning saves a lot of money. We asked readers, staff and repair technicians what they do, and wrote down the answers that held up.</p>`,
  )
  .join('\n')}
</article>
<aside><h2>Read next</h2><ul>${articles
      .filter((other) => other.slug !== slug)
      .slice(0, 3)
      .map((other) => `<li><a href="/blog/${other.slug}">${escapeHtml(other.title)}</a></li>`)
      .join('')}</ul></aside>`,
  );
}

export function ordersAdmin(state: SiteState, approved?: string): string {
  const pending = state.orders.filter((o) => o.status === 'Pending').length;
  return page(
    `${approved ? `Approved order ${approved} – ` : ''}Orders admin`,
    `<h1>Orders</h1>
${approved ? `<p role="status">Order ${escapeHtml(approved)} is approved.</p>` : ''}
<p>${state.orders.length} orders, ${pending} pending approval.</p>
<table>
<thead><tr><th>Order</th><th>Customer</th><th>Amount</th><th>Status</th><th>Action</th></tr></thead>
<tbody>
${state.orders
  .map(
    (o) =>
      `<tr><td>${o.id}</td><td>${escapeHtml(o.customer)}</td><td>${money(o.amount)}</td><td>${o.status}</td><td>${o.status === 'Pending' ? `<form method="post" action="/admin/orders/approve"><input type="hidden" name="id" value="${o.id}"><button>Approve</button></form>` : ''}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>`,
  );
}

export function approve(state: SiteState, id: string): boolean {
  const order = state.orders.find((o) => o.id === id);
  if (order?.status !== 'Pending') return false;
  order.status = 'Approved';
  return true;
}
