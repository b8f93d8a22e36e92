// The frame every page of the bench's task site shares: a store header with navigation, the page, a footer of links.
import { escapeHtml } from '@sessionwright/test-kit';

const NAV = [
  ['/shop', 'Shop'],
  ['/outlet', 'Outlet'],
  ['/blog', 'Journal'],
  ['/account', 'Your account'],
  ['/signup', 'Create account'],
  ['/admin/orders', 'Orders admin'],
];
const FOOTER = ['Shipping', 'Returns', 'Warranty', 'Gift cards', 'Careers', 'Press', 'Privacy', 'Terms', 'Accessibility', 'Contact us'];

/** A complete server-rendered document with the site's header and footer around `main`. */
export function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;margin:0}header,footer,main{padding:1rem}.price{font-weight:bold}.error{color:#b00}table{border-collapse:collapse}td,th{padding:2px 6px}</style></head>
<body>
<header>
  <a href="/shop">Northwind Outfitters</a>
  <nav aria-label="Main">${NAV.map(([href, label]) => `<a href="${href}">${label}</a>`).join(' ')}</nav>
  <form action="/shop/search" role="search"><input type="search" name="q" aria-label="Search products" placeholder="Search products"> <button>Search</button></form>
</header>
<main>
${main}
</main>
<footer>
  <nav aria-label="Footer">${FOOTER.map((label) => `<a href="/help/${label.toLowerCase().replaceAll(' ', '-')}">${label}</a>`).join(' · ')}</nav>
  <p>© Northwind Outfitters. Prices include VAT. Free delivery on orders over $50.</p>
</footer>
</body>
</html>
`;
}

export { escapeHtml };
