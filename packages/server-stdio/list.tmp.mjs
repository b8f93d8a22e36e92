import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const args = process.argv.slice(2);
const c = new Client({ name: 'x', version: '1' });
await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
const { tools } = await c.listTools();
let total = 0;
for (const t of tools) {
  if (t._meta?.ui?.visibility && !t._meta.ui.visibility.includes('model')) continue;
  const j = JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema });
  total += j.length + 1;
  console.log(String(j.length).padStart(6), String(t.description.length).padStart(5), String(JSON.stringify(t.inputSchema).length).padStart(5), t.name);
}
console.log('total', total, tools.length);
await c.close();
