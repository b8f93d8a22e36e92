// The live tools in process, over the server's live views (where coverage sees them): request_human's outcomes with and without URL elicitation, waiting calls' progress, the MCP App's tools and resource (traces and videos: packages/tools/test/devtools.test.ts).
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_APPS_CLIENT, call, connectInProcess, expectError, expectSuccess, isUuidV4, type InProcessConnection } from './helpers.js';

let fixture: FixtureServer;
let conn: InProcessConnection;

beforeAll(async () => {
  fixture = await startFixtureServer();
  // A host that renders MCP Apps: the app's own tools answer it.
  conn = await connectInProcess(['--headless', '--caps', 'live', '--call-timeout', '8000'], {
    capabilities: MCP_APPS_CLIENT,
  });
});
afterAll(async () => {
  await conn?.close();
  await fixture?.close();
});

async function session(page = '/pages/home'): Promise<string> {
  const sessionId = expectSuccess(await call(conn.client, 'create_session')).sessionId as string;
  expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor(page) }));
  return sessionId;
}

/** A live page as a person's browser would open it, without the browser: its stream and its POSTs. */
async function viewer(url: string) {
  const origin = new URL(url).origin;
  const stream = await fetch(`${url}events`);
  const reader = stream.body?.getReader();
  let seen = '';
  const until = async (text: string) => {
    while (!seen.includes(text)) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) throw new Error(`the stream ended before "${text}"`);
      seen += new TextDecoder().decode(chunk.value);
    }
  };
  await until('"viewer"');
  const id = /"viewer":"([^"]+)"/.exec(seen)?.[1] ?? '';
  const post = (route: string, body: unknown) =>
    fetch(`${url}${route}`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json', 'X-Live-Viewer': id },
      body: JSON.stringify(body),
    });
  return { until, post, close: () => reader?.cancel() };
}

/** A call that reports progress; resolves its JSON when it ends. */
function progressing(name: string, args: Record<string, unknown>) {
  const progress: string[] = [];
  const done = conn.client.callTool({ name, arguments: args }, undefined, { onprogress: (update) => progress.push(update.message ?? '') }).then((result) => {
    const first = (result as CallToolResult).content[0];
    return JSON.parse(first?.type === 'text' ? first.text : 'null');
  });
  return { progress, done };
}

describe('request_human without URL elicitation', () => {
  it("answers show_link at once; the agent's next call waits with progress until the person gives control back", async () => {
    const sessionId = await session('/pages/buttons');
    const asked = expectSuccess(await call(conn.client, 'request_human', { sessionId, message: 'Have a look.' }));
    expect(asked).toMatchObject({ outcome: 'show_link', title: 'Buttons', url: fixture.urlFor('/pages/buttons') });
    expect(asked.message).toContain('liveUrl');
    const person = await viewer(asked.liveUrl as string);
    await person.until('"by":"agent"');
    const agent = progressing('evaluate', { sessionId, function: '() => document.title' });
    await expect.poll(() => agent.progress.length).toBeGreaterThan(0);
    expect(agent.progress[0]).toMatch(/a person has control/);
    // Someone else already has the session: a second hand-over is refused.
    expectError(await call(conn.client, 'request_human', { sessionId, message: 'Again.' }), 'INVALID_PARAMETERS', sessionId);
    expect((await person.post('control', { action: 'give_back' })).status).toBe(200);
    expect((await agent.done).result).toBe('Buttons');
    await person.close();
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });
});

