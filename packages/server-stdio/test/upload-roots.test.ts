// Where upload_file may read files when no --file-root is given: the client's MCP roots, else (stdio) the working directory; and a large upload over stdio.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectInProcess, expectError, expectSuccess, startCli } from './helpers.js';

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

async function uploadPage(client: Client): Promise<string> {
  const { sessionId } = expectSuccess(await call(client, 'create_session'));
  expectSuccess(await call(client, 'navigate', { sessionId, url: fx.urlFor('/pages/upload') }));
  return sessionId;
}

describe('upload_file without --file-root', () => {
  it('reads from the working directory over stdio when the client has no roots', async () => {
    const { client, close } = await startCli([], { cwd });
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
    const { client, close } = await connectInProcess(['--headless'], { roots: [rootDir] });
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

describe('upload_file over stdio', () => {
  it("takes inline content in a message over the SDK's 10 MiB stdio default (8.5 MB of content is about 11.3 MB of base64)", async () => {
    const { client, close } = await startCli([], { cwd });
    try {
      const sessionId = await uploadPage(client);
      const eightAndAHalf = Buffer.alloc(8.5 * 1024 * 1024, 7).toString('base64');
      const uploaded = await call(client, 'upload_file', { sessionId, selector: '#single', files: [{ name: 'big.bin', contentBase64: eightAndAHalf }] });
      expect(expectSuccess(uploaded).files).toEqual([{ name: 'big.bin', bytes: 8.5 * 1024 * 1024 }]);
    } finally {
      await close();
    }
  });
});
