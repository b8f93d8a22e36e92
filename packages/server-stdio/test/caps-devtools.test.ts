// The devtools cap in both profiles over stdio (videos ffprobe reads, chapter cards, highlights seen in screenshots, actions written down as code, annotate refused), and in process where the test reaches the session (a paused script resumed, a person in the live view recorded and watched while a video records).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectInProcess, expectError, expectSuccess, run, type InProcessConnection } from './helpers.js';

const PAGE = `<!doctype html><title>Devtools</title>
<h1>Devtools</h1>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked'">Go</button>
<input id="name" aria-label="Name">
<p id="out"></p>`;

let fixture: FixtureServer;
let sessionsDir: string;
let playwrightDir: string;
let outsideDir: string;
let sessions: InProcessConnection;
let playwright: InProcessConnection;

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { devtools: PAGE } });
  sessionsDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-devtools-'));
  playwrightDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-devtools-pw-'));
  outsideDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-devtools-outside-'));
  [sessions, playwright] = await Promise.all([
    connectInProcess(['--headless', '--caps', 'devtools', '--output-dir', sessionsDir]),
    connectInProcess(['--headless', '--profile', 'playwright', '--caps', 'devtools', '--output-dir', playwrightDir]),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sessions?.close(), playwright?.close()]);
  await fixture?.close();
  for (const dir of [sessionsDir, playwrightDir, outsideDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openSession(): Promise<string> {
  const sessionId = expectSuccess(await call(sessions.client, 'create_session')).sessionId as string;
  expectSuccess(await call(sessions.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/devtools') }));
  return sessionId;
}

/** What the page holds: Playwright's overlay element (highlights, chapter cards, callouts) and the button's effect. */
async function pageState(client: InProcessConnection, args: Record<string, unknown>, name = 'evaluate') {
  const fn = "() => ({ overlay: document.querySelector('x-pw-glass') !== null, out: document.getElementById('out').textContent })";
  const answer = expectSuccess(await call(client.client, name, { ...args, function: fn }));
  return answer.result as { overlay: boolean; out: string };
}

/** The video's length in seconds, as ffprobe reads it (decoding every frame, so a missing header cannot fool it). */
async function videoSeconds(file: string): Promise<number> {
  const probed = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames:format=duration', '-of', 'json', file]);
  expect(probed.code, probed.stderr).toBe(0);
  const json = JSON.parse(probed.stdout) as { streams: { nb_read_frames: string }[]; format: { duration?: string } };
  expect(Number(json.streams[0]?.nb_read_frames)).toBeGreaterThan(0);
  return Number(json.format.duration);
}

/** A highlight style that paints the element's box pure red, so a screenshot shows whether the box is there. */
const RED = 'background-color: rgb(255, 0, 0)';

async function buttonCenter(client: InProcessConnection, name: string, args: Record<string, unknown>): Promise<{ x: number; y: number }> {
  const fn =
    "() => { const r = document.getElementById('go').getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: " +
    'Math.round(r.y + r.height / 2) }; }';
  return expectSuccess(await call(client.client, name, { ...args, function: fn })).result as { x: number; y: number };
}

/** Whether the pixel at `point` of a screenshot is pure red (read by ffmpeg, which decodes the PNG). */
async function isRed(client: InProcessConnection, name: string, args: Record<string, unknown>, point: { x: number; y: number }): Promise<boolean> {
  const shot = await client.client.callTool({ name, arguments: args });
  const image = (shot.content as { type: string; data?: string }[]).find((part) => part.type === 'image');
  expect(image?.data).toBeDefined();
  const file = path.join(outsideDir, `shot-${Date.now()}.png`);
  writeFileSync(file, Buffer.from(image?.data ?? '', 'base64'));
  const pixel = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', `crop=1:1:${point.x}:${point.y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  expect(pixel.status, pixel.stderr.toString()).toBe(0);
  const [r, g, b] = pixel.stdout;
  return r === 255 && g === 0 && b === 0;
}

describe('video (default profile)', () => {
  it('records the tab into a file under --output-dir, with a chapter card and action callouts in the page', async () => {
    const sessionId = await openSession();
    const started = expectSuccess(
      await call(sessions.client, 'video', { sessionId, action: 'start', filename: 'clips/first.webm', size: { width: 640, height: 400 }, fps: 10 }),
    );
    expect(started.file).toBe(path.join(sessionsDir, 'clips', 'first.webm'));
    expectError(await call(sessions.client, 'video', { sessionId, action: 'start' }), 'INVALID_PARAMETERS', sessionId);

    expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'chapter', title: 'Part one', description: 'The button', duration: 1_500 }));
    expect((await pageState(sessions, { sessionId })).overlay).toBe(true);
    expectSuccess(
      await call(sessions.client, 'video', {
        sessionId,
        action: 'show_actions',
        position: 'top-left',
        duration: 300,
        style: { highlight: 'outline: 2px solid red' },
      }),
    );
    expectSuccess(await call(sessions.client, 'click', { sessionId, selector: '#go' }));
    expect((await pageState(sessions, { sessionId })).out).toBe('clicked');
    expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'hide_actions' }));

    const stopped = expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'stop' }));
    expect(stopped.videos).toEqual([{ path: started.file, bytes: expect.any(Number) }]);
    expect(stopped.videos[0].bytes).toBeGreaterThan(0);
    expect(await videoSeconds(started.file)).toBeGreaterThan(0);
    expectError(await call(sessions.client, 'video', { sessionId, action: 'stop' }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
  });

  it("writes video-N.webm in the session's folder without a filename; a longer recording is a longer video", async () => {
    const sessionId = await openSession();
    const short = expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'start' })).file as string;
    expect(path.basename(short)).toBe('video-1.webm');
    expect(short.startsWith(sessionsDir + path.sep)).toBe(true);
    expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'stop' }));

    const long = expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'start' })).file as string;
    expect(path.basename(long)).toBe('video-2.webm');
    // The page changes for about two seconds (twenty repaints, each one a frame) before the recording stops.
    const repaint =
      "() => new Promise((resolve) => { let n = 0; const timer = setInterval(() => { document.getElementById('out').textContent " +
      "= 'frame ' + ++n; if (n === 20) { clearInterval(timer); resolve(n); } }, 100); })";
    expect(expectSuccess(await call(sessions.client, 'evaluate', { sessionId, function: repaint })).result).toBe(20);
    expectSuccess(await call(sessions.client, 'click', { sessionId, selector: '#go' }));
    expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'stop' }));
    expect(await videoSeconds(long)).toBeGreaterThan(await videoSeconds(short));
    // The session's folder, its videos in it, goes with the session (no --keep-downloads); one still recording is listed so.
    expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'start' }));
    const closed = expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
    expect(JSON.stringify(closed)).toContain('video-3.webm');
    expect(JSON.stringify(closed)).toContain('"removed":true');
    expect(existsSync(path.dirname(long))).toBe(false);
  });

  it('records a tab the page opens into a file of its own', async () => {
    const sessionId = expectSuccess(await call(sessions.client, 'create_session')).sessionId as string;
    expectSuccess(await call(sessions.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/popup') }));
    const file = expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'start', filename: 'popup/tabs.webm' })).file as string;
    expect(expectSuccess(await call(sessions.client, 'click', { sessionId, selector: '#newtab' })).openedTabs).toHaveLength(1);
    const stopped = expectSuccess(await call(sessions.client, 'video', { sessionId, action: 'stop' }));
    expect((stopped.videos as { path: string }[]).map((video) => video.path).sort()).toEqual([path.join(sessionsDir, 'popup', 'tabs-1.webm'), file].sort());
    for (const video of stopped.videos as { path: string }[]) expect(await videoSeconds(video.path)).toBeGreaterThan(0);
    expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
  });

  it('refuses a filename outside --output-dir or through a link, a field the action does not take, and a chapter without a title', async () => {
    const sessionId = await openSession();
    expect(
      expectError(await call(sessions.client, 'video', { sessionId, action: 'start', filename: '../escape.webm' }), 'INVALID_PARAMETERS').message,
    ).toContain('output directory');
    expectError(await call(sessions.client, 'video', { sessionId, action: 'start', filename: '/tmp/escape.webm' }), 'INVALID_PARAMETERS');
    symlinkSync(outsideDir, path.join(sessionsDir, 'out-link'));
    expectError(await call(sessions.client, 'video', { sessionId, action: 'start', filename: 'out-link/escape.webm' }), 'INVALID_PARAMETERS', sessionId);
    expect(existsSync(path.join(outsideDir, 'escape.webm'))).toBe(false);
    expect(expectError(await call(sessions.client, 'video', { sessionId, action: 'stop', fps: 5 }), 'INVALID_PARAMETERS').message).toContain('fps');
    expectError(await call(sessions.client, 'video', { sessionId, action: 'chapter' }), 'INVALID_PARAMETERS');
    expectError(await call(sessions.client, 'video', { sessionId, action: 'start', fps: 0 }), 'INVALID_PARAMETERS');
    // The session is still usable, and no video runs.
    expectSuccess(await call(sessions.client, 'click', { sessionId, selector: '#go' }));
    expectError(await call(sessions.client, 'video', { sessionId, action: 'stop' }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
  });
});

