// Every error code each core tool can give, table-driven in process (runTool over real SessionManagers, Chromium and the fixture server): the code, the sessionId, a message, the details.
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@sessionwright/session-core';
import { startFixtureServer, waitFor, waitForOutput, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

/** The tools of the default profile the contract specifies; the other tools' errors are tested with their groups. */
const CORE_TOOLS = ['create_session', 'close_session', 'list_sessions', 'navigate', 'click', 'type'] as const;

/**
 * Playwright's API log (DEBUG=pw:api) names the element a call is waiting for. Playwright reads DEBUG when it loads,
 * on the first launch below; its lines are kept here instead of being written to stderr.
 */
process.env.DEBUG = 'pw:api';
let apiLog = '';
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (!text.includes('pw:api')) return writeStderr(chunk, ...rest);
  apiLog += text;
  return true;
}) as typeof process.stderr.write;
afterAll(() => {
  process.stderr.write = writeStderr;
});

/**
 * The managers the table runs on, each as a server with those flags would have it: `main` (defaults), `expiring` (1 s
 * idle timeout), `one` (--max-sessions 1, its one session open; also where pages are crashed, so no other test's page
 * crashes) and `noBrowser` (a missing executable).
 */
const servers = {
  main: useTools(),
  expiring: useTools({ manager: { sessionTimeout: 1_000 } }),
  one: useTools({ maxSessions: 1 }),
  noBrowser: useTools({ host: { executablePath: '/nonexistent/chromium' } }),
};
type ServerName = keyof typeof servers;
type ToolName = (typeof CORE_TOOLS)[number];

interface Ctx {
  fx: FixtureServer;
  /** An open session on `main`. */
  sid: string;
  /** The open session on `one`. */
  oneSid: string;
  /** Closed on `main`. */
  closedSid: string;
  /** Expired on `expiring`. */
  expiredSid: string;
  /** http://127.0.0.1:PORT/ where nothing listens. */
  refusedUrl: string;
}

interface ErrorCase {
  tool: ToolName;
  code: ErrorCode;
  when: string;
  server?: ServerName;
  /** Navigate the server's open session here before the call. */
  page?: string;
  args(c: Ctx): Record<string, unknown>;
  /** Runs while the call is in flight (to break the browser under it). */
  during?(c: Ctx): Promise<void>;
  check?(json: any, c: Ctx): void;
}

const unknownId = randomUUID();

/**
 * Crashes the page of the `one` manager's session once `underway` has seen the call act on it: the calls it is used
 * with wait 15 s for an element that never shows, or type for 15 s, so they are still running on this page then.
 */
function crashPageOnce(underway: (c: Ctx) => Promise<void>): (c: Ctx) => Promise<void> {
  return async (c) => {
    await underway(c);
    await crashPage(c);
  };
}

/** The API log names the element the call is waiting for. */
function waitingFor(selector: string): (c: Ctx) => Promise<void> {
  return () => {
    const from = apiLog.length;
    return waitForOutput(() => apiLog, new RegExp(`locator\\('${selector}'\\)`), { from });
  };
}

/** The typing page reports each input with a beacon: the first means the keys are reaching the field. */
function typingInto(id: string): (c: Ctx) => Promise<void> {
  return (c) => {
    const from = c.fx.posts.length;
    return waitFor(() => c.fx.posts.slice(from).some((post) => post.body === `input ${id}`), { timeout: 10_000 });
  };
}

/** Crashes the renderer of the `one` session's page (Chromium's Page.crash), as a renderer killed by the system would end. */
async function crashPage(c: Ctx): Promise<void> {
  const { page } = servers.one.manager().get(c.oneSid);
  const cdp = await page.context().newCDPSession(page);
  await Promise.all([page.waitForEvent('crash'), cdp.send('Page.crash').catch(() => undefined)]);
}

