// The live page a person opens from a live-view link (self-contained HTML, script and style inline).
import { CAPTURE_INPUT, DRAW_FRAMES, INPUT_QUEUE } from './page-scripts.js';

/** The live view: the tab as frames on a canvas, its URL and title, "Take control" / "Give back control", and input while held. */
export function livePageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Live view · sessionwright</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <div class="where">
    <span class="dot" id="dot" aria-hidden="true"></span>
    <div class="texts">
      <div id="title" class="title">Connecting…</div>
      <div id="url" class="url"></div>
    </div>
  </div>
  <div class="actions">
    <button id="take" type="button">Take control</button>
    <button id="give" type="button" hidden>Give back control</button>
  </div>
</header>
<p id="message" class="message" hidden></p>
<p id="status" class="status" role="status">Connecting to the session…</p>
<main>
  <canvas id="view" tabindex="0" role="img" aria-label="The session's current tab, live" data-frames="0" width="1280" height="720"></canvas>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --fg: #1b1f24; --muted: #5b6470; --line: #d6dae0; --accent: #1f6feb; --warn: #b35900; }
@media (prefers-color-scheme: dark) { :root { --bg: #16181c; --fg: #e8eaed; --muted: #9aa3ad; --line: #30353c; --accent: #4c8dff; --warn: #f0a040; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 8px 12px; border-bottom: 1px solid var(--line); }
.where { display: flex; align-items: center; gap: 10px; min-width: 0; }
.texts { min-width: 0; }
.title { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.url { color: var(--muted); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.dot { flex: none; width: 10px; height: 10px; border-radius: 50%; background: var(--muted); }
.dot.live { background: #2da44e; }
.dot.held { background: var(--warn); }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button:disabled { opacity: .5; cursor: default; }
button#give { background: transparent; color: var(--accent); }
.message { margin: 8px 12px 0; padding: 8px 10px; border-left: 3px solid var(--warn); background: rgba(240, 160, 64, .12); }
.status { margin: 6px 12px; color: var(--muted); }
main { padding: 0 12px 12px; }
canvas { display: block; width: 100%; height: auto; max-width: 100%; background: #000; border: 1px solid var(--line); border-radius: 4px; outline: none; }
canvas.active { border-color: var(--warn); box-shadow: 0 0 0 2px var(--warn); cursor: default; }
body.ended canvas { opacity: .35; }
`;

// Plain ES2020 in one function: no build step, no module, nothing fetched but the session's own routes.
const SCRIPT = `(() => {
  'use strict';
  const base = location.pathname.replace(/\\/+$/, '');
  const $ = (id) => document.getElementById(id);
  const canvas = $('view');
  const take = $('take');
  const give = $('give');
  const statusLine = $('status');
  const messageLine = $('message');
  const dot = $('dot');
  const storageKey = 'sessionwright-viewer:' + base;
  let viewer = '';
  try { viewer = sessionStorage.getItem(storageKey) || ''; } catch (e) { viewer = ''; }
  let control = { state: 'free', mine: false, by: 'person', message: '' };
  let ended = false;
  let frames = 0;
  let failure = '';

  const events = new EventSource(base + '/events' + (viewer ? '?viewer=' + encodeURIComponent(viewer) : ''));
  events.addEventListener('hello', (event) => {
    viewer = JSON.parse(event.data).viewer;
    try { sessionStorage.setItem(storageKey, viewer); } catch (e) { /* private mode */ }
    render();
  });
  events.addEventListener('frame', (event) => draw(JSON.parse(event.data).jpeg));
  events.addEventListener('tab', (event) => {
    const tab = JSON.parse(event.data);
    $('title').textContent = tab.title || '(no title)';
    $('url').textContent = tab.url;
    document.title = (tab.title || tab.url) + ' · live view';
  });
  events.addEventListener('control', (event) => { control = JSON.parse(event.data); render(); });
  events.addEventListener('failed', (event) => { failure = JSON.parse(event.data).message; render(); });
  events.addEventListener('end', (event) => finish(JSON.parse(event.data).message));
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) finish('This live view is no longer available: its session ended or its link expired.');
    else if (!ended) statusLine.textContent = 'Connection lost; reconnecting…';
  };

  ${DRAW_FRAMES}
  const draw = frameDrawer(canvas, (count) => {
    frames = count;
    if (frames === 1) render();
  });

  function active() { return !ended && control.mine && control.state === 'held'; }

  function render() {
    const mine = control.mine;
    // "Give back control" shows once the person has the page: input goes through from that moment.
    take.hidden = active() || ended;
    give.hidden = !active() || ended;
    take.disabled = control.state !== 'free';
    canvas.classList.toggle('active', active());
    dot.className = 'dot' + (ended ? '' : control.state === 'held' ? ' held' : ' live');
    messageLine.hidden = !control.message || ended;
    messageLine.textContent = control.message ? 'The agent asks: ' + control.message : '';
    if (ended) return;
    if (failure) { statusLine.textContent = failure; return; }
    if (mine && control.state === 'waiting') statusLine.textContent = "Taking control: waiting for the agent's current action to finish…";
    else if (mine) statusLine.textContent = 'You have control: your mouse and keyboard in the view act on the page, and the agent waits. Give back control when you are done.';
    else if (control.state !== 'free') statusLine.textContent = 'Someone else has control of this session; watching.';
    else statusLine.textContent = frames === 0 ? 'Waiting for the first picture…' : "Watching live. Take control to use the page yourself; the agent's calls wait until you give it back.";
  }

  function finish(message) {
    if (ended) return;
    ended = true;
    events.close();
    document.body.classList.add('ended');
    statusLine.textContent = message;
    render();
  }

  function post(path, body) {
    return fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Live-Viewer': viewer }, body: JSON.stringify(body), credentials: 'omit' })
      .then((response) => response.json().catch(() => ({})).then((answer) => {
        // The state itself comes over the event stream, in order; an answer only says what went wrong.
        if (!response.ok) statusLine.textContent = answer.message || ('The session refused: ' + response.status);
        return response.ok;
      }))
      .catch(() => { statusLine.textContent = 'Could not reach the session.'; return false; });
  }
  take.addEventListener('click', () => { post('/control', { action: 'take' }); canvas.focus(); });
  // Input still on its way goes first: what the person typed just before giving control back reaches the page.
  give.addEventListener('click', () => input.drained().then(() => post('/control', { action: 'give_back' })));

  ${INPUT_QUEUE}
  const input = inputQueue(active, (events) => post('/input', { events }));
  ${CAPTURE_INPUT}
  captureInput(canvas, active, input.send, 50);
  render();
})();`;
