// Property tests of the error contract under arbitrary input, against one real server process (no call crashes or hangs it).
import { CallToolResultSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CODES } from '@sessionwright/session-core';
import { allTools } from '@sessionwright/tools';
import { callJson, startFixtureServer, type FixtureServer, type JsonToolResult, type StdioConnection } from '@sessionwright/test-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_TOOLS, SESSION_TOOLS, call, expectError, expectSuccess, expectWellFormed, startCli } from './helpers.js';

const RUNS = 100;
/** Sessions the server allows: arbitrary arguments must not be able to pile sessions up. */
const MAX_SESSIONS = 3;

let fx: FixtureServer;
let server: StdioConnection;
let tools: Tool[];
/** The one session the live-session properties act on. */
let live: string;
let refusedUrl: string;

beforeAll(async () => {
  const refused = await startFixtureServer();
  refusedUrl = `http://127.0.0.1:${refused.port}/`;
  await refused.close();
  fx = await startFixtureServer();
  server = await startCli(['--max-sessions', String(MAX_SESSIONS)]);
  tools = (await server.client.listTools()).tools;
  live = expectSuccess(await call(server.client, 'create_session')).sessionId;
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
});

/** Valid arguments apart from the session, so the only thing wrong with a call is its sessionId. */
const VALID_REST: Record<(typeof SESSION_TOOLS)[number], Record<string, unknown>> = {
  close_session: {},
  navigate: { url: 'about:blank' },
  click: { selector: 'body' },
  type: { selector: 'body', text: 'x' },
};

/**
 * Checks a result against the result contract and the tool's own declared error codes; closes a session the call created, so
 * arbitrary input can never use up the server's sessions.
 */
async function checkAndCleanUp(name: string, args: unknown, outcome: JsonToolResult): Promise<void> {
  expectWellFormed(outcome, args);
  const declared = allTools.find((tool) => tool.name === name)?.errors;
  if (outcome.isError) {
    expect(ERROR_CODES).toContain(outcome.json.errorCode);
    if (declared) expect(declared, `${name} answered ${outcome.json.errorCode}`).toContain(outcome.json.errorCode);
  } else if (name === 'create_session') {
    expectSuccess(await call(server.client, 'close_session', { sessionId: outcome.json.sessionId }));
  }
}

