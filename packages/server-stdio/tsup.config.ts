import { defineConfig } from 'tsup';

export default defineConfig([
  // The library: its dependencies stay packages of their own, shared with whoever imports it.
  { entry: ['src/index.ts'], format: 'esm', dts: true, target: 'node20' },
  // The command: one bundle of everything but Playwright (loaded after initialize, through its own code cache), since
  // Node 20 loads one large ES module ~110 ms faster than the ~300 files it comes from, all of it before initialize.
  // The HTTP transports stay a chunk of their own, loaded only with --port.
  {
    entry: ['src/cli.ts'],
    format: 'esm',
    target: 'node20',
    splitting: true,
    noExternal: [/./],
    external: ['playwright', 'playwright-core'],
    minifyWhitespace: true,
    minifySyntax: true,
    // CommonJS dependencies inside an ES module bundle still call require() for Node's own modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  },
]);
