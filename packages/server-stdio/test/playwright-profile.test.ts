// --profile playwright: @playwright/mcp's tool names and shapes over stdio, the implicit session per connection, and sessionId for parallel sessions (dialogs, file choosers and the rest of the core tools in process: packages/tools/test/playwright-profile.test.ts).
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { silentLogger } from '@sessionwright/session-core/parts';
import { playwrightProfile } from '@sessionwright/tools';
import { callJson, startFixtureServer, waitFor, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, startHttpServer, type HttpServerHandle, type SessionwrightServer } from '../src/index.js';
import { call, expectError, expectSuccess, startCli } from './helpers.js';
import { connectSse, connectStreamable } from './http-helpers.js';

let fixture: FixtureServer;
beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
});

/** The first ref the snapshot gives a line matching `line`, e.g. /link "Form"/. */
function refIn(snapshot: string, line: RegExp): string {
  const found = snapshot.split('\n').find((text) => line.test(text));
  const ref = found && /\[ref=([^\]]+)\]/.exec(found)?.[1];
  if (!ref) throw new Error(`no ref for ${line} in:\n${snapshot}`);
  return ref;
}

/** The snapshot an action's result names in snapshotFile. */
function snapshotIn(data: Record<string, unknown>): string {
  return readFileSync(data.snapshotFile as string, 'utf8');
}

