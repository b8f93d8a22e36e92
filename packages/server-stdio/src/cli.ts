#!/usr/bin/env node
// The sessionwright command's entry: starts Chromium as the last such start did, then runs the bundled command (main.cjs) through V8's code cache.
import { createRequire } from 'node:module';
import { loadWithCodeCache } from './startup/code-cache.js';
import { startBrowserEarly } from './startup/early-browser.js';

// First, so the browser starts on another core while this process loads. The settings are everything that decides how
// it launches, the whole environment included: a client that starts the command with an environment of its own (the
// MCP SDK passes only a few variables) then keeps its own record rather than replacing another client's at every start.
startBrowserEarly([
  process.execPath,
  ...process.argv.slice(1),
  process.cwd(),
  ...Object.entries(process.env)
    .map(([name, value]) => `${name}=${value}`)
    .sort(),
]);
const require = createRequire(import.meta.url);
const bundle = require.resolve('./main.cjs');
// Compiling the bundle is part of every start before initialize; from the cache most of it is skipped (docs/performance.md).
loadWithCodeCache(
  () => require(bundle),
  (filename) => filename === bundle,
);
