// Extra fixture pages for the bench: a small app page to act on, and an article-like page for snapshot sizes.

/** A complete small document, shaped like test-kit's own fixture pages. */
function htmlPage(title: string, body: string): string {
  return `<!doctype html>\n<html>\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body>\n</html>\n`;
}

const rows = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];

/** The page every timing figure uses: a counter button that does not navigate and a text input. */
const app = htmlPage(
  'Bench app',
  `<header><nav><a href="/pages/home">Home</a> · <a href="/pages/form">Form</a> · <a href="/pages/list">List</a></nav></header>
<main>
  <h1>Orders</h1>
  <p>Press the button to count, and type a note. Nothing here navigates.</p>
  <p><button id="inc" onclick="document.getElementById('count').textContent = String(Number(document.getElementById('count').textContent) + 1)">Increment</button>
     Count: <span id="count">0</span></p>
  <p><label for="note">Note</label> <input id="note" name="note" placeholder="Write a note"></p>
  <table>
    <thead><tr><th>Name</th><th>Qty</th><th>Status</th></tr></thead>
    <tbody>
${rows.map((name, i) => `      <tr><td>${name}</td><td>${i + 1}</td><td>${i % 2 ? 'Shipped' : 'Pending'}</td></tr>`).join('\n')}
    </tbody>
  </table>
</main>
<footer><small>Fixture page served from 127.0.0.1</small></footer>`,
);

const sections = ['Install', 'Configure', 'Run', 'Troubleshoot'];

/** A documentation-like page: headings, paragraphs, lists, links and a code block. */
const article = htmlPage(
  'Bench article',
  `<header><nav><a href="/">Home</a> <a href="/pages/form">Form</a> <a href="/pages/list">List</a> <a href="/pages/buttons">Buttons</a></nav></header>
<article>
  <h1>Getting started</h1>
${sections
  .map(
    (title, i) => `  <section>
    <h2 id="s${i}">${title}</h2>
    <p>Step ${i + 1} explains how to ${title.toLowerCase()} the tool on a new machine, with the defaults most people want and the one flag worth knowing.</p>
    <ul>
      <li>Read the <a href="#s${i}">notes</a> before you start.</li>
      <li>Keep a terminal open next to the browser.</li>
      <li>Check the result with <code>--version</code>.</li>
    </ul>
    <pre><code>npx example ${title.toLowerCase()} --verbose</code></pre>
  </section>`,
  )
  .join('\n')}
</article>
<aside><h2>See also</h2><ol><li><a href="/pages/home">Home page</a></li><li><a href="/pages/big">A long page</a></li></ol></aside>`,
);

export const benchPages: Record<string, string> = { 'bench-app': app, 'bench-article': article };

/** Pages whose snapshot sizes are compared: the bench pages and test-kit's built-ins. */
export const tokenPages = ['bench-app', 'bench-article', 'home', 'form', 'buttons', 'list', 'choices', 'big'];

/**
 * What an agent looks for on each token page, to find the element it acts on next (find, browser_find): the sizes of
 * those answers are compared with the snapshot's.
 */
export const findQueries: Record<string, string> = {
  'bench-app': 'Increment',
  'bench-article': 'Troubleshoot',
  home: 'Form',
  form: 'Email',
  buttons: 'Double-click',
  list: 'Cherry',
  choices: 'Newsletter',
  big: 'Link 150',
};
