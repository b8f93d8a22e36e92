// The path a click takes through the code, recorded as the functions that run during one call, against the README's account of it.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { callJson, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, connectInProcess, type InProcessConnection } from './helpers.js';

/** The most files a call's own work may cross, down to Playwright and back to the result. */
const MOST_FILES_ON_THE_PATH = 10;

interface Coverage {
  result: { scriptId: string; url: string; functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[];
}

/**
 * The source files of the workspace whose own functions ran since the last take, by V8's precise coverage, which the
 * coverage run also uses (taking it resets the counts, so the recorded window is exactly the call). A module's export
 * bindings (the `() => { try { return name } catch {} }` accessors the test runner's module transform adds) are plumbing, not a step.
 */
async function filesThatRan(inspector: Session): Promise<Set<string>> {
  const { result } = (await inspector.post('Profiler.takePreciseCoverage')) as Coverage;
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const file = path.relative(path.join(REPO_ROOT, 'packages'), fileURLToPath(script.url));
    if (!/^[\w-]+\/src\//.test(file)) continue;
    const ran = script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
    if (ran.length === 0) continue;
    const { scriptSource } = (await inspector.post('Debugger.getScriptSource', { scriptId: script.scriptId })) as { scriptSource: string };
    const binding = /^\(\)\s*=>\s*\{\s*try\s*\{\s*return\s+[\w$.]+;?\s*\}\s*catch\s*\{\s*\}\s*\}$/;
    if (ran.some((fn) => !binding.test(scriptSource.slice(fn.ranges[0]?.startOffset, fn.ranges[0]?.endOffset).trim()))) files.add(file);
  }
  return files;
}

/** The README's account: the numbered steps' files (each step's first `…ts` path), and the files it says the call consults on the way. */
function readmeAccount(): { path: string[]; consulted: string[] } {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('A `click` crosses');
  const section = readme.slice(start, readme.indexOf('\n## ', start) === -1 ? undefined : readme.indexOf('\n## ', start));
  const files = (text: string) => [...text.matchAll(/`([\w/-]+\.ts)`/g)].map((match) => match[1] as string);
  const steps = section.split('\n').filter((line) => /^\d+\. /.test(line));
  const consulted = section.slice(section.indexOf('On the way it consults'));
  return { path: steps.map((step) => files(step)[0] ?? `(step without a file: ${step})`), consulted: files(consulted.slice(0, consulted.indexOf('\n\n'))) };
}

describe('the path of a click', () => {
  let fixture: FixtureServer;
  let connection: InProcessConnection;
  const inspector = new Session();
  beforeAll(async () => {
    fixture = await startFixtureServer();
    connection = await connectInProcess(['--headless']);
    inspector.connect();
    await inspector.post('Debugger.enable');
    // The same mode as the coverage run's own (detailed), so a test run with --coverage keeps its block counts.
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  });
  afterAll(async () => {
    await inspector.post('Debugger.disable');
    inspector.disconnect();
    await connection?.close();
    await fixture?.close();
  });

  it(`crosses the files the README lists, at most ${MOST_FILES_ON_THE_PATH}, and consults only the parts it names`, async () => {
    const { sessionId } = (await callJson(connection.client, 'create_session', { url: fixture.urlFor('/pages/home') })).json;
    // A first click, so what runs once per session or per page (lazy setup) is not counted as the path.
    expect((await callJson(connection.client, 'click', { sessionId, selector: '#to-form' })).isError).toBe(false);

    // Three clicks, and what ran in all three: a timer of the server's that fires during one click is not its path.
    let ran: Set<string> | undefined;
    for (let round = 0; round < 3; round += 1) {
      expect((await callJson(connection.client, 'go_back', { sessionId })).isError).toBe(false);
      await filesThatRan(inspector);
      const clicked = await callJson(connection.client, 'click', { sessionId, selector: '#to-form' });
      const files = await filesThatRan(inspector);
      expect(clicked.json).toMatchObject({ success: true, title: 'Form' });
      ran = ran === undefined ? files : new Set([...ran].filter((file) => files.has(file)));
    }
    if (ran === undefined) throw new Error('no click was recorded');

    const account = readmeAccount();
    expect(account.path.length).toBeLessThanOrEqual(MOST_FILES_ON_THE_PATH);
    expect([...ran].filter((file) => !account.path.includes(file) && !account.consulted.includes(file)).sort(), 'ran, but the README does not say so').toEqual(
      [],
    );
    expect(
      account.path.filter((file) => !ran.has(file)),
      'in the README, but not on the path',
    ).toEqual([]);
    expect(
      account.consulted.filter((file) => !ran.has(file)),
      'said to be consulted, but not run',
    ).toEqual([]);
  });
});
