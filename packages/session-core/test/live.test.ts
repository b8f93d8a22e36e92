// Watching a session and handing it over: the screencast follows the current tab, a person's control waits in the queue and acts on the page, traces and videos are written.
import { readFileSync } from 'node:fs';
import { readZip, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { BrowserHost, SessionManager, type Session } from '../src/index.js';
import type { ControlLease } from '../src/parts.js';
import type { ScreencastFrame, TabState } from '../src/screencast.js';
import { registryFfmpegPath } from '../src/playwright-internals.js';
import { systemFfmpeg } from '../src/video.js';
import { rejectionOf } from './session-errors.js';

const CALL_TIMEOUT = 4_000;
let host: BrowserHost;
let manager: SessionManager;
let server: FixtureServer;

/** A page whose top half is one big button: a click at (0.5, 0.25) of the view lands on it. */
const COUNTER_PAGE = `<!doctype html><html><head><title>Counter</title><style>
  html, body { margin: 0; height: 100%; }
  #inc { position: fixed; left: 0; top: 0; width: 100vw; height: 50vh; font-size: 40px; }
  #field { position: fixed; left: 10px; top: 60vh; width: 300px; font-size: 20px; }
</style></head><body>
<button id="inc" onclick="this.textContent = String(Number(this.textContent) + 1)">0</button>
<input id="field">
</body></html>`;

beforeAll(async () => {
  server = await startFixtureServer({ pages: { counter: COUNTER_PAGE } });
  host = new BrowserHost({ headless: true }).start();
  // The recordings are read after their session closed: kept.
  manager = new SessionManager({ host, callTimeout: CALL_TIMEOUT, downloads: { keep: true } });
  await host.browser();
});
afterAll(async () => {
  await manager.shutdown();
  await server.close();
});

/** Collects what a screencast sends, and waits for what a test expects of it. */
function watch(session: Session) {
  const frames: ScreencastFrame[] = [];
  const tabs: TabState[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const stop = session.control.screencast.watch({
    frame(frame) {
      frames.push(frame);
      wake();
    },
    tab(state) {
      tabs.push(state);
      wake();
    },
  });
  // A hang guard sized for a loaded two-core machine, where a new tab's first frame and title can take seconds.
  const until = async (condition: () => boolean, what: string, ms = 30_000): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { frames, tabs, stop, until };
}

async function held(session: Session): Promise<ControlLease> {
  const lease = session.control.take();
  await lease.acquired;
  return lease;
}

describe('the screencast', () => {
  it('sends JPEG frames of the current tab, a new one when the agent navigates, with its URL and title, and follows a new tab', async () => {
    const session = await manager.create();
    const view = watch(session);
    await view.until(() => view.frames.length > 0, 'the first frame');
    const first = view.frames[0] as ScreencastFrame;
    expect(first.jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(first.viewport.width).toBeGreaterThan(0);
    const before = view.frames.length;
    await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/form')));
    await view.until(() => view.frames.length > before && view.tabs.some((tab) => tab.title === 'Form'), 'a frame and the title of the form');
    expect(view.tabs.at(-1)?.url).toBe(server.urlFor('/pages/form'));
    // A tab opened by the session becomes current: the screencast follows it.
    await manager.run(session.id, async (_page, s) => {
      const tab = await s.newTab();
      await tab.goto(server.urlFor('/pages/home'));
    });
    await view.until(() => view.tabs.at(-1)?.title === 'Home', 'the new tab');
    view.stop();
    expect(session.control.screencast.watching).toBe(0);
    await manager.close(session.id);
  });
});

/** A JPEG's size in pixels, from its start-of-frame marker. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let at = 2;
  while (at + 9 < jpeg.length) {
    const marker = jpeg.readUInt16BE(at);
    if (marker >= 0xffc0 && marker <= 0xffc3) return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  throw new Error('no start-of-frame marker');
}

describe('the screencast size', () => {
  it('runs at the smallest size a watcher asks for, and at the default again once that watcher leaves', async () => {
    const session = await manager.create();
    await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/form')));
    const big = watch(session);
    await big.until(() => big.frames.length > 0, 'a default frame');
    expect(Math.max(...Object.values(jpegSize(big.frames.at(-1)?.jpeg as Buffer)))).toBeGreaterThan(320);
    const small: Buffer[] = [];
    const stopSmall = session.control.screencast.watch({ frame: (frame) => small.push(frame.jpeg) }, { maxSide: 320, quality: 40 });
    // Frames keep coming while the page changes: a script moves a box, so the restarted cast sends new ones.
    await manager.run(session.id, (page) =>
      page.evaluate(() => {
        const box = document.createElement('div');
        box.style.cssText = 'position:fixed;left:0;top:0;width:40px;height:40px;background:red';
        document.body.append(box);
        let x = 0;
        setInterval(() => {
          x = (x + 7) % 300;
          box.style.left = `${x}px`;
        }, 50);
      }),
    );
    await expect.poll(() => small.some((jpeg) => Math.max(...Object.values(jpegSize(jpeg))) <= 320), { timeout: 10_000 }).toBe(true);
    stopSmall();
    const count = big.frames.length;
    await big.until(
      () => big.frames.length > count + 2 && Math.max(...Object.values(jpegSize(big.frames.at(-1)?.jpeg as Buffer))) > 320,
      'default frames again',
    );
    big.stop();
    await manager.close(session.id);
  });
});

describe("a person's control", () => {
  it('acts on the page with mouse and keys while calls wait behind it, then lets them run', async () => {
    const session = await manager.create();
    await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/counter')));
    const view = watch(session);
    await view.until(() => view.frames.length > 0, 'a frame');
    const lease = await held(session);
    expect(lease.state).toBe('held');
    await lease.input({ kind: 'mouse', type: 'down', x: 0.5, y: 0.25 });
    await lease.input({ kind: 'mouse', type: 'up', x: 0.5, y: 0.25 });
    // Into the field, then typed keys and a paste.
    await lease.input({ kind: 'mouse', type: 'down', x: 0.1, y: 0.62 });
    await lease.input({ kind: 'mouse', type: 'up', x: 0.1, y: 0.62 });
    for (const key of ['h', 'i']) {
      await lease.input({ kind: 'key', type: 'down', key, code: `Key${key.toUpperCase()}`, keyCode: key.toUpperCase().charCodeAt(0) });
      await lease.input({ kind: 'key', type: 'up', key, code: `Key${key.toUpperCase()}`, keyCode: key.toUpperCase().charCodeAt(0) });
    }
    await lease.input({ kind: 'key', type: 'down', key: 'Backspace', code: 'Backspace', keyCode: 8 });
    await lease.input({ kind: 'key', type: 'up', key: 'Backspace', code: 'Backspace', keyCode: 8 });
    await lease.input({ kind: 'text', text: '!?' });

    let waitedFor: ControlLease | undefined;
    let ran = false;
    const call = manager.run(
      session.id,
      async (page) => {
        ran = true;
        return { count: await page.textContent('#inc'), field: await page.inputValue('#field') };
      },
      { onWaitForPerson: (person) => (waitedFor = person) },
    );
    expect(waitedFor).toBe(lease);
    // The call is queued behind the person: it has not run while they hold control.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ran).toBe(false);
    lease.release();
    await expect(call).resolves.toEqual({ count: '1', field: 'h!?' });
    expect(session.control.lease).toBeUndefined();
    view.stop();
    await manager.close(session.id);
  });

  it('waits for a running call before the person gets the session', async () => {
    const session = await manager.create();
    let finish!: () => void;
    const running = manager.run(session.id, () => new Promise<void>((resolve) => (finish = resolve)));
    const lease = session.control.take();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lease.state).toBe('waiting');
    await expect(lease.input({ kind: 'text', text: 'x' })).rejects.toThrow(/waiting/);
    finish();
    await running;
    await lease.acquired;
    expect(lease.state).toBe('held');
    expect(() => session.control.take()).toThrow(/already has control/);
    lease.release();
    await manager.close(session.id);
  });

  it('still ends a waiting call at the call timeout, with reason call_timeout, and leaves the session usable', async () => {
    const session = await manager.create();
    const lease = await held(session);
    const started = Date.now();
    const error = await rejectionOf(manager.run(session.id, async () => 'never'));
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.details).toMatchObject({ reason: 'call_timeout', timeout: CALL_TIMEOUT, waitedFor: 'person', pageReplaced: false });
    expect(error.sessionId).toBe(session.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CALL_TIMEOUT - 50);
    lease.release();
    await expect(manager.run(session.id, async () => 'ran')).resolves.toBe('ran');
    await manager.close(session.id);
  });

  it('ends with the session: control is given back and onEnd is told', async () => {
    const session = await manager.create();
    const lease = await held(session);
    let ended = false;
    session.onEnd(() => {
      ended = true;
    });
    await manager.close(session.id);
    expect(ended).toBe(true);
    expect(lease.state).toBe('released');
    expect(() => session.control.take()).toThrow(/ended/);
  });
});

describe('traces and videos', () => {
  it("writes a trace of the session's actions, with snapshots and network, and lists it", async () => {
    const session = await manager.create();
    await manager.run(session.id, (_page, s) => s.recordings.startTrace());
    await expect(manager.run(session.id, (_page, s) => s.recordings.startTrace())).rejects.toMatchObject({ details: { reason: 'trace_running' } });
    await manager.run(session.id, async (page) => {
      await page.goto(server.urlFor('/pages/buttons'));
      await page.click('#inc');
    });
    const trace = await manager.run(session.id, (_page, s) => s.recordings.stopTrace());
    expect(trace.path).toMatch(/trace-1\.zip$/);
    expect(trace.bytes).toBeGreaterThan(0);
    const entries = readZip(trace.path);
    const events = (entries.get('trace.trace') ?? Buffer.alloc(0)).toString('utf8');
    expect(events).toContain('"method":"goto"');
    expect(events).toContain('"method":"click"');
    expect(events).toContain('#inc');
    expect(events).toContain('"type":"frame-snapshot"');
    expect((entries.get('trace.network') ?? Buffer.alloc(0)).toString('utf8')).toContain('/pages/buttons');
    // Screenshots of the page over time, which the trace viewer's film strip shows.
    expect([...entries.keys()].some((name) => name.startsWith('screencast/') && name.endsWith('.jpeg'))).toBe(true);
    await expect(manager.run(session.id, (_page, s) => s.recordings.stopTrace())).rejects.toMatchObject({ details: { reason: 'no_trace' } });
    await manager.close(session.id);
  });

  it('saves a trace still recording when the session closes', async () => {
    const session = await manager.create();
    await manager.run(session.id, (_page, s) => s.recordings.startTrace());
    await manager.run(session.id, (page) => page.goto(server.urlFor('/pages/home')));
    const files = await manager.close(session.id);
    expect(files.traces).toHaveLength(1);
    expect(
      readZip(files.traces[0]?.path ?? '')
        .get('trace.trace')
        ?.toString('utf8'),
    ).toContain('"method":"goto"');
  });

  it('records a .webm video per tab with recordVideo, listed when the session closes', async () => {
    const session = await manager.create({ options: { recordVideo: true } });
    expect(session.options.recordVideo).toBe(true);
    // Watched live while recording: both get the page's pictures.
    const view = watch(session);
    await manager.run(session.id, async (page) => {
      await page.goto(server.urlFor('/pages/buttons'));
      await page.click('#inc');
    });
    await view.until(() => view.tabs.some((tab) => tab.title === 'Buttons') && view.frames.length > 0, 'frames while recording');
    view.stop();
    const files = await manager.close(session.id);
    expect(files.videos).toHaveLength(1);
    const video = files.videos[0] as { path: string; bytes: number };
    expect(video.path).toMatch(/\.webm$/);
    expect(video.bytes).toBeGreaterThan(1_000);
    const head = readFileSync(video.path).subarray(0, 64);
    // An EBML file whose document type is webm.
    expect(head.readUInt32BE(0)).toBe(0x1a45dfa3);
    expect(head.toString('latin1')).toContain('webm');
  });

  it("keeps the video of a tab closed while the session records, beside the open tab's", async () => {
    const session = await manager.create({ options: { recordVideo: true } });
    await manager.run(session.id, async (page) => {
      await page.goto(server.urlFor('/pages/home'));
      const popup = await page.context().newPage();
      await popup.goto(server.urlFor('/pages/buttons'));
      await popup.waitForTimeout(500);
      await popup.close();
    });
    const { videos } = await manager.close(session.id);
    expect(videos.map((video) => path.basename(video.path)).sort()).toEqual(['video-1.webm', 'video.webm']);
    for (const video of videos) {
      expect(video.bytes).toBeGreaterThan(0);
      expect(readFileSync(video.path).readUInt32BE(0)).toBe(0x1a45dfa3);
    }
  });
});

describe('ffmpeg for video', () => {
  it('finds a system ffmpeg on the PATH, and knows where Playwright looks for its own', () => {
    expect(systemFfmpeg({ PATH: '' })).toBeUndefined();
    expect(systemFfmpeg({ PATH: ['/nonexistent', '/usr/bin'].join(path.delimiter) })).toBe('/usr/bin/ffmpeg');
    expect(registryFfmpegPath()).toMatch(/ffmpeg-\d+[\\/]ffmpeg-/);
  });
});
