import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import http from 'node:http';
const srv = http
  .createServer((q, r) => {
    r.setHeader('content-type', 'text/html');
    r.end('<title>Shop</title><h1>Shop</h1><a href="/p/1">Green tea</a><input aria-label="Search"><button>Search</button>');
  })
  .listen(0);
await new Promise((r) => srv.on('listening', r));
const url = `http://127.0.0.1:${srv.address().port}/`;
const c = new Client({ name: 'x', version: '1' });
await c.connect(new StdioClientTransport({ command: process.execPath, args: ['dist/cli.js', '--headless'], stderr: 'ignore' }));
const r1 = await c.callTool({ name: 'create_session', arguments: { url } });
console.log(r1.content[0].text);
const sid = JSON.parse(r1.content[0].text).sessionId;
const r2 = await c.callTool({
  name: 'run_steps',
  arguments: {
    sessionId: sid,
    steps: [
      { tool: 'type', args: { selector: 'role=textbox[name="Search"]', text: 'tea' } },
      { tool: 'click', args: { selector: 'role=button[name="Search"]' } },
      { tool: 'find', args: { text: 'tea' } },
    ],
  },
});
console.log(r2.content[0].text);
const r3 = await c.callTool({ name: 'click', arguments: { sessionId: sid, selector: 'text=Green tea' } });
console.log(r3.content[0].text);
await c.close();
srv.close();