describe('--profile playwright over stdio, as an @playwright/mcp client uses it', () => {
  let server: StdioConnection;
  beforeAll(async () => {
    server = await startCli(['--profile', 'playwright']);
  });
  afterAll(async () => {
    await server?.close();
  });
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);

  it('lists the browser_* tools and the session tools, each fully described', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((entry) => entry.name)).toEqual(playwrightProfile().tools.map((entry) => entry.name));
    for (const name of [
      'browser_navigate',
      'browser_snapshot',
      'browser_click',
      'browser_type',
      'browser_close',
      'create_session',
      'close_session',
      'list_sessions',
    ]) {
      expect(tools.map((entry) => entry.name)).toContain(name);
    }
    expect(tools.map((entry) => entry.name)).not.toContain('navigate');
    for (const entry of tools) {
      expect(entry.title && entry.description && entry.outputSchema && entry.annotations, entry.name).toBeTruthy();
      const properties = entry.inputSchema.properties ?? {};
      if (entry.name.startsWith('browser_')) {
        expect(Object.keys(properties), entry.name).toContain('sessionId');
        expect(entry.inputSchema.required ?? [], entry.name).not.toContain('sessionId');
      }
    }
  });

  it('navigates and snapshots without a sessionId; content[0].text is JSON with url, title and the snapshot with refs', async () => {
    const navigated = expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    expect(navigated).toMatchObject({ url: fixture.urlFor('/pages/home'), title: 'Home', status: 200 });
    // An action names the file holding its snapshot (in the session's folder without --output-dir).
    expect(navigated.snapshot).toBeUndefined();
    expect(snapshotIn(navigated)).toContain('Fixture home');

    const result = await server.client.callTool({ name: 'browser_snapshot', arguments: {} });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    const data = JSON.parse(text);
    expect(data.url).toBe(fixture.urlFor('/pages/home'));
    expect(data.title).toBe('Home');
    expect(data.snapshot).toMatch(/link "Form" \[ref=e\d+\]/);
  });

  it('clicks by {element, ref} and by {target} (a ref or a selector), and reports the page after the action', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/home') });
    const { snapshot } = expectSuccess(await tool('browser_snapshot'));
    const clicked = expectSuccess(await tool('browser_click', { element: 'Form link', ref: refIn(snapshot, /link "Form"/) }));
    expect(clicked).toMatchObject({ url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(snapshotIn(clicked)).toContain('textbox "Name"');

    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/buttons') }));
    expectSuccess(await tool('browser_click', { target: '#inc' }));
    const page = expectSuccess(await tool('browser_snapshot'));
    expectSuccess(await tool('browser_click', { element: 'Increment', target: refIn(page.snapshot, /button "Increment"/) }));
    expectSuccess(await tool('browser_click', { target: '#dblclick', doubleClick: true }));
    const counted = expectSuccess(
      await tool('browser_evaluate', { function: "() => [document.getElementById('count').textContent, document.getElementById('dbl').textContent]" }),
    );
    expect(counted.result).toEqual(['2', 'yes']);
  });

  it('types (replacing the value), selects, presses keys, hovers, waits, goes back and takes screenshots', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const { snapshot } = expectSuccess(await tool('browser_snapshot'));
    const name = refIn(snapshot, /textbox "Name"/);
    expectSuccess(await tool('browser_type', { element: 'Name', ref: name, text: 'first' }));
    const typed = expectSuccess(await tool('browser_type', { element: 'Name', ref: name, text: 'Ada', slowly: true }));
    expect(typed.value).toBe('Ada');
    expectSuccess(await tool('browser_select_option', { element: 'Color', target: '#color', values: ['Green'] }));
    expectSuccess(await tool('browser_hover', { target: '#submit' }));
    expectSuccess(await tool('browser_press_key', { key: 'Tab' }));
    const read = expectSuccess(await tool('browser_evaluate', { target: '#color', function: '(element) => element.value' }));
    expect(read.result).toBe('g');
    const waited = expectSuccess(await tool('browser_wait_for', { text: 'Name', time: 0.1 }));
    expect(waited.waitedMs).toBeGreaterThanOrEqual(100);

    const shot = await tool('browser_take_screenshot', { type: 'jpeg' });
    expect(expectSuccess(shot)).toMatchObject({ format: 'jpeg', url: fixture.urlFor('/pages/form'), title: 'Form' });
    expect(shot.result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    const element = await tool('browser_take_screenshot', { element: 'Send button', target: '#submit' });
    expect(expectSuccess(element).width).toBeLessThan(400);

    const back = expectSuccess(await tool('browser_navigate_back'));
    expect(back.url).toBe(fixture.urlFor('/pages/buttons'));
    expect(snapshotIn(back)).toContain('button "Increment"');
  });

  it('answers bad arguments and missing elements with the same codes as the default profile', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/buttons') });
    expectError(await tool('browser_click', { element: 'nothing' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_click', { ref: 'e1', target: '#inc' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_navigate', { url: 'javascript:alert(1)' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_navigate', { url: fixture.urlFor('/'), waitUntil: 'load' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_click', { target: '.dup' }), 'ELEMENT_AMBIGUOUS');
    expectError(await tool('browser_click', { target: '#nothing-here' }), 'ELEMENT_NOT_FOUND');
    // The advice names this profile's tools.
    const stale = expectError(await tool('browser_click', { ref: 'e9999' }), 'ELEMENT_NOT_FOUND');
    expect(stale.message).toContain('(browser_snapshot)');
    expectError(await tool('browser_wait_for', {}), 'INVALID_PARAMETERS');
    // Read without the well-formedness check: evaluate's details carry the page's own stack on purpose.
    expectError(await callJson(server.client, 'browser_evaluate', { function: '() => { throw new Error("boom") }' }), 'BROWSER_ERROR');
    // The failures left the page usable.
    expect(expectSuccess(await tool('browser_snapshot')).title).toBe('Buttons');
  });

  it('serves create_session, and every browser_* tool takes a sessionId for parallel, isolated sessions', async () => {
    const implicit = expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/home') }));
    const first = expectSuccess(await tool('create_session')).sessionId;
    const second = expectSuccess(await tool('create_session')).sessionId;
    const [a, b] = await Promise.all([
      tool('browser_navigate', { sessionId: first, url: fixture.urlFor('/pages/form') }),
      tool('browser_navigate', { sessionId: second, url: fixture.urlFor('/pages/buttons') }),
    ]);
    expect(expectSuccess(a).title).toBe('Form');
    expect(expectSuccess(b).title).toBe('Buttons');
    expect(expectSuccess(await tool('browser_snapshot', { sessionId: first })).snapshot).toContain('textbox "Name"');
    expect(expectSuccess(await tool('browser_snapshot', { sessionId: second })).snapshot).toContain('button "Increment"');
    expect(expectSuccess(await tool('browser_snapshot')).url).toBe(implicit.url);

    const listed = expectSuccess(await tool('list_sessions')).sessions;
    expect(listed).toHaveLength(3);
    expectSuccess(await tool('browser_close', { sessionId: first }));
    expectError(await tool('browser_snapshot', { sessionId: first }), 'SESSION_NOT_FOUND', first);
    expectSuccess(await tool('close_session', { sessionId: second }));
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(1);
  });

  it('browser_close closes the implicit page; the next call opens a new, blank one', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const before = expectSuccess(await tool('list_sessions')).sessions;
    expect(before).toHaveLength(1);
    expect(expectSuccess(await tool('browser_close'))).toMatchObject({ success: true, url: 'about:blank' });
    expect(expectSuccess(await tool('list_sessions')).sessions).toHaveLength(0);
    expect(expectSuccess(await tool('browser_close')).message).toContain('No browser page');

    expect(expectSuccess(await tool('browser_snapshot')).url).toBe('about:blank');
    const after = expectSuccess(await tool('list_sessions')).sessions;
    expect(after).toHaveLength(1);
    expect(after[0].sessionId).not.toBe(before[0].sessionId);
  });

  it('replaces an implicit session that was closed by id with a new one on the next call', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/home') });
    const [only] = expectSuccess(await tool('list_sessions')).sessions;
    expectSuccess(await tool('close_session', { sessionId: only.sessionId }));
    expect(expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/form') })).title).toBe('Form');
  });
});

