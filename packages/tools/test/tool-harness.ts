// Tools called in this process, as a server calls them: runTool with a ToolContext over a real SessionManager on headless Chromium, and the result read as a client reads it.
import {
  BROWSER_ERROR_REASONS,
  BrowserHost,
  ERROR_CODES,
  SessionManager,
  type BrowserHostOptions,
  type ErrorCode,
  type SessionManagerOptions,
} from '@sessionwright/session-core';
import { silentLogger } from '@sessionwright/session-core/parts';
import { resultContract, startFixtureServer, type FixtureServer, type FixtureServerOptions, type JsonToolResult } from '@sessionwright/test-kit';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  ImplicitSession,
  everyTool,
  readsRequestList,
  runTool,
  type AllowedRoots,
  type AnyTool,
  type Profile,
  type SessionAccess,
  type ToolContext,
  type ToolOptions,
  type ToolOutcome,
} from '../src/index.js';

/** The one caller of the harness, as a stdio server has one. */
const OWNER = 'in-process';

/** Sessions for one caller, as a server's SessionAccess gives them (without identities, so nothing is guarded). */
function accessTo(manager: SessionManager): SessionAccess {
  return {
    get maxSessions() {
      return manager.maxSessions;
    },
    create: (request = {}) => manager.create({ ...request, identity: OWNER }),
    fork: (sessionId, request) => manager.fork(sessionId, request),
    close: (sessionId) => manager.close(sessionId),
    get: (sessionId) => manager.get(sessionId),
    list: () => manager.list({ identity: OWNER }),
    run: (sessionId, fn, options = {}) => manager.run(sessionId, fn, options),
  };
}

/**
 * The outcome as a client reads it (the server's serialization, README: Results): a success is structuredContent and the
 * same JSON as content[0].text, attachments after it (resource links to snapshot files included, as a client over HTTP
 * gets them); a failure is isError with the error JSON alone. A success is
 * checked against the tool's output schema, as an MCP client checks structuredContent against the listed outputSchema.
 */
function asClientReads(tool: AnyTool, outcome: ToolOutcome): JsonToolResult {
  if (!outcome.ok) {
    const text = JSON.stringify(outcome.error.toJSON());
    return { isError: true, json: JSON.parse(text), result: { isError: true, content: [{ type: 'text', text }] } };
  }
  const checked = tool.output.safeParse(outcome.data);
  if (!checked.success) throw new Error(`${tool.name}: the result does not match its output schema: ${checked.error.message}`);
  const text = JSON.stringify(outcome.data);
  const json = JSON.parse(text);
  const attachments = outcome.attachments.map((attachment) =>
    attachment.type === 'image'
      ? { type: 'image' as const, data: attachment.data, mimeType: attachment.mimeType }
      : attachment.type === 'resource'
        ? { type: 'resource' as const, resource: { uri: attachment.uri, mimeType: attachment.mimeType, blob: attachment.blob } }
        : attachment,
  );
  return { isError: false, json, result: { structuredContent: json, content: [{ type: 'text', text }, ...attachments] } };
}

export { isUuidV4 } from '@sessionwright/test-kit';

/** content[0].text of a result as a client reads it; throws when content[0] is not text. */
export function firstText(outcome: JsonToolResult): string {
  const first = outcome.result.content[0];
  if (first?.type !== 'text') throw new Error(`content[0] is ${first ? first.type : 'missing'}, not text`);
  return first.text;
}

/** The result contract (README: Results): expectWellFormed, expectError and expectSuccess against the server's closed sets. */
export const { expectWellFormed, expectError, expectSuccess } = resultContract<ErrorCode>({
  errorCodes: ERROR_CODES,
  browserErrorReasons: BROWSER_ERROR_REASONS,
});