/** The cases every session tool shares: an id that was never issued, one that was closed, one that expired, and none at all. */
function sessionCases(tool: ToolName, rest: (c: Ctx) => Record<string, unknown>): ErrorCase[] {
  return [
    {
      tool,
      code: 'SESSION_NOT_FOUND',
      when: 'the id was never issued',
      args: (c) => ({ ...rest(c), sessionId: unknownId }),
      check: (json) => expect(json.message).toMatch(/create_session/),
    },
    {
      tool,
      code: 'SESSION_NOT_FOUND',
      when: 'the session was closed',
      args: (c) => ({ ...rest(c), sessionId: c.closedSid }),
      check: (json) => expect(json.details).toEqual({ reason: 'closed', next: 'new_session' }),
    },
    {
      tool,
      code: 'SESSION_EXPIRED',
      when: 'the session expired',
      server: 'expiring',
      args: (c) => ({ ...rest(c), sessionId: c.expiredSid }),
      check: (json) => expect(json.details).toMatchObject({ reason: 'expired', sessionTimeout: 1000 }),
    },
    {
      tool,
      code: 'INVALID_PARAMETERS',
      when: 'sessionId is missing',
      args: (c) => rest(c),
      check: (json) => {
        expect(json.sessionId).toBeUndefined();
        expect(json.details.acceptedArguments).toContain('sessionId');
      },
    },
    {
      tool,
      code: 'INVALID_PARAMETERS',
      when: 'sessionId is the empty string',
      args: (c) => ({ ...rest(c), sessionId: '' }),
    },
    {
      tool,
      code: 'INVALID_PARAMETERS',
      when: 'sessionId is a number',
      args: (c) => ({ ...rest(c), sessionId: 42 }),
    },
    {
      tool,
      code: 'INVALID_PARAMETERS',
      when: 'an unknown argument is given',
      args: (c) => ({ ...rest(c), sessionId: c.sid, bogus: true }),
      check: (json) => {
        expect(json.message).toContain('"bogus"');
        expect(json.message).toMatch(/Accepted arguments: .*sessionId/);
        expect(json.details.acceptedArguments).toEqual(Object.keys(allTools.find((t) => t.name === tool)!.input.shape));
      },
    },
  ];
}

