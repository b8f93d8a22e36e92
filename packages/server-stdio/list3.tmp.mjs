import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const c = new Client({ name: 'x', version: '1' });
await c.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/cli.js', ...process.argv.slice(2)], stderr: 'ignore' }));
const { tools } = await c.listTools();
const vis = tools.filter((t) => !(t._meta?.ui?.visibility && !t._meta.ui.visibility.includes('model')));
const size = (f) => JSON.stringify(vis.map((t) => ({ name: t.name, description: t.description, inputSchema: f(structuredClone(t.inputSchema)) }))).length;
const strip = (keys) => (s) => JSON.parse(JSON.stringify(s, (k, v) => (keys.includes(k) ? undefined : v)));
console.log(
  'now',
  size((s) => s),
);
for (const k of [
  'maxLength',
  'maxItems',
  'additionalProperties',
  'propertyNames',
  'required',
  'minimum',
  'maximum',
  'minItems',
  'minLength',
  'pattern',
  'format',
  'exclusiveMinimum',
  '$schema',
])
  console.log(k, size((s) => s) - size(strip([k])));
console.log('limits+aP', size(strip(['maxLength', 'maxItems', 'additionalProperties', 'propertyNames', 'minimum', 'maximum', 'minItems', 'minLength'])));
await c.close();
