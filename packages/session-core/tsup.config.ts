import { defineConfig } from 'tsup';

export default defineConfig({ entry: ['src/index.ts', 'src/parts.ts'], format: 'esm', dts: true, clean: true, target: 'node20' });
