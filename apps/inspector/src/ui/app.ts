// The inspector page: tool forms generated from JSON Schema, the call log and the sessions panel, over the backend's JSON API.
import type { ApiError, InfoResponse, JsonSchema, LogEntry, SessionView, SessionsResponse, ToolSummary } from '../api.js';

const state = {
  info: undefined as InfoResponse | undefined,
  tool: undefined as ToolSummary | undefined,
  /** The session the forms and the quick buttons act on: the last one created or picked. */
  current: undefined as string | undefined,
  sessions: [] as SessionView[],
  /** Backend clock minus page clock, so expiry countdowns match the server. */
  clockOffset: 0,
  logIds: new Set<number>(),
};

// ---------- small helpers ----------

type Child = Node | string | null | undefined | false;

/** Creates an element; attributes set with setAttribute (booleans as presence), children appended in order. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from index.html`);
  return el as T;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const data = (await response.json()) as T | ApiError;
  if (!response.ok) throw new Error((data as ApiError).error ?? `${response.status} ${response.statusText}`);
  return data as T;
}

const short = (sessionId: string) => `${sessionId.slice(0, 8)}…`;
const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
const hasTool = (name: string) => state.info?.tools.some((tool) => tool.name === name) ?? false;

function countdown(expiresAt: number): { text: string; soon: boolean; gone: boolean } {
  const left = Math.round((expiresAt - (Date.now() + state.clockOffset)) / 1000);
  if (left <= 0) return { text: 'expired', soon: true, gone: true };
  const text =
    left >= 3600 ? `${Math.floor(left / 3600)}h ${Math.floor((left % 3600) / 60)}m` : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  return { text: `expires in ${text}`, soon: left <= 30, gone: false };
}

function showBanner(text: string | undefined, reconnect = false): void {
  byId('banner').hidden = text === undefined;
  byId('banner-text').textContent = text ?? '';
  byId('reconnect').hidden = !reconnect;
}

// ---------- calls ----------

/** Calls a tool through the backend, logs it, and refreshes the sessions (the backend has new thumbnails by then). */
async function callTool(tool: string, args: Record<string, unknown>): Promise<LogEntry | undefined> {
  try {
    const entry = await api<LogEntry>('POST', '/api/call', { tool, arguments: args });
    showBanner(undefined);
    addLogEntry(entry, true);
    if (tool === 'create_session' && !entry.isError && entry.sessionId) setCurrent(entry.sessionId);
    await refreshSessions();
    return entry;
  } catch (error) {
    showBanner(error instanceof Error ? error.message : String(error), !state.info?.connected);
    await refreshInfo();
    return undefined;
  }
}

// ---------- tools and forms ----------

function renderTools(): void {
  const list = byId('tool-list');
  list.replaceChildren(
    ...(state.info?.tools ?? []).map((tool) => {
      const button = h(
        'button',
        { type: 'button', 'data-tool': tool.name, class: tool.name === state.tool?.name ? 'selected' : undefined, title: tool.description },
        h('code', {}, tool.name),
        tool.title ? h('span', { class: 'tool-title' }, tool.title) : null,
      );
      button.addEventListener('click', () => selectTool(tool.name));
      return h('li', {}, button);
    }),
  );
  byId('tool-count').textContent = String(state.info?.tools.length ?? 0);
}

function selectTool(name: string): void {
  state.tool = state.info?.tools.find((tool) => tool.name === name);
  for (const button of document.querySelectorAll<HTMLButtonElement>('#tool-list button')) {
    button.classList.toggle('selected', button.dataset['tool'] === name);
  }
  renderForm();
}

/** How a property is edited; anything the form cannot express is a JSON text field. */
type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'string[]' | 'json';

function kindOf(name: string, schema: JsonSchema): FieldKind {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return 'enum';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') return type;
  // Code is easier to write in a multi-line box.
  if (type === 'string') return ['function', 'script', 'expression'].includes(name) ? 'text' : 'string';
  if (type === 'array' && schema.items?.type === 'string') return 'string[]';
  return 'json';
}

interface Field {
  name: string;
  row: HTMLElement;
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  /** The value to send, `undefined` to leave the argument out, or an Error to show. */
  read(): unknown;
}

