// The call ceiling in process (runTool over a real SessionManager with --call-timeout's ceiling, Chromium and the fixture server): an endless script, a hung navigation and a type of hours never hold a session.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const CALL_TIMEOUT = 5_000;
// As a server started with --max-sessions 20 --call-timeout 5000.
const server = useTools({ maxSessions: 20, manager: { callTimeout: CALL_TIMEOUT } });

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
const call = (name: string, args: Record<string, unknown>) => server.checkedCall(name, args);

/** The session's next call (a navigation to the form) must answer at once: well under the time the stuck call would hold it. */
async function expectFreeAtOnce(sessionId: string): Promise<void> {
  const started = Date.now();
  expect(expectSuccess(await call('navigate', { sessionId, url: server.fixture().urlFor('/pages/form') })).title).toBe('Form');
  expect(Date.now() - started).toBeLessThan(8_000);
}

describe('--call-timeout', () => {
  it('ends an endless page script with call_timeout, says the page was replaced, and serves the next call at once', async () => {
    const sessionId = await server.sessionOn('home');
    const started = Date.now();
    const json = expectError(await call('evaluate', { sessionId, function: '() => { while (true) {} }', timeout: 300_000 }), 'BROWSER_ERROR', sessionId);
    expect(json.details).toMatchObject({ reason: 'call_timeout', timeout: CALL_TIMEOUT, pageReplaced: true });
    expect(json.message).toMatch(/replaced/);
    // The tools layer words what to do next, naming this profile's tool.
    expect(json.message).toMatch(/navigate/);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expectFreeAtOnce(sessionId);
  });

  it("applies evaluate's own shorter timeout the same way", async () => {
    const sessionId = await server.sessionOn('home');
    const json = expectError(await call('evaluate', { sessionId, function: '() => { while (true) {} }', timeout: 1_000 }), 'BROWSER_ERROR', sessionId);
    expect(json.details).toMatchObject({ reason: 'call_timeout', timeout: 1_000, pageReplaced: true });
    await expectFreeAtOnce(sessionId);
  });

  it('ends a hung navigation with call_timeout by stopping it; the page is kept', async () => {
    const sessionId = await server.sessionOn('home');
    const json = expectError(await call('navigate', { sessionId, url: server.fixture().urlFor('/hang'), timeout: 120_000 }), 'BROWSER_ERROR', sessionId);
    expect(json.details).toMatchObject({ reason: 'call_timeout', pageReplaced: false });
    await expectFreeAtOnce(sessionId);
  });

  it('bounds a type whose delay × length would take hours', async () => {
    const sessionId = await server.sessionOn('form');
    const json = expectError(await call('type', { sessionId, selector: '#name', text: 'x'.repeat(20_000), delay: 1_000 }), 'BROWSER_ERROR', sessionId);
    expect(json.details).toMatchObject({ reason: 'call_timeout' });
    await expectFreeAtOnce(sessionId);
  });
});