describe('highlight (default profile)', () => {
  it('draws a box over the element until hidden; refuses a missing element and a call without one', async () => {
    const sessionId = await openSession();
    const center = await buttonCenter(sessions, 'evaluate', { sessionId });
    expect(await isRed(sessions, 'screenshot', { sessionId }, center)).toBe(false);
    expect(expectSuccess(await call(sessions.client, 'highlight', { sessionId, selector: '#go', style: RED })).highlighted).toBe(true);
    expect((await pageState(sessions, { sessionId })).overlay).toBe(true);
    expect(await isRed(sessions, 'screenshot', { sessionId }, center)).toBe(true);
    expectSuccess(await call(sessions.client, 'highlight', { sessionId, selector: '#go', hide: true }));
    expect(await isRed(sessions, 'screenshot', { sessionId }, center)).toBe(false);
    expectSuccess(await call(sessions.client, 'highlight', { sessionId, selector: '#go', style: RED }));
    expectSuccess(await call(sessions.client, 'highlight', { sessionId, hide: true }));
    expect((await pageState(sessions, { sessionId })).overlay).toBe(false);

    expectError(await call(sessions.client, 'highlight', { sessionId, selector: '#missing', timeout: 500 }), 'ELEMENT_NOT_FOUND', sessionId);
    expectError(await call(sessions.client, 'highlight', { sessionId }), 'INVALID_PARAMETERS');
    expectError(await call(sessions.client, 'highlight', { sessionId, hide: true, style: 'color: red' }), 'INVALID_PARAMETERS');
    expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
  });
});

