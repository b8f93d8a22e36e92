// The generated tables of README.md and docs/ (tools, error codes, flags) match the built tool definitions and CLI; pnpm readme updates them.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '@sessionwright/session-core';
import { allTools, capabilityTools } from '@sessionwright/tools';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from './helpers.js';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'readme-tables.mjs');
const README = path.join(REPO_ROOT, 'README.md');
const TOOLS_DOC = path.join(REPO_ROOT, 'docs', 'tools.md');
const CONFIG_DOC = path.join(REPO_ROOT, 'docs', 'configuration.md');

/** The script works on the README beside its scripts/ folder: a scratch tree with a copy of it and links to the built packages. */
function scratchTree(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sessionwright-readme-'));
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(SCRIPT, path.join(dir, 'scripts', 'readme-tables.mjs'));
  mkdirSync(path.join(dir, 'docs'));
  for (const page of ['configuration.md', 'tools.md']) copyFileSync(path.join(REPO_ROOT, 'docs', page), path.join(dir, 'docs', page));
  for (const pkg of ['session-core', 'tools', 'server-stdio']) {
    mkdirSync(path.join(dir, 'packages', pkg), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'packages', pkg, 'dist'), path.join(dir, 'packages', pkg, 'dist'));
  }
  return dir;
}

/** The text between a section's markers. */
const section = (text: string, name: string) => text.slice(text.indexOf(`<!-- ${name}:start -->`), text.indexOf(`<!-- ${name}:end -->`));

describe('README tables', () => {
  it('are up to date (run pnpm readme after changing a tool, an error code or a flag)', async () => {
    const result = await run(process.execPath, [SCRIPT, '--check']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('README.md and docs/ are up to date\n');
  });

  it('list every tool, every error code and every flag', () => {
    const readme = readFileSync(README, 'utf8');
    const toolsDoc = readFileSync(TOOLS_DOC, 'utf8');
    const list = section(readme, 'tools-list');
    for (const tool of [...allTools, ...capabilityTools]) expect(list).toContain(`\`${tool.name}\``);
    const tools = section(toolsDoc, 'tools');
    for (const tool of [...allTools, ...capabilityTools]) {
      const group = tool.capability ? `\`${tool.capability}\` (\`--caps ${tool.capability}\`)` : 'default';
      expect(tools).toContain(`| \`${tool.name}\` | ${group} | ${tool.title} |`);
      expect(tools).toContain(`### \`${tool.name}\`: ${tool.title}`);
    }
    const errors = section(toolsDoc, 'errors');
    for (const code of ERROR_CODES) expect(errors).toContain(`| \`${code}\` |`);
    const flags = section(readFileSync(CONFIG_DOC, 'utf8'), 'flags');
    for (const flag of ['--browser <name>', '--headless [bool]', '--session-timeout <ms>', '--max-sessions <n>', '--executable-path <path>']) {
      expect(flags).toContain(`| \`${flag}\` |`);
    }
    // Filled in by hand: the four clients' configurations.
    const clients = section(readme, 'clients');
    for (const text of ['Claude Desktop', 'claude mcp add', '.vscode/mcp.json', '"servers"', '~/.cursor/mcp.json', '@sessionwright/playwright-mcp']) {
      expect(clients).toContain(text);
    }
  });

  it('--check fails on a stale page and --write repairs it, touching only the generated sections', async () => {
    const dir = scratchTree();
    const scripts = path.join(dir, 'scripts');
    const page = path.join(dir, 'docs', 'tools.md');
    try {
      // What --write makes of these pages: the reference, whether or not the working tree's copies are current.
      copyFileSync(README, path.join(dir, 'README.md'));
      expect((await run(process.execPath, [path.join(scripts, 'readme-tables.mjs'), '--write'])).code).toBe(0);
      const current = readFileSync(page, 'utf8');
      const handWritten = (text: string) => text.replace(/(<!-- (tools|errors):start -->)[\s\S]*?(<!-- \2:end -->)/g, '$1$3');
      expect(handWritten(current)).toBe(handWritten(readFileSync(TOOLS_DOC, 'utf8')));
      const stale = current
        .replace(/(<!-- tools:start -->\n)[\s\S]*?(<!-- tools:end -->)/, '$1| stale |\n$2')
        .replace('| `WAIT_TIMEOUT` |', '| `WAIT_TIMEOUT_OLD` |');
      expect(stale).not.toBe(current);
      writeFileSync(page, stale);

      const check = await run(process.execPath, [path.join(scripts, 'readme-tables.mjs'), '--check']);
      expect(check.code).toBe(1);
      expect(check.stderr).toMatch(/out of date \(tools, errors\)/);
      expect(check.stderr.trim().split('\n')).toHaveLength(1);

      const write = await run(process.execPath, [path.join(scripts, 'readme-tables.mjs'), '--write']);
      expect(write.code, write.stderr).toBe(0);
      expect(readFileSync(page, 'utf8')).toBe(current);
      expect((await run(process.execPath, [path.join(scripts, 'readme-tables.mjs'), '--check'])).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails when an error code has no "when" text in the script', async () => {
    const dir = scratchTree();
    try {
      const script = path.join(dir, 'scripts', 'readme-tables.mjs');
      const text = readFileSync(script, 'utf8');
      const withoutWaitTimeout = text.replace(/^\s+WAIT_TIMEOUT: .*\n/m, '');
      expect(withoutWaitTimeout).not.toBe(text);
      writeFileSync(script, withoutWaitTimeout);
      copyFileSync(README, path.join(dir, 'README.md'));
      const result = await run(process.execPath, [script, '--check']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('no "when" text for WAIT_TIMEOUT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run without a mode', async () => {
    const result = await run(process.execPath, [SCRIPT]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/usage/);
  });
});
