// A 2025 connection's question to its user crosses the relay: request_human on a session another replica holds asks the client through the replica it reached, and the answer gets back to the holder (real redis-server, HAProxy, Chromium and @modelcontextprotocol/client).
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernCall } from './modern-helpers.js';
import { ALICE, startFleet, type Fleet, type Replica } from './fleet-helpers.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
let fixture: FixtureServer;
let fleet: Fleet;
const alice = { token: ALICE };
const auth = { Authorization: `Bearer ${ALICE}` };

beforeAll(async () => {
  if (!parts) return;
  fixture = await startFixtureServer();
  // A call waits at most 20 s behind a person who holds its session: a hand-over that is never ended fails the call.
  fleet = await startFleet(2, ['--caps', 'live', '--call-timeout', '20000']);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
});

/** The two replicas: `reached` (the client's), `holder` (the session's). */
function replicas(): { reached: Replica; holder: Replica } {
  const [reached, holder] = fleet.replicas;
  if (!reached || !holder) throw new Error('two replicas expected');
  return { reached, holder };
}

/** A session created at the holder, on a page with a title. */
async function sessionAtHolder(): Promise<string> {
  const { holder } = replicas();
  const sessionId = (await modernCall(holder.base, 'create_session', {}, alice)).json.sessionId as string;
  expect(sessionId).toBeTypeOf('string');
  const navigated = await modernCall(holder.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }, alice);
  expect(navigated.json.title).toBe('Form');
  return sessionId;
}

/** A 2025 client (the SDK's default era) of the replica the client reached, over Streamable HTTP or legacy SSE. */
async function connect(transport: 'streamable' | 'sse', capabilities: Record<string, unknown>): Promise<Client> {
  const { reached } = replicas();
  const client = new Client({ name: 'fleet-rounds', version: '0.0.0' }, { capabilities });
  await client.connect(
    transport === 'streamable'
      ? new StreamableHTTPClientTransport(new URL(`${reached.base}/mcp`), { requestInit: { headers: auth } })
      : new SSEClientTransport(new URL(`${reached.base}/sse`), { requestInit: { headers: auth } }),
  );
  expect(client.getProtocolEra()).toBe('legacy');
  return client;
}

async function json(client: Client, name: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}) {
  const result = await client.callTool({ name, arguments: args }, options);
  const first = (result.content as { type: string; text?: string }[])[0];
  expect(result.isError, first?.text).toBeFalsy();
  return JSON.parse(first?.text ?? 'null');
}

describe.skipIf(!parts)('request_human from a 2025 connection on a session another replica holds', () => {
  it('asks the client by URL elicitation through the replica it reached, and answers once the person gives control back', async () => {
    const sessionId = await sessionAtHolder();
    const { holder } = replicas();
    const asked: { mode?: string; url?: string; elicitationId?: string }[] = [];
    const completed: string[] = [];
    const client = await connect('streamable', { elicitation: { url: {} } });
    const executable = resolveExecutable({ browser: 'chromium', headless: true });
    const browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
    try {
      const view = await browser.newPage();
      client.setRequestHandler('elicitation/create', async (request) => {
        const params = request.params as { mode?: string; url?: string; elicitationId?: string };
        asked.push(params);
        await view.goto(params.url ?? 'about:blank');
        return { action: 'accept' };
      });
      client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
        completed.push((notification.params as { elicitationId: string }).elicitationId);
      });
      const answering = json(client, 'request_human', { sessionId, message: 'Have a look, then give control back.' });
      // The person has the page: the link came through the replica the client reached, and shows the holder's session.
      await view.getByRole('button', { name: 'Give back control' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => view.locator('#title').textContent(), { timeout: 20_000 }).toBe('Form');
      await view.getByRole('button', { name: 'Give back control' }).click();
      const answer = await answering;
      expect(answer).toMatchObject({ outcome: 'returned', returnedBy: 'live_page', title: 'Form', url: fixture.urlFor('/pages/form') });
      expect(asked).toHaveLength(1);
      expect(asked[0]?.mode).toBe('url');
      expect(asked[0]?.url).toBe(answer.liveUrl);
      // The person is done: the client hears so for the one elicitation it was asked.
      await expect.poll(() => completed, { timeout: 10_000 }).toEqual([asked[0]?.elicitationId]);
      // The session stayed with its holder, and is the agent's again.
      const listed = await json(client, 'list_sessions', {});
      const entry = listed.sessions.find((session: { sessionId: string }) => session.sessionId === sessionId);
      expect(entry?.replica).toBe(new URL(holder.base).host);
      expect((await json(client, 'evaluate', { sessionId, function: '() => 6 * 7' })).result).toBe(42);
      expect((await json(client, 'close_session', { sessionId })).success).toBe(true);
    } finally {
      await browser.close();
      await client.close();
    }
  }, 120_000);

  it('over legacy SSE: a decline gets back to the holder, which takes control back at once', async () => {
    const sessionId = await sessionAtHolder();
    const asked: string[] = [];
    const client = await connect('sse', { elicitation: { url: {} } });
    try {
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push((request.params as { url?: string }).url ?? '');
        return { action: 'decline' };
      });
      for (let round = 0; round < 2; round += 1) {
        const declined = await json(client, 'request_human', { sessionId, message: 'Solve the puzzle.' });
        expect(declined.outcome).toBe('declined');
        expect(asked[round]).toBe(declined.liveUrl);
        // Control came back with the decline: the next call runs at once rather than behind the person.
        expect((await json(client, 'evaluate', { sessionId, function: '() => document.title' })).result).toBe('Form');
      }
      expect((await json(client, 'close_session', { sessionId })).success).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('a call cancelled while its client is asked gives the session back to the agent', async () => {
    const sessionId = await sessionAtHolder();
    let asked = 0;
    const client = await connect('streamable', { elicitation: { url: {} } });
    try {
      // The client asks its user and never hears back.
      client.setRequestHandler('elicitation/create', () => {
        asked += 1;
        return new Promise(() => {});
      });
      const stop = new AbortController();
      const cancelled = client.callTool({ name: 'request_human', arguments: { sessionId, message: 'Nobody answers.' } }, { signal: stop.signal });
      await expect.poll(() => asked, { timeout: 30_000 }).toBe(1);
      stop.abort();
      await expect(cancelled).rejects.toThrow();
      // Without the cancellation reaching the holder, the person would keep control and this call would run out of time.
      expect((await json(client, 'evaluate', { sessionId, function: '() => document.title' })).result).toBe('Form');
      expect((await json(client, 'close_session', { sessionId })).success).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('a client that cannot open links gets the link in the result, as from the holder itself', async () => {
    const sessionId = await sessionAtHolder();
    const client = await connect('streamable', {});
    try {
      const shown = await json(client, 'request_human', { sessionId, message: 'Have a look.', timeout: 1_000 });
      expect(shown.outcome).toBe('show_link');
      expect(shown.liveUrl).toMatch(new RegExp(`^${replicas().reached.base}/live/`));
      expect((await json(client, 'close_session', { sessionId })).success).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);
});
