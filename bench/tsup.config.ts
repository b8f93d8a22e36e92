import { defineConfig } from 'tsup';

export default defineConfig({ entry: ['src/main.ts', 'src/raw-cold-start.ts'], format: 'esm', clean: true, target: 'node20' });
