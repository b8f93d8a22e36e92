// The folder store, the sealing over any store, and saved states per identity: atomic, unreadable at rest, bounded.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordTooLarge, isSessionError, type Logger } from '../src/index.js';
import { FolderStore, SavedStates, SealedStore, defaultDataDir, isKeyMismatch, keyFileSecret, type ImageStorageState } from '../src/parts.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sw-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info() {}, debug() {}, warn: (message) => void warnings.push(message) };
}

async function allFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : Buffer.from(value).toString());

const STATE: ImageStorageState = {
  cookies: [{ name: 'session', value: 'cookie-secret-4711', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
  origins: [{ origin: 'http://private-origin.test', localStorage: [{ name: 'token', value: 'token-secret-0815' }] }],
};

describe('defaultDataDir', () => {
  it('is under XDG_STATE_HOME, else ~/.local/state', () => {
    expect(defaultDataDir({ XDG_STATE_HOME: '/x/state' })).toBe('/x/state/sessionwright');
    expect(defaultDataDir({})).toBe(path.join(os.homedir(), '.local', 'state', 'sessionwright'));
  });
});

describe('FolderStore', () => {
  it('gets, sets, replaces, lists by prefix, deletes and expires, with files for this user only', async () => {
    const store = new FolderStore({ dir });
    expect(await store.get('a/b')).toBeUndefined();
    await store.set('a/b', bytes('one'));
    await store.set('a/b', bytes('two'));
    await store.set('a/c', bytes('three'));
    await store.set('z', bytes('four'), { ttlMs: 1 });
    expect(text(await store.get('a/b'))).toBe('two');
    expect((await store.keys('a/')).sort()).toEqual(['a/b', 'a/c']);
    expect((await store.keys('')).sort()).toEqual(['a/b', 'a/c', 'z']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.get('z')).toBeUndefined();
    expect(((await stat(path.join(dir, 'a', 'b'))).mode & 0o777).toString(8)).toBe('600');
    expect(((await stat(path.join(dir, 'a'))).mode & 0o777).toString(8)).toBe('700');
    expect(await store.delete('a/b')).toBe(true);
    expect(await store.delete('a/b')).toBe(false);
    expect(await store.keys('a/')).toEqual(['a/c']);
    await store.close();
    await expect(store.get('a/c')).rejects.toMatchObject({ code: 'BROWSER_ERROR' });
  });

  it('refuses keys a caller did not derive', async () => {
    const store = new FolderStore({ dir });
    for (const key of ['../x', '', 'a//b', '.hidden', 'a/../b', 'a b', 'x\0y']) await expect(store.set(key, bytes('v'))).rejects.toThrow(RangeError);
  });

  it('reports a file that is not a record and answers the others', async () => {
    const logger = recordingLogger();
    const store = new FolderStore({ dir, logger });
    await store.set('good', bytes('kept'));
    await writeFile(path.join(dir, 'foreign'), 'not a record');
    expect(await store.get('foreign')).toBeUndefined();
    expect(logger.warnings.join('\n')).toMatch(/not a record/);
    expect(text(await store.get('good'))).toBe('kept');
  });

  it('answers store_unavailable when the folder cannot be written', async () => {
    await writeFile(path.join(dir, 'file'), 'x');
    const store = new FolderStore({ dir: path.join(dir, 'file') });
    const failed = await store.set('k', bytes('v')).catch((error: unknown) => error);
    expect(isSessionError(failed) && failed.details?.['reason']).toBe('store_unavailable');
  });

  it('leaves the old record or the new when the writing process is killed at any moment', async () => {
    const store = new FolderStore({ dir });
    const old = 'old'.repeat(1000);
    await store.set('k', bytes(old));
    // The built package, as a spawned process runs it.
    const source = path.resolve(__dirname, '../dist/parts.js');
    // A child that rewrites the record with large values as fast as it can, killed while it writes.
    const script = `import { FolderStore } from ${JSON.stringify(source)};
      const store = new FolderStore({ dir: ${JSON.stringify(dir)} });
      process.stdout.write('go\\n');
      for (let i = 0; ; i++) await store.set('k', new Uint8Array(Buffer.from(String(i % 10).repeat(4_000_000))));`;
    for (let round = 0; round < 3; round += 1) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 150 + round * 100));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const value = text(await store.get('k'))!;
      const whole = value === old || (value.length === 4_000_000 && value === value[0]!.repeat(4_000_000));
      expect(whole).toBe(true);
    }
    expect(await store.keys('')).toEqual(['k']);
  });
});

