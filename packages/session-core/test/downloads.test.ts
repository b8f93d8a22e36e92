// Download limits: an endless attachment and a burst of files are cancelled past the session's bounds, and a closed session's files go with it.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost, SessionManager, type Session } from '../src/index.js';
import { DEFAULT_DOWNLOAD_LIMITS } from '../src/parts.js';
import type { DownloadRecord } from '../src/downloads.js';

const MAX_BYTES = 50 * 1024 ** 2;
let server: FixtureServer;
let host: BrowserHost;
let outputDir: string;
let keptDir: string;
let manager: SessionManager;
let keeping: SessionManager;
beforeAll(async () => {
  server = await startFixtureServer();
  outputDir = await mkdtemp(path.join(tmpdir(), 'sessionwright-limits-'));
  keptDir = await mkdtemp(path.join(tmpdir(), 'sessionwright-kept-'));
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host, outputDir, downloads: { maxBytes: MAX_BYTES, maxCount: 5 } });
  keeping = new SessionManager({ host, outputDir: keptDir, downloads: { keep: true } });
});
afterAll(async () => {
  await keeping.shutdown();
  await manager.shutdown();
  await server.close();
  await rm(outputDir, { recursive: true, force: true });
  await rm(keptDir, { recursive: true, force: true });
});

async function onDownloads(on: SessionManager): Promise<Session> {
  const session = await on.create();
  await on.run(session.id, (page) => page.goto(server.urlFor('/pages/downloads')));
  return session;
}

/** The session's download records, once `count` have been listed. */
async function downloadsOf(session: Session, count: number): Promise<DownloadRecord[]> {
  const seen: DownloadRecord[] = [];
  await expect
    .poll(
      async () => {
        await session.downloads.settle(1_000);
        seen.push(...session.takeEvents().downloads);
        return seen.length;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBeGreaterThanOrEqual(count);
  return seen;
}

describe('download limits', () => {
  it('has documented defaults: 1 GiB and 100 files a session, files removed with the session', () => {
    expect(DEFAULT_DOWNLOAD_LIMITS).toEqual({ maxBytes: 1024 ** 3, maxCount: 100, keep: false });
  });

  it('cancels an endless attachment once it passes the byte limit, keeping nothing of it on disk', async () => {
    const session = await onDownloads(manager);
    await manager.run(session.id, (page) => page.click('#endless'));
    const [endless] = await downloadsOf(session, 1);
    expect(endless).toMatchObject({ suggestedFilename: 'endless.bin', state: 'cancelled', path: '', bytes: 0 });
    expect(endless?.failure).toMatch(new RegExp(`limit of ${MAX_BYTES} bytes`));
    // Nothing of it stays, in the session's folder or as the browser's partial file.
    for (const folder of await readdir(outputDir)) expect(await readdir(path.join(outputDir, folder))).toEqual([]);
    // What was cancelled does not count: the session can go on downloading.
    await manager.run(session.id, (page) => page.click('#csv'));
    expect(await downloadsOf(session, 1)).toEqual([expect.objectContaining({ state: 'saved', bytes: 1234 })]);
    await manager.close(session.id);
  });

  it('cancels the files past the count limit and lists each with why', async () => {
    const session = await onDownloads(manager);
    await manager.run(session.id, (page) => page.click('#eight'));
    const records = await downloadsOf(session, 8);
    expect(records.filter((record) => record.state === 'saved')).toHaveLength(5);
    const cancelled = records.filter((record) => record.state === 'cancelled');
    expect(cancelled).toHaveLength(3);
    for (const record of cancelled) expect(record.failure).toMatch(/already wrote 5 files/);
    await manager.close(session.id);
  });

  it("removes a closed session's folder, unless its files are to be kept; folder names never carry the session id", async () => {
    const removed = await onDownloads(manager);
    const kept = await onDownloads(keeping);
    for (const [on, session] of [
      [manager, removed],
      [keeping, kept],
    ] as const) {
      await on.run(session.id, (page) => page.click('#csv'));
    }
    const [removedFile] = await downloadsOf(removed, 1);
    const [keptFile] = await downloadsOf(kept, 1);
    for (const [file, session] of [
      [removedFile, removed],
      [keptFile, kept],
    ] as const) {
      expect(file?.state).toBe('saved');
      expect(path.basename(path.dirname(file?.path ?? ''))).toMatch(/^session-[0-9a-f]{16}$/);
      expect(file?.path).not.toContain(session.id.slice(0, 8));
    }
    await manager.close(removed.id);
    await keeping.close(kept.id);
    expect(existsSync(removedFile?.path ?? '')).toBe(false);
    expect(existsSync(path.dirname(removedFile?.path ?? ''))).toBe(false);
    expect(existsSync(keptFile?.path ?? '')).toBe(true);
  });

  it("keeps each identity's sessions in the identity's folder, and a session's downloads and traces in its one folder, gone with it", async () => {
    const ownDir = await mkdtemp(path.join(tmpdir(), 'sessionwright-identities-'));
    const owned = new SessionManager({ host, outputDir: ownDir, identityFolder: (identity) => (identity === 'identity:alice' ? 'identity-a11ce' : '') });
    try {
      const alice = await owned.create({ identity: 'identity:alice' });
      const local = await owned.create({ identity: 'connection:1' });
      await owned.run(alice.id, (page) => page.goto(server.urlFor('/pages/downloads')));
      await owned.run(alice.id, (page) => page.click('#csv'));
      const [file] = await downloadsOf(alice, 1);
      const folder = path.dirname(file?.path ?? '');
      expect(path.dirname(folder)).toBe(path.join(ownDir, 'identity-a11ce'));
      await owned.run(alice.id, (_page, s) => s.recordings.startTrace());
      const trace = await owned.run(alice.id, (_page, s) => s.recordings.stopTrace());
      expect(path.dirname(trace.path)).toBe(folder);
      await owned.run(local.id, (_page, s) => s.recordings.startTrace());
      const localTrace = await owned.run(local.id, (_page, s) => s.recordings.stopTrace());
      expect(path.dirname(path.dirname(localTrace.path))).toBe(ownDir);
      await owned.run(alice.id, (_page, s) => s.recordings.startTrace());
      const closed = await owned.close(alice.id);
      expect(closed.traces).toEqual([expect.objectContaining({ removed: true })]);
      expect(existsSync(folder)).toBe(false);
    } finally {
      await owned.shutdown();
      await rm(ownDir, { recursive: true, force: true });
    }
  });
});
