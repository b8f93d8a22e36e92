// Decides which browser binary to launch and whether to run headless, before anything is started.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { browserError } from './errors.js';
import { playwright } from './load-playwright.js';

/** The browser types a BrowserHost can launch, as Playwright names them. */
export const BROWSER_NAMES = ['chromium', 'firefox', 'webkit'] as const;
/** One of BROWSER_NAMES. */
export type BrowserName = (typeof BROWSER_NAMES)[number];

/** Where the chosen executable came from. */
export type ExecutableSource = 'explicit' | 'playwright' | 'system';

export interface ResolvedExecutable {
  browser: BrowserName;
  /** Absolute path, or undefined when Playwright picks its own bundled build. */
  executablePath: string | undefined;
  source: ExecutableSource;
  /** True when the binary is a headless-shell build (lighter, headless only). */
  headlessShell: boolean;
  /** One line for logs and diagnostics. */
  description: string;
}

export interface HeadlessDecision {
  headless: boolean;
  /** Set when headless was chosen because there is no display; said once on stderr. */
  reason?: string;
}

/** An explicit value wins; otherwise headed, except on Linux with no display server. */
export function resolveHeadless(
  explicit: boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): HeadlessDecision {
  if (explicit !== undefined) return { headless: explicit };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { headless: true, reason: 'no DISPLAY or WAYLAND_DISPLAY is set, so the browser runs headless (pass --headless false with a display to see it)' };
  }
  return { headless: false };
}

/** The usual places a system Chromium or Chrome lives, lightest first. */
export function systemChromiumCandidates(headless: boolean, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'linux') {
    // The real binaries under /usr/lib come before the /usr/bin wrapper scripts, so no shell process sits between us and the browser.
    const shells = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];
    const full = [
      '/usr/lib/chromium/chromium',
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/snap/bin/chromium',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
      '/opt/google/chrome/chrome',
      '/usr/bin/microsoft-edge',
    ];
    return headless ? [...shells, ...full] : full;
  }
  if (platform === 'darwin') {
    const home = env.HOME ?? '';
    return [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      path.join(home, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter((root): root is string => !!root);
    return roots.flatMap((root) => [
      path.win32.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      path.win32.join(root, 'Chromium', 'Application', 'chrome.exe'),
      path.win32.join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ]);
  }
  return [];
}

export function installHint(browser: BrowserName, platform: NodeJS.Platform = process.platform): string {
  if (browser !== 'chromium') return `npx playwright install ${browser}`;
  if (platform === 'linux') {
    return 'npx playwright install chromium (or on Debian/Ubuntu: apt-get install chromium chromium-headless-shell), or pass --executable-path';
  }
  return 'npx playwright install chromium, install Google Chrome, or pass --executable-path';
}

export interface ResolveExecutableOptions {
  browser: BrowserName;
  headless: boolean;
  executablePath?: string;
  /** For tests: how to check a path, and where to look. */
  exists?: (file: string) => boolean;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/** explicit path → Playwright's own build → a system Chrome/Chromium; otherwise BROWSER_ERROR naming every path tried. */
export function resolveExecutable(options: ResolveExecutableOptions): ResolvedExecutable {
  const { browser, headless } = options;
  const exists = options.exists ?? existsSync;
  const platform = options.platform ?? process.platform;
  const tried: string[] = [];

  if (options.executablePath) {
    const file = path.resolve(options.executablePath);
    if (!exists(file)) {
      throw browserError('launch_failed', `The browser executable ${file} given by --executable-path does not exist.`, {
        details: { tried: [file], hint: installHint(browser, platform) },
      });
    }
    return describe(browser, file, 'explicit');
  }

  const bundled = playwright()[browser].executablePath();
  tried.push(bundled);
  if (exists(bundled)) {
    // Playwright picks its headless shell itself when it is installed, so let it choose.
    return {
      browser,
      executablePath: undefined,
      source: 'playwright',
      headlessShell: false,
      description: `Playwright's bundled ${browser} (${path.dirname(bundled)})`,
    };
  }

  if (browser === 'chromium') {
    for (const candidate of systemChromiumCandidates(headless, platform, options.env ?? process.env)) {
      tried.push(candidate);
      if (exists(candidate)) return describe(browser, candidate, 'system');
    }
  }

  throw browserError('launch_failed', `No ${browser} executable was found. Install one with: ${installHint(browser, platform)}.`, {
    details: { tried, hint: installHint(browser, platform) },
  });
}

function describe(browser: BrowserName, file: string, source: ExecutableSource): ResolvedExecutable {
  const headlessShell = /headless[-_]shell/i.test(path.basename(file));
  const kind = headlessShell ? 'headless shell' : browser;
  return { browser, executablePath: file, source, headlessShell, description: `${kind} at ${file} (${source})` };
}
