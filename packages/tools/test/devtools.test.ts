// The devtools cap in process, in both profiles (runTool over a real SessionManager, Chromium and the fixture server): videos ffprobe reads, chapter cards, highlights seen in screenshots, actions written down as code, a paused script resumed, annotate refused, traces, and videos kept per tab.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readZip, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

const PAGE = `<!doctype html><title>Devtools</title>
<h1>Devtools</h1>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked'">Go</button>
<input id="name" aria-label="Name">
<p id="out"></p>`;

const fixture = { pages: { devtools: PAGE } };
// As servers started with --output-dir: one folder for the default profile's, one for the playwright profile's.
const sessionsDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-devtools-'));
const playwrightDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-devtools-pw-'));
const outsideDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-devtools-outside-'));
afterAll(() => {
  for (const dir of [sessionsDir, playwrightDir, outsideDir]) rmSync(dir, { recursive: true, force: true });
});

type Harness = ReturnType<typeof useTools>;

/** What the page holds: Playwright's overlay element (highlights, chapter cards, callouts) and the button's effect. */
async function pageState(harness: Harness, args: Record<string, unknown>, name = 'evaluate') {
  const fn = "() => ({ overlay: document.querySelector('x-pw-glass') !== null, out: document.getElementById('out').textContent })";
  const answer = expectSuccess(await harness.checkedCall(name, { ...args, function: fn }));
  return answer.result as { overlay: boolean; out: string };
}

/** The video's length in seconds, as ffprobe reads it (decoding every frame, so a missing header cannot fool it). */
function videoSeconds(file: string): number {
  const probed = spawnSync('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames:format=duration', '-of', 'json', file], {
    encoding: 'utf8',
  });
  expect(probed.status, probed.stderr).toBe(0);
  const json = JSON.parse(probed.stdout) as { streams: { nb_read_frames: string }[]; format: { duration?: string } };
  expect(Number(json.streams[0]?.nb_read_frames)).toBeGreaterThan(0);
  return Number(json.format.duration);
}

/** A highlight style that paints the element's box pure red, so a screenshot shows whether the box is there. */
const RED = 'background-color: rgb(255, 0, 0)';

async function buttonCenter(harness: Harness, name: string, args: Record<string, unknown>): Promise<{ x: number; y: number }> {
  const fn =
    "() => { const r = document.getElementById('go').getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: " +
    'Math.round(r.y + r.height / 2) }; }';
  return expectSuccess(await harness.checkedCall(name, { ...args, function: fn })).result as { x: number; y: number };
}

/** Whether the pixel at `point` of a screenshot is pure red (read by ffmpeg, which decodes the PNG). */
async function isRed(harness: Harness, name: string, args: Record<string, unknown>, point: { x: number; y: number }): Promise<boolean> {
  const shot = await harness.call(name, args);
  const image = (shot.result.content as { type: string; data?: string }[]).find((part) => part.type === 'image');
  expect(image?.data).toBeDefined();
  const file = path.join(outsideDir, `shot-${Date.now()}.png`);
  writeFileSync(file, Buffer.from(image?.data ?? '', 'base64'));
  const pixel = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', `crop=1:1:${point.x}:${point.y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  expect(pixel.status, pixel.stderr.toString()).toBe(0);
  const [r, g, b] = pixel.stdout;
  return r === 255 && g === 0 && b === 0;
}

