import { defineConfig } from 'tsup';

export default defineConfig([
  // The library: its dependencies stay packages of their own, shared with whoever imports it.
  { entry: ['src/index.ts'], format: 'esm', dts: true, target: 'node20' },
  // The command, as one bundle of everything but Playwright (loaded after initialize, through its own code cache): Node
  // loads one file faster than the ~300 it comes from, and as CommonJS V8 can keep its compiled code (cli.ts).
  {
    entry: ['src/main.ts'],
    format: 'cjs',
    outExtension: () => ({ js: '.cjs' }),
    target: 'node20',
    shims: true,
    noExternal: [/./],
    external: ['playwright', 'playwright-core'],
    minifyWhitespace: true,
    minifySyntax: true,
  },
  // The command's entry: a few lines, with the code cache loader and the early browser (src/startup/) inlined.
  { entry: ['src/cli.ts'], format: 'esm', target: 'node20', noExternal: [/./] },
]);