describe('SealedStore', () => {
  it('holds no value or name in clear, and opens only with its key and under its own key', async () => {
    const logger = recordingLogger();
    const folder = new FolderStore({ dir });
    const sealed = new SealedStore({ store: folder, secret: 'first secret', logger });
    const key = `states/${await sealed.name('my-private-name')}`;
    expect(key).toMatch(/^states\/[A-Za-z0-9_-]{43}$/);
    await sealed.set(key, bytes('cookie-secret-4711 http://private-origin.test'));
    expect(text(await sealed.get(key))).toBe('cookie-secret-4711 http://private-origin.test');
    for (const file of await allFiles(dir)) {
      const raw = await readFile(file, 'latin1');
      for (const secret of ['cookie-secret-4711', 'private-origin', 'my-private-name']) expect(raw).not.toContain(secret);
      expect(file).not.toContain('my-private-name');
    }
    // Another key cannot open it (a view without the key check answers it as missing), and a record copied under another name does not open either.
    const other = new SealedStore({ store: folder, secret: 'second secret', logger, keyCheck: false });
    expect(await other.get(key)).toBeUndefined();
    await folder.set('states/moved', (await folder.get(key))!);
    expect(await sealed.get('states/moved')).toBeUndefined();
    expect(logger.warnings).toHaveLength(2);
    expect(await sealed.name('x')).not.toBe(await other.name('x'));
  });

  it('refuses at first use a key that is not the one the store was sealed with, naming how it was given, never the key', async () => {
    const folder = new FolderStore({ dir });
    await new SealedStore({ store: folder, secret: 'first secret', keyName: '--state-key' }).set('checkpoints/a', bytes('x'));
    const wrong = new SealedStore({ store: folder, secret: 'second secret', keyName: '--state-key' });
    const refused = await wrong.ready().catch((error: unknown) => error);
    expect(isKeyMismatch(refused)).toBe(true);
    expect((refused as Error).message).toContain('--state-key');
    expect((refused as Error).message).not.toContain('second secret');
    await expect(wrong.get('checkpoints/a')).rejects.toSatisfy(isKeyMismatch);
    // A rotation: the new key with the previous one opens the store, seals its records again, and from then on is the key.
    const rotated = new SealedStore({ store: folder, secret: 'second secret', previousSecret: 'first secret' });
    await rotated.ready();
    expect(await rotated.resealFrom(rotated.previous()!, 'checkpoints/')).toBe(1);
    expect(text(await new SealedStore({ store: folder, secret: 'second secret' }).get('checkpoints/a'))).toBe('x');
    await expect(new SealedStore({ store: folder, secret: 'first secret' }).ready()).rejects.toSatisfy(isKeyMismatch);
  });

  it("refuses a record past the reader's size from its size, without reading it", async () => {
    const folder = new FolderStore({ dir });
    const sealed = new SealedStore({ store: folder, secret: 'k' });
    await sealed.set('states/big', new Uint8Array(4_000));
    await expect(sealed.get('states/big', { maxBytes: 3_000 })).rejects.toBeInstanceOf(RecordTooLarge);
    expect((await sealed.get('states/big', { maxBytes: 4_000 }))?.length).toBe(4_000);
    // A 256 MB file (sparse: nothing is on the disk) is refused at once, its bytes never read.
    const file = path.join(dir, 'states', 'huge');
    await writeFile(file, Buffer.from('SWR1'));
    await truncate(file, 256 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    await expect(folder.get('states/huge', { maxBytes: 5 * 1024 * 1024 })).rejects.toMatchObject({ bytes: 256 * 1024 * 1024 - 12 });
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('makes a key file with mode 0600 once and reads it after', async () => {
    const file = path.join(dir, 'deeper', 'state.key');
    const logger = recordingLogger();
    const [first, second] = await Promise.all([keyFileSecret(file, logger), keyFileSecret(file, logger)]);
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    expect(await keyFileSecret(file)).toBe(first);
    await writeFile(file, '');
    await expect(keyFileSecret(file)).rejects.toMatchObject({ code: 'BROWSER_ERROR' });
  });
});

describe('SavedStates', () => {
  const open = (secret = 'k', limits = {}) => new SavedStates({ store: new SealedStore({ store: new FolderStore({ dir }), secret }), limits });

  it('saves, lists, loads, replaces and deletes per identity, answering no values', async () => {
    const states = open();
    const info = await states.save('alice', 'shop', STATE);
    expect(info).toEqual({ name: 'shop', savedAt: expect.any(Number), cookies: 1, origins: ['http://private-origin.test'] });
    expect(JSON.stringify(info)).not.toContain('secret');
    await states.save('alice', 'bank', { cookies: [], origins: [] });
    await states.save('alice', 'shop', STATE);
    expect((await states.list('alice')).map((state) => state.name)).toEqual(['bank', 'shop']);
    expect(await states.load('alice', 'shop')).toEqual(STATE);
    expect(await states.list('bob')).toEqual([]);
    await states.delete('alice', 'bank');
    expect((await states.list('alice')).map((state) => state.name)).toEqual(['shop']);
  });

  it('answers another identity’s name exactly as a name nobody saved', async () => {
    const states = open();
    await states.save('alice', 'shop', STATE);
    const foreign = await states.load('bob', 'shop').catch((error: unknown) => error);
    const missing = await states.load('bob', 'nothing-here').catch((error: unknown) => error);
    for (const error of [foreign, missing]) {
      expect(isSessionError(error) && error.code).toBe('INVALID_PARAMETERS');
      expect(isSessionError(error) && error.details).toEqual({ state: 'not_found' });
    }
    expect(isSessionError(foreign) && foreign.message.replace('shop', 'X')).toBe(isSessionError(missing) && missing.message.replace('nothing-here', 'X'));
    await expect(states.delete('bob', 'shop')).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    expect(await states.load('alice', 'shop')).toEqual(STATE);
  });

  it('refuses bad names, and states past the size and count limits', async () => {
    const states = open('k', { maxBytes: 2_000, maxPerIdentity: 2 });
    for (const name of ['../x', '', 'x'.repeat(10_000), 'a\0b', '.hidden', 'a/b', ' lead']) {
      const refused = await states.save('alice', name, STATE).catch((error: unknown) => error);
      expect(isSessionError(refused) && refused.details).toEqual({ option: 'name' });
    }
    const big = { cookies: [], origins: [{ origin: 'http://a.test', localStorage: [{ name: 'big', value: 'x'.repeat(3_000) }] }] };
    await expect(states.save('alice', 'big', big)).rejects.toMatchObject({ details: { state: 'too_large' } });
    await states.save('alice', 'one', STATE);
    await states.save('alice', 'two', STATE);
    await expect(states.save('alice', 'three', STATE)).rejects.toMatchObject({ details: { state: 'too_many', maxStates: 2 } });
    // Replacing one of them is not a new one.
    await states.save('alice', 'two', STATE);
    await states.save('bob', 'three', STATE);
  });

  it('keeps the count limit under concurrent saves: 24 at once from 45 states leave exactly 50', async () => {
    const states = open('k', { maxPerIdentity: 50 });
    for (let index = 0; index < 45; index += 1) await states.save('alice', `kept ${index}`, STATE);
    const results = await Promise.allSettled(Array.from({ length: 24 }, (_, index) => states.save('alice', `new ${index}`, STATE)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
    expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason.details.state)).toEqual(
      Array(19).fill('too_many'),
    );
    expect(await states.list('alice')).toHaveLength(50);
  });

  it('skips a damaged record and keeps the others; moves states to a new key', async () => {
    const states = open('old key');
    await states.save('alice', 'a', STATE);
    await states.save('alice', 'b', STATE);
    const [file] = (await allFiles(path.join(dir, 'states'))).sort();
    const raw = await readFile(file!);
    raw[raw.length - 1]! ^= 0xff;
    await writeFile(file!, raw);
    expect(await states.list('alice')).toHaveLength(1);
    const store = new SealedStore({ store: new FolderStore({ dir }), secret: 'new key', previousSecret: 'old key' });
    const renewed = new SavedStates({ store });
    expect(await renewed.list('alice')).toEqual([]);
    expect(await renewed.adoptFrom(store.previous()!)).toBe(1);
    expect(await renewed.list('alice')).toHaveLength(1);
    await expect(open('old key').list('alice')).rejects.toSatisfy(isKeyMismatch);
  });
});
