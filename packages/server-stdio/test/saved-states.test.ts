// Sign-ins that last (docs/sign-ins.md): saved states through real servers, across a restart and a SIGKILL, per identity, unreadable at rest; forks of a signed-in session.
import { writeFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectInProcess, expectError, expectSuccess, sleep, startCli, tempDirs, type InProcessConnection } from './helpers.js';
import { connectStreamable, startHttpCli } from './http-helpers.js';

const STATE_KEY = 'a-state-key-for-these-tests-6d1f';

let fixture: FixtureServer;
const tempDir = tempDirs('sessionwright-states-');
beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
});

type Tool = (name: string, args?: Record<string, unknown>) => ReturnType<typeof call>;
const toolOf =
  (client: Client): Tool =>
  (name, args = {}) =>
    call(client, name, args);

/** Signs a new session in to the cookie site as `user` and the token site as `user`-token; answers its id. */
async function signIn(tool: Tool, user: string): Promise<string> {
  const { sessionId } = expectSuccess(await tool('create_session'));
  expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/login') }));
  expectSuccess(await tool('type', { sessionId, selector: '#user', text: user }));
  expectSuccess(await tool('click', { sessionId, selector: '#sign-in' }));
  expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/token-login') }));
  expectSuccess(await tool('type', { sessionId, selector: '#user', text: `${user}-token` }));
  expectSuccess(await tool('click', { sessionId, selector: '#sign-in' }));
  expectSuccess(await tool('wait_for', { sessionId, text: `Signed in as ${user}-token` }));
  return sessionId;
}

/** Who the session is signed in as on each site. */
async function whoIs(tool: Tool, sessionId: string): Promise<{ cookie: string; token: string }> {
  expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/account') }));
  const cookie = expectSuccess(await tool('evaluate', { sessionId, function: '() => document.querySelector("#account").textContent' })).result;
  expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/token-account') }));
  expectSuccess(await tool('wait_for', { sessionId, textGone: 'Checking' }));
  const token = expectSuccess(await tool('evaluate', { sessionId, function: '() => document.querySelector("#account").textContent' })).result;
  return { cookie, token };
}

