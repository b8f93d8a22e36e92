// The live view as an MCP App: a self-contained page that draws the session from frames it asks the host for (app-only tools), with no frame and no connection of its own.
import { CAPTURE_INPUT, DRAW_FRAMES, INPUT_QUEUE } from './page-scripts.js';

/**
 * The MCP App a host renders for live_view and request_human. It speaks MCP Apps' postMessage protocol with the host
 * (ui/initialize, then the tool's input and result), and everything else goes through the host as tool calls, as the
 * App API's callServerTool sends them: live_view_frame for pictures, live_view_control and live_view_input for a
 * person's control. So it works in the strictest hosts (`frame-src 'self' blob: data:`, `connect-src 'none'`), over
 * stdio as over HTTP. Inline it is a compact row (a picture of the tab, its title and URL, the control); fullscreen,
 * which it asks the host for on demand, shows the page large enough to use.
 */
export function mcpAppHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live view · sessionwright</title>
<style>${STYLE}</style>
</head>
<body class="inline">
<main>
  <div class="screen"><canvas id="view" tabindex="0" role="img" aria-label="The session's current tab, live" data-frames="0" width="320" height="180"></canvas></div>
  <div class="side">
    <div class="where">
      <span class="dot" id="dot" aria-hidden="true"></span>
      <div class="texts">
        <div id="title" class="title">Live view</div>
        <div id="url" class="url"></div>
      </div>
    </div>
    <p id="status" class="status" role="status">Waiting for the session…</p>
    <div class="actions">
      <button id="take" type="button" disabled>Take control</button>
      <button id="give" type="button" hidden>Give back control</button>
      <button id="full" type="button" class="plain" hidden>Fullscreen</button>
    </div>
  </div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root { color-scheme: light dark; --bg: transparent; --fg: #1b1f24; --muted: #5b6470; --line: #d6dae0; --accent: #1f6feb; --warn: #b35900; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --muted: #9aa3ad; --line: #30353c; --accent: #4c8dff; --warn: #f0a040; } }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 13px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); overflow: hidden; }
main { display: flex; gap: 12px; height: 100%; padding: 8px; }
.screen { flex: none; height: 100%; display: flex; align-items: center; justify-content: center; }
canvas { display: block; max-width: 100%; max-height: 100%; background: #000; border: 1px solid var(--line); border-radius: 4px; outline: none; }
canvas.active { border-color: var(--warn); box-shadow: 0 0 0 2px var(--warn); }
.side { flex: 1; min-width: 0; display: flex; flex-direction: column; justify-content: center; gap: 6px; }
.where { display: flex; align-items: center; gap: 8px; min-width: 0; }
.texts { min-width: 0; }
.title { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.url { color: var(--muted); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.dot { flex: none; width: 9px; height: 9px; border-radius: 50%; background: var(--muted); }
.dot.live { background: #2da44e; }
.dot.held { background: var(--warn); }
.status { margin: 0; color: var(--muted); font-size: 12px; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.actions { display: flex; gap: 8px; flex-wrap: wrap; }
button { font: inherit; padding: 4px 12px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button:disabled { opacity: .5; cursor: default; }
button#give, button.plain { background: transparent; color: var(--accent); }
body.inline .screen { max-width: 45%; }
body.large main { flex-direction: column-reverse; gap: 8px; }
body.large .side { flex: none; flex-direction: row; align-items: center; justify-content: space-between; }
body.large .status { flex: 1; -webkit-line-clamp: 1; }
body.large .screen { flex: 1; min-height: 0; height: auto; }
body.ended canvas { opacity: .35; }
`;

// Plain ES2020 in one function: no module, nothing fetched; every request goes to the host window as JSON-RPC.
const SCRIPT = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const canvas = $('view');
  const take = $('take');
  const give = $('give');
  const full = $('full');
  const statusLine = $('status');
  const dot = $('dot');
  let sessionId = '';
  let viewer = '';
  let cursor = undefined;
  let control = { state: 'free', mine: false, by: 'person', message: '' };
  let frames = 0;
  let ended = false;
  let polling = false;
  let canCall = true;
  let note = '';
  let displayMode = 'inline';
  let modes = [];

  // JSON-RPC 2.0 with the host over postMessage (MCP Apps).
  let nextId = 1;
  const pending = new Map();
  function post(message) { window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*'); }
  function request(method, params) {
    const id = nextId++;
    post({ id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  // What the App API's callServerTool sends: a tools/call the host passes to the server.
  function callServerTool(name, args) {
    return request('tools/call', { name, arguments: Object.assign({ sessionId }, args) });
  }
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && !message.method) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (waiter) message.error ? waiter.reject(message.error) : waiter.resolve(message.result);
      return;
    }
    const params = message.params || {};
    if (message.method === 'ui/notifications/tool-input') found(params.arguments && params.arguments.sessionId);
    else if (message.method === 'ui/notifications/tool-result') result(params);
    else if (message.method === 'ui/notifications/tool-cancelled') { if (!sessionId) statusLine.textContent = 'The call was cancelled.'; }
    else if (message.method === 'ui/notifications/host-context-changed') context(params);
    else if (message.id !== undefined && message.method === 'ui/resource-teardown') { stop(); post({ id: message.id, result: {} }); }
    else if (message.id !== undefined && message.method === 'ping') post({ id: message.id, result: {} });
    else if (message.id !== undefined) post({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  });

  function context(ctx) {
    if (!ctx) return;
    if (Array.isArray(ctx.availableDisplayModes)) modes = ctx.availableDisplayModes;
    if (typeof ctx.displayMode === 'string') displayMode = ctx.displayMode;
    layout();
  }
  function layout() {
    const large = displayMode === 'fullscreen' || window.innerHeight >= 320;
    document.body.className = (large ? 'large' : 'inline') + (ended ? ' ended' : '');
    full.hidden = !modes.includes('fullscreen');
    full.textContent = displayMode === 'fullscreen' ? 'Exit fullscreen' : 'Fullscreen';
  }
  window.addEventListener('resize', layout);
  function setMode(mode) {
    if (!modes.includes(mode) || mode === displayMode) return Promise.resolve();
    return request('ui/request-display-mode', { mode }).then((answer) => { if (answer && answer.mode) { displayMode = answer.mode; layout(); } }, () => {});
  }
  full.addEventListener('click', () => setMode(displayMode === 'fullscreen' ? 'inline' : 'fullscreen'));

  function found(id) {
    if (typeof id !== 'string' || id === '' || sessionId !== '') return;
    sessionId = id;
    if (!polling) poll();
  }
  function result(params) {
    const data = params && (params.structuredContent || parseText(params.content));
    if (params && params.isError) { if (!sessionId) statusLine.textContent = (data && data.message) || 'The live view could not be opened.'; return; }
    if (data) found(data.sessionId);
    if (!sessionId) statusLine.textContent = 'The result names no session.';
  }
  function parseText(content) {
    const first = Array.isArray(content) ? content[0] : undefined;
    try { return first && first.type === 'text' ? JSON.parse(first.text) : undefined; } catch (e) { return undefined; }
  }

  // Frames: one call at a time; the server answers at once with a newer frame, or after a moment without one.
  async function poll() {
    polling = true;
    let failures = 0;
    while (!ended && canCall) {
      try {
        const answer = await callServerTool('live_view_frame', viewer ? { viewer, cursor } : {});
        const data = answer && (answer.structuredContent || parseText(answer.content));
        if (answer && answer.isError) {
          if (data && data.details && data.details.reason === 'viewer_gone') { viewer = ''; cursor = undefined; continue; }
          if (data && (data.errorCode === 'SESSION_NOT_FOUND' || data.errorCode === 'SESSION_EXPIRED')) { finish('The session has ended.'); break; }
          throw new Error((data && data.message) || 'The frame call failed.');
        }
        failures = 0;
        show(data, answer.content);
      } catch (error) {
        failures += 1;
        note = (error && error.message) || 'The host did not pass the call on.';
        render();
        if (failures >= 5) { canCall = false; note = 'The host does not pass this app\\'s calls to the server; open the live view from its link instead.'; render(); break; }
        await new Promise((resolve) => setTimeout(resolve, 1000 * failures));
      }
    }
    polling = false;
  }
  function show(data, content) {
    if (!data) return;
    viewer = data.viewer;
    cursor = data.cursor;
    control = data.control || control;
    note = data.note || '';
    $('title').textContent = data.title || (data.url ? '(no title)' : 'Live view');
    $('url').textContent = data.url || '';
    const image = Array.isArray(content) ? content.find((part) => part && part.type === 'image') : undefined;
    if (image) draw(image.data);
    render();
  }
  ${DRAW_FRAMES}
  const draw = frameDrawer(canvas, (count) => {
    frames = count;
    if (frames === 1) render();
  });

  function active() { return !ended && control.mine && control.state === 'held'; }
  function render() {
    take.hidden = active() || ended;
    give.hidden = !active() || ended;
    take.disabled = !viewer || control.state !== 'free' || !canCall;
    canvas.classList.toggle('active', active());
    canvas.dataset.control = control.state + (control.mine ? ':mine' : '');
    dot.className = 'dot' + (ended ? '' : control.state === 'held' ? ' held' : viewer ? ' live' : '');
    layout();
    if (ended) return;
    const asks = control.message ? 'The agent asks: ' + control.message + ' ' : '';
    if (note) statusLine.textContent = asks + note;
    else if (control.mine && control.state === 'waiting') statusLine.textContent = asks + "Taking control: waiting for the agent's current action to finish…";
    else if (control.mine && control.state === 'held') statusLine.textContent = asks + 'You have control: the agent waits until you give it back.';
    else if (control.state !== 'free') statusLine.textContent = 'Someone else has control of this session; watching.';
    else statusLine.textContent = frames === 0 ? 'Waiting for the first picture…' : "Watching live. Take control to use the page; the agent's calls wait until you give it back.";
  }
  function finish(message) {
    if (ended) return;
    ended = true;
    statusLine.textContent = message;
    render();
  }
  function stop() { ended = true; }

  function controlCall(action) {
    return callServerTool('live_view_control', { viewer, action }).then((answer) => {
      const data = answer && (answer.structuredContent || parseText(answer.content));
      if (answer && answer.isError) note = (data && data.message) || 'The session refused.';
      else if (data && data.control) { control = data.control; note = ''; }
      render();
    }, () => { note = 'The host did not pass the call on.'; render(); });
  }
  take.addEventListener('click', () => {
    // Using the page takes more room than the inline box: the app asks for fullscreen where the host offers it.
    if (displayMode === 'inline') setMode('fullscreen');
    controlCall('take');
    canvas.focus();
  });
  // Input still on its way goes first: what the person typed just before giving control back reaches the page.
  give.addEventListener('click', () => input.drained().then(() => controlCall('give_back')));

  ${INPUT_QUEUE}
  const input = inputQueue(active, async (events) => {
    const answer = await callServerTool('live_view_input', { viewer, events }).catch(() => undefined);
    if (!answer || answer.isError) { note = 'Your input did not reach the page.'; render(); }
  });
  ${CAPTURE_INPUT}
  // Moves go out at most ten times a second (each is a call through the host), drags as they come.
  captureInput(canvas, active, input.send, 100);

  request('ui/initialize', {
    appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
    appInfo: { name: 'sessionwright-live-view', version: '2' },
    protocolVersion: '2026-01-26',
  }).then((answer) => {
    context(answer && answer.hostContext);
    if (answer && answer.hostCapabilities && !answer.hostCapabilities.serverTools) {
      canCall = false;
      note = 'This host does not let apps call the server; open the live view from its link instead.';
    }
    post({ method: 'ui/notifications/initialized', params: {} });
    // Inline, the app asks for a compact box; fullscreen takes what the host gives.
    post({ method: 'ui/notifications/size-changed', params: { height: 150 } });
    render();
  }, () => { statusLine.textContent = 'The host refused to show the live view.'; });
  render();
})();`;
