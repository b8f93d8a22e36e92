// The names of the identities' folders: stable across restarts, one per identity, telling nothing of name or token.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_KEY_FILE, IdentityFolders } from '../src/identity/folders.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-identity-folders-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('identity folders', () => {
  it('gives the one local client the output directory itself, and makes no key for it', () => {
    const outputDir = path.join(dir, 'local');
    const folders = new IdentityFolders(outputDir);
    expect(folders.nameOf(undefined)).toBe('');
    expect(folders.ofIdentity('local')).toBe('');
    expect(folders.ofIdentity('connection:1b2c')).toBe('');
    expect(folders.ofIdentity(undefined)).toBe('');
    expect(existsSync(path.join(outputDir, FOLDER_KEY_FILE))).toBe(false);
  });

  it('names each identity a folder of its own, the same after a restart, from a key kept in the output directory', () => {
    const outputDir = path.join(dir, 'kept');
    const first = new IdentityFolders(outputDir);
    const alice = first.nameOf('alice');
    expect(alice).toMatch(/^identity-[0-9a-f]{32}$/);
    expect(first.ofIdentity('identity:alice')).toBe(alice);
    expect(first.nameOf('bob')).not.toBe(alice);
    expect(statSync(path.join(outputDir, FOLDER_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(new IdentityFolders(outputDir).nameOf('alice')).toBe(alice);
    // Another output directory has another key: the name cannot be worked out from the identity's name alone.
    expect(new IdentityFolders(path.join(dir, 'other')).nameOf('alice')).not.toBe(alice);
  });

  it('uses a key of its own where the file holds none or none can be kept', () => {
    const outputDir = path.join(dir, 'broken');
    new IdentityFolders(outputDir).nameOf('x');
    writeFileSync(path.join(outputDir, FOLDER_KEY_FILE), 'not a key\n');
    expect(new IdentityFolders(outputDir).nameOf('alice')).toMatch(/^identity-[0-9a-f]{32}$/);
    const unwritable = path.join(dir, 'a-file');
    writeFileSync(unwritable, '');
    const folders = new IdentityFolders(path.join(unwritable, 'below'));
    expect(folders.nameOf('alice')).toBe(folders.nameOf('alice'));
    expect(new IdentityFolders(undefined).nameOf('alice')).toMatch(/^identity-[0-9a-f]{32}$/);
  });
});