const ERROR_CASES: ErrorCase[] = [
  // create_session
  {
    tool: 'create_session',
    code: 'INVALID_PARAMETERS',
    when: 'an argument that is not a session option is given',
    args: () => ({ sessionId: 'mine' }),
    check: (json) => {
      expect(json.details.acceptedArguments).toContain('device');
      expect(json.details.acceptedArguments).not.toContain('sessionId');
    },
  },
  {
    tool: 'create_session',
    code: 'MAX_SESSIONS_REACHED',
    when: 'maxSessions sessions are open',
    server: 'one',
    args: () => ({}),
    check: (json) => {
      expect(json.details).toMatchObject({ maxSessions: 1 });
      expect(json.message).toMatch(/close_session/);
    },
  },
  {
    tool: 'create_session',
    code: 'BROWSER_ERROR',
    when: 'the browser cannot start',
    server: 'noBrowser',
    args: () => ({}),
    check: (json) => {
      expect(json.message).toContain('/nonexistent/chromium');
      expect(json.details.tried).toEqual(['/nonexistent/chromium']);
      expect(json.details.hint).toMatch(/npx playwright install chromium/);
    },
  },

  {
    tool: 'create_session',
    code: 'NAVIGATION_FAILED',
    when: 'its url cannot be opened',
    args: (c) => ({ url: c.refusedUrl }),
    check: (json, c) => {
      expect(json.details).toMatchObject({ url: c.refusedUrl, reason: 'ERR_CONNECTION_REFUSED', sessionClosed: true });
      expect(json.sessionId).toBeUndefined();
    },
  },

  // close_session
  ...sessionCases('close_session', () => ({})),

  // list_sessions
  {
    tool: 'list_sessions',
    code: 'INVALID_PARAMETERS',
    when: 'an unknown argument is given',
    args: () => ({ all: true }),
    check: (json) => expect(json.message).toContain('"all"'),
  },

  // navigate
  ...sessionCases('navigate', () => ({ url: 'about:blank' })),
  ...(['javascript:alert(1)', 'file:///etc/passwd', 'chrome://version', 'view-source:http://127.0.0.1/'] as const).map(
    (url): ErrorCase => ({
      tool: 'navigate',
      code: 'INVALID_PARAMETERS',
      when: `the scheme is disallowed: ${url}`,
      args: (c) => ({ sessionId: c.sid, url }),
      check: (json) => {
        expect(json.message).toMatch(/http, https/);
        expect(json.details.allowedSchemes).toMatch(/about:blank/);
      },
    }),
  ),
  ...(['not a url', '/pages/form', 'http://', '127.0.0.1:8080'] as const).map(
    (url): ErrorCase => ({
      tool: 'navigate',
      code: 'INVALID_PARAMETERS',
      when: `the URL does not parse as absolute: ${url}`,
      args: (c) => ({ sessionId: c.sid, url }),
    }),
  ),
  { tool: 'navigate', code: 'INVALID_PARAMETERS', when: 'url is missing', args: (c) => ({ sessionId: c.sid }) },
  {
    tool: 'navigate',
    code: 'INVALID_PARAMETERS',
    when: 'waitUntil is not one of the four',
    args: (c) => ({ sessionId: c.sid, url: 'about:blank', waitUntil: 'idle' }),
  },
  { tool: 'navigate', code: 'INVALID_PARAMETERS', when: 'timeout is negative', args: (c) => ({ sessionId: c.sid, url: 'about:blank', timeout: -1 }) },
  {
    tool: 'navigate',
    code: 'NAVIGATION_FAILED',
    when: 'the connection is refused',
    args: (c) => ({ sessionId: c.sid, url: c.refusedUrl }),
    check: (json, c) => expect(json.details).toMatchObject({ url: c.refusedUrl, reason: 'ERR_CONNECTION_REFUSED', browserMessage: expect.any(String) }),
  },
  {
    tool: 'navigate',
    code: 'NAVIGATION_FAILED',
    when: 'the page does not load within the timeout',
    args: (c) => ({ sessionId: c.sid, url: c.fx.urlFor('/hang'), timeout: 500 }),
    check: (json, c) => {
      expect(json.details).toMatchObject({ url: c.fx.urlFor('/hang'), reason: 'timeout', timeout: 500 });
      expect(json.message).toMatch(/500 ms/);
    },
  },

  // click
  ...sessionCases('click', () => ({ selector: 'body' })),
  {
    tool: 'click',
    code: 'ELEMENT_NOT_FOUND',
    when: 'nothing matches the selector',
    page: '/pages/buttons',
    args: (c) => ({ sessionId: c.sid, selector: '#missing', timeout: 500 }),
    check: (json) => expect(json.details).toMatchObject({ selector: '#missing', timeout: 500 }),
  },
  {
    tool: 'click',
    code: 'ELEMENT_NOT_FOUND',
    when: 'a ref no snapshot issued is given',
    page: '/pages/buttons',
    args: (c) => ({ sessionId: c.sid, ref: 'e999', timeout: 500 }),
    check: (json) => {
      expect(json.details).toMatchObject({ ref: 'e999', next: 'new_snapshot' });
      expect(json.message).toMatch(/snapshot/);
    },
  },
  {
    tool: 'click',
    code: 'ELEMENT_AMBIGUOUS',
    when: 'the selector matches three buttons',
    page: '/pages/buttons',
    args: (c) => ({ sessionId: c.sid, selector: '.dup', timeout: 500 }),
    check: (json) => expect(json.details).toMatchObject({ count: 3, matches: expect.arrayContaining([expect.stringContaining('Same')]) }),
  },
  ...(
    [
      ['#hidden', 'hidden', /Make it visible first/],
      ['#disabled', 'disabled', /Wait until it is enabled/],
      ['#covered', 'covered by <div#overlay>', /Close or scroll away what covers it/],
    ] as const
  ).map(
    ([selector, reason, next]): ErrorCase => ({
      tool: 'click',
      code: 'ELEMENT_NOT_CLICKABLE',
      when: `the element is ${reason.split(' ')[0]}`,
      page: '/pages/buttons',
      args: (c) => ({ sessionId: c.sid, selector, timeout: 500 }),
      check: (json) => {
        expect(json.details).toMatchObject({ selector, reason });
        // What to do next is in the error, not in the tool's description.
        expect(json.message).toMatch(next);
      },
    }),
  ),
  {
    tool: 'click',
    code: 'INVALID_PARAMETERS',
    when: 'the selector does not parse',
    page: '/pages/buttons',
    args: (c) => ({ sessionId: c.sid, selector: '##bad[', timeout: 500 }),
    check: (json) => expect(json.details).toMatchObject({ selector: '##bad[', browserMessage: expect.any(String) }),
  },
  {
    tool: 'click',
    code: 'INVALID_PARAMETERS',
    when: 'both selector and ref are given',
    args: (c) => ({ sessionId: c.sid, selector: '#inc', ref: 'e1' }),
    check: (json) => expect(json.message).toMatch(/exactly one of "selector" or "ref"/),
  },
  {
    tool: 'click',
    code: 'INVALID_PARAMETERS',
    when: 'neither selector nor ref is given',
    args: (c) => ({ sessionId: c.sid }),
    check: (json) => expect(json.message).toMatch(/exactly one of "selector" or "ref"/),
  },
  { tool: 'click', code: 'INVALID_PARAMETERS', when: 'clickCount is 4', args: (c) => ({ sessionId: c.sid, selector: '#inc', clickCount: 4 }) },
  { tool: 'click', code: 'INVALID_PARAMETERS', when: 'button is not a mouse button', args: (c) => ({ sessionId: c.sid, selector: '#inc', button: 'back' }) },
  { tool: 'click', code: 'INVALID_PARAMETERS', when: 'ref is not a ref', args: (c) => ({ sessionId: c.sid, ref: '#inc' }) },
  {
    tool: 'click',
    code: 'BROWSER_ERROR',
    when: 'the page crashes during the click',
    server: 'one',
    page: '/pages/buttons',
    args: (c) => ({ sessionId: c.oneSid, selector: '#hidden', timeout: 15_000 }),
    during: crashPageOnce(waitingFor('#hidden')),
    check: (json) => expect(json.message).toMatch(/crashed or was closed during the click/),
  },

  // type
  ...sessionCases('type', () => ({ selector: 'body', text: 'x' })),
  ...(
    [
      ['#not-editable', /not an editable field/, /Name a text field/],
      ['#disabled', /disabled/, /Wait until it is enabled/],
      ['#readonly', /readonly/, /Name a text field/],
      ['#submit', /not an editable field/, /Name a text field/],
    ] as const
  ).map(
    ([selector, reason, next]): ErrorCase => ({
      tool: 'type',
      code: 'ELEMENT_NOT_EDITABLE',
      when: `the element is ${selector.slice(1)}`,
      page: '/pages/form',
      args: (c) => ({ sessionId: c.sid, selector, text: 'x', timeout: 500 }),
      check: (json) => {
        expect(json.details.selector).toBe(selector);
        expect(json.details.reason).toMatch(reason);
        expect(json.message).toMatch(next);
      },
    }),
  ),
  {
    tool: 'type',
    code: 'ELEMENT_NOT_CLICKABLE',
    when: 'the field is hidden',
    page: '/pages/form',
    args: (c) => ({ sessionId: c.sid, selector: '#hidden-field', text: 'x', timeout: 500 }),
    check: (json) => {
      expect(json.details).toMatchObject({ selector: '#hidden-field', reason: 'hidden' });
      expect(json.message).toMatch(/Make it visible first/);
    },
  },
  {
    tool: 'type',
    code: 'ELEMENT_NOT_FOUND',
    when: 'nothing matches the selector',
    page: '/pages/form',
    args: (c) => ({ sessionId: c.sid, selector: '#missing', text: 'x', timeout: 500 }),
  },
  {
    tool: 'type',
    code: 'ELEMENT_AMBIGUOUS',
    when: 'the selector matches several fields',
    page: '/pages/form',
    args: (c) => ({ sessionId: c.sid, selector: 'input', text: 'x', timeout: 500 }),
    check: (json) => expect(json.details.count).toBeGreaterThan(1),
  },
  {
    tool: 'type',
    code: 'INVALID_PARAMETERS',
    when: 'the selector does not parse',
    page: '/pages/form',
    args: (c) => ({ sessionId: c.sid, selector: 'input[', text: 'x', timeout: 500 }),
  },
  { tool: 'type', code: 'INVALID_PARAMETERS', when: 'text is missing', args: (c) => ({ sessionId: c.sid, selector: '#name' }) },
  { tool: 'type', code: 'INVALID_PARAMETERS', when: 'text is not a string', args: (c) => ({ sessionId: c.sid, selector: '#name', text: 5 }) },
  { tool: 'type', code: 'INVALID_PARAMETERS', when: 'delay is over 1000 ms', args: (c) => ({ sessionId: c.sid, selector: '#name', text: 'x', delay: 5000 }) },
  {
    tool: 'type',
    code: 'INVALID_PARAMETERS',
    when: 'both selector and ref are given',
    args: (c) => ({ sessionId: c.sid, selector: '#name', ref: 'e1', text: 'x' }),
  },
  {
    tool: 'type',
    code: 'BROWSER_ERROR',
    when: 'the page crashes while typing',
    server: 'one',
    page: '/pages/typing',
    args: (c) => ({ sessionId: c.oneSid, selector: '#area', text: 'x'.repeat(300), delay: 50 }),
    during: crashPageOnce(typingInto('area')),
    check: (json) => expect(json.message).toMatch(/crashed or was closed/),
  },
];