function buildField(name: string, schema: JsonSchema, required: boolean): Field {
  const kind = kindOf(name, schema);
  const id = `arg-${name}`;
  let input: Field['input'];
  if (kind === 'enum' || (kind === 'boolean' && !required)) {
    const values = kind === 'enum' ? (schema.enum as string[]) : ['true', 'false'];
    input = h('select', { id, name }, required ? null : h('option', { value: '' }, '(default)'), ...values.map((v) => h('option', { value: v }, v)));
  } else if (kind === 'boolean') {
    input = h('input', { id, name, type: 'checkbox' });
  } else if (kind === 'text' || kind === 'string[]' || kind === 'json') {
    const placeholder = kind === 'string[]' ? 'one value per line' : kind === 'json' ? 'JSON' : '';
    input = h('textarea', { id, name, rows: kind === 'text' ? 4 : 2, placeholder, spellcheck: 'false' });
  } else {
    input = h('input', {
      id,
      name,
      type: kind === 'string' ? 'text' : 'number',
      step: kind === 'integer' ? 1 : kind === 'number' ? 'any' : undefined,
      // Zod's int() bounds are the safe-integer range, which says nothing useful in a form.
      min: typeof schema.minimum === 'number' && Math.abs(schema.minimum) < 1e9 ? schema.minimum : undefined,
      max: typeof schema.maximum === 'number' && Math.abs(schema.maximum) < 1e9 ? schema.maximum : undefined,
      list: name === 'sessionId' ? 'session-ids' : name === 'url' ? 'demo-urls' : undefined,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: name === 'url' && state.info?.demoSite ? `${state.info.demoSite.url}/login` : undefined,
    });
  }
  if (name === 'sessionId' && state.current) input.value = state.current;

  const read = (): unknown => {
    if (input instanceof HTMLInputElement && input.type === 'checkbox') return input.checked;
    const raw = input.value;
    if (raw.trim() === '' && !required) return undefined;
    switch (kind) {
      case 'boolean':
        return raw === 'true';
      case 'integer':
      case 'number': {
        const value = Number(raw);
        return raw.trim() === '' || Number.isNaN(value) ? new Error(`${name} must be a number`) : value;
      }
      case 'string[]':
        return raw
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
      case 'json':
        try {
          return JSON.parse(raw) as unknown;
        } catch {
          return new Error(`${name} is not valid JSON`);
        }
      default:
        return raw;
    }
  };

  const type = kind === 'string[]' ? 'string[]' : kind === 'text' ? 'string' : kind;
  const row = h(
    'div',
    { class: `field field-${kind}` },
    h('label', { for: id }, h('code', {}, name), required ? h('span', { class: 'req', title: 'required' }, '*') : null, h('span', { class: 'type' }, type)),
    input,
    schema.description ? h('small', {}, schema.description) : null,
  );
  return { name, row, input, read };
}

function renderForm(): void {
  const panel = byId('tool-panel');
  const tool = state.tool;
  if (!tool) {
    panel.replaceChildren(h('p', { class: 'empty' }, 'Pick a tool on the left.'));
    return;
  }
  const required = new Set(tool.inputSchema.required ?? []);
  const fields = Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => buildField(name, schema, required.has(name)));
  const hints = tool.annotations ?? {};
  const chips = [
    hints.readOnlyHint ? h('span', { class: 'chip read' }, 'read-only') : null,
    hints.destructiveHint ? h('span', { class: 'chip danger' }, 'destructive') : null,
    hints.idempotentHint ? h('span', { class: 'chip' }, 'idempotent') : null,
    hints.openWorldHint ? h('span', { class: 'chip' }, 'open world') : null,
  ];
  const preview = h('pre', { class: 'preview', id: 'args-preview' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'call-button' }, `Call ${tool.name}`);
  const form = h(
    'form',
    { id: 'tool-form', 'data-tool': tool.name, autocomplete: 'off' },
    h('div', { class: 'form-head' }, h('h2', {}, tool.title ?? tool.name, ' ', h('code', {}, tool.name)), h('div', { class: 'chips' }, ...chips)),
    tool.description ? description(tool.description) : null,
    fields.length ? h('div', { class: 'fields' }, ...fields.map((field) => field.row)) : h('p', { class: 'muted' }, 'This tool takes no arguments.'),
    h('div', { class: 'form-foot' }, submit, problem, h('details', { class: 'args' }, h('summary', {}, 'arguments'), preview)),
  );

  const collect = (): Record<string, unknown> | Error => {
    const args: Record<string, unknown> = {};
    for (const field of fields) {
      const value = field.read();
      if (value instanceof Error) return value;
      if (value !== undefined) args[field.name] = value;
    }
    return args;
  };
  const update = () => {
    const args = collect();
    preview.textContent = args instanceof Error ? args.message : JSON.stringify(args, null, 2);
  };
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const args = collect();
    problem.textContent = args instanceof Error ? args.message : '';
    if (args instanceof Error) return;
    submit.disabled = true;
    submit.classList.add('busy');
    void callTool(tool.name, args).finally(() => {
      submit.disabled = false;
      submit.classList.remove('busy');
    });
  });
  update();
  panel.replaceChildren(form);
}

