// browser_run_steps over a real stdio server: served under --caps steps in the playwright profile (and not without it), its steps the profile's browser_* tools, with progress per step.
import { startFixtureServer, type FixtureServer, type StdioConnection } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectSuccess, startCli } from './helpers.js';

const LINKS = `<!doctype html><html><head><title>Links</title></head><body>
<button id="inc" onclick="document.getElementById('count').textContent = String(Number(document.getElementById('count').textContent) + 1)">Add one</button>
<span id="count">0</span>
<a href="home">Home link</a>
</body></html>`;

describe('browser_run_steps (--profile playwright --caps steps)', () => {
  let fixture: FixtureServer;
  let server: StdioConnection;
  beforeAll(async () => {
    fixture = await startFixtureServer({ pages: { links: LINKS } });
    server = await startCli(['--profile', 'playwright', '--caps', 'steps']);
  });
  afterAll(async () => {
    await server?.close();
    await fixture?.close();
  });

  it('is listed only under --caps steps', async () => {
    expect((await server.client.listTools()).tools.map((tool) => tool.name)).toContain('browser_run_steps');
    const plain = await startCli(['--profile', 'playwright']);
    try {
      expect((await plain.client.listTools()).tools.map((tool) => tool.name)).not.toContain('browser_run_steps');
    } finally {
      await plain.close();
    }
  });

  it("runs browser_* steps on the connection's page in one call, with progress per step; a bad step runs nothing", async () => {
    const url = fixture.urlFor('/pages/links');
    const progress: { progress: number; message?: string | undefined }[] = [];
    const steps = [
      { tool: 'browser_navigate', args: { url } },
      { tool: 'browser_click', args: { target: '#inc' } },
      { tool: 'browser_find', args: { text: 'Home link' }, return: true },
    ];
    const raw = await server.client.callTool({ name: 'browser_run_steps', arguments: { steps } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    const json = JSON.parse((raw.content as { text: string }[])[0]!.text);
    expect(raw.isError).toBeFalsy();
    expect(json).toMatchObject({ completed: 3, url, title: 'Links' });
    expect(json.results).toEqual([
      expect.objectContaining({ step: 2, tool: 'browser_find', matches: [expect.objectContaining({ url: fixture.urlFor('/pages/home') })] }),
    ]);
    expect(progress.map((update) => update.message?.split(':')[0])).toEqual(expect.arrayContaining(['step 0', 'step 1', 'step 2']));
    expect(progress.every((update, index) => index === 0 || update.progress > progress[index - 1]!.progress)).toBe(true);

    const refused = expectError(
      await call(server.client, 'browser_run_steps', {
        steps: [
          { tool: 'browser_click', args: { target: '#inc' } },
          { tool: 'browser_run_code_unsafe', args: { code: '1' } },
        ],
      }),
      'INVALID_PARAMETERS',
    );
    expect(refused.details).toMatchObject({ step: 1, tool: 'browser_run_code_unsafe' });
    expect(expectSuccess(await call(server.client, 'browser_evaluate', { function: "() => document.getElementById('count').textContent" })).result).toBe('1');
  });
});
