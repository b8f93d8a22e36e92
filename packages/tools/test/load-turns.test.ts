// The tools that load a page (navigate, go_back, go_forward, reload, tabs "new" with a url) take a turn among the page
// loads of every session, in process (runTool over a real SessionManager, Chromium and the fixture server): with one turn and a
// load that hangs, none of them reaches the site until the turn is free.
import { holdsFor, waitFor, type FixtureServer } from '@sessionwright/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectSuccess, useTools } from './tool-harness.js';

// One turn, held for as long as a load lasts (the hang below ends at its own timeout).
const harness = useTools({ maxSessions: 10, manager: { pageLoads: { atOnce: 1, holdMs: 60_000 } } });
let fixture: FixtureServer;
beforeAll(() => {
  fixture = harness.fixture();
});

describe('tools that load a page wait for a turn', () => {
  it('navigate, go_back, go_forward, reload and tabs new with a url reach the site only once the hanging load ends', async () => {
    const tool = (name: string, args: Record<string, unknown> = {}) => harness.checkedCall(name, args);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(expectSuccess(await tool('create_session')).sessionId);
    const [hanger, navigator, goesBack, goesForward, reloader] = ids as [string, string, string, string, string];
    const tabs = navigator;
    // History to move in, loaded one after another (each in its turn).
    for (const [id, path] of [
      [goesBack, '/pages/home?back-1'],
      [goesBack, '/pages/home?back-2'],
      [goesForward, '/pages/home?forward-1'],
      [goesForward, '/pages/home?forward-2'],
      [reloader, '/pages/home?reload'],
    ] as const) {
      expectSuccess(await tool('navigate', { sessionId: id, url: fixture.urlFor(path) }));
    }
    expectSuccess(await tool('go_back', { sessionId: goesForward }));
    const seenBefore = fixture.requests.length;

    const hanging = tool('navigate', { sessionId: hanger, url: fixture.urlFor('/hang?turn'), timeout: 3_000 });
    await waitFor(() => fixture.requests.includes('/hang?turn'), { timeout: 10_000 });
    const waiting = [
      tool('navigate', { sessionId: navigator, url: fixture.urlFor('/pages/home?navigate') }),
      tool('go_back', { sessionId: goesBack }),
      tool('go_forward', { sessionId: goesForward }),
      tool('reload', { sessionId: reloader }),
    ];
    // While the hanging load holds the only turn, none of the others reaches the site.
    await holdsFor(() => fixture.requests.length === seenBefore + 1, 1_000, { what: 'no other load reaching the site' });
    expect(fixture.requests.slice(seenBefore)).toEqual(['/hang?turn']);

    expectError(await hanging, 'NAVIGATION_FAILED', hanger);
    const results = await Promise.all(waiting);
    for (const result of results) expectSuccess(result);
    expect(fixture.requests.slice(seenBefore + 1).sort()).toEqual([
      '/pages/home?back-1',
      '/pages/home?forward-2',
      '/pages/home?navigate',
      '/pages/home?reload',
    ]);

    const hangingAgain = tool('navigate', { sessionId: hanger, url: fixture.urlFor('/hang?turn-2'), timeout: 3_000 });
    await waitFor(() => fixture.requests.includes('/hang?turn-2'), { timeout: 10_000 });
    const opening = tool('tabs', { sessionId: tabs, action: 'new', url: fixture.urlFor('/pages/home?tab') });
    await holdsFor(() => !fixture.requests.includes('/pages/home?tab'), 1_000, { what: 'the new tab waiting for its turn' });
    expect(fixture.requests).not.toContain('/pages/home?tab');
    expectError(await hangingAgain, 'NAVIGATION_FAILED', hanger);
    expectSuccess(await opening);
    expect(fixture.requests).toContain('/pages/home?tab');
  });
});
