// One server with --data-dir and no store: a restarted server restores its sessions at their next call, signed in and on their URL (docs/deploy.md#a-fleet).
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHttpCli } from './http-helpers.js';
import { modernCall } from './modern-helpers.js';

let fixture: FixtureServer;
let dataDir: string;
beforeAll(async () => {
  fixture = await startFixtureServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'sw-restart-'));
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("restores a SIGKILLed server's session after a restart with the same --data-dir, and one stopped with SIGTERM too", async () => {
  const flags = ['--data-dir', dataDir, '--state-key', 'restart-test-state-key-0123456789'];
  const first = await startHttpCli(flags);
  const sessionId = (await modernCall(first.base, 'create_session')).json.sessionId as string;
  await modernCall(first.base, 'navigate', { sessionId, url: fixture.urlFor('/sign-in?user=ada') });
  expect((await modernCall(first.base, 'navigate', { sessionId, url: fixture.urlFor('/account') })).json.title).toBe('Account');
  // A checkpoint follows the call within about two seconds.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  // Sealed: no cookie value or URL in the clear on disk.
  const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  // A temporary file listed a moment ago may have been renamed since (checkpoints are written while the server runs).
  const contents = await Promise.all(
    files.map((entry) =>
      readFile(path.join(entry.parentPath, entry.name), 'latin1').catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? '' : Promise.reject(error),
      ),
    ),
  );
  expect(contents.some((text) => text.includes('/account') || text.includes('ada'))).toBe(false);
  first.process.kill('SIGKILL');
  await first.exited;

  const second = await startHttpCli(flags);
  try {
    const restored = await modernCall(second.base, 'snapshot', { sessionId });
    expect(restored.response.result.isError, JSON.stringify(restored.json)).toBeFalsy();
    expect(restored.json.restored).toMatchObject({ at: expect.any(Number), lost: expect.any(Array) });
    expect(restored.json.url).toBe(fixture.urlFor('/account'));
    expect(JSON.stringify(restored.json)).toContain('Signed in as ada');
    expect((await modernCall(second.base, 'snapshot', { sessionId })).json.restored).toBeUndefined();
    // An id never issued is still unknown.
    expect((await modernCall(second.base, 'snapshot', { sessionId: '00000000-0000-4000-8000-000000000000' })).json.errorCode).toBe('SESSION_NOT_FOUND');
  } finally {
    await second.stop();
  }
  // SIGTERM takes a final checkpoint of each session first.
  const third = await startHttpCli(flags);
  try {
    const again = await modernCall(third.base, 'snapshot', { sessionId });
    expect(again.json.restored).toMatchObject({ at: expect.any(Number) });
    expect(JSON.stringify(again.json)).toContain('Signed in as ada');
    expect((await modernCall(third.base, 'close_session', { sessionId })).json.success).toBe(true);
  } finally {
    await third.stop();
  }
  const fourth = await startHttpCli(flags);
  try {
    // Closed by its caller: nothing brings it back.
    expect((await modernCall(fourth.base, 'snapshot', { sessionId })).json.errorCode).toBe('SESSION_NOT_FOUND');
  } finally {
    await fourth.stop();
  }
}, 180_000);
