#!/usr/bin/env node
// The sessionwright command's entry: runs the bundled command (main.cjs) through V8's code cache, so a start compiles none of it.
import { createRequire } from 'node:module';
import { loadWithCodeCache } from '@sessionwright/session-core';

const require = createRequire(import.meta.url);
const bundle = require.resolve('./main.cjs');
// Compiling the bundle costs ~40 ms of every start before initialize; from the cache it costs a few.
loadWithCodeCache(
  () => require(bundle),
  (filename) => filename === bundle,
);
