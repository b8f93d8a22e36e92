// The live and devtools tools in process (where coverage sees them): request_human's outcomes with and without URL elicitation, waiting calls' progress, traces, videos, the MCP App resource.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readZip, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectInProcess, expectError, expectSuccess, type InProcessConnection } from './helpers.js';

let fixture: FixtureServer;
let outputDir: string;
let conn: InProcessConnection;

beforeAll(async () => {
  outputDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-live-tools-'));
  fixture = await startFixtureServer();
  conn = await connectInProcess(['--headless', '--caps', 'live,devtools', '--call-timeout', '8000', '--output-dir', outputDir]);
});
afterAll(async () => {
  await conn?.close();
  await fixture?.close();
  rmSync(outputDir, { recursive: true, force: true });
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

describe('traces and videos', () => {
  it('records a trace between start_trace and stop_trace, refusing a second start and a stop without a start', async () => {
    const sessionId = await session();
    expectError(await call(conn.client, 'stop_trace', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await call(conn.client, 'start_trace', { sessionId }));
    expectError(await call(conn.client, 'start_trace', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    expectSuccess(await call(conn.client, 'type', { sessionId, selector: '#name', text: 'Grace' }));
    const { trace } = expectSuccess(await call(conn.client, 'stop_trace', { sessionId }));
    const events = readZip(trace.path).get('trace.trace')?.toString('utf8') ?? '';
    expect(events).toContain('#name');
    expect(events).toContain('Grace');
    // A trace still recording is written when the session closes.
    expectSuccess(await call(conn.client, 'start_trace', { sessionId }));
    const closed = expectSuccess(await call(conn.client, 'close_session', { sessionId }));
    expect(closed.traces).toHaveLength(1);
    expect(closed.traces[0].path).toMatch(/trace-2\.zip$/);
  });

  it('keeps a video per tab with recordVideo and lists them when the session closes', async () => {
    const created = expectSuccess(await call(conn.client, 'create_session', { recordVideo: true }));
    expect(created.options).toEqual({ recordVideo: true });
    const sessionId = created.sessionId as string;
    expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }));
    expectSuccess(await call(conn.client, 'tabs', { sessionId, action: 'new', url: fixture.urlFor('/pages/form') }));
    const closed = expectSuccess(await call(conn.client, 'close_session', { sessionId }));
    expect(closed.videos).toHaveLength(2);
    for (const video of closed.videos) expect(video.bytes).toBeGreaterThan(0);
  });
});
