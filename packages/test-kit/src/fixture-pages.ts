// The built-in HTML pages the fixture server serves at /pages/<name>, each small and deterministic.
import { escapeHtml } from './local-server.js';

/** Wraps a body in a complete document; `title` is escaped, `body` is trusted HTML. */
export function htmlPage(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html>
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head>
<body>
${body}
</body>
</html>
`;
}

const home = htmlPage(
  'Home',
  `<h1>Fixture home</h1>
<a id="to-form" href="/pages/form">Form</a>`,
);

const form = htmlPage(
  'Form',
  `<form id="f" method="post" action="/submit">
  <label for="name">Name</label><input id="name" name="name">
  <label for="email">Email</label><input id="email" name="email" type="email">
  <input id="disabled" name="disabled" disabled value="x">
  <input id="readonly" name="readonly" readonly value="ro">
  <textarea id="bio" name="bio"></textarea>
  <select id="color" name="color"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>
  <input type="checkbox" id="agree" name="agree">
  <button id="submit" type="submit">Send</button>
</form>
<div id="not-editable">text</div>
<input id="hidden-field" style="display:none">`,
);

// The overlay covers only #covered's own box, not the whole viewport, so the other
// buttons on this page stay clickable while a click on #covered is still intercepted.
const buttons = htmlPage(
  'Buttons',
  `<p><button id="inc" onclick="document.getElementById('count').textContent = String(Number(document.getElementById('count').textContent) + 1)">Increment</button> <span id="count">0</span></p>
<p><button class="dup">Same</button> <button class="dup">Same</button> <button class="dup">Same</button></p>
<p><button id="hidden" style="display:none">Hidden</button> <button id="disabled" disabled>Disabled</button></p>
<p><a id="nav" href="/pages/home">Go home</a> <button id="slow-nav" onclick="location.href='/wait?ms=500'">Slow navigation</button></p>
<p><button id="dblclick" ondblclick="document.getElementById('dbl').textContent = 'yes'">Double-click me</button> <span id="dbl">no</span></p>
<p><span id="ctx" oncontextmenu="event.preventDefault(); document.getElementById('right').textContent = 'yes'">Right-click me</span> <span id="right">no</span></p>
<div id="covered-box" style="position:relative;width:300px;height:80px">
  <button id="covered">Covered</button>
  <div id="overlay" style="position:absolute;inset:0;z-index:10;background:rgba(0,0,0,0.2)"></div>
</div>`,
);

// Cookie is written with path=/ so /echo-cookie and other pages see it too.
const storage = htmlPage(
  'Storage',
  `<pre id="ls"></pre>
<pre id="ss"></pre>
<pre id="ck"></pre>
<script>
  const value = new URLSearchParams(location.search).get('set');
  if (value !== null) {
    localStorage.setItem('k', value);
    sessionStorage.setItem('k', value);
    document.cookie = 'k=' + encodeURIComponent(value) + '; path=/';
  }
  const cookie = document.cookie.split('; ').find((c) => c.startsWith('k='));
  document.getElementById('ls').textContent = localStorage.getItem('k') ?? '';
  document.getElementById('ss').textContent = sessionStorage.getItem('k') ?? '';
  document.getElementById('ck').textContent = cookie ? decodeURIComponent(cookie.slice(2)) : '';
</script>`,
);

const fruits = ['Apple', 'Banana', 'Cherry', 'Date', 'Elderberry'];
const list = htmlPage(
  'List',
  `<input id="search" placeholder="Search">
<ul id="items">
${fruits.map((f) => `  <li><span class="name">${f}</span> <button class="buy">Buy</button></li>`).join('\n')}
</ul>
<script>
  document.getElementById('search').addEventListener('input', (event) => {
    const query = event.target.value.toLowerCase();
    for (const li of document.querySelectorAll('#items li')) {
      li.hidden = !li.querySelector('.name').textContent.toLowerCase().includes(query);
    }
  });
</script>`,
);

const changes = htmlPage(
  'Changes',
  `<button id="reveal">Reveal</button>
<script>
  document.getElementById('reveal').addEventListener('click', (event) => {
    if (!document.getElementById('revealed')) {
      const p = document.createElement('p');
      p.id = 'revealed';
      p.textContent = 'Now you see me';
      document.body.append(p);
    }
    event.target.textContent = 'Hide';
  });
</script>`,
);

const dialog = htmlPage(
  'Dialog',
  `<button id="alert" onclick="alert('hi')">Alert</button>
<button id="confirm" onclick="document.getElementById('confirm-result').textContent = String(confirm('ok?'))">Confirm</button>
<button id="prompt" onclick="document.getElementById('prompt-result').textContent = String(prompt('name?'))">Prompt</button>
<p>Confirm: <span id="confirm-result"></span></p>
<p>Prompt: <span id="prompt-result"></span></p>`,
);

const popup = htmlPage('Popup', `<a id="newtab" href="/pages/home" target="_blank">Open home in new tab</a>`);

const iframe = htmlPage(
  'Iframe',
  `<iframe id="frame" src="/pages/form"></iframe>
<button id="outer">Outer</button>`,
);

const closer = htmlPage('Closer', `<button id="close" onclick="window.close()">Close</button>`);

const big = htmlPage(
  'Big',
  [
    ...Array.from({ length: 300 }, (_, i) => `<p id="p${i}">Paragraph ${i}: the quick brown fox jumps over the lazy dog.</p>`),
    ...Array.from({ length: 200 }, (_, i) => `<a href="#p${i}">Link ${i}</a>`),
  ].join('\n'),
);

// /wait answers with HTML, so the image fails to decode, but only after 1.5 s: `load` waits for it either way.
const slowImage = htmlPage('Slow image', `<h1>Slow image</h1>\n<img id="img" src="/wait?ms=1500" alt="slow">`);

// Pages for the page-reading and input tools (snapshot, hover, select_option, check, wait_for, beforeunload).

const hover = htmlPage(
  'Hover',
  `<div id="menu" onmouseenter="document.getElementById('tip').textContent = 'Shown on hover'">Menu</div>
<p id="tip"></p>`,
);

const choices = htmlPage(
  'Choices',
  `<label for="sizes">Sizes</label>
<select id="sizes" multiple><option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option></select>
<label for="locked">Locked</label>
<select id="locked" disabled><option value="x">X</option></select>
<fieldset><legend>Plan</legend>
  <label><input type="radio" name="plan" id="free" value="free" checked> Free</label>
  <label><input type="radio" name="plan" id="pro" value="pro"> Pro</label>
</fieldset>
<label><input type="checkbox" id="news"> Newsletter</label>`,
);

// The spinner goes and the result comes 400 ms after load; nothing else changes.
const delayed = htmlPage(
  'Delayed',
  `<p id="spinner">Loading…</p>
<script>
  setTimeout(() => {
    document.getElementById('spinner').remove();
    const p = document.createElement('p');
    p.id = 'done';
    p.textContent = 'Results ready';
    document.body.append(p);
  }, 400);
</script>`,
);

// Asks before leaving once the user has interacted (Chromium shows beforeunload only after a user gesture).
const beforeunload = htmlPage(
  'Leave?',
  `<button id="touch">Touch</button>
<script>
  window.addEventListener('beforeunload', (event) => {
    event.preventDefault();
    event.returnValue = 'Leave?';
  });
</script>`,
);

// About 110 000 characters of snapshot: well over the default snapshot cap, with the cut inside one list.
const longList = htmlPage(
  'Long list',
  `<header><h1>Catalogue</h1><nav><a href="#top">Top</a></nav></header>
<main>
<ul id="catalogue">
${Array.from({ length: 1500 }, (_, i) => `  <li>Item ${i}: a plain line of catalogue text</li>`).join('\n')}
</ul>
</main>
<footer><a id="last" href="#top">Back to top</a></footer>`,
);

// A viewport of pseudo-random pixels (fixed seed): its PNG is several MB, over the screenshot byte cap at normal size.
const noise = htmlPage(
  'Noise',
  `<canvas id="c" width="1280" height="720" style="position:fixed;inset:0"></canvas>
<script>
  const canvas = document.getElementById('c');
  const context = canvas.getContext('2d');
  const image = context.createImageData(canvas.width, canvas.height);
  // xorshift32: cheap, and random enough that PNG cannot compress it.
  let x = 2463534242;
  for (let i = 0; i < image.data.length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    image.data[i] = i % 4 === 3 ? 255 : x & 255;
  }
  context.putImageData(image, 0, 0);
</script>`,
  '<style>body{margin:0}</style>',
);

// Pages for the agent tools: console, network, downloads, uploads, drag and drop, tabs.

// Logs one line of each level on load; #flood logs ?n= lines (default 1500: more than a session keeps, fewer than the runaway bound) in a
// loop; #boom throws uncaught.
const consolePage = htmlPage(
  'Console',
  `<button id="flood" onclick="const n = Number(new URLSearchParams(location.search).get('n') || 1500); for (let i = 0; i < n; i++) console.log('line ' + i)">Flood</button>
<button id="boom" onclick="setTimeout(() => { throw new Error('kaboom') })">Throw</button>
<script>
  console.debug('debug on load');
  console.log('log on load');
  console.info('info on load');
  console.warn('warning on load');
  console.error('error on load');
</script>`,
);

// Fetches a JSON API, posts to an echo API, loads an image, and fails a request to a closed port; #poll fetches ?n= times.
const network = htmlPage(
  'Network',
  `<img src="/image.png?tag=net" alt="pixel">
<p id="done"></p>
<button id="poll" onclick="(async () => { const n = Number(new URLSearchParams(location.search).get('n') || 1200); for (let i = 0; i < n; i++) await fetch('/api/json?tag=poll' + i).then((r) => r.text()); document.getElementById('done').textContent = 'polled'; })()">Poll</button>
<script>
  (async () => {
    // Bodies are read, as a real page does: Chromium finishes a fetch (and keeps its body) only once it is consumed.
    await fetch('/api/json?tag=first').then((r) => r.text());
    await fetch('/api/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ hello: 'world' }) }).then((r) => r.text());
    await fetch('/api/binary').then((r) => r.arrayBuffer());
    await fetch('/api/large').then((r) => r.text());
    await fetch('/api/status/503').then((r) => r.text());
    await fetch('/api/json?tag=unread');
    await fetch('http://127.0.0.1:9/refused').catch(() => {});
    document.getElementById('done').textContent = 'done';
  })();
</script>`,
);

const downloads = htmlPage(
  'Downloads',
  `<a id="csv" href="/download?name=report.csv&bytes=1234">Report</a>
<a id="evil" href="/download?name=..%2F..%2Fevil.sh&bytes=10">Evil</a>
<a id="dotfile" href="/download?name=.bashrc&bytes=5">Dotfile</a>
<a id="endless" href="/download/endless">Endless</a>
<button id="eight" onclick="let i = 0; const t = setInterval(() => { const a = document.createElement('a'); a.href = '/download?bytes=10&name=file-' + i + '.txt'; a.download = ''; a.click(); if (++i === 8) clearInterval(t); }, 20)">Eight files</button>`,
);

// #single takes one file, #multi several; #chooser opens a hidden input's chooser; #names shows what was chosen.
const upload = htmlPage(
  'Upload',
  `<input type="file" id="single">
<input type="file" id="multi" multiple>
<input type="file" id="hidden-input" multiple style="display:none">
<button id="chooser" onclick="document.getElementById('hidden-input').click()">Choose files</button>
<button id="plain">Not a chooser</button>
<p id="names"></p>
<script>
  for (const input of document.querySelectorAll('input[type=file]')) {
    input.addEventListener('change', () => {
      document.getElementById('names').textContent = Array.from(input.files).map((f) => f.name + ':' + f.size).join(',');
    });
  }
</script>`,
);

// An HTML5 drag-and-drop pair, and a slider moved by mouse events only (value 0–100 from the pointer's x on the track).
const drag = htmlPage(
  'Drag',
  `<div id="card" draggable="true" style="width:80px;height:40px;background:#cde">Card</div>
<div id="zone" style="width:200px;height:80px;margin-top:20px;border:2px dashed #888">Drop here</div>
<p id="dropped">nothing</p>
<div id="track" style="position:relative;width:300px;height:20px;margin-top:20px;background:#eee">
  <div id="thumb" style="position:absolute;left:0;top:0;width:20px;height:20px;background:#336"></div>
  <div id="track-end" style="position:absolute;right:0;top:0;width:10px;height:20px"></div>
</div>
<p id="value">0</p>
<script>
  const zone = document.getElementById('zone');
  document.getElementById('card').addEventListener('dragstart', (event) => event.dataTransfer.setData('text/plain', 'card'));
  zone.addEventListener('dragover', (event) => event.preventDefault());
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    document.getElementById('dropped').textContent = event.dataTransfer.getData('text/plain');
  });
  const track = document.getElementById('track');
  const thumb = document.getElementById('thumb');
  let dragging = false;
  thumb.addEventListener('mousedown', () => (dragging = true));
  document.addEventListener('mouseup', () => (dragging = false));
  document.addEventListener('mousemove', (event) => {
    if (!dragging) return;
    const box = track.getBoundingClientRect();
    const value = Math.round(Math.max(0, Math.min(1, (event.clientX - box.left) / box.width)) * 100);
    thumb.style.left = (value * (box.width - 20)) / 100 + 'px';
    document.getElementById('value').textContent = String(value);
  });
</script>`,
);

// A field and a text area that report every input with a beacon (body "input <id>"), so a test sees typing reach the page.
const typing = htmlPage(
  'Typing',
  `<input id="field" aria-label="Field">
<textarea id="area" aria-label="Area"></textarea>
<script>
  for (const el of document.querySelectorAll('input, textarea')) el.addEventListener('input', () => navigator.sendBeacon('/beacon', 'input ' + el.id));
</script>`,
);

/** A fresh copy of the built-in pages, keyed by name. */
export function builtinPages(): Map<string, string> {
  return new Map(
    Object.entries({
      home,
      form,
      buttons,
      storage,
      list,
      changes,
      dialog,
      popup,
      iframe,
      closer,
      big,
      'slow-image': slowImage,
      hover,
      choices,
      delayed,
      beforeunload,
      'long-list': longList,
      noise,
      console: consolePage,
      network,
      downloads,
      upload,
      drag,
      typing,
    }),
  );
}
