import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const c = new Client({ name: 'x', version: '1' });
await c.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/cli.js', ...process.argv.slice(3)], stderr: 'ignore' }));
const { tools } = await c.listTools();
for (const n of process.argv[2].split(',')) {
  const t = tools.find((t) => t.name === n);
  console.log(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}
await c.close();