describe('record_actions and resume (default profile)', () => {
  it('answers the actions done meanwhile as Playwright code', async () => {
    const sessionId = await openSession();
    expectError(await call(sessions.client, 'record_actions', { sessionId, action: 'stop' }), 'INVALID_PARAMETERS', sessionId);
    expect(expectSuccess(await call(sessions.client, 'record_actions', { sessionId, action: 'start' })).recording).toBe(true);
    expectError(await call(sessions.client, 'record_actions', { sessionId, action: 'start' }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await call(sessions.client, 'click', { sessionId, selector: '#go' }));
    expectSuccess(await call(sessions.client, 'type', { sessionId, selector: '#name', text: 'Ada' }));
    const stopped = expectSuccess(await call(sessions.client, 'record_actions', { sessionId, action: 'stop' }));
    expect(stopped.recording).toBe(false);
    const code = (stopped.actions as string[]).join('\n');
    expect(code).toContain("getByRole('button', { name: 'Go' }).click()");
    expect(code).toContain("fill('Ada')");
    expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
  });

  it('resume refuses when nothing is paused', async () => {
    const sessionId = await openSession();
    expect(expectError(await call(sessions.client, 'resume', { sessionId, step: true }), 'INVALID_PARAMETERS', sessionId).details.reason).toBe('not_paused');
    expectSuccess(await call(sessions.client, 'close_session', { sessionId }));
  });
});

describe('the devtools cap in the playwright profile', () => {
  async function navigate(): Promise<void> {
    expectSuccess(await call(playwright.client, 'browser_navigate', { url: fixture.urlFor('/pages/devtools') }));
  }

  it('browser_start_video … browser_stop_video write a video under --output-dir; chapters and callouts show in the page', async () => {
    await navigate();
    const started = expectSuccess(
      await call(playwright.client, 'browser_start_video', { filename: 'pw.webm', size: { width: 320, height: 240 }, fps: 10, cursor: true }),
    );
    expect(started).toMatchObject({ file: path.join(playwrightDir, 'pw.webm'), title: 'Devtools', url: fixture.urlFor('/pages/devtools') });
    expectSuccess(await call(playwright.client, 'browser_video_chapter', { title: 'Intro', description: 'Start', duration: 1_000 }));
    expect((await pageState(playwright, {}, 'browser_evaluate')).overlay).toBe(true);
    expectSuccess(
      await call(playwright.client, 'browser_video_show_actions', {
        duration: 200,
        position: 'bottom',
        cursor: 'none',
        style: { point: 'width: 8px', title: 'font-size: 12px' },
      }),
    );
    expectSuccess(await call(playwright.client, 'browser_click', { target: '#go' }));
    expect((await pageState(playwright, {}, 'browser_evaluate')).out).toBe('clicked');
    expectSuccess(await call(playwright.client, 'browser_video_hide_actions'));
    const stopped = expectSuccess(await call(playwright.client, 'browser_stop_video'));
    expect(stopped).toMatchObject({ videos: [{ path: started.file }], title: 'Devtools' });
    expect(await videoSeconds(started.file)).toBeGreaterThan(0);
    expectError(await call(playwright.client, 'browser_start_video', { filename: '../out.webm' }), 'INVALID_PARAMETERS');
    expectError(await call(playwright.client, 'browser_video_show_actions', { position: 'middle' }), 'INVALID_PARAMETERS');
  });

  it('browser_highlight by ref or selector, browser_hide_highlight by element or for the whole page', async () => {
    await navigate();
    const snapshot = expectSuccess(await call(playwright.client, 'browser_snapshot')).snapshot as string;
    const ref = /button "Go" \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    expect(ref, snapshot).toBeDefined();
    const center = await buttonCenter(playwright, 'browser_evaluate', {});
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(false);
    expectSuccess(await call(playwright.client, 'browser_highlight', { element: 'Go button', target: ref, style: RED }));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(true);
    expectSuccess(await call(playwright.client, 'browser_hide_highlight', { element: 'Go button', target: ref }));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(false);
    expectSuccess(await call(playwright.client, 'browser_highlight', { target: '#go', style: RED }));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(true);
    expectSuccess(await call(playwright.client, 'browser_hide_highlight'));
    expect(await isRed(playwright, 'browser_take_screenshot', {}, center)).toBe(false);
    expectError(await call(playwright.client, 'browser_highlight', {}), 'INVALID_PARAMETERS');
  });

  it('browser_start_recording / browser_stop_recording answer the actions as code, with the snapshot', async () => {
    await navigate();
    expectSuccess(await call(playwright.client, 'browser_start_recording'));
    expectSuccess(await call(playwright.client, 'browser_click', { target: '#go' }));
    const stopped = expectSuccess(await call(playwright.client, 'browser_stop_recording'));
    expect((stopped.actions as string[]).join('\n')).toContain("getByRole('button', { name: 'Go' }).click()");
    expect(readFileSync(stopped.snapshotFile as string, 'utf8')).toContain('clicked');
    expectError(await call(playwright.client, 'browser_stop_recording'), 'INVALID_PARAMETERS');
  });

  it('browser_resume refuses when nothing is paused; browser_annotate is unsupported here', async () => {
    await navigate();
    expect(
      expectError(await call(playwright.client, 'browser_resume', { step: true, location: 'example.spec.ts:42' }), 'INVALID_PARAMETERS').details.reason,
    ).toBe('not_paused');
    expect(expectError(await call(playwright.client, 'browser_annotate'), 'BROWSER_ERROR').details.reason).toBe('unsupported');
    // The page is untouched and usable.
    expect((await pageState(playwright, {}, 'browser_evaluate')).out).toBe('');
  });
});

describe('resume and record_actions with a paused script and a person (in process, where the test reaches the session)', () => {
  let conn: InProcessConnection;
  beforeAll(async () => {
    conn = await connectInProcess(['--headless', '--caps', 'devtools,live', '--call-timeout', '20000']);
  });
  afterAll(async () => {
    await conn?.close();
  });

  async function openInProcess(): Promise<string> {
    const sessionId = expectSuccess(await call(conn.client, 'create_session')).sessionId as string;
    expectSuccess(await call(conn.client, 'navigate', { sessionId, url: fixture.urlFor('/pages/devtools') }));
    return sessionId;
  }

  it('resume steps from one paused action to the next, then lets the call run to its end', async () => {
    const sessionId = await openInProcess();
    const debug = conn.server.manager.get(sessionId).context.debugger;
    // The debugger stops before the next action: the form fill below, which then holds the session's queue.
    await debug.requestPause();
    const filling = call(conn.client, 'fill_form', {
      sessionId,
      fields: [
        { selector: '#name', value: 'Ada' },
        { selector: '#name', value: 'Bo' },
      ],
    });
    await expect.poll(() => debug.pausedDetails() !== null).toBe(true);
    const first = debug.pausedDetails();

    const stepped = expectSuccess(await call(conn.client, 'resume', { sessionId, step: true }));
    expect(stepped).toMatchObject({ paused: true, title: 'Devtools' });
    expect(stepped.pausedAt).toMatchObject({ file: expect.any(String) });
    expect(debug.pausedDetails()).not.toEqual(first);
    const ran = expectSuccess(await call(conn.client, 'resume', { sessionId }));
    expect(ran.paused).toBe(false);
    expectSuccess(await filling);
    expect(expectSuccess(await call(conn.client, 'evaluate', { sessionId, function: "() => document.getElementById('name').value" })).result).toBe('Bo');
    expectError(await call(conn.client, 'resume', { sessionId }), 'INVALID_PARAMETERS', sessionId);
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });

  it('records a video while a person watches the live view, and the view keeps getting frames', async () => {
    const sessionId = await openInProcess();
    try {
      const { url } = expectSuccess(await call(conn.client, 'live_view', { sessionId })) as { url: string };
      const events = await fetch(`${url}events`);
      const reader = events.body?.getReader();
      let frames = 0;
      const reading = (async () => {
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) return;
          frames += new TextDecoder().decode(chunk.value).split('event: frame').length - 1;
        }
      })();
      await expect.poll(() => frames).toBeGreaterThan(0);
      const file = expectSuccess(await call(conn.client, 'video', { sessionId, action: 'start' })).file as string;
      const before = frames;
      const repaint =
        '() => new Promise((resolve) => { let n = 0; const timer = setInterval(() => { ' +
        "document.getElementById('out').textContent = 'frame ' + ++n; if (n === 10) { clearInterval(timer); resolve(n); } }, " +
        '100); })';
      expectSuccess(await call(conn.client, 'evaluate', { sessionId, function: repaint }));
      await expect.poll(() => frames).toBeGreaterThan(before);
      expectSuccess(await call(conn.client, 'video', { sessionId, action: 'stop' }));
      expect(await videoSeconds(file)).toBeGreaterThan(0);
      await reader?.cancel();
      await reading;
    } finally {
      expectSuccess(await call(conn.client, 'close_session', { sessionId }));
    }
  });

  it("record_actions writes down a person's click in the live view", async () => {
    const sessionId = await openInProcess();
    const fn =
      "() => { const r = document.getElementById('go').getBoundingClientRect(); return { x: (r.x + r.width / 2) / innerWidth, y: " +
      '(r.y + r.height / 2) / innerHeight }; }';
    // Where the button is, as fractions of the view (what a person's pointer sends).
    const center = expectSuccess(await call(conn.client, 'evaluate', { sessionId, function: fn })).result as { x: number; y: number };
    expectSuccess(await call(conn.client, 'record_actions', { sessionId, action: 'start' }));
    const { url } = expectSuccess(await call(conn.client, 'live_view', { sessionId })) as { url: string };
    const origin = new URL(url).origin;
    const events = await fetch(`${url}events`);
    const reader = events.body?.getReader();
    let seen = '';
    while (!/"viewer":"[^"]+"/.test(seen)) seen += new TextDecoder().decode((await reader?.read())?.value);
    const viewer = /"viewer":"([^"]+)"/.exec(seen)?.[1] ?? '';
    const post = (route: string, body: unknown) =>
      fetch(`${url}${route}`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json', 'X-Live-Viewer': viewer },
        body: JSON.stringify(body),
      });
    expect((await post('control', { action: 'take' })).status).toBe(200);
    await conn.server.manager.get(sessionId).control.lease?.acquired;
    const click = [
      { kind: 'mouse', type: 'move', x: center.x, y: center.y },
      { kind: 'mouse', type: 'down', x: center.x, y: center.y, button: 'left', clickCount: 1 },
      { kind: 'mouse', type: 'up', x: center.x, y: center.y, button: 'left', clickCount: 1 },
    ];
    expect((await post('input', { events: click })).status).toBe(200);
    expect((await post('control', { action: 'give_back' })).status).toBe(200);
    await reader?.cancel();
    // The person's click reached the page, and the recording has it as code.
    expect(expectSuccess(await call(conn.client, 'evaluate', { sessionId, function: "() => document.getElementById('out').textContent" })).result).toBe(
      'clicked',
    );
    const stopped = expectSuccess(await call(conn.client, 'record_actions', { sessionId, action: 'stop' }));
    expect((stopped.actions as string[]).join('\n')).toContain("getByRole('button', { name: 'Go' }).click()");
    expectSuccess(await call(conn.client, 'close_session', { sessionId }));
  });
});
