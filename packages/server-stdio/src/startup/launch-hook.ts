// The command's part in each browser launch: Playwright loaded through V8's code cache, and the browser started early handed to the first launch.
import path from 'node:path';
import type { LaunchHook } from '@sessionwright/session-core/parts';
import { loadWithCodeCache } from './code-cache.js';
import { earlyBrowserPid, launchWithEarlyBrowser } from './early-browser.js';

/** What the command passes to its browser sources; a program that embeds session-core has none of this unless it asks. */
export function commandLaunchHook(): LaunchHook {
  return {
    loadPlaywright: (require) => loadWithCodeCache(require, isPlaywrightFile),
    launch: launchWithEarlyBrowser,
    earlyBrowserPid,
  };
}

function isPlaywrightFile(filename: string): boolean {
  return filename.includes(`${path.sep}playwright-core${path.sep}`) || filename.includes(`${path.sep}playwright${path.sep}`);
}
