// Live views over HTTP with client identities: links on the server's own listener, another identity refused, the page checked for its host and origin.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableV2 } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resolveExecutable } from '@sessionwright/session-core/parts';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess } from './helpers.js';
import { connectStreamable, rawRequest, startHttpCli, type HttpCli } from './http-helpers.js';
import { modernRequest } from './modern-helpers.js';

const ALICE = 'alice-token-5c1e9a';
const BOB = 'bob-token-0d8f42';

let dir: string;
let server: HttpCli;
let fixture: FixtureServer;
let browser: Browser;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-live-http-'));
  const tokensFile = path.join(dir, 'tokens');
  writeFileSync(tokensFile, `alice ${ALICE}\nbob ${BOB}\n`);
  fixture = await startFixtureServer();
  server = await startHttpCli(['--auth-tokens-file', tokensFile, '--caps', 'live']);
  alice = (await connectStreamable(server.base, { Authorization: `Bearer ${ALICE}` })).client;
  bob = (await connectStreamable(server.base, { Authorization: `Bearer ${BOB}` })).client;
  const executable = resolveExecutable({ browser: 'chromium', headless: true });
  browser = await chromium.launch({ headless: true, ...(executable.executablePath ? { executablePath: executable.executablePath } : {}) });
});
afterAll(async () => {
  await browser?.close();
  await alice?.close().catch(() => {});
  await bob?.close().catch(() => {});
  await server?.stop();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('live views over HTTP with identities', () => {
  it("serves the link on the server's own listener without a bearer token, and keeps another identity out", async () => {
    const sessionId = expectSuccess(await call(alice, 'create_session')).sessionId as string;
    expectSuccess(await call(alice, 'navigate', { sessionId, url: fixture.urlFor('/pages/form') }));
    const { url } = expectSuccess(await call(alice, 'live_view', { sessionId }));
    expect(url.startsWith(`${server.base}/live/`)).toBe(true);

    // Bob cannot get a link to, or hand over, a session that is not his: as for an unknown id.
    expectError(await call(bob, 'live_view', { sessionId }), 'SESSION_NOT_FOUND', sessionId);
    expectError(await call(bob, 'request_human', { sessionId, message: 'let me in' }), 'SESSION_NOT_FOUND', sessionId);

    // A person's browser opens the link as it is (no Authorization header) and sees the session.
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => page.locator('#title').textContent(), { timeout: 10_000 }).toBe('Form');
    await page.close();

    // Without the token the MCP endpoint still refuses; a wrong live token shows nothing.
    expect((await rawRequest(server.base, { method: 'POST', body: '{}' })).status).toBe(401);
    const wrong = await rawRequest(server.base, { method: 'GET', path: new URL(url).pathname.replace(/[\w-]{43}\/$/, `${'z'.repeat(43)}/`) });
    expect(wrong.status).toBe(403);
    expect(wrong.body).not.toContain('<canvas');
    // A Host header that names another site (DNS rebinding) is refused before anything else.
    const rebound = await rawRequest(server.base, { method: 'GET', path: new URL(url).pathname, headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(403);
    // The page opens from a link on any site, but only the page itself may drive it: another site's page is refused
    // its frames and its Take control, token or not.
    const elsewhere = { Origin: new URL(fixture.urlFor('/')).origin, 'Sec-Fetch-Site': 'cross-site' };
    const pathname = new URL(url).pathname;
    expect((await rawRequest(server.base, { method: 'GET', path: `${pathname}events`, headers: elsewhere })).status).toBe(403);
    const taken = await rawRequest(server.base, {
      method: 'POST',
      path: `${pathname}control`,
      headers: { ...elsewhere, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'take' }),
    });
    expect(taken.status).toBe(403);
    expectSuccess(await call(alice, 'close_session', { sessionId }));
  });

  it("caps one identity's live pages below the server's, so another identity's first page still opens", async () => {
    const streams: AbortController[] = [];
    /** Opens a live page's stream as the page does; its status (the stream stays open until aborted). */
    const open = async (url: string) => {
      const stop = new AbortController();
      streams.push(stop);
      return (await fetch(`${url}events`, { signal: stop.signal })).status;
    };
    try {
      const sessions: string[] = [];
      for (let i = 0; i < 3; i += 1) sessions.push(expectSuccess(await call(alice, 'create_session')).sessionId as string);
      const links: string[] = [];
      for (const sessionId of sessions) links.push(expectSuccess(await call(alice, 'live_view', { sessionId })).url as string);
      const opened: number[] = [];
      for (const url of links.slice(0, 2)) for (let i = 0; i < 8; i += 1) opened.push(await open(url));
      expect(opened.every((status) => status === 200)).toBe(true);
      // Alice's share is taken: her next page waits; Bob's first opens.
      expect(await open(links[2] ?? '')).toBe(429);
      const bobs = expectSuccess(await call(bob, 'create_session')).sessionId as string;
      expect(await open(expectSuccess(await call(bob, 'live_view', { sessionId: bobs })).url as string)).toBe(200);
      for (const stop of streams) stop.abort();
      for (const sessionId of sessions) expectSuccess(await call(alice, 'close_session', { sessionId }));
      expectSuccess(await call(bob, 'close_session', { sessionId: bobs }));
    } finally {
      for (const stop of streams) stop.abort();
    }
  });
});

describe('request_human for a 2026-07-28 client', () => {
  /** A v2 SDK client that negotiates 2026-07-28 as alice; with `answer`, it declares URL-mode elicitation and answers each one so. */
  async function modernClient(answer?: (url: string) => 'accept' | 'decline') {
    const client = new ClientV2(
      { name: 'live-modern', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' }, ...(answer === undefined ? {} : { capabilities: { elicitation: { url: {} } } }) },
    );
    const asked: { url: string; message: string }[] = [];
    if (answer !== undefined) {
      client.setRequestHandler('elicitation/create', (request) => {
        const params = request.params as { url?: string; message: string };
        asked.push({ url: params.url ?? '', message: params.message });
        return { action: answer(params.url ?? '') };
      });
    }
    await client.connect(new StreamableV2(new URL(`${server.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${ALICE}` } } }));
    expect(client.getProtocolEra()).toBe('modern');
    await client.listTools();
    const json = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      const first = (result.content as { type: string; text?: string }[])[0];
      expect(result.isError, first?.text).toBeFalsy();
      return JSON.parse(first?.text ?? 'null');
    };
    return { client, asked, json };
  }

  it("asks with the revision's input_required result, and answers when the person gives control back", async () => {
    const { client, asked, json } = await modernClient(() => 'accept');
    try {
      const { sessionId } = await json('create_session', {});
      await json('navigate', { sessionId, url: fixture.urlFor('/pages/form') });
      const answered = json('request_human', { sessionId, message: 'Fill in the form for me.' });
      // The client got the link in its retry round (no server-sent request exists in this era) and said yes.
      await expect.poll(() => asked.length, { timeout: 10_000 }).toBe(1);
      expect(asked[0]?.message).toContain('Fill in the form for me.');
      const view = await browser.newPage();
      await view.goto(asked[0]?.url ?? '');
      await view.getByRole('button', { name: 'Give back control' }).click();
      const result = await answered;
      expect(result).toMatchObject({ outcome: 'returned', liveUrl: asked[0]?.url, title: 'Form', url: fixture.urlFor('/pages/form') });
      await view.close();
      await json('close_session', { sessionId });
    } finally {
      await client.close();
    }
  });

  it('takes control back when the user declines, and answers with the link for a client that cannot open one', async () => {
    const declining = await modernClient(() => 'decline');
    const plain = await modernClient();
    try {
      const { sessionId } = await declining.json('create_session', {});
      const declined = await declining.json('request_human', { sessionId, message: 'Solve the puzzle.' });
      expect(declined.outcome).toBe('declined');
      // The session is the agent's again at once.
      expect((await declining.json('evaluate', { sessionId, function: '() => 6 * 7' })).result).toBe(42);

      const { sessionId: other } = await plain.json('create_session', {});
      const shown = await plain.json('request_human', { sessionId: other, message: 'Have a look.', timeout: 1_000 });
      expect(shown.outcome).toBe('show_link');
      expect(shown.liveUrl.startsWith(`${server.base}/live/`)).toBe(true);
      await declining.json('close_session', { sessionId });
      await plain.json('close_session', { sessionId: other });
    } finally {
      await declining.client.close();
      await plain.client.close();
    }
  });

  it('refuses a retry whose requestState no call waits under', async () => {
    // A retry as the revision shapes it, by hand: the original arguments, the answers, and the state echoed back.
    const answer = await modernRequest(
      server.base,
      'tools/call',
      {
        name: 'request_human',
        arguments: { sessionId: '00000000-0000-4000-8000-000000000000', message: 'x' },
        inputResponses: { open_url: { action: 'accept' } },
        requestState: 'not-a-waiting-call',
      },
      { token: ALICE },
    );
    expect(answer.response.result.isError).toBe(true);
    expect(answer.json.errorCode).toBe('INVALID_PARAMETERS');
  });
});