describe('the devtools cap in the default profile', () => {
  const sessions = useTools({ fixture, toolOptions: { outputDir: sessionsDir }, manager: { outputDir: sessionsDir } });
  const tool = (name: string, args: Record<string, unknown> = {}) => sessions.checkedCall(name, args);
  let fx: FixtureServer;
  beforeAll(() => {
    fx = sessions.fixture();
  });
  const openSession = () => sessions.sessionOn('devtools');

  describe('video', () => {
    it('records the tab into a file under --output-dir, with a chapter card and action callouts in the page', async () => {
      const sessionId = await openSession();
      const started = expectSuccess(
        await tool('video', { sessionId, action: 'start', filename: 'clips/first.webm', size: { width: 640, height: 400 }, fps: 10 }),
      );
      expect(started.file).toBe(path.join(sessionsDir, 'clips', 'first.webm'));
      expectError(await tool('video', { sessionId, action: 'start' }), 'INVALID_PARAMETERS', sessionId);

      expectSuccess(await tool('video', { sessionId, action: 'chapter', title: 'Part one', description: 'The button', duration: 1_500 }));
      expect((await pageState(sessions, { sessionId })).overlay).toBe(true);
      expectSuccess(
        await tool('video', {
          sessionId,
          action: 'show_actions',
          position: 'top-left',
          duration: 300,
          style: { highlight: 'outline: 2px solid red' },
        }),
      );
      expectSuccess(await tool('click', { sessionId, selector: '#go' }));
      expect((await pageState(sessions, { sessionId })).out).toBe('clicked');
      expectSuccess(await tool('video', { sessionId, action: 'hide_actions' }));

      const stopped = expectSuccess(await tool('video', { sessionId, action: 'stop' }));
      expect(stopped.videos).toEqual([{ path: started.file, bytes: expect.any(Number) }]);
      expect(stopped.videos[0].bytes).toBeGreaterThan(0);
      expect(videoSeconds(started.file)).toBeGreaterThan(0);
      expectError(await tool('video', { sessionId, action: 'stop' }), 'INVALID_PARAMETERS', sessionId);
      expectSuccess(await tool('close_session', { sessionId }));
    });

    it("writes video-N.webm in the session's folder without a filename; a longer recording is a longer video", async () => {
      const sessionId = await openSession();
      const short = expectSuccess(await tool('video', { sessionId, action: 'start' })).file as string;
      expect(path.basename(short)).toBe('video-1.webm');
      expect(short.startsWith(sessionsDir + path.sep)).toBe(true);
      expectSuccess(await tool('video', { sessionId, action: 'stop' }));

      const long = expectSuccess(await tool('video', { sessionId, action: 'start' })).file as string;
      expect(path.basename(long)).toBe('video-2.webm');
      // The page changes for about two seconds (twenty repaints, each one a frame) before the recording stops.
      const repaint =
        "() => new Promise((resolve) => { let n = 0; const timer = setInterval(() => { document.getElementById('out').textContent " +
        "= 'frame ' + ++n; if (n === 20) { clearInterval(timer); resolve(n); } }, 100); })";
      expect(expectSuccess(await tool('evaluate', { sessionId, function: repaint })).result).toBe(20);
      expectSuccess(await tool('click', { sessionId, selector: '#go' }));
      expectSuccess(await tool('video', { sessionId, action: 'stop' }));
      expect(videoSeconds(long)).toBeGreaterThan(videoSeconds(short));
      // The session's folder, its videos in it, goes with the session (no --keep-downloads); one still recording is listed so.
      expectSuccess(await tool('video', { sessionId, action: 'start' }));
      const closed = expectSuccess(await tool('close_session', { sessionId }));
      expect(JSON.stringify(closed)).toContain('video-3.webm');
      expect(JSON.stringify(closed)).toContain('"removed":true');
      expect(existsSync(path.dirname(long))).toBe(false);
    });

    it('records a tab the page opens into a file of its own', async () => {
      const sessionId = await sessions.sessionOn('popup');
      const file = expectSuccess(await tool('video', { sessionId, action: 'start', filename: 'popup/tabs.webm' })).file as string;
      expect(expectSuccess(await tool('click', { sessionId, selector: '#newtab' })).openedTabs).toHaveLength(1);
      const stopped = expectSuccess(await tool('video', { sessionId, action: 'stop' }));
      expect((stopped.videos as { path: string }[]).map((video) => video.path).sort()).toEqual([path.join(sessionsDir, 'popup', 'tabs-1.webm'), file].sort());
      for (const video of stopped.videos as { path: string }[]) expect(videoSeconds(video.path)).toBeGreaterThan(0);
      expectSuccess(await tool('close_session', { sessionId }));
    });

    it('refuses a filename outside --output-dir or through a link, a field the action does not take, and a chapter without a title', async () => {
      const sessionId = await openSession();
      expect(expectError(await tool('video', { sessionId, action: 'start', filename: '../escape.webm' }), 'INVALID_PARAMETERS').message).toContain(
        'output directory',
      );
      expectError(await tool('video', { sessionId, action: 'start', filename: '/tmp/escape.webm' }), 'INVALID_PARAMETERS');
      symlinkSync(outsideDir, path.join(sessionsDir, 'out-link'));
      expectError(await tool('video', { sessionId, action: 'start', filename: 'out-link/escape.webm' }), 'INVALID_PARAMETERS', sessionId);
      expect(existsSync(path.join(outsideDir, 'escape.webm'))).toBe(false);
      expect(expectError(await tool('video', { sessionId, action: 'stop', fps: 5 }), 'INVALID_PARAMETERS').message).toContain('fps');
      expectError(await tool('video', { sessionId, action: 'chapter' }), 'INVALID_PARAMETERS');
      expectError(await tool('video', { sessionId, action: 'start', fps: 0 }), 'INVALID_PARAMETERS');
      // The session is still usable, and no video runs.
      expectSuccess(await tool('click', { sessionId, selector: '#go' }));
      expectError(await tool('video', { sessionId, action: 'stop' }), 'INVALID_PARAMETERS', sessionId);
      expectSuccess(await tool('close_session', { sessionId }));
    });
  });

  describe('highlight', () => {
    it('draws a box over the element until hidden; refuses a missing element and a call without one', async () => {
      const sessionId = await openSession();
      const center = await buttonCenter(sessions, 'evaluate', { sessionId });
      expect(await isRed(sessions, 'screenshot', { sessionId }, center)).toBe(false);
      expect(expectSuccess(await tool('highlight', { sessionId, selector: '#go', style: RED })).highlighted).toBe(true);
      expect((await pageState(sessions, { sessionId })).overlay).toBe(true);
      expect(await isRed(sessions, 'screenshot', { sessionId }, center)).toBe(true);
      expectSuccess(await tool('highlight', { sessionId, selector: '#go', hide: true }));
      expect(await isRed(sessions, 'screenshot', { sessionId }, center)).toBe(false);
      expectSuccess(await tool('highlight', { sessionId, selector: '#go', style: RED }));
      expectSuccess(await tool('highlight', { sessionId, hide: true }));
      expect((await pageState(sessions, { sessionId })).overlay).toBe(false);

      expectError(await tool('highlight', { sessionId, selector: '#missing', timeout: 500 }), 'ELEMENT_NOT_FOUND', sessionId);
      expectError(await tool('highlight', { sessionId }), 'INVALID_PARAMETERS');
      expectError(await tool('highlight', { sessionId, hide: true, style: 'color: red' }), 'INVALID_PARAMETERS');
      expectSuccess(await tool('close_session', { sessionId }));
    });
  });

  describe('record_actions and resume', () => {
    it('answers the actions done meanwhile as Playwright code', async () => {
      const sessionId = await openSession();
      expectError(await tool('record_actions', { sessionId, action: 'stop' }), 'INVALID_PARAMETERS', sessionId);
      expect(expectSuccess(await tool('record_actions', { sessionId, action: 'start' })).recording).toBe(true);
      expectError(await tool('record_actions', { sessionId, action: 'start' }), 'INVALID_PARAMETERS', sessionId);
      expectSuccess(await tool('click', { sessionId, selector: '#go' }));
      expectSuccess(await tool('type', { sessionId, selector: '#name', text: 'Ada' }));
      const stopped = expectSuccess(await tool('record_actions', { sessionId, action: 'stop' }));
      expect(stopped.recording).toBe(false);
      const code = (stopped.actions as string[]).join('\n');
      expect(code).toContain("getByRole('button', { name: 'Go' }).click()");
      expect(code).toContain("fill('Ada')");
      expectSuccess(await tool('close_session', { sessionId }));
    });

    it('resume refuses when nothing is paused', async () => {
      const sessionId = await openSession();
      expect(expectError(await tool('resume', { sessionId, step: true }), 'INVALID_PARAMETERS', sessionId).details.reason).toBe('not_paused');
      expectSuccess(await tool('close_session', { sessionId }));
    });
  });

  describe('traces and videos kept per tab', () => {
    it('records a trace between start_trace and stop_trace, refusing a second start and a stop without a start', async () => {
      const sessionId = await sessions.sessionOn('home');
      expectError(await tool('stop_trace', { sessionId }), 'INVALID_PARAMETERS', sessionId);
      expectSuccess(await tool('start_trace', { sessionId }));
      expectError(await tool('start_trace', { sessionId }), 'INVALID_PARAMETERS', sessionId);
      expectSuccess(await tool('navigate', { sessionId, url: fx.urlFor('/pages/form') }));
      expectSuccess(await tool('type', { sessionId, selector: '#name', text: 'Grace' }));
      const { trace } = expectSuccess(await tool('stop_trace', { sessionId }));
      const events = readZip(trace.path).get('trace.trace')?.toString('utf8') ?? '';
      expect(events).toContain('#name');
      expect(events).toContain('Grace');
      // A trace still recording is written when the session closes.
      expectSuccess(await tool('start_trace', { sessionId }));
      const closed = expectSuccess(await tool('close_session', { sessionId }));
      expect(closed.traces).toHaveLength(1);
      expect(closed.traces[0].path).toMatch(/trace-2\.zip$/);
    });

    it('keeps a video per tab with recordVideo and lists them when the session closes', async () => {
      const created = expectSuccess(await tool('create_session', { recordVideo: true }));
      expect(created.options).toEqual({ recordVideo: true });
      const sessionId = created.sessionId as string;
      expectSuccess(await tool('navigate', { sessionId, url: fx.urlFor('/pages/home') }));
      expectSuccess(await tool('tabs', { sessionId, action: 'new', url: fx.urlFor('/pages/form') }));
      const closed = expectSuccess(await tool('close_session', { sessionId }));
      expect(closed.videos).toHaveLength(2);
      for (const video of closed.videos) expect(video.bytes).toBeGreaterThan(0);
    });
  });
});