describe('request_human with URL elicitation', () => {
  let client: InProcessConnection;
  const answers: ('accept' | 'decline')[] = [];
  const asked: { url: string; message: string }[] = [];
  beforeAll(async () => {
    client = await connectInProcess(['--headless', '--caps', 'live'], { capabilities: { elicitation: { url: {} } } });
    client.client.setRequestHandler(ElicitRequestSchema, (request) => {
      const params = request.params as { url?: string; message: string };
      asked.push({ url: params.url ?? '', message: params.message });
      return { action: answers.shift() ?? 'accept' };
    });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('takes control back when the user declines to open the link', async () => {
    const sessionId = expectSuccess(await call(client.client, 'create_session')).sessionId as string;
    answers.push('decline');
    const answer = expectSuccess(await call(client.client, 'request_human', { sessionId, message: 'Sign in for me.' }));
    expect(answer.outcome).toBe('declined');
    expect(asked.at(-1)?.message).toContain('Sign in for me.');
    expect(asked.at(-1)?.url).toBe(answer.liveUrl);
    // The session is the agent's again at once.
    expect(expectSuccess(await call(client.client, 'evaluate', { sessionId, function: '() => 1 + 1' })).result).toBe(2);
    expectSuccess(await call(client.client, 'close_session', { sessionId }));
  });

  it('answers returned once the person gives control back, and timeout when nobody opened the link', async () => {
    const sessionId = expectSuccess(await call(client.client, 'create_session')).sessionId as string;
    answers.push('accept');
    const before = asked.length;
    const asking = call(client.client, 'request_human', { sessionId, message: 'Go on.' });
    await expect.poll(() => asked.length).toBe(before + 1);
    const person = await viewer(asked.at(-1)?.url ?? '');
    await person.until('"state":"held"');
    expect((await person.post('control', { action: 'give_back' })).status).toBe(200);
    expect(expectSuccess(await asking).outcome).toBe('returned');
    await person.close();

    answers.push('accept');
    expect(expectSuccess(await call(client.client, 'request_human', { sessionId, message: 'Nobody.', timeout: 1_000 })).outcome).toBe('timeout');
    expectSuccess(await call(client.client, 'close_session', { sessionId }));
  });
});

describe('live_view', () => {
  it('answers a link that serves the live page, and refuses an unknown session', async () => {
    const sessionId = await session();
    const link = expectSuccess(await call(conn.client, 'live_view', { sessionId }));
    const page = await fetch(link.url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('Take control');
    expectError(await call(conn.client, 'live_view', { sessionId: 'nope' }), 'SESSION_NOT_FOUND', 'nope');
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });

  it('lists and serves its MCP App resource', async () => {
    const { resources } = await conn.client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'ui://sessionwright/live-view.html', mimeType: 'text/html;profile=mcp-app' })]);
    const read = await conn.client.readResource({ uri: 'ui://sessionwright/live-view.html' });
    expect((read.contents[0] as { text: string }).text).toContain('ui/initialize');
    await expect(conn.client.readResource({ uri: 'ui://sessionwright/other.html' })).rejects.toThrow(/Resource not found/);
  });
});

/** A live_view_frame call: its JSON and whether an image came after it. */
async function frameCall(args: Record<string, unknown>) {
  const result = (await conn.client.callTool({ name: 'live_view_frame', arguments: args })) as CallToolResult;
  const first = result.content[0];
  const data = JSON.parse(first?.type === 'text' ? first.text : 'null');
  const image = result.content.find((part) => part.type === 'image') as { data: string; mimeType: string } | undefined;
  const size = JSON.stringify(result).length;
  return { result, data, image, size };
}

