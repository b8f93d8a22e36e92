import { createRequire } from 'node:module';
import path from 'node:path';
const { loadWithCodeCache } = await import('@sessionwright/session-core');
const t1=performance.now();
loadWithCodeCache(() => createRequire(import.meta.url)('playwright'), (f) => f.includes(`${path.sep}playwright-core${path.sep}`) || f.includes(`${path.sep}playwright${path.sep}`));
const t2=performance.now();
console.log('playwright load (cached)', (t2-t1).toFixed(0));
