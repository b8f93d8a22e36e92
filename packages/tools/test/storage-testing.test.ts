// The storage and testing caps in process, in both profiles (runTool over a real SessionManager, Chromium and the fixture server): cookies and web storage as the page sees them, storage state files only inside the allowed directories, assertions that pass and fail, locators, and sessions that never see each other's data.
import { mkdtempSync } from 'node:fs';
import { readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools, capabilityTools, playwrightProfile } from '../src/index.js';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

/** A page for the assertions: a button, a list, fields, and a text that appears a moment after load. */
const CHECKS_PAGE = `<!doctype html><html><head><title>Checks</title></head><body>
<h1>Checks</h1>
<button id="go">Submit order</button>
<ul id="fruit"><li>Apple</li><li>Banana</li><li>Cherry</li></ul>
<label>Name <input id="name" value="Ada"></label>
<label><input id="agree" type="checkbox" checked> Agree</label>
<p id="hidden" style="display:none">Hidden words</p>
<p id="later"></p>
<script>setTimeout(() => { document.getElementById('later').textContent = 'Arrived late'; }, 300);</script>
</body></html>`;

/** A text only this test writes into a file, to see that no answer quotes a file back. */
const FILE_SECRET = 'file-secret-7c1e';

const fixture = { pages: { checks: CHECKS_PAGE } };
// As servers started with --output-dir <outputDir>: files are written and read there; `outside` is anywhere else.
const outputDir = mkdtempSync(path.join(tmpdir(), 'sessionwright-storage-out-'));
const outside = mkdtempSync(path.join(tmpdir(), 'sessionwright-storage-outside-'));
afterAll(async () => {
  await Promise.all([outputDir, outside].map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('storage and testing caps (default profile)', () => {
  const harness = useTools({ fixture, maxSessions: 40, toolOptions: { outputDir }, manager: { outputDir } });
  let fx: FixtureServer;
  beforeAll(() => {
    fx = harness.fixture();
  });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  const sessionOn = async (pagePath: string) => {
    const sessionId = await harness.createSession();
    expectSuccess(await tool('navigate', { sessionId, url: fx.urlFor(pagePath) }));
    return sessionId;
  };
  const inPage = async (sessionId: string, expression: string) => expectSuccess(await tool('evaluate', { sessionId, function: `() => ${expression}` })).result;

  it("gets, sets and deletes cookies as the page sees them; the open page's host by default; another session untouched", async () => {
    const [a, b] = await Promise.all([sessionOn('/pages/home'), sessionOn('/pages/home')]);
    const set = expectSuccess(
      await tool('cookies', {
        sessionId: a,
        action: 'set',
        cookies: [
          { name: 'theme', value: 'dark' },
          { name: 'lang', value: 'de', path: '/pages' },
        ],
      }),
    );
    expect(set.cookies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'theme', value: 'dark', domain: '127.0.0.1', path: '/' }),
        expect.objectContaining({ name: 'lang', value: 'de', path: '/pages' }),
      ]),
    );
    expectSuccess(await tool('cookies', { sessionId: b, action: 'set', cookies: [{ name: 'theme', value: 'light' }] }));
    expect((await inPage(a, 'document.cookie')).split('; ').sort()).toEqual(['lang=de', 'theme=dark']);

    const got = expectSuccess(await tool('cookies', { sessionId: a, action: 'get', name: 'theme' }));
    expect(got.cookies).toEqual([expect.objectContaining({ name: 'theme', value: 'dark' })]);
    expect(expectSuccess(await tool('cookies', { sessionId: a, action: 'list', path: '/pages' })).cookies.map((c: { name: string }) => c.name)).toEqual([
      'lang',
    ]);
    expect(expectSuccess(await tool('cookies', { sessionId: a, action: 'list', domain: 'example.org' })).cookies).toEqual([]);
    expect(expectSuccess(await tool('cookies', { sessionId: a, action: 'list', domain: '127.0' })).cookies).toHaveLength(2);

    expect(expectSuccess(await tool('cookies', { sessionId: a, action: 'delete', name: 'theme' })).cookies).toEqual([]);
    expect(await inPage(a, 'document.cookie')).toBe('lang=de');
    // The neighbour's cookie of the same name is still there, and its page still sends it.
    expect(await inPage(b, 'document.cookie')).toBe('theme=light');

    expectError(await tool('cookies', { sessionId: a, action: 'get' }), 'INVALID_PARAMETERS', a);
    expectError(await tool('cookies', { sessionId: a, action: 'delete' }), 'INVALID_PARAMETERS', a);
    expect(await inPage(a, 'document.cookie')).toBe('lang=de');
  });

  it('reads and writes the open page’s localStorage and sessionStorage; another session sees none of it', async () => {
    const [a, b] = await Promise.all([sessionOn('/pages/home'), sessionOn('/pages/home')]);
    const origin = new URL(fx.url).origin;
    expect(expectSuccess(await tool('web_storage', { sessionId: a, area: 'local', action: 'set', key: 'token', value: 'abc' }))).toMatchObject({
      origin,
      count: 1,
    });
    expectSuccess(await tool('web_storage', { sessionId: a, area: 'session', action: 'set', key: 'step', value: '2' }));
    expect(await inPage(a, "[localStorage.getItem('token'), sessionStorage.getItem('step'), localStorage.getItem('step')]")).toEqual(['abc', '2', null]);

    await inPage(a, "localStorage.setItem('fromPage', 'yes')");
    const listed = expectSuccess(await tool('web_storage', { sessionId: a, area: 'local', action: 'list' }));
    expect(listed.items).toEqual(
      expect.arrayContaining([
        { name: 'token', value: 'abc' },
        { name: 'fromPage', value: 'yes' },
      ]),
    );
    expect(expectSuccess(await tool('web_storage', { sessionId: a, area: 'local', action: 'get', key: 'fromPage' })).value).toBe('yes');
    expect(expectSuccess(await tool('web_storage', { sessionId: a, area: 'local', action: 'get', key: 'missing' })).value).toBeNull();

    expect(expectSuccess(await tool('web_storage', { sessionId: b, area: 'local', action: 'list' })).items).toEqual([]);
    expect(await inPage(b, 'localStorage.length + sessionStorage.length')).toBe(0);

    expectSuccess(await tool('web_storage', { sessionId: a, area: 'local', action: 'delete', key: 'token' }));
    expect(await inPage(a, "[localStorage.getItem('token'), localStorage.getItem('fromPage')]")).toEqual([null, 'yes']);
    expect(expectSuccess(await tool('web_storage', { sessionId: a, area: 'session', action: 'clear' })).count).toBe(0);
    expect(await inPage(a, 'sessionStorage.length')).toBe(0);
    expect(await inPage(a, 'localStorage.length')).toBe(1);

    expectError(await tool('web_storage', { sessionId: a, area: 'local', action: 'set', key: 'k' }), 'INVALID_PARAMETERS', a);
    expectError(await tool('web_storage', { sessionId: a, area: 'local', action: 'get' }), 'INVALID_PARAMETERS', a);
    const blank = await harness.createSession();
    expect(expectError(await tool('web_storage', { sessionId: blank, area: 'local', action: 'list' }), 'INVALID_PARAMETERS', blank).message).toMatch(
      /navigate/,
    );
    // The failures left the sessions usable.
    expect(expectSuccess(await tool('web_storage', { sessionId: a, area: 'local', action: 'list' })).items).toEqual([{ name: 'fromPage', value: 'yes' }]);
  });

  it('writes the state to a file in --output-dir; a new session loads it and is signed in, the running one is replaced', async () => {
    const signedIn = await sessionOn('/sign-in?user=carol');
    await inPage(signedIn, "localStorage.setItem('cart', '3 items')");
    const exported = expectSuccess(await tool('export_storage_state', { sessionId: signedIn, filename: 'states/carol.json' }));
    expect(exported.file).toBe(path.join(await realpath(outputDir), 'states', 'carol.json'));
    expect(exported.storageState).toBeUndefined();
    const saved = JSON.parse(await readFile(exported.file, 'utf8'));
    expect(saved.cookies).toEqual([expect.objectContaining({ name: 'session', httpOnly: true })]);

    const other = await sessionOn('/pages/home');
    expectSuccess(await tool('cookies', { sessionId: other, action: 'set', cookies: [{ name: 'stale', value: '1' }] }));
    const loaded = expectSuccess(await tool('load_storage_state', { sessionId: other, filename: 'states/carol.json' }));
    expect(loaded).toMatchObject({ success: true, cookies: 1, origins: 1 });
    expectSuccess(await tool('navigate', { sessionId: other, url: fx.urlFor('/account') }));
    expect(await inPage(other, "[document.querySelector('h1').textContent, localStorage.getItem('cart'), document.cookie]")).toEqual([
      'Signed in as carol',
      '3 items',
      '',
    ]);

    // An inline state works the same; a session that loaded nothing stays signed out.
    const inline = await harness.createSession();
    expectSuccess(await tool('load_storage_state', { sessionId: inline, storageState: saved }));
    const plain = await harness.createSession();
    for (const [sessionId, heading] of [
      [inline, 'Signed in as carol'],
      [plain, 'Not signed in'],
    ]) {
      expectSuccess(await tool('navigate', { sessionId, url: fx.urlFor('/account') }));
      expect(await inPage(sessionId as string, "document.querySelector('h1').textContent")).toBe(heading);
    }
  });

  it('writes and reads state files only inside the allowed directories, bounded, never quoting them', async () => {
    const sessionId = await sessionOn('/pages/home');
    expectError(await tool('export_storage_state', { sessionId, filename: '../escape.json' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('export_storage_state', { sessionId, filename: path.join(outside, 'abs.json') }), 'INVALID_PARAMETERS', sessionId);
    expect(await readdir(outside)).toEqual([]);

    const foreign = path.join(outside, 'state.json');
    await writeFile(foreign, JSON.stringify({ cookies: [{ name: FILE_SECRET, value: FILE_SECRET, domain: '127.0.0.1', path: '/' }], origins: [] }));
    await writeFile(path.join(outputDir, 'notjson.json'), `${FILE_SECRET} is not json`);
    await writeFile(path.join(outputDir, 'notstate.json'), JSON.stringify({ cookies: [{ name: FILE_SECRET }] }));
    await writeFile(path.join(outputDir, 'huge.json'), Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    const refusals = [
      expectError(await tool('load_storage_state', { sessionId, filename: foreign }), 'INVALID_PARAMETERS', sessionId),
      expectError(await tool('load_storage_state', { sessionId, filename: `../${path.basename(outside)}/state.json` }), 'INVALID_PARAMETERS', sessionId),
      expectError(await tool('load_storage_state', { sessionId, filename: 'notjson.json' }), 'INVALID_PARAMETERS', sessionId),
      expectError(await tool('load_storage_state', { sessionId, filename: 'notstate.json' }), 'INVALID_PARAMETERS', sessionId),
      expectError(await tool('load_storage_state', { sessionId, filename: 'huge.json' }), 'INVALID_PARAMETERS', sessionId),
      expectError(await tool('load_storage_state', { sessionId, filename: 'missing.json' }), 'INVALID_PARAMETERS', sessionId),
      expectError(await tool('load_storage_state', { sessionId }), 'INVALID_PARAMETERS', sessionId),
      expectError(
        await tool('load_storage_state', { sessionId, storageState: { cookies: [{ name: FILE_SECRET, value: 1 }] } }),
        'INVALID_PARAMETERS',
        sessionId,
      ),
    ];
    expect(refusals[4].details.reason).toBe('too large');
    expect(JSON.stringify(refusals)).not.toContain(FILE_SECRET);
    // Nothing was loaded, and the session still works.
    expect(expectSuccess(await tool('cookies', { sessionId, action: 'list' })).cookies).toEqual([]);
  });

  it('verify passes on what the page shows, waits for what comes late, and fails with WAIT_TIMEOUT saying what the page had', async () => {
    const sessionId = await sessionOn('/pages/checks');
    const pass = async (args: Record<string, unknown>) => expect(expectSuccess(await tool('verify', { sessionId, ...args })).passed).toBe(true);
    await pass({ check: 'element_visible', role: 'button', name: 'Submit order' });
    await pass({ check: 'text_visible', text: 'Arrived late' });
    await pass({ check: 'list_visible', selector: '#fruit', items: ['Apple', 'Cherry'] });
    await pass({ check: 'value', selector: '#name', value: 'Ada' });
    await pass({ check: 'value', selector: '#agree', value: 'true' });
    const snapshot = expectSuccess(await tool('snapshot', { sessionId })).snapshot as string;
    const listRef = /list \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    await pass({ check: 'list_visible', ref: listRef, items: ['Banana'] });

    const fail = async (args: Record<string, unknown>) => expectError(await tool('verify', { sessionId, timeout: 200, ...args }), 'WAIT_TIMEOUT', sessionId);
    expect((await fail({ check: 'element_visible', role: 'button', name: 'Cancel' })).details.check).toBe('element_visible');
    await fail({ check: 'text_visible', text: 'Hidden words' });
    expect((await fail({ check: 'list_visible', selector: '#fruit', items: ['Apple', 'Durian'] })).details.actual).toContain('Durian');
    const wrong = await fail({ check: 'value', selector: '#name', value: 'Grace' });
    expect(wrong.details).toMatchObject({ expected: 'value "Grace"', actual: '"Ada"' });
    await fail({ check: 'value', selector: '#agree', value: 'false' });

    expectError(await tool('verify', { sessionId, check: 'text_visible' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('verify', { sessionId, check: 'value', selector: '#name' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('verify', { sessionId, check: 'text_visible', text: 'x', role: 'button' }), 'INVALID_PARAMETERS', sessionId);
    expectError(await tool('verify', { sessionId, check: 'value', selector: '#nothing', value: 'x', timeout: 200 }), 'ELEMENT_NOT_FOUND', sessionId);
    // The page was only read: the field is as it was.
    expect(await inPage(sessionId, "document.getElementById('name').value")).toBe('Ada');
  });

  it('generate_locator answers the locator code for a ref or a selector', async () => {
    const sessionId = await sessionOn('/pages/checks');
    const snapshot = expectSuccess(await tool('snapshot', { sessionId })).snapshot as string;
    const buttonRef = /button "Submit order" \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    expect(expectSuccess(await tool('generate_locator', { sessionId, ref: buttonRef })).locator).toBe("getByRole('button', { name: 'Submit order' })");
    expect(expectSuccess(await tool('generate_locator', { sessionId, selector: '#go' })).locator).toBe("getByRole('button', { name: 'Submit order' })");
    expectError(await tool('generate_locator', { sessionId, selector: '#nothing' }), 'ELEMENT_NOT_FOUND', sessionId);
    expectError(await tool('generate_locator', { sessionId, selector: 'li' }), 'ELEMENT_AMBIGUOUS', sessionId);
    expectError(await tool('generate_locator', { sessionId }), 'INVALID_PARAMETERS', sessionId);
  });
});

describe('storage and testing caps (playwright profile)', () => {
  // As --profile playwright --caps storage,testing --output-dir <outputDir>, and one with --caps storage and no --output-dir.
  const harness = useTools({ fixture, profile: playwrightProfile(['storage', 'testing']), toolOptions: { outputDir }, manager: { outputDir } });
  const bare = useTools({ profile: playwrightProfile(['storage']) });
  let fx: FixtureServer;
  beforeAll(() => {
    fx = harness.fixture();
  });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  const inPage = async (expression: string, sessionId?: string) =>
    expectSuccess(await tool('browser_evaluate', { function: `() => ${expression}`, ...(sessionId ? { sessionId } : {}) })).result;

  it("sets, reads and deletes cookies on the connection's own page; a named session is untouched", async () => {
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/pages/home') }));
    const other = await harness.createSession();
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/pages/home'), sessionId: other }));

    const set = expectSuccess(await tool('browser_cookie_set', { name: 'flavour', value: 'mint', sameSite: 'Strict' }));
    expect(set).toMatchObject({ url: fx.urlFor('/pages/home'), title: expect.any(String) });
    expect(set.cookies).toEqual([expect.objectContaining({ name: 'flavour', value: 'mint', domain: '127.0.0.1', path: '/', sameSite: 'Strict' })]);
    expectSuccess(await tool('browser_cookie_set', { name: 'scoped', value: '1', domain: '127.0.0.1', path: '/pages' }));
    expect((await inPage('document.cookie')).split('; ').sort()).toEqual(['flavour=mint', 'scoped=1']);
    expect(await inPage('document.cookie', other)).toBe('');

    expect(expectSuccess(await tool('browser_cookie_get', { name: 'flavour' })).cookies).toEqual([expect.objectContaining({ value: 'mint' })]);
    expect(expectSuccess(await tool('browser_cookie_list', { path: '/pages' })).cookies.map((c: { name: string }) => c.name)).toEqual(['scoped']);
    expect(expectSuccess(await tool('browser_cookie_list', { domain: '127.0.0.1' })).cookies).toHaveLength(2);
    // Playwright's own `playwright mcp` narrows a delete by domain and path: another domain's cookie of that name stays.
    expectSuccess(await tool('browser_cookie_set', { name: 'flavour', value: 'elsewhere', domain: 'example.test' }));
    expectSuccess(await tool('browser_cookie_delete', { name: 'flavour', domain: 'example.test' }));
    expect((await inPage('document.cookie')).split('; ').sort()).toEqual(['flavour=mint', 'scoped=1']);
    expect(expectSuccess(await tool('browser_cookie_list', { domain: 'example.test' })).cookies).toEqual([]);
    expectSuccess(await tool('browser_cookie_delete', { name: 'scoped', path: '/elsewhere' }));
    expect((await inPage('document.cookie')).split('; ').sort()).toEqual(['flavour=mint', 'scoped=1']);
    expectSuccess(await tool('browser_cookie_delete', { name: 'flavour' }));
    expect(await inPage('document.cookie')).toBe('scoped=1');
    expectSuccess(await tool('browser_cookie_set', { name: 'theirs', value: 'kept', sessionId: other }));
    expectSuccess(await tool('browser_cookie_clear'));
    expect(await inPage('document.cookie')).toBe('');
    expect(await inPage('document.cookie', other)).toBe('theirs=kept');
    expectError(await tool('browser_cookie_get', {}), 'INVALID_PARAMETERS');
  });

  it('local and session storage tools act on the open page’s origin', async () => {
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/pages/home') }));
    expectSuccess(await tool('browser_localstorage_clear'));
    expectSuccess(await tool('browser_localstorage_set', { key: 'a', value: '1' }));
    expectSuccess(await tool('browser_sessionstorage_set', { key: 'b', value: '2' }));
    expect(await inPage("[localStorage.getItem('a'), sessionStorage.getItem('b')]")).toEqual(['1', '2']);
    expect(expectSuccess(await tool('browser_localstorage_list')).items).toEqual([{ name: 'a', value: '1' }]);
    expect(expectSuccess(await tool('browser_sessionstorage_get', { key: 'b' })).value).toBe('2');
    expect(expectSuccess(await tool('browser_localstorage_get', { key: 'nope' })).value).toBeNull();
    expectSuccess(await tool('browser_localstorage_delete', { key: 'a' }));
    expectSuccess(await tool('browser_sessionstorage_delete', { key: 'b' }));
    expect(await inPage('localStorage.length + sessionStorage.length')).toBe(0);
    expectSuccess(await tool('browser_sessionstorage_set', { key: 'c', value: '3' }));
    expectSuccess(await tool('browser_sessionstorage_clear'));
    expect(expectSuccess(await tool('browser_sessionstorage_list')).items).toEqual([]);
    expectError(await tool('browser_localstorage_set', { key: 'a' }), 'INVALID_PARAMETERS');
  });

  it('browser_storage_state saves a file in --output-dir; browser_set_storage_state restores it in another session', async () => {
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/sign-in?user=dave') }));
    await inPage("localStorage.setItem('pref', 'compact')");
    const saved = expectSuccess(await tool('browser_storage_state'));
    expect(path.dirname(saved.file)).toBe(await realpath(outputDir));
    expect(path.basename(saved.file)).toMatch(/^storage-state-.*\.json$/);
    const named = expectSuccess(await tool('browser_storage_state', { filename: 'dave.json' }));
    expect(JSON.parse(await readFile(named.file, 'utf8')).cookies).toEqual([expect.objectContaining({ name: 'session' })]);
    expectError(await tool('browser_storage_state', { filename: '../out.json' }), 'INVALID_PARAMETERS');

    const other = await harness.createSession();
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/account'), sessionId: other }));
    expect(await inPage("document.querySelector('h1').textContent", other)).toBe('Not signed in');
    expectSuccess(await tool('browser_set_storage_state', { filename: path.basename(saved.file), sessionId: other }));
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/account'), sessionId: other }));
    expect(await inPage("[document.querySelector('h1').textContent, localStorage.getItem('pref')]", other)).toEqual(['Signed in as dave', 'compact']);

    expectError(await tool('browser_set_storage_state', { filename: path.join(outside, 'state.json') }), 'INVALID_PARAMETERS');
    expectError(await tool('browser_set_storage_state', {}), 'INVALID_PARAMETERS');
  });

  it('without --output-dir browser_storage_state answers the state, and a filename is refused', async () => {
    const bareTool = (name: string, args: Record<string, unknown> = {}) => bare.checkedCall(name, args);
    expectSuccess(await bareTool('browser_navigate', { url: bare.fixture().urlFor('/pages/home') }));
    expectSuccess(await bareTool('browser_cookie_set', { name: 'n', value: 'v' }));
    expect(expectSuccess(await bareTool('browser_storage_state')).storageState.cookies).toEqual([expect.objectContaining({ name: 'n', value: 'v' })]);
    expectError(await bareTool('browser_storage_state', { filename: 'x.json' }), 'INVALID_PARAMETERS');
  });

  it('browser_verify_* pass, or fail as errors saying what the page had; browser_generate_locator answers code', async () => {
    expectSuccess(await tool('browser_navigate', { url: fx.urlFor('/pages/checks') }));
    expect(expectSuccess(await tool('browser_verify_element_visible', { role: 'button', accessibleName: 'Submit order' }))).toMatchObject({
      passed: true,
      url: fx.urlFor('/pages/checks'),
      title: 'Checks',
    });
    expectSuccess(await tool('browser_verify_text_visible', { text: 'Arrived late' }));
    const snapshot = expectSuccess(await tool('browser_snapshot')).snapshot as string;
    const listRef = /list \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    const fieldRef = /textbox "Name" \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    expectSuccess(await tool('browser_verify_list_visible', { element: 'fruit', target: listRef, items: ['Apple', 'Banana'] }));
    expectSuccess(await tool('browser_verify_list_visible', { element: 'fruit', target: '#fruit', items: ['Cherry'] }));
    expectSuccess(await tool('browser_verify_value', { type: 'textbox', element: 'name', target: fieldRef, value: 'Ada' }));
    expectSuccess(await tool('browser_verify_value', { type: 'checkbox', element: 'agree', target: '#agree', value: 'true' }));

    expect(expectError(await tool('browser_verify_text_visible', { text: 'Not on this page' }), 'WAIT_TIMEOUT').message).toMatch(/Not on this page/);
    expect(
      expectError(await tool('browser_verify_value', { type: 'textbox', element: 'name', target: '#name', value: 'Bob' }), 'WAIT_TIMEOUT').details.actual,
    ).toBe('"Ada"');
    expectError(await tool('browser_verify_element_visible', { role: 'button' }), 'INVALID_PARAMETERS');

    const buttonRef = /button "Submit order" \[ref=((?:f\d+)?e\d+)\]/.exec(snapshot)?.[1];
    expect(expectSuccess(await tool('browser_generate_locator', { element: 'submit', target: buttonRef })).locator).toBe(
      "getByRole('button', { name: 'Submit order' })",
    );
    expect(expectSuccess(await tool('browser_generate_locator', { target: '#name' })).locator).toBe("getByRole('textbox', { name: 'Name' })");
  });
});

/** The storage capability's export_storage_state and cookies, by name. */
const storageTools = capabilityTools.filter((entry) => entry.name === 'export_storage_state' || entry.name === 'cookies');

describe('export_storage_state and cookies (default profile, no --output-dir)', () => {
  const harness = useTools({ maxSessions: 5 });
  const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
  const heading = async (sessionId: string, pagePath: string) => {
    expectSuccess(await tool('navigate', { sessionId, url: harness.fixture().urlFor(pagePath) }));
    return expectSuccess(await tool('evaluate', { sessionId, function: "() => document.querySelector('h1').textContent" })).result;
  };

  it('are left out of the default tool list', () => {
    expect(allTools.map((entry) => entry.name)).not.toContain('export_storage_state');
    expect(allTools.map((entry) => entry.name)).not.toContain('cookies');
    expect(allTools.length).toBeLessThanOrEqual(27);
    expect(storageTools).toHaveLength(2);
    expect(storageTools.every((entry) => entry.capability === 'storage')).toBe(true);
  });

  it('carry a sign-in over: the exported state signs a new session in, a third session is not', async () => {
    const first = await harness.createSession();
    expect(await heading(first, '/sign-in?user=bob')).toBe('Signed in as bob');
    const exported = expectSuccess(await tool('export_storage_state', { sessionId: first }));
    expect(exported.storageState.cookies).toEqual([expect.objectContaining({ name: 'session', domain: '127.0.0.1', httpOnly: true })]);
    expect(exported.expiresAt).toEqual(expect.any(Number));

    const second = expectSuccess(await tool('create_session', { storageState: exported.storageState }));
    try {
      expect(JSON.stringify(second.options)).not.toContain(exported.storageState.cookies[0].value);
      const third = await harness.createSession();
      expect(await heading(second.sessionId, '/account')).toBe('Signed in as bob');
      expect(await heading(third, '/account')).toBe('Not signed in');
    } finally {
      await tool('close_session', { sessionId: second.sessionId });
    }
  });

  it('list, set and clear cookies of one session only', async () => {
    const fx = harness.fixture();
    const [a, b] = await Promise.all([harness.createSession(), harness.createSession()]);
    const set = expectSuccess(
      await tool('cookies', {
        sessionId: a,
        action: 'set',
        cookies: [
          { name: 'theme', value: 'dark', url: fx.url },
          { name: 'other', value: 'x', domain: 'example.com', path: '/' },
        ],
      }),
    );
    expect(set.cookies.map((cookie: { name: string }) => cookie.name).sort()).toEqual(['other', 'theme']);
    const filtered = expectSuccess(await tool('cookies', { sessionId: a, action: 'list', urls: [fx.url] }));
    expect(filtered.cookies).toEqual([expect.objectContaining({ name: 'theme', value: 'dark', domain: '127.0.0.1', path: '/' })]);
    // The page sends it; the neighbour has none.
    expectSuccess(await tool('navigate', { sessionId: a, url: fx.urlFor('/echo-cookie') }));
    expect(expectSuccess(await tool('evaluate', { sessionId: a, function: "() => document.querySelector('#cookies').textContent" })).result).toBe('theme=dark');
    expect(expectSuccess(await tool('cookies', { sessionId: b, action: 'list' })).cookies).toEqual([]);

    const cleared = expectSuccess(await tool('cookies', { sessionId: a, action: 'clear', urls: [fx.url] }));
    expect(cleared.cookies).toEqual([]);
    expect(expectSuccess(await tool('cookies', { sessionId: a, action: 'list' })).cookies.map((cookie: { name: string }) => cookie.name)).toEqual(['other']);
    expect(expectSuccess(await tool('cookies', { sessionId: a, action: 'clear' })).cookies).toEqual([]);

    expectError(await tool('cookies', { sessionId: a, action: 'set' }), 'INVALID_PARAMETERS', a);
    // Without url or domain a cookie is for the open page's host, and about:blank has none.
    expectError(await tool('cookies', { sessionId: b, action: 'set', cookies: [{ name: 'n', value: 'v' }] }), 'INVALID_PARAMETERS', b);
    expectError(await tool('cookies', { sessionId: a, action: 'list', urls: ['about:blank'] }), 'INVALID_PARAMETERS', a);
    expectError(await tool('cookies', { sessionId: a, action: 'list', cookies: [{ name: 'n', value: 'v', url: fx.url }] }), 'INVALID_PARAMETERS', a);
    expectError(await tool('cookies', { sessionId: 'no-such-session', action: 'list' }), 'SESSION_NOT_FOUND', 'no-such-session');
    expectError(await tool('export_storage_state', { sessionId: 'no-such-session' }), 'SESSION_NOT_FOUND', 'no-such-session');
  });
});
