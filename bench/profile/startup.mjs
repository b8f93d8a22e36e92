// Profile of spawn → initialize: wall time and the server's CPU time until it answers, for sessionwright, @playwright/mcp
// and a bare MCP SDK server (the floor for a server that loads the SDK and zod but not Playwright before the handshake).
// Run after `pnpm build`: node bench/profile/startup.mjs [iterations]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveExecutable } from '@sessionwright/session-core/parts';

const sessionwright = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sessionwright/playwright-mcp'))), 'cli.js');
const playwrightMcp = path.join(path.dirname(fileURLToPath(import.meta.resolve('@playwright/mcp/package.json'))), 'cli.js');
const executable = resolveExecutable({ browser: 'chromium', headless: true }).executablePath ?? '';
const scratch = mkdtempSync(path.join(tmpdir(), 'sessionwright-profile-'));
const bare = path.join(scratch, 'bare-server.mjs');
writeFileSync(
  bare,
  `const { Server } = await import(${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/index.js'))});
const { StdioServerTransport } = await import(${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js'))});
const server = new Server({ name: 'bare', version: '0' }, { capabilities: { tools: {} } });
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
`,
);

/** Spawns the server, sends initialize, and reads wall time and the child's utime+stime when the answer arrives. */
function initialize(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd: scratch });
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      if (!String(chunk).includes('"id":1')) return;
      const wall = performance.now() - started;
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpu = (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
      child.stdin.end();
      child.once('exit', () => resolve({ wall, cpu }));
    });
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'profile', version: '0' } },
    };
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

const systems = {
  sessionwright: [sessionwright, '--headless', '--executable-path', executable],
  '@playwright/mcp': [playwrightMcp, '--headless', '--isolated', '--no-sandbox', '--executable-path', executable],
  'bare MCP SDK server': [bare],
};
const iterations = Number(process.argv[2] ?? 10);
const results = Object.fromEntries(Object.keys(systems).map((name) => [name, { wall: [], cpu: [] }]));
for (let i = 0; i < iterations + 1; i += 1) {
  for (const [name, args] of Object.entries(systems)) {
    const { wall, cpu } = await initialize(args);
    if (i > 0) {
      results[name].wall.push(wall);
      results[name].cpu.push(cpu);
    }
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, { wall, cpu }] of Object.entries(results)) {
  console.log(
    `${name.padEnd(22)} spawn → initialize ${median(wall).toFixed(0).padStart(5)} ms wall, ${median(cpu).toFixed(0).padStart(5)} ms CPU (median of ${iterations})`,
  );
}

// Where sessionwright's start-up goes: each import in turn, in a fresh process, with its CPU time.
const stages = path.join(scratch, 'stages.mjs');
writeFileSync(
  stages,
  `const cpu0 = process.cpuUsage();
let last = 0;
const mark = (label) => {
  const c = process.cpuUsage(cpu0);
  const total = (c.user + c.system) / 1000;
  console.log('  ' + label.padEnd(46) + (total - last).toFixed(0).padStart(5) + ' ms CPU');
  last = total;
};
await import(${JSON.stringify(import.meta.resolve('playwright'))}); mark('playwright');
await import(${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/index.js'))}); mark('@modelcontextprotocol/sdk server (ajv, zod)');
await import(${JSON.stringify(import.meta.resolve('@sessionwright/playwright-mcp'))}); mark('sessionwright packages (tools, schemas)');
`,
);
console.log('sessionwright start-up, import by import:');
await new Promise((resolve) => spawn(process.execPath, [stages], { stdio: 'inherit' }).on('exit', resolve));
rmSync(scratch, { recursive: true, force: true });