/** Tool descriptions are written for a model and run long: show two lines, the rest on a click. */
function description(text: string): HTMLElement {
  const p = h('p', { class: 'description clamped', title: 'Click to show all' }, text);
  p.addEventListener('click', () => {
    p.classList.toggle('clamped');
    p.title = p.classList.contains('clamped') ? 'Click to show all' : 'Click to fold';
  });
  return p;
}

// ---------- the call log ----------

/** Long multi-line strings (a snapshot, a page's text) read better as their own block than inside JSON. */
function splitLongText(value: unknown): { json: unknown; blocks: { key: string; text: string }[] } {
  const blocks: { key: string; text: string }[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { json: value, blocks };
  const json: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string' && field.includes('\n') && field.length > 200) {
      blocks.push({ key, text: field });
      json[key] = `(${field.split('\n').length} lines, shown below)`;
    } else json[key] = field;
  }
  return { json, blocks };
}

function summaryOf(entry: LogEntry): string {
  if (entry.isError) return entry.errorMessage ?? '';
  const response = (entry.response ?? {}) as Record<string, unknown>;
  if (entry.tool === 'create_session') return 'new session';
  if (Array.isArray(response['sessions'])) return `${response['sessions'].length} open of ${String(response['maxSessions'])}`;
  if (typeof response['title'] === 'string' && response['title'] !== '') return String(response['title']);
  if (typeof response['url'] === 'string') return String(response['url']);
  if (typeof response['message'] === 'string') return String(response['message']);
  return '';
}

function addLogEntry(entry: LogEntry, open: boolean): void {
  if (state.logIds.has(entry.id)) return;
  state.logIds.add(entry.id);
  const { json, blocks } = splitLongText(entry.response);
  const status = entry.isError ? h('span', { class: 'badge error' }, entry.errorCode ?? 'error') : h('span', { class: 'badge ok' }, 'ok');
  const item = h(
    'li',
    { class: `entry ${entry.isError ? 'is-error' : 'is-ok'}`, 'data-tool': entry.tool, 'data-id': entry.id },
    h(
      'details',
      { open },
      h(
        'summary',
        {},
        h('span', { class: 'num' }, `#${entry.id}`),
        h('code', { class: 'tool' }, entry.tool),
        status,
        entry.sessionId ? h('code', { class: 'sid', title: entry.sessionId }, short(entry.sessionId)) : null,
        h('span', { class: 'text' }, summaryOf(entry)),
        h('span', { class: 'duration' }, `${entry.durationMs} ms`),
        h('time', { datetime: new Date(entry.at).toISOString() }, clock(entry.at)),
      ),
      h(
        'div',
        { class: 'io' },
        h('div', {}, h('h4', {}, 'request'), h('pre', { class: 'request' }, JSON.stringify(entry.arguments, null, 2))),
        h(
          'div',
          {},
          h('h4', {}, entry.isError ? 'error' : 'response'),
          h('pre', { class: 'response' }, json === undefined ? '(no JSON content)' : JSON.stringify(json, null, 2)),
          ...blocks.map((block) => h('div', {}, h('h4', {}, block.key), h('pre', { class: 'block' }, block.text))),
          ...entry.images.map((src) => {
            const img = h('img', { class: 'shot', src, alt: `${entry.tool} image` });
            img.addEventListener('click', () => openLightbox(src));
            return img;
          }),
        ),
      ),
    ),
  );
  // Only the newest entry stays open, so the log reads as "the last result, then history".
  if (open) for (const details of document.querySelectorAll<HTMLDetailsElement>('#log details[open]')) details.open = false;
  byId('log').prepend(item);
  byId('log-empty').hidden = true;
  byId('log-count').textContent = String(state.logIds.size);
}