describe('the implicit session of each connection', () => {
  let runtime: SessionwrightServer;
  let http: HttpServerHandle;
  beforeAll(async () => {
    runtime = createServer({ headless: true, profile: 'playwright', warmSessions: 0 }, silentLogger);
    http = await startHttpServer(runtime, { port: 0, host: '127.0.0.1', allowedHosts: [], allowedOrigins: [], authToken: undefined });
  });
  afterAll(async () => {
    await http?.close();
    await runtime?.close();
  });

  it('is created lazily, once for calls that arrive together, and closed when the connection ends', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await runtime.connect(serverSide);
    const client = new Client({ name: 'implicit-test', version: '0.0.0' });
    await client.connect(clientSide);
    await client.listTools();
    expect(runtime.manager.size).toBe(0);
    const results = await Promise.all([
      call(client, 'browser_navigate', { url: fixture.urlFor('/pages/home') }),
      call(client, 'browser_snapshot'),
      call(client, 'browser_evaluate', { function: '() => 1' }),
    ]);
    for (const result of results) expectSuccess(result);
    expect(runtime.manager.size).toBe(1);
    await client.close();
    await waitFor(() => runtime.manager.size === 0, { timeout: 10_000 });
  });

  it('is its own per HTTP connection (legacy SSE at the bare URL and at /sse, Streamable HTTP), and ends with it', async () => {
    const [bare, sse, streamable] = await Promise.all([connectSse(`${http.url}`), connectSse(`${http.url}/sse`), connectStreamable(http.url)]);
    const visits = [
      { client: bare.client, path: '/pages/home', title: 'Home' },
      { client: sse.client, path: '/pages/form', title: 'Form' },
      { client: streamable.client, path: '/pages/buttons', title: 'Buttons' },
    ];
    await Promise.all(visits.map(({ client, path }) => call(client, 'browser_navigate', { url: fixture.urlFor(path) })));
    for (const { client, title } of visits) {
      expect(expectSuccess(await call(client, 'browser_snapshot')).title).toBe(title);
      expect(expectSuccess(await call(client, 'list_sessions')).sessions).toHaveLength(1);
    }
    expect(runtime.manager.size).toBe(3);
    await bare.client.close();
    await waitFor(() => runtime.manager.size === 2, { timeout: 10_000 });
    expect(expectSuccess(await call(sse.client, 'browser_snapshot')).title).toBe('Form');
    await sse.client.close();
    // A Streamable HTTP connection ends when its client deletes it.
    await streamable.transport.terminateSession();
    await streamable.client.close();
    await waitFor(() => runtime.manager.size === 0, { timeout: 10_000 });
  });
});
