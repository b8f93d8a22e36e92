// The devtools cap with the live view, which the server serves: a video recorded while a person watches the live page, and a person's click in it written down as code (the devtools tools themselves: packages/tools/test/devtools.test.ts).
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectInProcess, expectSuccess, run, type InProcessConnection } from './helpers.js';

const PAGE = `<!doctype html><title>Devtools</title>
<h1>Devtools</h1>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked'">Go</button>
<input id="name" aria-label="Name">
<p id="out"></p>`;

let fixture: FixtureServer;

beforeAll(async () => {
  fixture = await startFixtureServer({ pages: { devtools: PAGE } });
});

afterAll(async () => {
  await fixture?.close();
});

/** The video's length in seconds, as ffprobe reads it (decoding every frame, so a missing header cannot fool it). */
async function videoSeconds(file: string): Promise<number> {
  const probed = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames:format=duration', '-of', 'json', file]);
  expect(probed.code, probed.stderr).toBe(0);
  const json = JSON.parse(probed.stdout) as { streams: { nb_read_frames: string }[]; format: { duration?: string } };
  expect(Number(json.streams[0]?.nb_read_frames)).toBeGreaterThan(0);
  return Number(json.format.duration);
}

describe('the devtools cap with a person in the live view (in process, where the test reaches the session)', () => {
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