async function loadLog(): Promise<void> {
  const entries = await api<LogEntry[]>('GET', '/api/log');
  for (const entry of entries) addLogEntry(entry, false);
}

// ---------- sessions ----------

function setCurrent(sessionId: string | undefined): void {
  const previous = state.current;
  state.current = sessionId;
  for (const card of document.querySelectorAll<HTMLElement>('#sessions .session')) {
    card.classList.toggle('current', card.dataset['sessionId'] === sessionId);
  }
  // Follow the current session in the open form, unless the user typed another id there.
  const field = document.querySelector<HTMLInputElement>('#tool-form [name="sessionId"]');
  if (field && (field.value === '' || field.value === previous)) {
    field.value = sessionId ?? '';
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

function sessionCard(session: SessionView): HTMLElement {
  const id = session.sessionId;
  const urlInput = h('input', { name: 'url', list: 'demo-urls', placeholder: 'URL to open', autocomplete: 'off', spellcheck: 'false' });
  const go = h('form', { class: 'go' }, urlInput, h('button', { type: 'submit' }, 'Navigate'));
  go.addEventListener('submit', (event) => {
    event.preventDefault();
    if (urlInput.value.trim() === '') return urlInput.focus();
    setCurrent(id);
    const url = urlInput.value.trim();
    // Emptied so the card shows where the session went (its URL line), not where it was sent.
    urlInput.value = '';
    void callTool('navigate', { sessionId: id, url });
  });
  const button = (label: string, action: string, enabled = true, title?: string) =>
    h('button', { type: 'button', 'data-action': action, disabled: !enabled, title, class: action === 'close' ? 'danger' : undefined }, label);
  const card = h(
    'article',
    { class: `session${id === state.current ? ' current' : ''}`, 'data-session-id': id },
    h('div', { class: 'thumb-box' }),
    h(
      'div',
      { class: 'meta' },
      h('div', { class: 'meta-top' }, h('code', { class: 'sid', title: id }, short(id)), h('span', { class: 'expires' })),
      h('div', { class: 'title' }),
      h('div', { class: 'url' }),
      h('div', { class: 'identity' }),
    ),
    go,
    h(
      'div',
      { class: 'actions' },
      button('Use', 'use', true, 'Fill this session into the tool forms'),
      button('Snapshot', 'snapshot', hasTool('snapshot'), hasTool('snapshot') ? undefined : 'this server has no snapshot tool yet'),
      button('Screenshot', 'screenshot', hasTool('screenshot'), hasTool('screenshot') ? undefined : 'this server has no screenshot tool yet'),
      button(
        'Live view',
        'live',
        hasTool('live_view'),
        hasTool('live_view') ? 'Watch the session live and take control of it' : 'start the server with --caps live',
      ),
      button(
        'Start trace',
        'trace',
        hasTool('start_trace'),
        hasTool('start_trace') ? 'Record a Playwright trace of this session' : 'start the server with --caps devtools',
      ),
      button('Close', 'close'),
    ),
    h('div', { class: 'trace-line', hidden: true }),
  );
  card.querySelector('.actions')?.addEventListener('click', (event) => {
    const action = (event.target as HTMLElement).closest('button')?.dataset['action'];
    if (!action) return;
    setCurrent(id);
    if (action === 'snapshot') void callTool('snapshot', { sessionId: id });
    if (action === 'screenshot') void callTool('screenshot', { sessionId: id });
    if (action === 'close') void callTool('close_session', { sessionId: id });
    if (action === 'live') void openLiveView(id);
    if (action === 'trace') void callTool(card.dataset['tracing'] === 'true' ? 'stop_trace' : 'start_trace', { sessionId: id });
  });
  return card;
}

/** Shows the session's live view (a page the server serves) in a dialog, with a link to open it in a tab of its own. */
async function openLiveView(sessionId: string): Promise<void> {
  const entry = await callTool('live_view', { sessionId });
  const url = (entry?.response as { url?: unknown } | undefined)?.url;
  if (!entry || entry.isError || typeof url !== 'string') return;
  byId<HTMLIFrameElement>('live-frame').src = url;
  byId<HTMLAnchorElement>('live-open').href = url;
  byId('live-title').textContent = `Live view of ${short(sessionId)}`;
  byId<HTMLDialogElement>('live-dialog').showModal();
}

/** One line saying what the session was dressed as: device or page size, then the options that change what a page sees. */
function identityOf(session: SessionView): string {
  const options = session.options ?? {};
  const size = session.viewport ? `${session.viewport.width}×${session.viewport.height}` : undefined;
  const parts = [session.device, size, ...['locale', 'timezoneId', 'colorScheme'].map((key) => options[key])];
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join(' · ');
}

/** The options filled into "Dress the next session", without the empty ones. */
function newSessionOptions(): Record<string, string> {
  const form = byId<HTMLFormElement>('dress-form');
  if (byId('new-session-options').hidden) return {};
  const chosen: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string' && value.trim() !== '') chosen[key] = value.trim();
  return chosen;
}

/** Offers the options only when the server's create_session takes them; the device list comes from the backend. */
function renderDressForm(): void {
  const devices = state.info?.devices ?? [];
  byId('new-session-options').hidden = devices.length === 0;
  const select = byId<HTMLFormElement>('dress-form').elements.namedItem('device') as HTMLSelectElement;
  if (select.options.length === devices.length + 1) return;
  select.replaceChildren(h('option', { value: '' }, '(default)'), ...devices.map((name) => h('option', { value: name }, name)));
}

/** Updates a card in place, so a URL being typed into it survives the periodic refresh. */
function updateCard(card: HTMLElement, session: SessionView): void {
  const set = (selector: string, text: string) => {
    const el = card.querySelector(selector);
    if (el && el.textContent !== text) el.textContent = text;
  };
  set('.title', session.title || '(no title)');
  set('.identity', identityOf(session));
  set('.url', session.url);
  card.querySelector('.url')?.setAttribute('title', session.url);
  const expires = card.querySelector<HTMLElement>('.expires');
  if (expires) expires.dataset['expiresAt'] = String(session.expiresAt);
  card.dataset['tracing'] = String(session.tracing === true);
  const traceButton = card.querySelector<HTMLButtonElement>('button[data-action="trace"]');
  if (traceButton) traceButton.textContent = session.tracing ? 'Stop trace' : 'Start trace';
  const traceLine = card.querySelector<HTMLElement>('.trace-line');
  if (traceLine && session.trace && traceLine.dataset['path'] !== session.trace.path) {
    traceLine.dataset['path'] = session.trace.path;
    traceLine.hidden = false;
    traceLine.replaceChildren(
      h('a', { href: session.trace.download, download: '', class: 'trace-download' }, 'Download trace'),
      ' ',
      h('code', { title: 'Open it with the Playwright trace viewer' }, `npx playwright show-trace ${session.trace.path}`),
    );
  }
  const box = card.querySelector<HTMLElement>('.thumb-box');
  if (!box) return;
  const img = box.querySelector<HTMLImageElement>('img.thumb');
  if (session.thumbnail) {
    if (img?.getAttribute('src') === session.thumbnail) return;
    const next = h('img', { class: 'thumb', src: session.thumbnail, alt: `Screenshot of ${session.title || session.url}` });
    next.addEventListener('click', () => openLightbox(next.src));
    box.replaceChildren(next);
  } else if (!box.querySelector('.placeholder')) {
    box.replaceChildren(h('div', { class: 'placeholder' }, state.info?.thumbnails ? 'no screenshot yet' : 'no screenshot tool'));
  }
}

async function refreshSessions(): Promise<void> {
  let data: SessionsResponse;
  try {
    data = await api<SessionsResponse>('GET', '/api/sessions');
  } catch {
    return; // The banner, set by refreshInfo, says why; keep showing the last known sessions.
  }
  state.clockOffset = data.now - Date.now();
  state.sessions = data.sessions;
  const container = byId('sessions');
  const cards = new Map([...container.querySelectorAll<HTMLElement>('.session')].map((card) => [card.dataset['sessionId'] ?? '', card]));
  // Newest first, as in the log.
  const ordered = [...data.sessions].sort((a, b) => b.createdAt - a.createdAt);
  for (const session of ordered) {
    const card = cards.get(session.sessionId) ?? sessionCard(session);
    cards.delete(session.sessionId);
    updateCard(card, session);
    container.append(card);
  }
  for (const card of cards.values()) card.remove();
  if (state.current && !data.sessions.some((s) => s.sessionId === state.current)) setCurrent(ordered[0]?.sessionId);
  byId('sessions-empty').hidden = data.sessions.length > 0;
  byId('session-count').textContent = `${data.sessions.length} / ${data.maxSessions}`;
  byId('session-ids').replaceChildren(...ordered.map((s) => h('option', { value: s.sessionId }, `${short(s.sessionId)} ${s.title}`)));
  tick();
}

function tick(): void {
  for (const el of document.querySelectorAll<HTMLElement>('#sessions .expires')) {
    const expiresAt = Number(el.dataset['expiresAt']);
    if (!expiresAt) continue;
    const { text, soon, gone } = countdown(expiresAt);
    el.textContent = text;
    el.classList.toggle('soon', soon);
    el.closest('.session')?.classList.toggle('gone', gone);
  }
}

function openLightbox(src: string): void {
  byId<HTMLImageElement>('lightbox-img').src = src;
  byId<HTMLDialogElement>('lightbox').showModal();
}

// ---------- header ----------

function renderHeader(): void {
  const info = state.info;
  if (!info) return;
  byId('server-name').textContent = info.server;
  byId('server-target').textContent = info.target;
  byId('server-dot').classList.toggle('down', !info.connected);
  byId('thumb-note').textContent = info.thumbnails
    ? 'Thumbnails are taken with the screenshot tool after each call on a session; those calls are not logged.'
    : 'This server has no screenshot tool, so sessions show no thumbnails.';
  const demo = info.demoSite;
  const box = byId('demo');
  if (!demo) {
    box.replaceChildren();
    return;
  }
  const links = demo.links.map((link) => {
    const accounts = demo.users.map((u) => `${u.username} / ${u.password}`).join(', ');
    const title = `Navigate the current session to ${link.url}${link.label === 'Sign in' ? `\nDemo accounts: ${accounts}` : ''}`;
    const button = h('button', { type: 'button', class: 'link', title }, link.label);
    button.addEventListener('click', () => {
      if (state.current) void callTool('navigate', { sessionId: state.current, url: link.url });
      else showBanner('Create a session first (New session), then pick a page of the demo site.');
    });
    return button;
  });
  box.replaceChildren(
    h('span', { class: 'muted' }, 'demo site '),
    h('a', { href: `${demo.url}/`, target: '_blank', rel: 'noopener', id: 'demo-url' }, demo.url.replace('http://', '')),
    h('span', { class: 'links' }, ...links),
  );
  byId('demo-urls').replaceChildren(...demo.links.map((link) => h('option', { value: link.url }, link.label)));
}

async function refreshInfo(): Promise<void> {
  try {
    state.info = await api<InfoResponse>('GET', '/api/info');
  } catch (error) {
    showBanner(`The inspector backend is not answering: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  renderHeader();
  if (!state.info.connected) showBanner(`The server connection ended: ${state.info.disconnectReason ?? 'no reason given'}`, true);
}

// ---------- start ----------

async function start(): Promise<void> {
  byId('new-session').addEventListener('click', () => void callTool('create_session', newSessionOptions()));
  // Closing the dialog ends the live page, so it stops streaming frames.
  byId('live-dialog').addEventListener('close', () => byId<HTMLIFrameElement>('live-frame').removeAttribute('src'));
  byId('clear-log').addEventListener('click', () => {
    void api<LogEntry[]>('DELETE', '/api/log').then(() => {
      byId('log').replaceChildren();
      state.logIds.clear();
      byId('log-empty').hidden = false;
      byId('log-count').textContent = '';
    });
  });
  byId('reconnect').addEventListener('click', () => {
    void api<InfoResponse>('POST', '/api/reconnect').then(
      async (info) => {
        state.info = info;
        showBanner(undefined);
        renderHeader();
        renderTools();
        renderDressForm();
        await refreshSessions();
      },
      (error: unknown) => showBanner(`Reconnect failed: ${error instanceof Error ? error.message : String(error)}`, true),
    );
  });

  await refreshInfo();
  renderTools();
  renderDressForm();
  selectTool(state.info?.tools[0]?.name ?? '');
  await Promise.all([loadLog(), refreshSessions()]);
  document.body.classList.add('ready');
  setInterval(tick, 1000);
  // Sessions also change without a call from this page (idle expiry), so look again now and then.
  setInterval(() => void refreshSessions(), 5000);
}

void start();