describe("the MCP App's tools", () => {
  it('are listed for the app only, with the live view resource', async () => {
    const { tools } = await conn.client.listTools();
    for (const name of ['live_view_frame', 'live_view_control', 'live_view_input']) {
      const tool = tools.find((candidate) => candidate.name === name);
      expect(tool?._meta).toMatchObject({ ui: { resourceUri: 'ui://sessionwright/live-view.html', visibility: ['app'] } });
    }
    // live_view itself stays visible to the model.
    expect(tools.find((tool) => tool.name === 'live_view')?._meta).toEqual(
      expect.objectContaining({ ui: { resourceUri: 'ui://sessionwright/live-view.html' } }),
    );
  });

  it('answer frames with a cursor, only when they changed, small enough for a host', async () => {
    const sessionId = await session('/pages/home');
    const first = await frameCall({ sessionId });
    expect(first.data).toMatchObject({ url: fixture.urlFor('/pages/home'), control: { state: 'free', mine: false } });
    expect(isUuidV4(first.data.viewer), String(first.data.viewer)).toBe(true);
    let latest = first;
    // The first picture and the title may come a moment after the screencast starts.
    for (let i = 0; i < 20 && (latest.image === undefined || latest.data.title !== 'Home'); i++) {
      latest = await frameCall({ sessionId, viewer: first.data.viewer, cursor: latest.image === undefined ? latest.data.cursor : undefined });
    }
    expect(latest.data.title).toBe('Home');
    expect(latest.image?.mimeType).toBe('image/jpeg');
    expect(latest.data.changed).toBe(true);
    expect(Math.max(latest.data.width, latest.data.height)).toBeLessThanOrEqual(1280);
    expect(latest.size).toBeLessThan(100_000);
    // Nothing changed: no picture, after the call waited a moment for one.
    const started = Date.now();
    const same = await frameCall({ sessionId, viewer: first.data.viewer, cursor: latest.data.cursor });
    expect(same.image).toBeUndefined();
    expect(same.data).toMatchObject({ changed: false, cursor: latest.data.cursor });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    // The agent navigates: the next frame shows it.
    expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/buttons') }));
    await expect.poll(async () => (await frameCall({ sessionId, viewer: first.data.viewer })).data.title, { timeout: 10_000 }).toBe('Buttons');
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
    expectError(await call(conn.client, 'live_view_frame', { sessionId, viewer: first.data.viewer }), 'SESSION_NOT_FOUND', sessionId);
  });

  it("take control, send a person's click, and give it back, while the agent's call waits", async () => {
    const sessionId = await session('/pages/buttons');
    const { data } = await frameCall({ sessionId });
    const viewerId = data.viewer as string;
    expectError(
      await call(conn.client, 'live_view_input', { sessionId, viewer: viewerId, events: [{ kind: 'text', text: 'x' }] }),
      'INVALID_PARAMETERS',
      sessionId,
    );
    const taken = expectSuccess(await call(conn.client, 'live_view_control', { sessionId, viewer: viewerId, action: 'take' }));
    expect(taken.control).toMatchObject({ mine: true, by: 'person' });
    await expect.poll(async () => (await frameCall({ sessionId, viewer: viewerId })).data.control.state).toBe('held');
    const agent = progressing('evaluate', { sessionId, function: '() => document.title' });
    await expect.poll(() => agent.progress.length).toBeGreaterThan(0);
    // Another viewer can neither take control nor act.
    const other = (await frameCall({ sessionId })).data.viewer as string;
    expectError(await call(conn.client, 'live_view_control', { sessionId, viewer: other, action: 'take' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await call(conn.client, 'live_view_control', { sessionId, viewer: other, action: 'give_back' }), 'INVALID_PARAMETERS', sessionId);
    const sent = expectSuccess(
      await call(conn.client, 'live_view_input', {
        sessionId,
        viewer: viewerId,
        events: [
          { kind: 'mouse', type: 'move', x: 0.1, y: 0.1, button: 'none' },
          { kind: 'wheel', x: 0.1, y: 0.1, deltaX: 0, deltaY: 0 },
          { kind: 'key', type: 'down', key: 'Shift', code: 'ShiftLeft' },
          { kind: 'key', type: 'up', key: 'Shift', code: 'ShiftLeft' },
        ],
      }),
    );
    expect(sent).toEqual({ delivered: 4, failed: 0 });
    expectError(await call(conn.client, 'live_view_input', { sessionId, viewer: viewerId, events: [] }), 'INVALID_PARAMETERS', sessionId);
    expectError(await call(conn.client, 'live_view_control', { sessionId, viewer: 'gone', action: 'take' }), 'INVALID_PARAMETERS', sessionId);
    const back = expectSuccess(await call(conn.client, 'live_view_control', { sessionId, viewer: viewerId, action: 'give_back' }));
    expect(back.control).toMatchObject({ state: 'free' });
    expect((await agent.done).result).toBe('Buttons');
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });

  it('let the app give back a session the agent handed over with request_human', async () => {
    const sessionId = await session('/pages/buttons');
    expect(expectSuccess(await call(conn.client, 'request_human', { sessionId, message: 'Solve it.' })).outcome).toBe('show_link');
    const { data } = await frameCall({ sessionId });
    expect(data.control).toMatchObject({ by: 'agent', mine: true, message: 'Solve it.' });
    const agent = progressing('evaluate', { sessionId, function: '() => document.title' });
    await expect.poll(() => agent.progress.length).toBeGreaterThan(0);
    expectSuccess(await call(conn.client, 'live_view_control', { sessionId, viewer: data.viewer, action: 'give_back' }));
    expect((await agent.done).result).toBe('Buttons');
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });

  it('drop a viewer that stops calling after 10 s, and give back the control it held', async () => {
    const sessionId = await session('/pages/buttons');
    const viewerId = (await frameCall({ sessionId })).data.viewer as string;
    expectSuccess(await call(conn.client, 'live_view_control', { sessionId, viewer: viewerId, action: 'take' }));
    const started = Date.now();
    // No call from that app: after its 10 s the viewer is gone and control is free (another viewer sees it).
    const other = (await frameCall({ sessionId })).data.viewer as string;
    expect((await frameCall({ sessionId, viewer: other })).data.control).toMatchObject({ state: 'held', mine: false });
    await expect.poll(async () => (await frameCall({ sessionId, viewer: other })).data.control.state, { timeout: 25_000 }).toBe('free');
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    expect(expectSuccess(await call(conn.client, 'evaluate', { sessionId, function: '() => document.title' })).result).toBe('Buttons');
    const gone = expectError(await call(conn.client, 'live_view_control', { sessionId, viewer: viewerId, action: 'take' }), 'INVALID_PARAMETERS', sessionId);
    expect(gone.details.reason).toBe('viewer_gone');
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  }, 40_000);

  it('refuse a viewer past the per-session limit', async () => {
    const sessionId = await session();
    const viewers: string[] = [];
    for (let i = 0; i < 8; i++) viewers.push((await frameCall({ sessionId })).data.viewer as string);
    const refused = expectError(await call(conn.client, 'live_view_frame', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expect(refused.details.reason).toBe('too_many_viewers');
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });
});

describe('tools meant for a person stay with the person', () => {
  let agent: InProcessConnection;
  let host: InProcessConnection;
  const links: string[] = [];
  beforeAll(async () => {
    // A client that can open links for its user but runs no MCP Apps (a model's client), and a host that runs them.
    agent = await connectInProcess(['--headless', '--caps', 'live'], { capabilities: { elicitation: { url: {} } } });
    host = await connectInProcess(['--headless', '--caps', 'live'], { capabilities: { ...MCP_APPS_CLIENT, elicitation: { url: {} } } });
    for (const client of [agent, host]) {
      client.client.setRequestHandler(ElicitRequestSchema, (request) => {
        links.push((request.params as { url?: string }).url ?? '');
        return { action: 'accept' };
      });
    }
  });
  afterAll(async () => {
    await agent?.close();
    await host?.close();
  });

  it("refuses the app's tools to a client without MCP Apps, leaving the page and the person's control as they were", async () => {
    const sessionId = expectSuccess(await call(agent.client, 'create_session')).sessionId as string;
    expectSuccess(await call(agent.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    const before = links.length;
    const asking = call(agent.client, 'request_human', { sessionId, message: 'Fill in your name.' });
    await expect.poll(() => links.length).toBe(before + 1);
    const person = await viewer(links.at(-1) ?? '');
    await person.until('"state":"held"');
    // The model's client can neither watch as the app, nor type as the person, nor hand the control back.
    const attempts = [
      call(agent.client, 'live_view_frame', { sessionId }),
      call(agent.client, 'live_view_control', { sessionId, viewer: 'any', action: 'give_back' }),
      call(agent.client, 'live_view_input', { sessionId, viewer: 'any', events: [{ kind: 'text', text: 'typed by a model' }] }),
    ];
    for (const attempt of attempts) {
      const refused = expectError(await attempt, 'INVALID_PARAMETERS', sessionId);
      expect(refused.details.reason).toBe('app_only');
      expect(refused.message).toMatch(/live view app/);
    }
    // The person still has control: request_human is still waiting for them.
    let answered = false;
    void asking.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    expect((await person.post('control', { action: 'give_back' })).status).toBe(200);
    const back = expectSuccess(await asking);
    expect(back).toMatchObject({ outcome: 'returned', returnedBy: 'live_page' });
    expect(back.message).toMatch(/live page's Give back control button/);
    await person.close();
    // Nothing reached the page.
    expect(expectSuccess(await call(agent.client, 'evaluate', { sessionId, function: "() => document.querySelector('#name').value" })).result).toBe('');
    expectSuccess(await call(agent.client, 'close_session', { sessionId }));
  });

  it("answers a client that runs MCP Apps, and request_human says the control came back through the app's tool", async () => {
    const sessionId = expectSuccess(await call(host.client, 'create_session')).sessionId as string;
    const before = links.length;
    const asking = call(host.client, 'request_human', { sessionId, message: 'Have a look.' });
    await expect.poll(() => links.length).toBe(before + 1);
    const frame = expectSuccess(await call(host.client, 'live_view_frame', { sessionId }));
    await expect.poll(async () => expectSuccess(await call(host.client, 'live_view_frame', { sessionId, viewer: frame.viewer })).control.state).toBe('held');
    const given = expectSuccess(await call(host.client, 'live_view_control', { sessionId, viewer: frame.viewer, action: 'give_back' }));
    expect(given).toMatchObject({ control: { state: 'free' }, returnedBy: 'live_view_app' });
    const back = expectSuccess(await asking);
    expect(back).toMatchObject({ outcome: 'returned', returnedBy: 'live_view_app' });
    expect(back.message).not.toMatch(/person/i);
    // Giving back what nobody holds says nothing was given back.
    expect(expectSuccess(await call(host.client, 'live_view_control', { sessionId, viewer: frame.viewer, action: 'give_back' })).returnedBy).toBeUndefined();
    expectSuccess(await call(host.client, 'close_session', { sessionId }));
  });
});