/** The secrets a signed-in session holds: its cookie's value and its localStorage token. */
async function secretsOf(tool: Tool, sessionId: string): Promise<string[]> {
  const { storageState } = expectSuccess(await tool('export_storage_state', { sessionId }));
  const cookie = storageState.cookies.find((entry: { name: string }) => entry.name === 'session').value as string;
  const token = storageState.origins[0].localStorage.find((entry: { name: string }) => entry.name === 'token').value as string;
  return [cookie, token];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('saved states and forks (in process)', () => {
  let server: InProcessConnection;
  let dataDir: string;
  let tool: Tool;
  beforeAll(async () => {
    dataDir = tempDir();
    server = await connectInProcess(['--headless', '--caps', 'states,storage', '--data-dir', dataDir, '--state-key', STATE_KEY, '--max-sessions', '8']);
    tool = toolOf(server.client);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('saves a sign-in, answers no values, and starts sessions from it signed in', async () => {
    const sessionId = await signIn(tool, 'ann');
    const secrets = await secretsOf(tool, sessionId);
    const saved = expectSuccess(await tool('save_state', { sessionId, name: 'shop' }));
    expect(saved).toMatchObject({ name: 'shop', cookies: 1, origins: [fixture.url] });
    const listed = expectSuccess(await tool('list_states'));
    expect(listed.states).toEqual([{ name: 'shop', savedAt: saved.savedAt, cookies: 1, origins: [fixture.url] }]);
    for (const answer of [saved, listed]) for (const secret of secrets) expect(JSON.stringify(answer)).not.toContain(secret);
    const fresh = expectSuccess(await tool('create_session', { state: 'shop', locale: 'de-DE' }));
    expect(fresh.options).toEqual({ locale: 'de-DE' });
    expect(await whoIs(tool, fresh.sessionId)).toEqual({ cookie: 'Signed in as ann', token: 'Signed in as ann-token' });
    // Nothing readable at rest: no cookie value, token, origin or name in any file or file name.
    const files = await filesUnder(dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      // Checkpoints are written while the sessions live: a temporary file listed a moment ago may have been renamed since.
      const raw = await readFile(file, 'latin1').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      for (const secret of [...secrets, '127.0.0.1', 'shop']) {
        expect(raw).not.toContain(secret);
        expect(path.relative(dataDir, file)).not.toContain(secret);
      }
    }
    expect(server.stderrText()).not.toContain(secrets[0]);
    expectSuccess(await tool('delete_state', { name: 'shop' }));
    expect(expectSuccess(await tool('list_states')).states).toEqual([]);
    const gone = expectError(await tool('create_session', { state: 'shop' }), 'INVALID_PARAMETERS');
    expect(gone.details).toEqual({ state: 'not_found' });
  });

  it('refuses bad names, a missing state, and state with storageState', async () => {
    const sessionId = expectSuccess(await tool('create_session')).sessionId;
    for (const name of ['../x', '', 'x'.repeat(10_000), 'a\0b']) {
      expectError(await tool('save_state', { sessionId, name }), 'INVALID_PARAMETERS');
      expectError(await tool('create_session', { state: name }), 'INVALID_PARAMETERS');
      expectError(await tool('delete_state', { name }), 'INVALID_PARAMETERS');
    }
    expect(expectError(await tool('delete_state', { name: 'never-saved' }), 'INVALID_PARAMETERS').details).toEqual({ state: 'not_found' });
    expectSuccess(await tool('save_state', { sessionId, name: 'blank' }));
    expectError(await tool('create_session', { state: 'blank', storageState: { cookies: [], origins: [] } }), 'INVALID_PARAMETERS');
    expectError(await tool('save_state', { sessionId: 'no-such-session', name: 'x' }), 'SESSION_NOT_FOUND');
    expectSuccess(await tool('close_session', { sessionId }));
  });

  it('forks a signed-in page three times: each lands signed in on the same page, then goes its own way', async () => {
    const sessionId = await signIn(tool, 'cy');
    expectSuccess(await tool('navigate', { sessionId, url: fixture.urlFor('/account') }));
    const { sessions } = expectSuccess(await tool('fork_session', { sessionId, count: 3 }));
    expect(sessions).toHaveLength(3);
    for (const copy of sessions) expect(copy).toEqual({ sessionId: expect.any(String), url: fixture.urlFor('/account'), title: 'Account' });
    for (const copy of sessions) {
      const text = expectSuccess(await tool('evaluate', { sessionId: copy.sessionId, function: '() => document.querySelector("#account").textContent' }));
      expect(text.result).toBe('Signed in as cy');
    }
    const [first, second, third] = sessions.map((copy: { sessionId: string }) => copy.sessionId) as [string, string, string];
    // The first signs in as someone else, the second signs out of the token site; the third and the original are untouched.
    expectSuccess(await tool('navigate', { sessionId: first, url: fixture.urlFor('/login') }));
    expectSuccess(await tool('type', { sessionId: first, selector: '#user', text: 'dora' }));
    expectSuccess(await tool('click', { sessionId: first, selector: '#sign-in' }));
    expectSuccess(await tool('evaluate', { sessionId: second, function: '() => localStorage.removeItem("token")' }));
    expect(await whoIs(tool, first)).toEqual({ cookie: 'Signed in as dora', token: 'Signed in as cy-token' });
    expect(await whoIs(tool, second)).toEqual({ cookie: 'Signed in as cy', token: 'Not signed in' });
    expect(await whoIs(tool, third)).toEqual({ cookie: 'Signed in as cy', token: 'Signed in as cy-token' });
    expect(await whoIs(tool, sessionId)).toEqual({ cookie: 'Signed in as cy', token: 'Signed in as cy-token' });
    for (const id of [sessionId, first, second, third]) expectSuccess(await tool('close_session', { sessionId: id }));
  });

  it("starts the playwright profile's implicit page from --state, and answers not_found for a state nobody saved", async () => {
    const sessionId = await signIn(tool, 'hal');
    expectSuccess(await tool('save_state', { sessionId, name: 'for-the-drop-in' }));
    expectSuccess(await tool('close_session', { sessionId }));
    const flags = ['--headless', '--profile', 'playwright', '--data-dir', dataDir, '--state-key', STATE_KEY];
    const dropIn = await connectInProcess([...flags, '--state', 'for-the-drop-in']);
    try {
      expectSuccess(await call(dropIn.client, 'browser_navigate', { url: fixture.urlFor('/account') }));
      const read = await call(dropIn.client, 'browser_evaluate', { function: '() => document.querySelector("#account").textContent' });
      expect(JSON.stringify(read.json)).toContain('Signed in as hal');
    } finally {
      await dropIn.close();
    }
    const missing = await connectInProcess([...flags, '--state', 'nobody-saved-this']);
    try {
      const refused = expectError(await call(missing.client, 'browser_navigate', { url: fixture.urlFor('/account') }), 'INVALID_PARAMETERS');
      expect(refused.details).toEqual({ state: 'not_found' });
    } finally {
      await missing.close();
    }
  });

  it('moves the states to a new key with --state-key-previous', async () => {
    const sessionId = await signIn(tool, 'ida');
    expectSuccess(await tool('save_state', { sessionId, name: 'rotated' }));
    expectSuccess(await tool('close_session', { sessionId }));
    const newKey = 'a-newer-state-key-for-these-tests-93b2';
    const renewed = await connectInProcess(['--headless', '--caps', 'states', '--data-dir', dataDir, '--state-key', newKey, '--state-key-previous', STATE_KEY]);
    try {
      await waitFor(() => /sealed again with the new key/.test(renewed.stderrText()), { timeout: 30_000 });
      const names = expectSuccess(await call(renewed.client, 'list_states')).states.map((state: { name: string }) => state.name);
      expect(names).toContain('rotated');
      const { sessionId: restored } = expectSuccess(await call(renewed.client, 'create_session', { state: 'rotated' }));
      expect((await whoIs(toolOf(renewed.client), restored)).cookie).toBe('Signed in as ida');
    } finally {
      await renewed.close();
    }
    // The old key opens nothing any more.
    expect(expectSuccess(await tool('list_states')).states).toEqual([]);
  });

  it('answers MAX_SESSIONS_REACHED for a fork that does not fit, opening none; refuses a count outside 1 to 10', async () => {
    const { sessionId } = expectSuccess(await tool('create_session'));
    const before = expectSuccess(await tool('list_sessions')).sessions.length;
    expectError(await tool('fork_session', { sessionId, count: 8 }), 'MAX_SESSIONS_REACHED');
    expect(expectSuccess(await tool('list_sessions')).sessions.length).toBe(before);
    for (const count of [0, 11, 2.5]) expectError(await tool('fork_session', { sessionId, count }), 'INVALID_PARAMETERS');
    const one = expectSuccess(await tool('fork_session', { sessionId }));
    expect(one.sessions).toHaveLength(1);
    expect(one.sessions[0].url).toBe('about:blank');
  });
});

describe('saved states over stdio: a restart and a SIGKILL', () => {
  it('outlive the server: after a restart with the same --data-dir, a session starts signed in; the key file is 0600', async () => {
    const dataDir = tempDir();
    const flags = ['--caps', 'states,storage', '--data-dir', dataDir];
    const first = await startCli(flags);
    let secrets: string[];
    try {
      const tool = toolOf(first.client);
      const sessionId = await signIn(tool, 'eve');
      secrets = await secretsOf(tool, sessionId);
      expectSuccess(await tool('save_state', { sessionId, name: 'daily' }));
    } finally {
      await first.close();
    }
    expect(((await stat(path.join(dataDir, 'state.key'))).mode & 0o777).toString(8)).toBe('600');
    for (const file of await filesUnder(dataDir)) {
      if (file.endsWith('state.key')) continue;
      const raw = await readFile(file, 'latin1');
      for (const secret of secrets) expect(raw).not.toContain(secret);
    }
    const second = await startCli(flags);
    try {
      const tool = toolOf(second.client);
      expect(expectSuccess(await tool('list_states')).states.map((state: { name: string }) => state.name)).toEqual(['daily']);
      const { sessionId } = expectSuccess(await tool('create_session', { state: 'daily' }));
      expect(await whoIs(tool, sessionId)).toEqual({ cookie: 'Signed in as eve', token: 'Signed in as eve-token' });
    } finally {
      await second.close();
    }
    // The playwright profile's implicit page starts from the state with --state.
    const dropIn = await startCli(['--profile', 'playwright', '--data-dir', dataDir, '--state', 'daily']);
    try {
      expectSuccess(await call(dropIn.client, 'browser_navigate', { url: fixture.urlFor('/account') }));
      const read = await call(dropIn.client, 'browser_evaluate', { function: '() => document.querySelector("#account").textContent' });
      expect(JSON.stringify(read.json)).toContain('Signed in as eve');
    } finally {
      await dropIn.close();
    }
  });

  it('a SIGKILL during saves leaves the state readable', async () => {
    const dataDir = tempDir();
    const flags = ['--caps', 'states', '--data-dir', dataDir, '--state-key', STATE_KEY];
    const doomed = await startCli(flags);
    const tool = toolOf(doomed.client);
    const sessionId = await signIn(tool, 'fay');
    expectSuccess(await tool('save_state', { sessionId, name: 'kept' }));
    // Saves under way, then the process is killed while they run.
    for (let index = 0; index < 5; index += 1) void doomed.client.callTool({ name: 'save_state', arguments: { sessionId, name: 'kept' } }).catch(() => {});
    await sleep(60);
    process.kill(doomed.pid!, 'SIGKILL');
    await doomed.close().catch(() => {});
    const after = await startCli(flags);
    try {
      const again = toolOf(after.client);
      expect(expectSuccess(await again('list_states')).states.map((state: { name: string }) => state.name)).toEqual(['kept']);
      const restored = expectSuccess(await again('create_session', { state: 'kept' }));
      expect(await whoIs(again, restored.sessionId)).toEqual({ cookie: 'Signed in as fay', token: 'Signed in as fay-token' });
      expect(after.stderrText()).not.toMatch(/cannot be opened|not a record/);
    } finally {
      await after.close();
    }
  });
});

describe('saved states per identity (HTTP, --auth-tokens-file)', () => {
  it('another identity cannot see or use a state: its name answers exactly as a missing one', async () => {
    const dir = tempDir();
    const tokensFile = path.join(dir, 'tokens');
    writeFileSync(tokensFile, 'alice alice-token-51ac09\nbob bob-token-0a77be\n');
    const server = await startHttpCli(['--auth-tokens-file', tokensFile, '--caps', 'states', '--data-dir', path.join(dir, 'data'), '--state-key', STATE_KEY]);
    const clients: Client[] = [];
    try {
      const as = async (token: string) => {
        const { client } = await connectStreamable(server.base, { Authorization: `Bearer ${token}` });
        clients.push(client);
        return toolOf(client);
      };
      const alice = await as('alice-token-51ac09');
      const bob = await as('bob-token-0a77be');
      const sessionId = await signIn(alice, 'gus');
      expectSuccess(await alice('save_state', { sessionId, name: 'alices' }));
      expect(expectSuccess(await bob('list_states')).states).toEqual([]);
      const foreign = expectError(await bob('create_session', { state: 'alices' }), 'INVALID_PARAMETERS');
      const missing = expectError(await bob('create_session', { state: 'nobodys' }), 'INVALID_PARAMETERS');
      expect(foreign.details).toEqual(missing.details);
      expect(foreign.message.replace('alices', 'X')).toBe(missing.message.replace('nobodys', 'X'));
      expect(expectError(await bob('delete_state', { name: 'alices' }), 'INVALID_PARAMETERS').details).toEqual({ state: 'not_found' });
      // Bob's own state of the same name is his, and Alice's stays hers.
      const bobs = expectSuccess(await bob('create_session')).sessionId;
      expectSuccess(await bob('save_state', { sessionId: bobs, name: 'alices' }));
      expect(expectSuccess(await bob('list_states')).states[0].cookies).toBe(0);
      expect(expectSuccess(await alice('list_states')).states[0].cookies).toBe(1);
      const restored = expectSuccess(await alice('create_session', { state: 'alices' }));
      expect((await whoIs(alice, restored.sessionId)).cookie).toBe('Signed in as gus');
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await server.stop();
    }
  });
});
