// Sessions belong to their server process: another server started beside it neither lists nor accepts its session (every error code of each tool: packages/tools/test/error-codes.test.ts).
import type { StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, startCli } from './helpers.js';

let main: StdioConnection;
let other: StdioConnection;
let sessionId: string;

beforeAll(async () => {
  // The other server needs no browser to list sessions or to refuse one: it is given none that starts.
  [main, other] = await Promise.all([startCli(), startCli(['--executable-path', '/nonexistent/chromium'])]);
  sessionId = expectSuccess(await call(main.client, 'create_session')).sessionId as string;
});

afterAll(async () => {
  await Promise.all([main?.close(), other?.close()]);
});

describe('sessions belong to their server process', () => {
  it("another server neither lists nor accepts this server's session", async () => {
    expect(expectSuccess(await call(other.client, 'list_sessions')).sessions).toEqual([]);
    expectError(await call(other.client, 'navigate', { sessionId, url: 'about:blank' }), 'SESSION_NOT_FOUND', sessionId);
    // …while its own server still has it.
    const mine = expectSuccess(await call(main.client, 'list_sessions')).sessions;
    expect(mine.map((entry: { sessionId: string }) => entry.sessionId)).toContain(sessionId);
  });
});