describe('the devtools cap in the playwright profile', () => {
  const playwright = useTools({
    fixture,
    profile: playwrightProfile(['devtools']),
    toolOptions: { outputDir: playwrightDir },
    manager: { outputDir: playwrightDir },
  });
  const tool = (name: string, args: Record<string, unknown> = {}) => playwright.checkedCall(name, args);
  async function navigate(): Promise<void> {
    expectSuccess(await tool('browser_navigate', { url: playwright.fixture().urlFor('/pages/devtools') }));
  }

  it('browser_start_video … browser_stop_video write a video under --output-dir; chapters and callouts show in the page', async () => {
    await navigate();
    const started = expectSuccess(await tool('browser_start_video', { filename: 'pw.webm', size: { width: 320, height: 240 }, fps: 10, cursor: true }));
    expect(started).toMatchObject({ file: path.join(playwrightDir, 'pw.webm'), title: 'Devtools', url: playwright.fixture().urlFor('/pages/devtools') });
    expectSuccess(await tool('browser_video_chapter', { title: 'Intro', description: 'Start', duration: 1_000 }));
    expect((await pageState(playwright, {}, 'browser_evaluate')).overlay).toBe(true);
    expectSuccess(
      await tool('browser_video_show_actions', {
        duration: 200,
        position: 'bottom',
        cursor: 'none',
        style: { point: 'width: 8px', title: 'font-size: 12px' },
      }),
    );
    expectSuccess(await tool('browser_click', { target: '#go' }));
    expect((await pageState(playwright, {}, 'browser_evaluate')).out).toBe('clicked');
    expectSuccess(await tool('browser_video_hide_actions'));
    const stopped = expectSuccess(await tool('browser_stop_video'));
    expect(stopped).toMatchObject({ videos: [{ path: started.file }], title: 'Devtools' });
    expect(videoSeconds(started.file)).toBeGreaterThan(0);
    expectError(await tool('browser_start_video', { filename: '../out.webm' }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_video_show_actions', { position: 'middle' }), 'INVALID_PARAMETERS');
  });

  it('browser_highlight by ref or selector, browser_hide_highlight by element or for the whole page', async () => {
    await navigate();
    const snapshot = expectSuccess(await tool('browser_snapshot')).snapshot as string;
    const ref = /button "Go" \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    expect(ref, snapshot).toBeDefined();
    const center = await buttonCenter(playwright, 'browser_evaluate', {});
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(false);
    expectSuccess(await tool('browser_highlight', { element: 'Go button', target: ref, style: RED }));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(true);
    expectSuccess(await tool('browser_hide_highlight', { element: 'Go button', target: ref }));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(false);
    expectSuccess(await tool('browser_highlight', { target: '#go', style: RED }));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(true);
    expectSuccess(await tool('browser_hide_highlight'));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(false);
    expectError(await tool('browser_highlight', {}), 'INVALID_PARAMETERS');
  });

  it('browser_start_recording / browser_stop_recording answer the actions as code, with the snapshot', async () => {
    await navigate();
    expectSuccess(await tool('browser_start_recording'));
    expectSuccess(await tool('browser_click', { target: '#go' }));
    const stopped = expectSuccess(await tool('browser_stop_recording'));
    expect((stopped.actions as string[]).join('\n')).toContain("getByRole('button', { name: 'Go' }).click()");
    expect(readFileSync(stopped.snapshotFile as string, 'utf8')).toContain('clicked');
    expectError(await tool('browser_stop_recording'), 'INVALID_PARAMETERS');
  });

  it('browser_resume refuses when nothing is paused; browser_annotate is unsupported here', async () => {
    await navigate();
    expect(expectError(await tool('browser_resume', { step: true, location: 'example.spec.ts:42' }), 'INVALID_PARAMETERS').details.reason).toBe('not_paused');
    expect(expectError(await tool('browser_annotate'), 'BROWSER_ERROR').details.reason).toBe('unsupported');
    // The page is untouched and usable.
    expect((await pageState(playwright, {}, 'browser_evaluate')).out).toBe('');
  });
});

describe('resume with a paused script (the test reaches the session)', () => {
  // As a server started with --call-timeout 20000.
  const harness = useTools({ fixture, manager: { callTimeout: 20_000 } });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);

  it('resume steps from one paused action to the next, then lets the call run to its end', async () => {
    const sessionId = await harness.sessionOn('devtools');
    const debug = harness.manager().get(sessionId).context.debugger;
    // The debugger stops before the next action: the form fill below, which then holds the session's queue.
    await debug.requestPause();
    const filling = tool('fill_form', {
      sessionId,
      fields: [
        { selector: '#name', value: 'Ada' },
        { selector: '#name', value: 'Bo' },
      ],
    });
    await expect.poll(() => debug.pausedDetails() !== null).toBe(true);
    const first = debug.pausedDetails();

    const stepped = expectSuccess(await tool('resume', { sessionId, step: true }));
    expect(stepped).toMatchObject({ paused: true, title: 'Devtools' });
    expect(stepped.pausedAt).toMatchObject({ file: expect.any(String) });
    expect(debug.pausedDetails()).not.toEqual(first);
    const ran = expectSuccess(await tool('resume', { sessionId }));
    expect(ran.paused).toBe(false);
    expectSuccess(await filling);
    expect(expectSuccess(await tool('evaluate', { sessionId, function: "() => document.getElementById('name').value" })).result).toBe('Bo');
    expectError(await tool('resume', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await tool('close_session', { sessionId }));
  });
});
