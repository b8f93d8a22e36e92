// The stderr logger (stdout may carry a protocol) and the short id used in logs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortId, stderrLogger } from '../src/index.js';
import { silentLogger } from '../src/parts.js';

afterEach(() => vi.restoreAllMocks());

describe('stderrLogger', () => {
  it('writes info and warnings to stderr with a prefix, and debug only when verbose', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const stdout = vi.spyOn(process.stdout, 'write');
    const quiet = stderrLogger('sw');
    quiet.info('hello');
    quiet.warn('careful');
    quiet.debug('hidden');
    stderrLogger(undefined, true).debug('shown');
    expect(written).toEqual(['[sw] hello\n', '[sw] warning: careful\n', '[sessionwright] debug: shown\n']);
    expect(stdout).not.toHaveBeenCalled();
  });

  it('silentLogger says nothing', () => {
    const stderr = vi.spyOn(process.stderr, 'write');
    silentLogger.info('a');
    silentLogger.warn('b');
    silentLogger.debug('c');
    expect(stderr).not.toHaveBeenCalled();
  });
});

describe('shortId', () => {
  it('keeps only the first 8 characters of a session id', () => {
    expect(shortId('8c0f3c1e-5b7a-4d2e-9f10-2a3b4c5d6e7f')).toBe('8c0f3c1e…');
  });
});
