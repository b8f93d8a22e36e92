// Every byte a session writes counts: traces, videos and saved files share the download limits, a recording past them stops where it got and what lands on disk never passes them, video sizes and ffmpeg processes are bounded.
import { existsSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readZip, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegSlots, TraceSize } from '../src/recording-limits.js';
import { BrowserHost, SessionManager, type Session } from '../src/index.js';
import { MAX_VIDEO, checkVideoSettings } from '../src/parts.js';

const MAX_BYTES = 3_000_000;
let server: FixtureServer;
let host: BrowserHost;
let outputDir: string;
let manager: SessionManager;
beforeAll(async () => {
  server = await startFixtureServer();
  outputDir = await mkdtemp(path.join(tmpdir(), 'sessionwright-file-limits-'));
  host = new BrowserHost({ headless: true }).start();
  manager = new SessionManager({ host, outputDir, downloads: { maxBytes: MAX_BYTES, maxCount: 4 } });
});
afterAll(async () => {
  await manager.shutdown();
  await server.close();
  await rm(outputDir, { recursive: true, force: true });
});

/** Fetches `count` responses of about 1 MB each, each different (so the trace keeps each body). */
async function fetchMegabytes(session: Session, count: number): Promise<void> {
  const urls = Array.from({ length: count }, (_, index) => server.urlFor(`/download?name=part-${index}.bin&bytes=${1_000_000 + index}`));
  await manager.run(session.id, (page) =>
    page.evaluate(async (all) => Promise.all(all.map((url) => fetch(url).then((response) => response.arrayBuffer()))), urls),
  );
}

