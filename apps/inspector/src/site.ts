// `pnpm --filter @sessionwright/inspector site [port]`: serves the demo site alone, to browse it or point another client at it.
import { cliArgs } from './cli-args.js';
import { startDemoSite } from './demo-site/server.js';

const site = await startDemoSite(Number(cliArgs()[0] ?? 0) || 0);
process.stdout.write(`demo site on ${site.url}/ (Ctrl+C to stop)\n`);
const stop = () => void site.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
