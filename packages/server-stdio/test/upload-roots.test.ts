// Where upload_file may read files when no --file-root is given: the client's MCP roots, else (stdio) the working directory.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, call, expectError, expectSuccess } from './helpers.js';

let fx: FixtureServer;
let work: string;
let cwd: string;
let rootDir: string;
beforeAll(async () => {
  fx = await startFixtureServer();
  work = await mkdtemp(path.join(tmpdir(), 'sw-roots-'));
  cwd = path.join(work, 'cwd');
  rootDir = path.join(work, 'client-root');
  await mkdir(cwd);
  await mkdir(rootDir);
  await writeFile(path.join(cwd, 'in-cwd.txt'), 'cwd file');
  await writeFile(path.join(rootDir, 'in-root.txt'), 'root file');
});
afterAll(async () => {
  await fx?.close();
  await rm(work, { recursive: true, force: true });
});

/** The built CLI over stdio in `cwd`, with a client that declares the roots capability when given roots. */
async function connect(roots?: string[]): Promise<{ client: Client; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, '--headless'], cwd, stderr: 'pipe' });
  const client = new Client({ name: 'roots-test', version: '0.0.0' }, roots ? { capabilities: { roots: { listChanged: false } } } : {});
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) })) }));
  await client.connect(transport);
  await client.listTools();
  return { client, close: () => client.close() };
}

async function uploadPage(client: Client): Promise<string> {
  const { sessionId } = expectSuccess(await call(client, 'create_session'));
  expectSuccess(await call(client, 'navigate', { sessionId, url: fx.urlFor('/pages/upload') }));
  return sessionId;
}

describe('upload_file without --file-root', () => {
  it('reads from the working directory over stdio when the client has no roots', async () => {
    const { client, close } = await connect();
    try {
      const sessionId = await uploadPage(client);
      expect(expectSuccess(await call(client, 'upload_file', { sessionId, selector: '#single', files: [{ path: 'in-cwd.txt' }] })).files).toEqual([
        { name: 'in-cwd.txt', bytes: 8 },
      ]);
      const outside = expectError(
        await call(client, 'upload_file', { sessionId, selector: '#single', files: [{ path: path.join(rootDir, 'in-root.txt') }] }),
        'INVALID_PARAMETERS',
        sessionId,
      );
      expect(outside.message).toContain('working directory');
    } finally {
      await close();
    }
  });

  it("reads from the client's MCP roots when it declares them, and no longer from the working directory", async () => {
    const { client, close } = await connect([rootDir]);
    try {
      const sessionId = await uploadPage(client);
      expect(
        expectSuccess(await call(client, 'upload_file', { sessionId, selector: '#single', files: [{ path: path.join(rootDir, 'in-root.txt') }] })).files,
      ).toEqual([{ name: 'in-root.txt', bytes: 9 }]);
      const cwdFile = expectError(
        await call(client, 'upload_file', { sessionId, selector: '#single', files: [{ path: path.join(cwd, 'in-cwd.txt') }] }),
        'INVALID_PARAMETERS',
        sessionId,
      );
      expect(cwdFile.message).toContain("client's MCP roots");
    } finally {
      await close();
    }
  });
});