describe('the files a session writes', () => {
  it('stops a trace past the byte limit and keeps it as far as it got, saying why', async () => {
    const session = await manager.create();
    await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/home')));
    await manager.run(session.id, (_page, s) => s.recordings.startTrace());
    await fetchMegabytes(session, 6);
    await expect.poll(() => session.recordings.tracingSince, { timeout: 20_000, interval: 100 }).toBeUndefined();
    const trace = await manager.run(session.id, (_page, s) => s.recordings.stopTrace());
    expect(trace.stopped).toMatch(new RegExp(`limit of ${MAX_BYTES} bytes`));
    expect(readZip(trace.path).has('trace.trace')).toBe(true);
    // Stopped once: the next stop has nothing to stop.
    await expect(manager.run(session.id, (_page, s) => s.recordings.stopTrace())).rejects.toMatchObject({ details: { reason: 'no_trace' } });
    await manager.close(session.id);
  });

  it('cuts a saved trace to what the session may still write: on disk it never passes the byte limit', async () => {
    // 20 MB of bodies that do not compress, from a server of this test's own (16 responses of 1.25 MB): one fits.
    const random = randomBytes(1_250_000);
    const bodies: Server = createServer((request, response) => {
      if (request.url === '/') return void response.end('<title>Big</title>');
      response.end(random.subarray(Number(request.url?.slice(1) ?? 0) % 1000));
    });
    await new Promise<void>((resolve) => bodies.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(bodies.address() as { port: number }).port}`;
    const limit = 2_000_000;
    const small = new SessionManager({ host, outputDir, warmSessions: 0, downloads: { maxBytes: limit, keep: true } });
    try {
      const session = await small.create();
      await small.run(session.id, (page) => page.goto(`${origin}/`));
      await small.run(session.id, (_page, s) => s.recordings.startTrace());
      await small.run(session.id, (page) =>
        page.evaluate(async () => {
          for (let n = 1; n <= 16; n += 1) await (await fetch(`/${n}`)).arrayBuffer();
        }),
      );
      const trace = await small.run(session.id, (_page, s) => s.recordings.stopTrace());
      expect(trace.dropped).toBeUndefined();
      expect(trace.stopped).toMatch(/it was cut: \d+ of its resources .* left out, which would pass the session's limit of 2000000 bytes/);
      const onDisk = statSync(trace.path).size;
      expect(onDisk).toBe(trace.bytes);
      expect(onDisk).toBeLessThanOrEqual(limit);
      // Still a trace: its actions and network log are there, with the resources that fitted.
      const entries = readZip(trace.path);
      expect(entries.has('trace.trace')).toBe(true);
      expect(entries.has('trace.network')).toBe(true);
      expect([...entries.values()].some((entry) => entry.length > 1_000_000)).toBe(true);
      // Nothing more fits: a second trace is not written at all, and says so.
      session.downloads.countFile(limit - onDisk - 100);
      await small.run(session.id, (_page, s) => s.recordings.startTrace());
      const second = await small.run(session.id, (_page, s) => s.recordings.stopTrace());
      expect(second.dropped).toBe(true);
      expect(second.stopped).toMatch(/it was not written: it would pass the session's limit of 2000000 bytes/);
      expect(existsSync(second.path)).toBe(false);
    } finally {
      await Promise.all((await small.list()).map((info) => small.close(info.sessionId)));
      await new Promise((resolve) => bodies.close(resolve));
    }
  });

  it('counts saved files against the byte and count limits shared with everything else', async () => {
    const session = await manager.create();
    expect(() => session.downloads.countFile(MAX_BYTES + 1)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETERS', details: expect.objectContaining({ reason: 'file_limit' }) }),
    );
    for (let n = 0; n < 3; n += 1) session.downloads.countFile(10);
    await manager.run(session.id, (_page, s) => s.recordings.startTrace());
    // Four files started (three saved, one trace): the fifth of any kind is refused.
    expect(() => session.downloads.countFile(10)).toThrow(/already wrote 4 files/);
    await expect(manager.run(session.id, (_page, s) => s.recordings.startVideo(undefined))).rejects.toMatchObject({ details: { reason: 'file_limit' } });
    await manager.close(session.id);
  });

  it('refuses a video larger than 1920×1080 or faster than 30 fps', async () => {
    expect(MAX_VIDEO).toEqual({ width: 1920, height: 1080, fps: 30 });
    expect(() => checkVideoSettings({ size: { width: 1920, height: 1080 }, fps: 30 })).not.toThrow();
    for (const settings of [{ size: { width: 7680, height: 4320 } }, { size: { width: 1921, height: 100 } }, { fps: 31 }]) {
      expect(() => checkVideoSettings(settings), JSON.stringify(settings)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS' }));
    }
    const session = await manager.create();
    await expect(manager.run(session.id, (_page, s) => s.recordings.startVideo(undefined, { size: { width: 7680, height: 4320 } }))).rejects.toMatchObject({
      details: { reason: 'video_too_large' },
    });
    expect(session.recordings.recordingVideo).toBe(false);
    await manager.close(session.id);
  });

  it('stops a video past the byte limit, keeping the file as far as it got', async () => {
    // A manager of its own on the same browser (its shutdown would close the browser: its session is closed instead).
    const small = new SessionManager({ host, outputDir, warmSessions: 0, downloads: { maxBytes: 60_000, keep: true } });
    try {
      const session = await small.create();
      await small.run(session.id, (page) => page.goto(server.urlFor('/pages/home')));
      await small.run(session.id, (_page, s) => s.recordings.startVideo(undefined, { size: { width: 640, height: 480 } }));
      // A page that changes every frame, so the video grows.
      await small.run(session.id, (page) =>
        page.evaluate(() => {
          let n = 0;
          setInterval(() => {
            n += 1;
            document.body.style.background = `hsl(${(n * 37) % 360} 80% 50%)`;
            document.body.textContent = `frame ${n} ${Math.random()}`;
          }, 30);
        }),
      );
      await expect.poll(() => session.recordings.recordingVideo, { timeout: 30_000, interval: 200 }).toBe(false);
      const videos = await small.run(session.id, (_page, s) => s.recordings.stopVideo());
      expect(videos).toHaveLength(1);
      expect(videos[0]?.stopped).toMatch(/limit of 60000 bytes/);
      expect(existsSync(videos[0]?.path ?? '')).toBe(true);
      // Weighed five times a second, the encoder writes past the limit; the file placed in the folder never does.
      expect(statSync(videos[0]?.path ?? '').size).toBe(videos[0]?.bytes);
      expect(videos[0]?.bytes).toBeLessThanOrEqual(60_000);
    } finally {
      await Promise.all((await small.list()).map((info) => small.close(info.sessionId)));
    }
  });

  it('stops the video of a session created with recordVideo past the byte limit, keeping it and saying why as it closes', async () => {
    const small = new SessionManager({ host, outputDir, warmSessions: 0, downloads: { maxBytes: 60_000, keep: true } });
    try {
      const session = await small.create({ options: { recordVideo: true } });
      expect(session.recordings.recordingVideo).toBe(true);
      await small.run(session.id, (page) => page.goto(server.urlFor('/pages/home')));
      // The video tool's recording is the one running: a second is refused.
      await expect(small.run(session.id, (_page, s) => s.recordings.startVideo(undefined))).rejects.toMatchObject({ details: { reason: 'video_running' } });
      await small.run(session.id, (page) =>
        page.evaluate(() => {
          let n = 0;
          setInterval(() => {
            n += 1;
            document.body.style.background = `hsl(${(n * 37) % 360} 80% 50%)`;
            document.body.textContent = `frame ${n} ${Math.random()}`;
          }, 30);
        }),
      );
      await expect.poll(() => session.recordings.recordingVideo, { timeout: 30_000, interval: 200 }).toBe(false);
      const { videos } = await small.close(session.id);
      expect(videos).toHaveLength(1);
      expect(videos[0]?.path).toMatch(/[\\/]videos[\\/]video\.webm$/);
      expect(videos[0]?.stopped).toMatch(/limit of 60000 bytes/);
      expect(existsSync(videos[0]?.path ?? '')).toBe(true);
      expect(videos[0]?.bytes).toBeGreaterThan(0);
      expect(statSync(videos[0]?.path ?? '').size).toBe(videos[0]?.bytes);
      expect(videos[0]?.bytes).toBeLessThanOrEqual(60_000);
    } finally {
      await Promise.all((await small.list()).map((info) => small.close(info.sessionId)));
    }
  });

  it("refuses a trace and cancels a download once the identity's folder holds maxFolderBytes", async () => {
    const capped = new SessionManager({
      host,
      outputDir,
      warmSessions: 0,
      identityFolder: () => 'identity-capped',
      downloads: { maxFolderBytes: 1_000, keep: true },
    });
    try {
      const session = await capped.create({ identity: 'identity:capped' });
      await capped.run(session.id, (page) => page.goto(server.urlFor('/pages/downloads')));
      /** The record of the next download the session lists. */
      const nextDownload = async () => {
        const seen: { state: string; failure?: string }[] = [];
        await expect
          .poll(
            async () => {
              await session.downloads.settle(1_000);
              seen.push(...session.takeEvents().downloads);
              return seen.length;
            },
            { timeout: 30_000 },
          )
          .toBe(1);
        return seen[0];
      };
      // The first download fills the folder (1234 bytes); the next one is cancelled, and so is a trace.
      await capped.run(session.id, (page) => page.click('#csv'));
      expect((await nextDownload())?.state).toBe('saved');
      await capped.run(session.id, (page) => page.click('#csv'));
      const second = await nextDownload();
      expect(second).toMatchObject({ state: 'cancelled', failure: expect.stringMatching(/--output-max-size/) });
      await expect(capped.run(session.id, (_page, s) => s.recordings.startTrace())).rejects.toMatchObject({ details: { reason: 'output_full' } });
    } finally {
      await Promise.all((await capped.list()).map((info) => capped.close(info.sessionId)));
    }
  });

  it('hands out at most as many ffmpeg slots as it has', () => {
    const slots = new FfmpegSlots(2);
    expect([slots.take(), slots.take(), slots.take()]).toEqual([true, true, false]);
    slots.give();
    expect(slots.take()).toBe(true);
    expect(slots.inUse).toBe(2);
  });

  it('weighs nothing where a trace cannot be found', async () => {
    expect(await new TraceSize('sessionwright-trace-nowhere').bytes()).toBeUndefined();
  });
});