export interface ToolHarnessOptions {
  /**
   * The profile whose tools are called, with its words for next steps and, for the playwright profile, one connection's implicit session
   * (default: the default profile, every capability included).
   */
  profile?: Profile;
  /** Where upload tools may read files, as a server decides it (--file-root, a client's roots). */
  roots?: AllowedRoots;
  maxSessions?: number;
  /** More of the manager's settings, as a server's flags give them (maxTabs, …). */
  manager?: Omit<SessionManagerOptions, 'host' | 'maxSessions' | 'logger'>;
  /** How the browser is launched, as a server's flags give it (--executable-path, …); always headless. */
  host?: Omit<BrowserHostOptions, 'headless'>;
  tools?: readonly AnyTool[];
  toolOptions?: Partial<ToolOptions>;
  fixture?: FixtureServerOptions;
}

/**
 * One SessionManager on headless Chromium and one fixture server for a whole test file, with helpers that call the
 * default profile's tools (every capability included) and open sessions on fixture pages. Each test's sessions are
 * closed after it.
 */
export function useTools(options: ToolHarnessOptions = {}) {
  const tools = new Map((options.tools ?? options.profile?.tools ?? everyTool).map((tool) => [tool.name, tool]));
  const toolOptions: ToolOptions = { allowFileUrls: false, fileRoots: [], defaultTimeouts: {}, ...options.toolOptions };
  let fixture: FixtureServer | undefined;
  let manager: SessionManager | undefined;
  let implicitSession: ImplicitSession | undefined;
  const opened: string[] = [];

  beforeAll(async () => {
    fixture = await startFixtureServer(options.fixture);
    manager = new SessionManager({
      // As a server does: Playwright keeps what network_requests reads only when a tool reads it.
      collectNetwork: readsRequestList([...tools.values()]),
      ...options.manager,
      host: new BrowserHost({ ...options.host, headless: true }).start(),
      maxSessions: options.maxSessions ?? 20,
      logger: silentLogger,
    });
    if (options.profile?.implicitSession) implicitSession = new ImplicitSession(accessTo(manager));
  });
  afterAll(async () => {
    await implicitSession?.close();
    await manager?.shutdown();
    await fixture?.close();
  });

  /** Calls a tool by name with these arguments, as a client's tools/call does; `client` cancels it or hears its progress. */
  async function call(
    name: string,
    args: Record<string, unknown> = {},
    client: Partial<Pick<ToolContext, 'signal' | 'progress'>> = {},
  ): Promise<JsonToolResult> {
    const tool = tools.get(name);
    if (tool === undefined) throw new Error(`No tool "${name}" in the harness.`);
    const ctx: ToolContext = {
      sessions: accessTo(manager as SessionManager),
      logger: silentLogger,
      signal: client.signal ?? new AbortController().signal,
      progress: client.progress ?? (() => {}),
      options: toolOptions,
      ...(options.profile === undefined ? {} : { vocabulary: options.profile.vocabulary }),
      ...(implicitSession === undefined ? {} : { implicitSession }),
      ...(options.roots === undefined ? {} : { roots: async () => options.roots as AllowedRoots }),
    };
    return asClientReads(tool, await runTool(tool, args, ctx));
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((sessionId) => call('close_session', { sessionId })));
  });

  async function createSession(): Promise<string> {
    const created = await checkedCall('create_session');
    expect(created.isError, JSON.stringify(created.json)).toBe(false);
    opened.push(created.json.sessionId);
    return created.json.sessionId as string;
  }

  async function sessionOn(page: string): Promise<string> {
    const sessionId = await createSession();
    const nav = await checkedCall('navigate', { sessionId, url: (fixture as FixtureServer).urlFor(`/pages/${page}`) });
    expect(nav.isError, JSON.stringify(nav.json)).toBe(false);
    return sessionId;
  }

  /** Calls a tool and checks the result's shape whatever it is (README: Results); returns it for the caller's own checks. */
  async function checkedCall(name: string, args: Record<string, unknown> = {}): Promise<JsonToolResult> {
    const outcome = await call(name, args);
    expectWellFormed(outcome, args);
    return outcome;
  }

  return { call, checkedCall, createSession, sessionOn, fixture: () => fixture as FixtureServer, manager: () => manager as SessionManager };
}
