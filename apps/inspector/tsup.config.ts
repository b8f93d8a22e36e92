import { defineConfig } from 'tsup';

// Node entry points, and the inspector page's script bundled for the browser beside its static files (copied from src/ui/public).
export default defineConfig([
  { entry: ['src/demo.ts', 'src/inspector.ts', 'src/site.ts'], format: 'esm', clean: ['*.js'], target: 'node20' },
  { entry: { app: 'src/ui/app.ts' }, outDir: 'dist/ui', publicDir: 'src/ui/public', format: 'esm', platform: 'browser', target: 'es2022', clean: true },
]);
