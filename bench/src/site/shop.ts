// The shop and the outlet: home, category and search listings (each item one link that names the product and its price), product pages, the cart.
import { type Product, money, products } from './data.js';
import { escapeHtml, page } from './layout.js';
import type { SiteState } from './state.js';

const CATEGORIES = [...new Set(products.map((p) => p.category))];

function card(product: Product, price: number): string {
  return `<li><a href="/shop/product/${product.id}">${escapeHtml(product.name)} – ${money(price)}</a> <small>${product.category}</small></li>`;
}

function listing(title: string, intro: string, list: Product[], outlet = false): string {
  return page(
    title,
    `<nav aria-label="Categories">${CATEGORIES.map((c) => `<a href="/shop/category/${c.toLowerCase()}">${c}</a>`).join(' ')}</nav>
<h1>${escapeHtml(title)}</h1>
<p>${intro}</p>
<ul>
${list.map((p) => card(p, outlet ? p.outletPrice : p.price)).join('\n')}
</ul>`,
  );
}

export function shopHome(): string {
  return listing('Northwind Outfitters', 'Gear for the trail, the desk and the kitchen. Featured this week:', products.slice(0, 12));
}

export function category(name: string): string | undefined {
  const list = products.filter((p) => p.category.toLowerCase() === name);
  return list.length === 0 ? undefined : listing(list[0]?.category ?? name, `${list.length} products, sorted by popularity.`, list);
}

export function outlet(): string {
  return listing(
    'Northwind Outlet',
    'Last season’s stock and open-box returns, at outlet prices. Every item is checked and carries the full warranty.',
    products,
    true,
  );
}

export function search(q: string): string {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const found = products.filter((p) => words.every((w) => `${p.name} ${p.category}`.toLowerCase().includes(w)));
  return listing(`Search results for “${q}” (${found.length})`, found.length === 0 ? 'Nothing matched; try fewer words.' : 'Best matches first.', found);
}

export function product(id: string): string | undefined {
  const p = products.find((candidate) => candidate.id === id);
  if (!p) return undefined;
  return page(
    `${p.name} – Northwind Outfitters`,
    `<nav aria-label="Breadcrumb"><a href="/shop">Shop</a> › <a href="/shop/category/${p.category.toLowerCase()}">${p.category}</a> › ${escapeHtml(p.name)}</nav>
<h1>${escapeHtml(p.name)}</h1>
<p class="price">${money(p.price)}</p>
<p>${escapeHtml(p.description)}</p>
<form method="post" action="/shop/cart">
  <input type="hidden" name="id" value="${p.id}">
  <label>Quantity <input type="number" name="qty" value="1" min="1" max="9"></label>
  <button>Add to cart</button>
</form>
<h2>Specifications</h2>
<table><tr><th>Weight</th><td>${(0.2 + (Number(p.id.slice(1)) % 9) / 10).toFixed(1)} kg</td></tr><tr><th>Warranty</th><td>2 years</td></tr><tr><th>Ships</th><td>Within 2 days</td></tr></table>
<h2>Reviews</h2>
<ul><li>“Does what it says.” – 4 stars</li><li>“Good value, arrived quickly.” – 5 stars</li><li>“Fine, but the box was damaged.” – 3 stars</li></ul>`,
  );
}

export function addToCart(state: SiteState, form: URLSearchParams): boolean {
  const id = form.get('id') ?? '';
  if (!products.some((p) => p.id === id)) return false;
  const qty = Math.max(1, Math.min(9, Number(form.get('qty') ?? 1) || 1));
  state.cart.set(id, (state.cart.get(id) ?? 0) + qty);
  return true;
}

export function cart(state: SiteState): string {
  const lines = [...state.cart].map(([id, qty]) => ({ product: products.find((p) => p.id === id) as Product, qty }));
  const count = lines.reduce((a, line) => a + line.qty, 0);
  const total = lines.reduce((a, line) => a + line.qty * line.product.price, 0);
  return page(
    `Cart (${count} ${count === 1 ? 'item' : 'items'}) – Northwind Outfitters`,
    `<h1>Your cart</h1>
<table><thead><tr><th>Product</th><th>Qty</th><th>Price</th></tr></thead><tbody>
${lines.map((line) => `<tr><td>${escapeHtml(line.product.name)}</td><td>${line.qty}</td><td>${money(line.qty * line.product.price)}</td></tr>`).join('\n')}
</tbody></table>
<p>Total: <span class="price">${money(total)}</span></p>
<p><a href="/shop">Continue shopping</a> <a href="/checkout">Checkout</a></p>`,
  );
}
