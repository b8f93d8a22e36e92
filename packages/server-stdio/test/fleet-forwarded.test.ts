// A call relayed to the replica that holds its session runs there as the caller's own: its secrets hidden and its files in the caller's identity folder.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasProgram, startFixtureServer, type FixtureServer } from '@sessionwright/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, startFleet, type Fleet } from './fleet-helpers.js';
import { call, expectSuccess } from './helpers.js';
import { connectStreamable } from './http-helpers.js';
import { modernCall } from './modern-helpers.js';

const parts = hasProgram('redis-server') && hasProgram('haproxy');
const SECRET = 'fleet-secret-value-8f3a2c';
let fixture: FixtureServer;
let fleet: Fleet;
let dir: string;
let outputDir: string;

beforeAll(async () => {
  if (!parts) return;
  dir = mkdtempSync(path.join(tmpdir(), 'sw-fleet-forwarded-'));
  outputDir = path.join(dir, 'out');
  const secrets = path.join(dir, 'secrets.env');
  writeFileSync(secrets, `API_KEY=${SECRET}\n`);
  fixture = await startFixtureServer();
  fleet = await startFleet(2, ['--secrets', secrets, '--output-dir', outputDir, '--caps', 'storage']);
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  await fixture?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const alice = { token: ALICE };

/** Every file under `root`, as paths relative to it. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe.skipIf(!parts)('a call relayed to the replica that holds the session', () => {
  it('hides the secrets in its result and writes its files in the identity folder, as on the replica itself', async () => {
    const [holder, other] = fleet.replicas;
    if (!holder || !other) throw new Error('two replicas expected');
    const sessionId = (await modernCall(holder.base, 'create_session', {}, alice)).json.sessionId as string;
    expect(sessionId).toBeTypeOf('string');
    await modernCall(holder.base, 'navigate', { sessionId, url: fixture.urlFor('/pages/home') }, alice);

    // A 2026-07-28 request is relayed whole; a 2025 connection's call on another replica is run by the holder for it.
    const here = await modernCall(holder.base, 'evaluate', { sessionId, function: `() => '${SECRET}'` }, alice);
    const relayed = await modernCall(other.base, 'evaluate', { sessionId, function: `() => '${SECRET}'` }, alice);
    for (const answer of [here, relayed]) {
      expect(answer.response.result.isError, JSON.stringify(answer.json)).toBeFalsy();
      expect(JSON.stringify(answer.response)).not.toContain(SECRET);
      expect(JSON.stringify(answer.json)).toContain('<secret>API_KEY</secret>');
    }
    const { client } = await connectStreamable(other.base, { Authorization: `Bearer ${ALICE}` });
    try {
      const result = await call(client, 'evaluate', { sessionId, function: `() => '${SECRET}'` });
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(JSON.stringify(expectSuccess(result))).toContain('<secret>API_KEY</secret>');
      expectSuccess(await call(client, 'export_storage_state', { sessionId, filename: 'relayed.json' }));
    } finally {
      await client.close();
    }
    const written = filesUnder(outputDir).filter((file) => path.basename(file) === 'relayed.json');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^identity-[^/]+\/relayed\.json$/);
    expect(readFileSync(path.join(outputDir, written[0] ?? ''), 'utf8')).toContain('"cookies"');
  }, 120_000);
});
