// run_steps in process (runTool over a real SessionManager, Chromium and the fixture server): steps checked before any runs, run in order in one queue entry, stopped at the first failure, a cancel or the call ceiling, each answering what its single call answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, firstText, useTools } from './tool-harness.js';

/** A page whose state every step kind reads or changes: a counter, a field, a link. */
const STEPS_PAGE = `<!doctype html><html><head><title>Steps</title></head><body>
<h1>Steps</h1>
<button id="inc" onclick="const c = document.getElementById('count'); c.textContent = String(Number(c.textContent) + 1)">Add one</button>
<span id="count">0</span>
<label for="name">Name</label><input id="name">
<a id="home" href="home">Home link</a>
</body></html>`;

const COUNT = "() => document.getElementById('count').textContent";
/** Marks the page, so a test can tell which steps ran. */
const mark = (name: string) => `() => { window.marks = [...(window.marks ?? []), '${name}']; return window.marks.length; }`;
const MARKS = '() => window.marks ?? []';
const pause = (ms: number) => `() => new Promise((resolve) => setTimeout(() => resolve('waited'), ${ms}))`;

/** The fields a run says once at its top, left out of each step's result. */
function withoutTop(result: Record<string, unknown>): Record<string, unknown> {
  const { url: _url, title: _title, expiresAt: _expiresAt, ...rest } = result;
  return rest;
}

