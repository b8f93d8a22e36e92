// Cancellation end to end: a slow type cancelled through the SDK and create_session calls the client gives up on never hold a session (what --call-timeout's ceiling does to each call: packages/tools/test/call-ceiling.test.ts).
import { waitFor } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectSuccess, expectWellFormed, useServerWithFixture } from './helpers.js';

const CALL_TIMEOUT = 5_000;
const server = useServerWithFixture(['--max-sessions', '20', '--call-timeout', String(CALL_TIMEOUT)]);

// On a loaded machine the browser's launch can outlast the call limit, and a create_session that waits for it then ends
// with call_timeout as it should (the launch goes on). The tests below are about other calls: they start once it is up.
beforeAll(async () => {
  for (let attempt = 1; ; attempt++) {
    const created = await server.call('create_session');
    if (!created.isError) return void (await server.call('close_session', { sessionId: created.json.sessionId }));
    expect(created.json.details, JSON.stringify(created.json)).toMatchObject({ reason: 'call_timeout' });
    expect(attempt).toBeLessThan(10);
  }
}, 120_000);

/** Calls a tool through the result-shape checks (every BROWSER_ERROR has a reason from the closed set). */
async function call(name: string, args: Record<string, unknown>) {
  const outcome = await server.call(name, args);
  expectWellFormed(outcome, args);
  return outcome;
}

/** The session's next call (a navigation to the form) must answer at once: well under the time the stuck call would hold it. */
async function expectFreeAtOnce(sessionId: string): Promise<void> {
  const started = Date.now();
  expect(expectSuccess(await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/form') })).title).toBe('Form');
  expect(Date.now() - started).toBeLessThan(8_000);
}

describe('a call the client cancels', () => {
  it('a slow type cancelled through the SDK frees the session at once', async () => {
    // The typing page reports each input with a beacon: the first means the keys are reaching the field.
    const sessionId = await server.sessionOn('typing');
    const client = server.connection().client;
    const controller = new AbortController();
    const posted = server.fixture().posts.length;
    const typing = client.callTool({ name: 'type', arguments: { sessionId, selector: '#field', text: 'y'.repeat(5_000), delay: 1_000 } }, undefined, {
      signal: controller.signal,
      timeout: 600_000,
    });
    await waitFor(
      () =>
        server
          .fixture()
          .posts.slice(posted)
          .some((post) => post.body === 'input field'),
      { timeout: 10_000 },
    );
    controller.abort('changed my mind');
    await expect(typing).rejects.toThrow();
    await expectFreeAtOnce(sessionId);
  });
});

describe('a create_session the client gives up on', () => {
  const noPool = useServerWithFixture(['--max-sessions', '20', '--warm-sessions', '0']);

  it('leaves no session behind, whether it was waiting for its turn or already opening', async () => {
    const client = noPool.connection().client;
    const browser = await noPool.connection().server.host.browser();
    const opens = vi.spyOn(browser, 'newContext');
    // Twelve at once: eight start opening, four wait for a turn; the client gives up on all of them after 5 ms.
    const creations = Array.from({ length: 12 }, () => client.callTool({ name: 'create_session', arguments: {} }, undefined, { timeout: 5 }));
    for (const creation of creations) await expect(creation).rejects.toThrow(/timed out/i);
    // Contexts that open after the cancellation are closed, not kept as sessions nobody can name: every open the
    // creations started lands, and then the browser holds no context.
    await Promise.allSettled(opens.mock.results.map((result) => result.value));
    opens.mockRestore();
    await waitFor(() => browser.contexts().length === 0, { timeout: 10_000 });
    const listed = expectSuccess(await noPool.call('list_sessions'));
    expect(listed.sessions).toEqual([]);
    // The manager's count came back down: a full complement of sessions can still be opened.
    const ids = await Promise.all(Array.from({ length: 20 }, () => noPool.createSession()));
    expect(new Set(ids).size).toBe(20);
  });
});