/**
 * Codes a tool declares that no black-box test can provoke: every failure of page.goto maps to NAVIGATION_FAILED, and a
 * session whose browser died answers SESSION_NOT_FOUND, so navigate's BROWSER_ERROR is a safety net for the unforeseen.
 */
const UNREACHABLE: Partial<Record<ToolName, ErrorCode[]>> = { navigate: ['BROWSER_ERROR'] };

const ctx = {} as Ctx;

beforeAll(async () => {
  // A port that was free a moment ago: open a server on it, close it, and nothing listens there now.
  const refused = await startFixtureServer();
  ctx.refusedUrl = `http://127.0.0.1:${refused.port}/`;
  await refused.close();

  ctx.fx = servers.main.fixture();
  const create = async (server: ServerName) => expectSuccess(await servers[server].checkedCall('create_session')).sessionId as string;
  [ctx.sid, ctx.closedSid, ctx.oneSid, ctx.expiredSid] = await Promise.all([create('main'), create('main'), create('one'), create('expiring')]);
  expectSuccess(await servers.main.checkedCall('close_session', { sessionId: ctx.closedSid }));
  // list_sessions does not count as use, so polling it lets the session expire.
  await waitFor(async () => expectSuccess(await servers.expiring.checkedCall('list_sessions')).sessions.length === 0, { timeout: 15_000, interval: 100 });
});

