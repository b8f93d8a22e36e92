// Three replicas on one Redis behind HAProxy in round robin behave as one server (docs/deploy.md#a-fleet): real redis-server, HAProxy, Chromium and clients of both eras.
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableV2 } from '@modelcontextprotocol/client';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSuccess } from './helpers.js';
import { connectStreamable } from './http-helpers.js';
import { modernCall } from './modern-helpers.js';
import { ALICE, BOB, startFleet, type Fleet } from './fleet-helpers.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
let fixture: FixtureServer;
let fleet: Fleet;

beforeAll(async () => {
  if (!parts) return;
  fixture = await startFixtureServer();
  fleet = await startFleet(3, ['--max-sessions', '3', '--max-sessions-per-client', '4', '--caps', 'live,states']);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
});

const alice = { token: ALICE };
const bob = { token: BOB };

describe.skipIf(!parts)('a fleet of three replicas on Redis behind HAProxy', () => {
  it('creates a session through the balancer and acts on it through every replica, in both eras', async () => {
    const created = await modernCall(fleet.balancer.url, 'create_session', {}, alice);
    const sessionId = created.json.sessionId as string;
    expect(sessionId).toBeTypeOf('string');
    const pages = ['/pages/home', '/pages/form', '/pages/home'];
    for (const [index, replica] of fleet.replicas.entries()) {
      const url = fixture.urlFor(pages[index] ?? '/pages/home');
      const answer = await modernCall(replica.base, 'navigate', { sessionId, url }, alice);
      expect(answer.response.result.isError, JSON.stringify(answer.json)).toBeFalsy();
      expect(answer.json.url).toBe(url);
    }
    // A 2025 connection drives the session wherever it is: opened at one replica, or through the balancer, whose
    // round robin sends the connection's requests to every replica (they are relayed to the one that holds it).
    for (const base of [...fleet.replicas.map((replica) => replica.base), fleet.balancer.url]) {
      const { client } = await connectStreamable(base, { Authorization: `Bearer ${ALICE}` });
      try {
        const typed = expectSuccess(await call(client, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
        expect(typed.title).toBe('Form');
        const listed = expectSuccess(await call(client, 'list_sessions'));
        const entry = listed.sessions.find((session: { sessionId: string }) => session.sessionId === sessionId);
        expect(entry?.replica).toMatch(/^127\.0\.0\.1:\d+$/);
        expect(JSON.stringify(listed)).not.toContain('fleet-test-store-key');
        // Several requests of the one connection, spread over the replicas by the balancer.
        for (let index = 0; index < 3; index += 1) expect(expectSuccess(await call(client, 'snapshot', { sessionId })).title).toBe('Form');
      } finally {
        await client.close();
      }
    }
    // Another identity's id is unknown on every replica, word for word.
    for (const replica of fleet.replicas) {
      const refused = await modernCall(replica.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, bob);
      expect(refused.response.result.isError).toBe(true);
      expect(refused.json.errorCode).toBe('SESSION_NOT_FOUND');
    }
    expect((await modernCall(fleet.balancer.url, 'close_session', { sessionId }, alice)).json.success).toBe(true);
    for (const replica of fleet.replicas) {
      const gone = await modernCall(replica.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, alice);
      expect(['SESSION_NOT_FOUND', 'SESSION_EXPIRED']).toContain(gone.json.errorCode);
    }
  }, 120_000);

  it("gives a live view's link for a session held by another replica, and the link opens", async () => {
    const [first, second] = fleet.replicas;
    if (!first || !second) throw new Error('no replicas');
    const sessionId = (await modernCall(first.base, 'create_session', {}, alice)).json.sessionId as string;
    await modernCall(first.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, alice);
    const link = await modernCall(second.base, 'live_view', { sessionId }, alice);
    expect(link.response.result.isError, JSON.stringify(link.json)).toBeFalsy();
    const page = await fetch(link.json.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    expect((await modernCall(second.base, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 60_000);

  it('a live view asked for through the balancer works through it and through every replica: frames, control taken and given back', async () => {
    const sessionId = (await modernCall(fleet.balancer.url, 'create_session', {}, alice)).json.sessionId as string;
    await modernCall(fleet.balancer.url, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, alice);
    const link = await modernCall(fleet.balancer.url, 'live_view', { sessionId }, alice);
    expect(link.response.result.isError, JSON.stringify(link.json)).toBeFalsy();
    const url = link.json.url as string;
    // On the address the client reached, not on the replica that holds the session.
    expect(url.startsWith(`${fleet.balancer.url}/live/`), url).toBe(true);
    const { pathname } = new URL(url);
    // Only one replica issued the link; each serves its page and its stream's frames (the others relay them).
    for (const replica of fleet.replicas) {
      const page = await fetch(`${replica.base}${pathname}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<canvas');
      expect(await firstEvent(`${replica.base}${pathname}events`, 'frame')).toBe(true);
    }
    // A wrong secret is refused wherever it arrives; a made-up token is unknown everywhere.
    const [id, secret = ''] = pathname.split('/').slice(2);
    for (const replica of fleet.replicas) {
      expect((await fetch(`${replica.base}/live/${id}/${secret.slice(0, -2)}xx/`)).status).toBe(403);
      expect((await fetch(`${replica.base}/live/AAAAAAAAAAAA/${secret}/`)).status).toBe(404);
    }
    // A 2025 connection through the balancer gets its link on the balancer too.
    const { client } = await connectStreamable(fleet.balancer.url, { Authorization: `Bearer ${ALICE}` });
    try {
      expect(expectSuccess(await call(client, 'live_view', { sessionId })).url).toMatch(new RegExp(`^${fleet.balancer.url}/live/`));
    } finally {
      await client.close();
    }
    // A person opens the link in a browser: the balancer spreads the page, its stream and its POSTs over the replicas.
    const executable = resolveExecutable({ browser: 'chromium', headless: true });
    const browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
    try {
      const view = await browser.newPage();
      await view.goto(url);
      const frames = async () => Number(await view.locator('#view').getAttribute('data-frames'));
      await expect.poll(frames, { timeout: 20_000 }).toBeGreaterThan(0);
      await view.getByRole('button', { name: 'Take control' }).click();
      await view.getByRole('button', { name: 'Give back control' }).waitFor({ timeout: 20_000 });
      // While the person holds it, the agent's call waits; it runs once they give control back.
      let navigated = false;
      const agent = modernCall(fleet.balancer.url, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }, alice).then((answer) => {
        navigated = true;
        return answer;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(navigated).toBe(false);
      await view.getByRole('button', { name: 'Give back control' }).click();
      const answer = await agent;
      expect(answer.response.result.isError, JSON.stringify(answer.json)).toBeFalsy();
      expect(answer.json.title).toBe('Form');
      await view.getByRole('button', { name: 'Take control' }).waitFor({ timeout: 20_000 });
      await expect.poll(() => view.locator('#title').textContent(), { timeout: 20_000 }).toBe('Form');
    } finally {
      await browser.close();
    }
    expect((await modernCall(fleet.balancer.url, 'close_session', { sessionId }, alice)).json.success).toBe(true);
  }, 120_000);

  it("the SDK's 2026-07-28 client drives sessions through the balancer as through one server", async () => {
    const transport = new StreamableV2(new URL(`${fleet.balancer.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ALICE}` } } });
    const client = new ClientV2({ name: 'fleet-test-v2', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await client.listTools();
      const text = async (name: string, args: Record<string, unknown> = {}) => {
        const result = await client.callTool({ name, arguments: args });
        const first = (result.content as { type: string; text?: string }[])[0];
        expect(result.isError, first?.text).toBeFalsy();
        return JSON.parse(first?.text ?? 'null');
      };
      const ids = [(await text('create_session')).sessionId, (await text('create_session')).sessionId] as string[];
      // Six calls each: the balancer spreads them over all three replicas.
      for (let round = 0; round < 3; round += 1) {
        for (const sessionId of ids) {
          expect((await text('navigate', { sessionId, url: fixture.urlFor('/pages/form') })).title).toBe('Form');
          expect((await text('type', { sessionId, selector: '#name', text: `round ${round}` })).value).toBe(`round ${round}`);
        }
      }
      const listed = await text('list_sessions');
      for (const sessionId of ids) expect(listed.sessions.some((session: { sessionId: string }) => session.sessionId === sessionId)).toBe(true);
      for (const sessionId of ids) expect((await text('close_session', { sessionId })).success).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it("relays a 2026-07-28 request_human and its client's retry to the replica that holds the session", async () => {
    const asked: string[] = [];
    const client = new ClientV2(
      { name: 'fleet-human', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { url?: string }).url ?? '');
      return { action: 'decline' };
    });
    await client.connect(new StreamableV2(new URL(`${fleet.balancer.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ALICE}` } } }));
    try {
      await client.listTools();
      const json = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        const first = (result.content as { type: string; text?: string }[])[0];
        expect(result.isError, first?.text).toBeFalsy();
        return JSON.parse(first?.text ?? 'null');
      };
      // Created at one replica; the question and its retry go through the balancer, to whichever replica it picks.
      const sessionId = (await modernCall(fleet.replicas[0]!.base, 'create_session', {}, alice)).json.sessionId as string;
      for (let round = 0; round < 3; round += 1) {
        const declined = await json('request_human', { sessionId, message: 'Solve the puzzle.' });
        expect(declined.outcome).toBe('declined');
      }
      expect(asked).toHaveLength(3);
      expect((await json('close_session', { sessionId })).success).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('counts --max-sessions-per-client across replicas and places a create at a full replica on one with room', async () => {
    const [first] = fleet.replicas;
    if (!first) throw new Error('no replica');
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const created = await modernCall(first.base, 'create_session', {}, bob);
      expect(created.response.result.isError, JSON.stringify(created.json)).toBeFalsy();
      ids.push(created.json.sessionId);
    }
    const refused = await modernCall(fleet.replicas[1]!.base, 'create_session', {}, bob);
    expect(refused.json.errorCode).toBe('MAX_SESSIONS_REACHED');
    expect(refused.json.details.scope).toBe('client');
    const listed = (await modernCall(fleet.replicas[2]!.base, 'list_sessions', {}, bob)).json;
    expect(listed.sessions.map((session: { sessionId: string }) => session.sessionId).sort()).toEqual([...ids].sort());
    // The first replica holds three (its --max-sessions); the fourth went to another.
    const replicas = new Set(listed.sessions.map((session: { replica: string }) => session.replica));
    expect(replicas.size).toBeGreaterThan(1);
    for (const sessionId of ids) expect((await modernCall(fleet.balancer.url, 'close_session', { sessionId }, bob)).json.success).toBe(true);
  }, 120_000);

  it("counts fork_session's copies against --max-sessions-per-client across replicas, all or none", async () => {
    const [first, second] = fleet.replicas;
    if (!first || !second) throw new Error('no replicas');
    const source = (await modernCall(first.base, 'create_session', {}, bob)).json.sessionId as string;
    await modernCall(first.base, 'navigate', { sessionId: source, url: fixture.urlFor('/pages/home') }, bob);
    const other = (await modernCall(second.base, 'create_session', {}, bob)).json.sessionId as string;
    // Bob holds two of his four: three copies do not fit, and none is opened.
    const refused = await modernCall(fleet.balancer.url, 'fork_session', { sessionId: source, count: 3 }, bob);
    expect(refused.response.result.isError, JSON.stringify(refused.json)).toBe(true);
    expect(refused.json.errorCode).toBe('MAX_SESSIONS_REACHED');
    expect(refused.json.details.scope).toBe('client');
    const count = async () => (await modernCall(fleet.balancer.url, 'list_sessions', {}, bob)).json.sessions.length as number;
    expect(await count()).toBe(2);
    // Two copies fit; then the fleet holds his four, and a create anywhere is refused.
    const forked = await modernCall(fleet.balancer.url, 'fork_session', { sessionId: source, count: 2 }, bob);
    expect(forked.response.result.isError, JSON.stringify(forked.json)).toBeFalsy();
    const copies = (forked.json.sessions as { sessionId: string }[]).map((copy) => copy.sessionId);
    expect(copies).toHaveLength(2);
    expect(await count()).toBe(4);
    for (const replica of fleet.replicas) expect((await modernCall(replica.base, 'create_session', {}, bob)).json.errorCode).toBe('MAX_SESSIONS_REACHED');
    expect((await modernCall(fleet.balancer.url, 'fork_session', { sessionId: source }, bob)).json.errorCode).toBe('MAX_SESSIONS_REACHED');
    for (const sessionId of [source, other, ...copies])
      expect((await modernCall(fleet.balancer.url, 'close_session', { sessionId }, bob)).json.success).toBe(true);
  }, 120_000);
});

/** Whether the event stream at `url` sends an event named `name` within 20 seconds. */
async function firstEvent(url: string, name: string): Promise<boolean> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 20_000);
  try {
    const response = await fetch(url, { signal: stop.signal });
    if (response.status !== 200 || response.body === null) return false;
    const decoder = new TextDecoder();
    let text = '';
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
      if (text.includes(`event: ${name}\n`)) return true;
    }
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}
