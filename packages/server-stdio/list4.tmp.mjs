import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const c = new Client({ name: 'x', version: '1' });
await c.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/cli.js'], stderr: 'ignore' }));
const { tools } = await c.listTools();
const strip = (s) => JSON.parse(JSON.stringify(s, (k, v) => (['maxLength', 'maxItems', 'additionalProperties', 'propertyNames'].includes(k) ? undefined : v)));
for (const t of tools)
  console.log(
    JSON.stringify({ name: t.name, description: t.description, inputSchema: strip(t.inputSchema) }).length,
    JSON.stringify({ name: t.name, description: t.description, inputSchema: strip(t.inputSchema) }),
  );
await c.close();