describe('error codes, table-driven', () => {
  it.each(ERROR_CASES)('$tool answers $code when $when', async (row) => {
    const server = servers[row.server ?? 'main'];
    if (row.page) {
      const sessionId = row.server === 'one' ? ctx.oneSid : ctx.sid;
      const url = ctx.fx.urlFor(row.page);
      // On `one` a page may have just crashed: the first call after a crash can still meet the dying page.
      if (row.server === 'one')
        await waitFor(async () => !(await server.checkedCall('navigate', { sessionId, url })).isError, { timeout: 10_000, interval: 200 });
      else expectSuccess(await server.checkedCall('navigate', { sessionId, url }));
    }
    const args = row.args(ctx);
    const pending = server.checkedCall(row.tool, args);
    await row.during?.(ctx);
    const json = expectError(await pending, row.code);
    if (typeof args.sessionId === 'string' && args.sessionId !== '') expect(json.sessionId).toBe(args.sessionId);
    row.check?.(json, ctx);
  });

  it('covers every error code each tool declares, and no other', () => {
    for (const name of CORE_TOOLS) {
      const declared = new Set(allTools.find((tool) => tool.name === name)?.errors);
      for (const code of UNREACHABLE[name] ?? []) declared.delete(code);
      const tested = new Set(ERROR_CASES.filter((row) => row.tool === name).map((row) => row.code));
      expect([...tested].sort(), name).toEqual([...declared].sort());
    }
  });
});

describe('a session survives the errors above', () => {
  it('keeps working on main after every failure', async () => {
    const result = expectSuccess(await servers.main.checkedCall('navigate', { sessionId: ctx.sid, url: ctx.fx.urlFor('/pages/home') }));
    expect(result.title).toBe('Home');
  });

  it("navigates at once after a load that failed at once: Chromium's error page, shown a moment later, does not interrupt it", async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      // An unsafe port fails before any connection is tried, the fastest failure there is.
      expectError(await servers.main.checkedCall('navigate', { sessionId: ctx.sid, url: 'http://127.0.0.1:9/' }), 'NAVIGATION_FAILED', ctx.sid);
      const next = expectSuccess(await servers.main.checkedCall('navigate', { sessionId: ctx.sid, url: ctx.fx.urlFor('/pages/home') }));
      expect(next.title).toBe('Home');
    }
  });

  it('gets a fresh page on one after its page crashed', async () => {
    await waitFor(
      async () => {
        const outcome = await servers.one.checkedCall('navigate', { sessionId: ctx.oneSid, url: ctx.fx.urlFor('/pages/home') });
        return !outcome.isError && outcome.json.title === 'Home';
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});