describe('ids that were never issued', () => {
  it.each(SESSION_TOOLS)('%s answers SESSION_NOT_FOUND naming the id (INVALID_PARAMETERS for "")', async (name) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uuid(), fc.uuid({ version: 4 }), fc.string(), fc.string({ unit: 'grapheme', maxLength: 50 })), async (sessionId) => {
        fc.pre(sessionId !== live);
        const args = { ...VALID_REST[name], sessionId };
        const outcome = await call(server.client, name, args);
        if (sessionId === '') {
          expectError(outcome, 'INVALID_PARAMETERS');
        } else {
          expectError(outcome, 'SESSION_NOT_FOUND', sessionId);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('arbitrary JSON arguments', () => {
  /** Objects mixing the tool's own argument names (so validation gets past the first key) with any other names. */
  const argumentsFor = (tool: Tool) =>
    fc.dictionary(
      fc.oneof(fc.constantFrom(...Object.keys(tool.inputSchema.properties ?? {}), 'sessionId'), fc.string({ maxLength: 12 })),
      fc.jsonValue({ maxDepth: 3 }),
      {
        maxKeys: 6,
      },
    );

  it('answer every listed tool with a well-formed result or a well-formed error with a known code', async () => {
    expect(tools.length).toBeGreaterThanOrEqual(CORE_TOOLS.length);
    for (const tool of tools) {
      await fc.assert(
        fc.asyncProperty(argumentsFor(tool), async (args) => {
          // Never the live session: this property must not drive a page (an arbitrary url could leave the machine).
          fc.pre(args.sessionId !== live);
          await checkAndCleanUp(tool.name, args, await callJson(server.client, tool.name, args));
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('answer arguments that are not an object with a JSON-RPC error or a tool error, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CORE_TOOLS), fc.jsonValue({ maxDepth: 2 }), async (name, args) => {
        fc.pre(typeof args !== 'object' || args === null || Array.isArray(args));
        const outcome = await server.client
          .request({ method: 'tools/call', params: { name, arguments: args as unknown as Record<string, unknown> } }, CallToolResultSchema)
          .then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
        if ('error' in outcome) {
          // The SDK validates tools/call params before our handler runs, and answers a bad shape with -32603 (not -32602).
          expect(outcome.error).toBeInstanceOf(McpError);
          expect([-32602, -32603]).toContain((outcome.error as McpError).code);
          expect((outcome.error as McpError).message).toMatch(/arguments/);
          expect((outcome.error as McpError).message).not.toContain('    at ');
        } else {
          const text = (outcome.result.content[0] as { text: string }).text;
          expect(outcome.result.isError).toBe(true);
          expect(JSON.parse(text).errorCode).toBe('INVALID_PARAMETERS');
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('arbitrary values on a live session', () => {
  const anyJson = fc.jsonValue({ maxDepth: 1 });
  /** Anything but an http(s) URL to another host, parsed as the server parses it: this suite talks only to 127.0.0.1. */
  const offline = <T>(arbitrary: fc.Arbitrary<T>) => arbitrary.filter((value) => typeof value !== 'string' || !leavesTheMachine(value));
  /** Element timeouts that are small or invalid: a valid large one would only make the run slow. 0 means no limit, so never 0. */
  const timeout = fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(-1, 1.5, '100', null, true, 120_001));
  const selector = fc.oneof(
    fc.constantFrom(
      '#inc',
      '#name',
      '#bio',
      '.dup',
      '#hidden',
      '#disabled',
      '#covered',
      '#readonly',
      '#not-editable',
      'input',
      'body',
      '//button[@id="inc"]',
      'text=Same',
      '##bad[',
      'xpath=//*[',
      '#missing',
    ),
    fc.string({ maxLength: 20 }),
    anyJson,
  );
  const arbitraries: Record<string, fc.Arbitrary<unknown>> = {
    selector,
    ref: fc.oneof(fc.constantFrom('e1', 'e2', 'e999', 'f1e2'), fc.string({ maxLength: 8 }), anyJson),
    timeout,
    force: fc.oneof(fc.boolean(), anyJson),
    clickCount: fc.oneof(fc.integer({ min: -1, max: 4 }), anyJson),
    button: fc.oneof(fc.constantFrom('left', 'right', 'middle', 'back'), anyJson),
    text: fc.oneof(fc.string({ maxLength: 20 }), anyJson),
    delay: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(-1, 1_001, 'fast', null)),
    clear: fc.oneof(fc.boolean(), anyJson),
    submit: fc.oneof(fc.boolean(), anyJson),
    waitUntil: fc.oneof(fc.constantFrom('load', 'domcontentloaded', 'networkidle', 'commit', 'idle'), anyJson),
  };
  const pages = fc.constantFrom('/pages/buttons', '/pages/form', '/pages/list', '/pages/changes');

  /** Arguments with the live session and a bounded timeout, every other known argument arbitrary or absent. */
  const liveArgs = (name: 'click' | 'type' | 'navigate') => {
    const keys = Object.keys(allTools.find((tool) => tool.name === name)!.input.shape).filter((key) => key in arbitraries && key !== 'timeout');
    return fc.record(
      {
        ...Object.fromEntries(keys.map((key) => [key, arbitraries[key]!])),
        timeout: name === 'navigate' ? fc.integer({ min: 1, max: 5_000 }) : timeout,
        extra: fc.option(fc.constantFrom('bogus', 'sessionID', '__proto__'), { nil: undefined }),
      },
      { requiredKeys: ['timeout'] },
    );
  };

  it.each(['click', 'type'] as const)('%s answers a well-formed result whatever the element and options', async (name) => {
    await fc.assert(
      fc.asyncProperty(pages, liveArgs(name), async (page, generated) => {
        expectSuccess(await call(server.client, 'navigate', { sessionId: live, url: fx.urlFor(page) }));
        const { extra, ...rest } = generated as Record<string, unknown>;
        const args = { ...rest, sessionId: live, ...(extra === undefined ? {} : { [extra as string]: 1 }) };
        await checkAndCleanUp(name, args, await callJson(server.client, name, args));
      }),
      { numRuns: RUNS },
    );
  });

  it('navigate answers a well-formed result for local, blank, data:, refused and unparsable URLs', async () => {
    const url = fc.oneof(
      fc.constantFrom('/pages/home', '/status/404', '/status/500', '/redirect?to=/pages/form', '/pages/slow-image', '/nope').map((path) => fx.urlFor(path)),
      fc.constantFrom('about:blank', 'data:text/html,<title>x</title>', 'javascript:void(0)', 'file:///etc/hostname', 'chrome://version', refusedUrl),
      offline(fc.string({ maxLength: 40 })),
      offline(fc.string({ unit: 'grapheme', maxLength: 40 })),
      offline(anyJson),
    );
    await fc.assert(
      fc.asyncProperty(url, liveArgs('navigate'), async (target, generated) => {
        const { extra, ...rest } = generated as Record<string, unknown>;
        const args = { ...rest, url: target, sessionId: live, ...(extra === undefined ? {} : { [extra as string]: 1 }) };
        const outcome = await callJson(server.client, 'navigate', args);
        await checkAndCleanUp('navigate', args, outcome);
        if (!outcome.isError) expect(outcome.json.url === 'about:blank' || /^(http:\/\/127\.0\.0\.1|data:)/.test(outcome.json.url)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

function leavesTheMachine(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1';
  } catch {
    return false;
  }
}

describe('after all of it', () => {
  it('the server still answers, holds only the live session, and creates sessions up to its limit', async () => {
    await server.client.ping();
    expect((await server.client.listTools()).tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    const { sessions, maxSessions } = expectSuccess(await call(server.client, 'list_sessions'));
    expect(maxSessions).toBe(MAX_SESSIONS);
    expect(sessions.map((entry: { sessionId: string }) => entry.sessionId)).toEqual([live]);
    const created = await Promise.all([1, 2].map(async () => expectSuccess(await call(server.client, 'create_session')).sessionId as string));
    expectError(await call(server.client, 'create_session'), 'MAX_SESSIONS_REACHED');
    for (const sessionId of created) expectSuccess(await call(server.client, 'close_session', { sessionId }));
    expect(server.stderrText()).not.toMatch(/\n\s+at /);
  });
});