describe('run_steps (default profile)', () => {
  const server = useTools({ fixture: { pages: { steps: STEPS_PAGE } } });
  const { call, sessionOn } = server;
  const stepsUrl = () => server.fixture().urlFor('/pages/steps');
  const marks = async (sessionId: string) => (await call('evaluate', { sessionId, function: MARKS })).json.result;

  it('checks every step with its own tool before any runs: a bad one is INVALID_PARAMETERS with details.step, and the page is untouched', async () => {
    const sessionId = await sessionOn('steps');
    const home = server.fixture().urlFor('/pages/home');
    const cases: [unknown[], number][] = [
      [
        [
          { tool: 'navigate', args: { url: home } },
          { tool: 'click', args: { selector: '#inc', clickCount: 9 } },
        ],
        1,
      ],
      [
        [
          { tool: 'navigate', args: { url: home } },
          { tool: 'type', args: { selector: '#name' } },
        ],
        1,
      ],
      [
        [
          { tool: 'navigate', args: { url: home } },
          { tool: 'click', arguments: { selector: '#inc' } },
        ],
        1,
      ],
      [
        [
          { tool: 'navigate', args: { url: home } },
          { tool: '', args: {} },
        ],
        1,
      ],
      [[{ tool: 'navigate', args: { url: 'ftp://example.test/' } }], 0],
      [
        [
          { tool: 'evaluate', args: { function: mark('a') } },
          { tool: 'find', args: { regex: '/(a/' } },
        ],
        1,
      ],
      [
        [
          { tool: 'navigate', args: { url: home } },
          { tool: 'click', args: { sessionId, selector: '#inc' } },
        ],
        1,
      ],
    ];
    for (const [steps, step] of cases) {
      const refused = expectError(await call('run_steps', { sessionId, steps }), 'INVALID_PARAMETERS', sessionId);
      expect(refused.details.step, JSON.stringify(refused)).toBe(step);
      expect(refused.message).toMatch(new RegExp(`^Step ${step}\\b`));
    }
    for (const tool of ['create_session', 'close_session', 'run_steps', 'run_code_unsafe', 'live_view', 'no_such_tool']) {
      const refused = expectError(
        await call('run_steps', {
          sessionId,
          steps: [
            { tool: 'evaluate', args: { function: mark('a') } },
            { tool, args: {} },
          ],
        }),
        'INVALID_PARAMETERS',
        sessionId,
      );
      expect(refused.details).toMatchObject({ step: 1, tool });
      expect(refused.details.allowedTools).toEqual(expect.arrayContaining(['navigate', 'click', 'find', 'snapshot', 'fill_form', 'handle_dialog']));
      expect(refused.details.allowedTools).not.toContain(tool);
    }
    expectError(await call('run_steps', { sessionId, steps: [] }), 'INVALID_PARAMETERS', sessionId);
    expectError(await call('run_steps', { sessionId, steps: Array.from({ length: 21 }, () => ({ tool: 'snapshot' })) }), 'INVALID_PARAMETERS', sessionId);
    // Nothing ran: the page is where it was, unmarked.
    const after = await call('evaluate', { sessionId, function: MARKS });
    expect(after.json).toMatchObject({ url: stepsUrl(), result: [] });
  });

  it('stops at the first step that fails and answers normally: the steps before it done, the ones after it not run', async () => {
    const sessionId = await sessionOn('steps');
    const run = await call('run_steps', {
      sessionId,
      steps: [
        { tool: 'type', args: { selector: '#name', text: 'Ada' }, return: true },
        { tool: 'click', args: { selector: '#inc' } },
        { tool: 'click', args: { selector: '#missing', timeout: 300 } },
        { tool: 'click', args: { selector: '#inc' } },
      ],
    });
    const json = expectSuccess(run);
    expect(json).toMatchObject({ completed: 2, url: stepsUrl(), title: 'Steps', failed: { step: 2, tool: 'click', errorCode: 'ELEMENT_NOT_FOUND' } });
    expect(json.failed.message).toMatch(/#missing/);
    expect(json.failed.details).toMatchObject({ selector: '#missing' });
    // The marked step and the last that succeeded.
    expect(json.results).toEqual([
      { step: 0, tool: 'type', success: true, message: expect.any(String), value: 'Ada' },
      { step: 1, tool: 'click', success: true, message: expect.any(String) },
    ]);
    expect((await call('evaluate', { sessionId, function: COUNT })).json.result).toBe('1');
  });

  it("answers each step as its single call would, less url, title and expiresAt, and a screenshot's image after the JSON", async () => {
    const sessionId = await sessionOn('steps');
    const run = await call('run_steps', {
      sessionId,
      steps: [
        { tool: 'navigate', args: { url: stepsUrl(), includeSnapshot: true }, return: true },
        { tool: 'screenshot', args: {}, return: true },
        { tool: 'find', args: { text: 'Home link' } },
      ],
    });
    const json = expectSuccess(run);
    expect(json.completed).toBe(3);
    expect(json.failed).toBeUndefined();
    expect(json.results.map((result: { step: number }) => result.step)).toEqual([0, 1, 2]);
    expect(json.results[0]).toMatchObject({ tool: 'navigate', success: true, status: 200, snapshot: expect.stringContaining('button "Add one"') });
    for (const result of json.results) for (const key of ['url', 'title', 'expiresAt']) expect(result).not.toHaveProperty(key);
    expect(json.results[2].matches[0]).toMatchObject({ url: server.fixture().urlFor('/pages/home') });
    expect(run.result.content.map((item: { type: string }) => item.type)).toEqual(['text', 'image']);
    expect(JSON.parse(firstText(run))).toEqual(json);
  });

  it('says at its top what the pages did during steps whose results are left out (a dialog), and nothing when they did nothing', async () => {
    const sessionId = await sessionOn('steps');
    const run = expectSuccess(
      await call('run_steps', {
        sessionId,
        steps: [
          { tool: 'evaluate', args: { function: "() => alert('Saved')" } },
          { tool: 'evaluate', args: { function: COUNT } },
        ],
      }),
    );
    expect(run.dialogs).toEqual([{ type: 'alert', message: 'Saved', action: 'accepted' }]);
    expect(run.results).toEqual([{ step: 1, tool: 'evaluate', result: '0', type: 'string' }]);
    const quiet = expectSuccess(await call('run_steps', { sessionId, steps: [{ tool: 'evaluate', args: { function: COUNT } }] }));
    expect(quiet).not.toHaveProperty('dialogs');
  });

  it('gives each step the result its single call gives, over generated step lists', async () => {
    const step = fc.oneof(
      fc.constant({ tool: 'click', args: { selector: '#inc' } }),
      fc.constantFrom('a', 'bc', 'Zed').map((text) => ({ tool: 'type', args: { selector: '#name', text } })),
      fc.constant({ tool: 'evaluate', args: { function: "() => [document.getElementById('count').textContent, document.getElementById('name').value]" } }),
      fc.constantFrom('Add one', 'Home', 'nowhere').map((text) => ({ tool: 'find', args: { text } })),
      fc.constant({ tool: 'snapshot', args: {} }),
      fc.constant({ tool: 'press_key', args: { key: 'End' } }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const [viaRun, viaCalls] = await Promise.all([sessionOn('steps'), sessionOn('steps')]);
        const run = expectSuccess(await call('run_steps', { sessionId: viaRun, steps: steps.map((one) => ({ ...one, return: true })) }));
        expect(run.completed).toBe(steps.length);
        let last: Record<string, unknown> = {};
        for (const [index, one] of steps.entries()) {
          last = expectSuccess(await call(one.tool, { sessionId: viaCalls, ...one.args }));
          expect(run.results[index]).toEqual({ step: index, tool: one.tool, ...withoutTop(last) });
        }
        expect({ url: run.url, title: run.title }).toEqual({ url: last.url, title: last.title });
        await Promise.all([call('close_session', { sessionId: viaRun }), call('close_session', { sessionId: viaCalls })]);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('runs as one entry of the session queue: a call on the same session waits until the whole run is done', async () => {
    const sessionId = await sessionOn('steps');
    const run = call('run_steps', {
      sessionId,
      steps: [
        { tool: 'click', args: { selector: '#inc' } },
        { tool: 'evaluate', args: { function: pause(400) } },
        { tool: 'click', args: { selector: '#inc' } },
        { tool: 'evaluate', args: { function: pause(400) } },
        { tool: 'evaluate', args: { function: COUNT } },
      ],
    });
    // Sent while the run is between its first and second click.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const between = await call('evaluate', { sessionId, function: COUNT });
    const ran = expectSuccess(await run);
    expect(ran.results.at(-1).result).toBe('2');
    expect(between.json.result).toBe('2');
  });

  it('stops before its next step when the client cancels, reports progress per step, and leaves the session usable', async () => {
    const sessionId = await sessionOn('steps');
    const cancel = new AbortController();
    const progress: string[] = [];
    const run = call(
      'run_steps',
      {
        sessionId,
        steps: [
          { tool: 'evaluate', args: { function: mark('first') } },
          { tool: 'evaluate', args: { function: pause(600) } },
          { tool: 'evaluate', args: { function: mark('third') } },
        ],
      },
      { signal: cancel.signal, progress: (_done, _total, message) => progress.push(String(message)) },
    );
    setTimeout(() => cancel.abort(), 250);
    const json = expectSuccess(await run);
    expect(json).toMatchObject({ completed: 2, failed: { step: 2, tool: 'evaluate', errorCode: 'BROWSER_ERROR', details: { reason: 'cancelled' } } });
    // The step under way finished; the one after the cancel never ran.
    expect(json.results).toEqual([{ step: 1, tool: 'evaluate', result: 'waited', type: 'string' }]);
    expect(progress).toEqual(['step 0: evaluate', 'step 1: evaluate']);
    expect(await marks(sessionId)).toEqual(['first']);
  });
});

describe('run_steps bounds each step by its own tool', () => {
  const server = useTools({ fixture: { pages: { steps: STEPS_PAGE } } });
  const { call, sessionOn } = server;

  it('fails a step at its own time limit, replacing a page stuck in a loop, and runs nothing after it', async () => {
    const sessionId = await sessionOn('steps');
    const started = Date.now();
    const run = expectSuccess(
      await call('run_steps', {
        sessionId,
        steps: [
          { tool: 'click', args: { selector: '#inc' } },
          { tool: 'evaluate', args: { function: '() => { for (;;) {} }', timeout: 1_000 } },
          { tool: 'click', args: { selector: '#inc' } },
        ],
      }),
    );
    // Well under the call ceiling (120 s): the step's own limit ended it.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run).toMatchObject({
      completed: 1,
      failed: { step: 1, tool: 'evaluate', errorCode: 'BROWSER_ERROR', details: { reason: 'call_timeout', timeout: 1_000 } },
    });
    const after = expectSuccess(await call('evaluate', { sessionId, function: '() => 1 + 1' }));
    expect(after.result).toBe(2);
  });
});

describe('run_steps under the call ceiling', () => {
  const server = useTools({ fixture: { pages: { steps: STEPS_PAGE } }, manager: { callTimeout: 4_000 } });
  const { call } = server;

  it('ends the whole run at the call ceiling, whatever each step may take, naming the step it stopped in', async () => {
    // The ceiling bounds create_session too: a browser still starting on a busy machine gets a second try.
    let created = await call('create_session', { url: server.fixture().urlFor('/pages/steps') });
    if (created.isError) created = await call('create_session', { url: server.fixture().urlFor('/pages/steps') });
    const { sessionId } = expectSuccess(created);
    const steps = [
      { tool: 'evaluate', args: { function: mark('first') } },
      { tool: 'evaluate', args: { function: pause(2_500) } },
      { tool: 'evaluate', args: { function: pause(2_500) } },
      { tool: 'evaluate', args: { function: mark('fourth') } },
    ];
    try {
      const stopped = expectError(await call('run_steps', { sessionId, steps }), 'BROWSER_ERROR', sessionId);
      expect(stopped.details).toMatchObject({ reason: 'call_timeout', step: 2, tool: 'evaluate', completed: 2 });
      const after = await call('evaluate', { sessionId, function: MARKS });
      expect(after.isError, JSON.stringify(after.json)).toBe(false);
      expect(after.json.result).not.toContain('fourth');
    } finally {
      await call('close_session', { sessionId });
    }
  });
});

describe('find answers where links go', () => {
  const page = `<!doctype html><html><head><title>Links</title></head><body>
<a href="next?page=2">Next page</a>
<a href="/pages/home">Home page</a>
<a href="https://example.test/far">Far page</a>
<div><a href="../pages/form"><span>Form page</span></a></div>
<button>Plain button page</button>
<a>Anchor without href page</a>
</body></html>`;
  const server = useTools({ fixture: { pages: { links: page } } });

  it('gives every match that is a link its absolute url, relative hrefs resolved against the page; nothing else has one', async () => {
    const sessionId = await server.sessionOn('links');
    const found = expectSuccess(await server.call('find', { sessionId, text: 'page' }));
    const byLine = Object.fromEntries(found.matches.map((match: { line: string; url?: string }) => [match.line, match.url]));
    const url = (path: string) => server.fixture().urlFor(path);
    expect(byLine['link "Next page"']).toBe(url('/pages/next?page=2'));
    expect(byLine['link "Home page"']).toBe(url('/pages/home'));
    expect(byLine['link "Far page"']).toBe('https://example.test/far');
    expect(Object.entries(byLine).find(([line]) => line.includes('Form page'))?.[1]).toBe(url('/pages/form'));
    expect(byLine['button "Plain button page"']).toBeUndefined();
    expect(Object.entries(byLine).find(([line]) => line.includes('Anchor without href'))?.[1]).toBeUndefined();
  });
});

describe('create_session {url, includeSnapshot}', () => {
  const server = useTools({ fixture: { pages: { steps: STEPS_PAGE } } });
  const { call } = server;
  const openCount = async () => expectSuccess(await call('list_sessions')).sessions.length;

  it('opens the session on the page in the same call, with its url, title, status and snapshot', async () => {
    const url = server.fixture().urlFor('/pages/steps');
    const created = expectSuccess(await call('create_session', { url, includeSnapshot: true }));
    try {
      expect(created).toMatchObject({ sessionId: expect.any(String), url, title: 'Steps', status: 200, snapshot: expect.stringContaining('button "Add one"') });
      expect(created.expiresAt).toBeGreaterThanOrEqual(created.createdAt);
      const plain = expectSuccess(await call('create_session', { url }));
      expect(plain).toMatchObject({ url, title: 'Steps' });
      expect(plain).not.toHaveProperty('snapshot');
      const clicked = expectSuccess(await call('click', { sessionId: created.sessionId, selector: '#inc' }));
      expect(clicked.url).toBe(url);
      await call('close_session', { sessionId: plain.sessionId });
    } finally {
      await call('close_session', { sessionId: created.sessionId });
    }
  });

  it('refuses a URL navigate refuses before any session is made, and closes the session when its page cannot be opened', async () => {
    const before = await openCount();
    expectError(await call('create_session', { url: 'ftp://example.test/' }), 'INVALID_PARAMETERS');
    const unreachable = expectError(await call('create_session', { url: 'http://127.0.0.1:1/' }), 'NAVIGATION_FAILED');
    expect(unreachable.details).toMatchObject({ sessionClosed: true });
    expect(await openCount()).toBe(before);
  });
});

describe('browser_run_steps (playwright profile, --caps steps)', () => {
  const server = useTools({ profile: playwrightProfile(['steps']), fixture: { pages: { steps: STEPS_PAGE } } });

  it("runs the profile's browser_* tools as steps on the connection's own page, and refuses the default profile's names", async () => {
    const url = server.fixture().urlFor('/pages/steps');
    const run = expectSuccess(
      await server.call('browser_run_steps', {
        steps: [
          { tool: 'browser_navigate', args: { url } },
          { tool: 'browser_click', args: { target: '#inc' } },
          { tool: 'browser_find', args: { text: 'Home link' } },
        ],
      }),
    );
    expect(run).toMatchObject({ completed: 3, url, title: 'Steps' });
    expect(run.results).toEqual([
      expect.objectContaining({ step: 2, tool: 'browser_find', matches: [expect.objectContaining({ url: server.fixture().urlFor('/pages/home') })] }),
    ]);
    const refused = expectError(await server.call('browser_run_steps', { steps: [{ tool: 'click', args: { selector: '#inc' } }] }), 'INVALID_PARAMETERS');
    expect(refused.details.allowedTools).toEqual(expect.arrayContaining(['browser_click', 'browser_navigate']));
    expect(refused.details.allowedTools).not.toContain('browser_run_code_unsafe');
    expect(refused.details.allowedTools).not.toContain('browser_close');
    const count = expectSuccess(await server.call('browser_evaluate', { function: COUNT }));
    expect(count.result).toBe('1');
  });
});
