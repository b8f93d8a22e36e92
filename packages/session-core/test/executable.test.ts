// Which browser binary is chosen and whether it runs headless, decided without launching anything.
import path from 'node:path';
import { chromium, firefox } from 'playwright';
import { describe, expect, it } from 'vitest';
import { installHint, systemChromiumCandidates } from '../src/executable.js';
import { SessionError } from '../src/index.js';
import { resolveExecutable, resolveHeadless } from '../src/parts.js';
import type { ResolveExecutableOptions } from '../src/executable.js';

const SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL = '/usr/lib/chromium/chromium';
const only =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);

function failure(options: ResolveExecutableOptions): SessionError {
  try {
    resolveExecutable(options);
  } catch (error) {
    expect(error).toBeInstanceOf(SessionError);
    return error as SessionError;
  }
  throw new Error('expected resolveExecutable to throw');
}

describe('resolveExecutable', () => {
  it('uses an explicit path that exists, whatever else is installed', () => {
    const resolved = resolveExecutable({ browser: 'chromium', headless: true, executablePath: '/opt/my/chrome', exists: () => true, platform: 'linux' });
    expect(resolved).toEqual({
      browser: 'chromium',
      executablePath: '/opt/my/chrome',
      source: 'explicit',
      headlessShell: false,
      description: 'chromium at /opt/my/chrome (explicit)',
    });
  });

  it('resolves a relative explicit path and recognises a headless shell by its name', () => {
    const resolved = resolveExecutable({ browser: 'chromium', headless: true, executablePath: 'bin/chrome-headless-shell', exists: () => true });
    expect(resolved.executablePath).toBe(path.resolve('bin/chrome-headless-shell'));
    expect(resolved.headlessShell).toBe(true);
    expect(resolved.description).toMatch(/^headless shell at /);
  });

  it('answers BROWSER_ERROR for an explicit path that does not exist, without looking elsewhere', () => {
    const checked: string[] = [];
    const error = failure({
      browser: 'chromium',
      headless: true,
      executablePath: '/nope/chrome',
      platform: 'linux',
      exists: (file) => {
        checked.push(file);
        return file !== '/nope/chrome';
      },
    });
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.message).toContain('/nope/chrome');
    expect(error.details).toMatchObject({ tried: ['/nope/chrome'], hint: installHint('chromium', 'linux') });
    expect(checked).toEqual(['/nope/chrome']);
  });

  it('lets Playwright pick its own build when that is installed', () => {
    const bundled = chromium.executablePath();
    const resolved = resolveExecutable({ browser: 'chromium', headless: true, exists: only(bundled, SHELL, FULL), platform: 'linux' });
    expect(resolved).toMatchObject({ source: 'playwright', executablePath: undefined, headlessShell: false });
    expect(resolved.description).toContain(path.dirname(bundled));
  });

  it('prefers a system headless shell over full Chromium when headless', () => {
    const resolved = resolveExecutable({ browser: 'chromium', headless: true, exists: only(SHELL, FULL), platform: 'linux' });
    expect(resolved).toMatchObject({ executablePath: SHELL, source: 'system', headlessShell: true });
    expect(resolved.description).toBe(`headless shell at ${SHELL} (system)`);
  });

  it('skips the headless shell when headed', () => {
    const resolved = resolveExecutable({ browser: 'chromium', headless: false, exists: only(SHELL, FULL), platform: 'linux' });
    expect(resolved).toMatchObject({ executablePath: FULL, source: 'system', headlessShell: false });
  });

  it('falls back to Google Chrome when there is no Chromium', () => {
    const resolved = resolveExecutable({ browser: 'chromium', headless: true, exists: only('/usr/bin/google-chrome'), platform: 'linux' });
    expect(resolved.executablePath).toBe('/usr/bin/google-chrome');
  });

  it('answers BROWSER_ERROR naming every path tried and the install command when nothing is found', () => {
    const error = failure({ browser: 'chromium', headless: true, exists: () => false, platform: 'linux' });
    expect(error.code).toBe('BROWSER_ERROR');
    const tried = error.details?.tried as string[];
    expect(tried).toEqual([chromium.executablePath(), ...systemChromiumCandidates(true, 'linux')]);
    expect(tried).toContain(SHELL);
    expect(tried).toContain('/usr/bin/google-chrome');
    expect(error.message).toContain('npx playwright install chromium');
    expect(error.message).toContain('apt-get install chromium');
    expect(error.details?.hint).toBe(installHint('chromium', 'linux'));
  });

  it('names `npx playwright install firefox` for Firefox, and never offers a system Chromium for it', () => {
    const error = failure({ browser: 'firefox', headless: true, exists: only(SHELL, FULL), platform: 'linux' });
    expect(error.code).toBe('BROWSER_ERROR');
    expect(error.message).toContain('npx playwright install firefox');
    expect(error.details?.tried).toEqual([firefox.executablePath()]);
  });

  it('names `npx playwright install webkit` for WebKit', () => {
    const error = failure({ browser: 'webkit', headless: false, exists: () => false, platform: 'darwin' });
    expect(error.message).toContain('npx playwright install webkit');
  });

  it('knows where Chrome lives on macOS and Windows', () => {
    const mac = systemChromiumCandidates(true, 'darwin', { HOME: '/Users/me' });
    expect(mac).toContain('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(mac).toContain('/Users/me/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    const win = systemChromiumCandidates(true, 'win32', { PROGRAMFILES: 'C:\\Program Files' });
    expect(win).toEqual([
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files\\Chromium\\Application\\chrome.exe',
      'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
    ]);
    expect(systemChromiumCandidates(true, 'freebsd')).toEqual([]);
    const resolved = resolveExecutable({
      browser: 'chromium',
      headless: false,
      platform: 'darwin',
      env: { HOME: '/Users/me' },
      exists: only('/Applications/Chromium.app/Contents/MacOS/Chromium'),
    });
    expect(resolved.executablePath).toBe('/Applications/Chromium.app/Contents/MacOS/Chromium');
    expect(installHint('chromium', 'darwin')).toBe('npx playwright install chromium, install Google Chrome, or pass --executable-path');
  });
});

describe('resolveHeadless', () => {
  it('lets an explicit choice win', () => {
    expect(resolveHeadless(true, { DISPLAY: ':0' }, 'linux')).toEqual({ headless: true });
    expect(resolveHeadless(false, {}, 'linux')).toEqual({ headless: false });
  });

  it('runs headless on Linux without DISPLAY or WAYLAND_DISPLAY, and says why', () => {
    const decision = resolveHeadless(undefined, {}, 'linux');
    expect(decision.headless).toBe(true);
    expect(decision.reason).toMatch(/DISPLAY/);
  });

  it('runs headed on Linux with a display', () => {
    expect(resolveHeadless(undefined, { DISPLAY: ':0' }, 'linux')).toEqual({ headless: false });
    expect(resolveHeadless(undefined, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual({ headless: false });
  });

  it('runs headed on macOS and Windows', () => {
    expect(resolveHeadless(undefined, {}, 'darwin')).toEqual({ headless: false });
    expect(resolveHeadless(undefined, {}, 'win32')).toEqual({ headless: false });
  });
});
