// browser_find through real servers: @playwright/mcp's arguments on the connection's own page, and files only inside --output-dir (find itself: packages/tools/test/find.test.ts).
import { mkdtemp, mkdir, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, startCli } from './helpers.js';

/** A ref as snapshots print it (a frame prefix once documents were replaced). */
const REF = /^(f\d+)?e\d+$/;

describe('browser_find (playwright profile)', () => {
  let fixture: FixtureServer;
  let outputDir: string;
  let outside: string;
  let server: StdioConnection;
  let withoutOutputDir: StdioConnection;
  beforeAll(async () => {
    fixture = await startFixtureServer();
    outputDir = await mkdtemp(path.join(tmpdir(), 'sessionwright-find-out-'));
    outside = await mkdtemp(path.join(tmpdir(), 'sessionwright-find-outside-'));
    await symlink(outside, path.join(outputDir, 'link'));
    [server, withoutOutputDir] = await Promise.all([startCli(['--profile', 'playwright', '--output-dir', outputDir]), startCli(['--profile', 'playwright'])]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), withoutOutputDir?.close()]);
    await fixture?.close();
    await Promise.all([outputDir, outside].map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const tool = (name: string, args: Record<string, unknown> = {}) => call(server.client, name, args);

  it("takes @playwright/mcp's arguments and acts on the connection's own page", async () => {
    expectSuccess(await tool('browser_navigate', { url: fixture.urlFor('/pages/form') }));
    // The label's text and the field it names.
    expect(expectSuccess(await tool('browser_find', { text: 'email' })).total).toBe(2);
    const found = expectSuccess(await tool('browser_find', { regex: '/^textbox "Email"$/' }));
    expect(found).toMatchObject({ total: 1, title: 'Form', matches: [{ ref: expect.stringMatching(REF), line: 'textbox "Email"' }] });
    expect(expectSuccess(await tool('browser_type', { target: found.matches[0].ref, text: 'ada@example.com' })).value).toBe('ada@example.com');
  });

  it('writes the matches to a file inside --output-dir when given a filename, and nowhere else', async () => {
    await tool('browser_navigate', { url: fixture.urlFor('/pages/form') });
    const written = expectSuccess(await tool('browser_find', { text: 'e', filename: 'finds/form.md' }));
    expect(written.file).toBe(path.join(await realpathOf(outputDir), 'finds', 'form.md'));
    expect(written.matches).toBeUndefined();
    const text = await readFile(written.file, 'utf8');
    expect(text).toMatch(new RegExp(`^${written.total} matching lines\\n`));
    expect(text).toMatch(/^(f\d+)?e\d+ {2}textbox "Email"$/m);

    for (const filename of ['../escape.md', path.join(outside, 'abs.md'), 'link/through-link.md']) {
      const refused = expectError(await tool('browser_find', { text: 'e', filename }), 'INVALID_PARAMETERS');
      expect(refused.message, filename).toMatch(/output directory/);
    }
    expect(await readdir(outside)).toEqual([]);
    const none = expectError(await call(withoutOutputDir.client, 'browser_find', { text: 'e', filename: 'x.md' }), 'INVALID_PARAMETERS');
    expect(none.message).toMatch(/no --output-dir/);
  });
});

async function realpathOf(dir: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  return realpath(dir);
}
