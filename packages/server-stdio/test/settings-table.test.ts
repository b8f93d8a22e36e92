// The settings table is the one description of every setting: help and the HTTP-only rule come from it (config.test.ts reads each back from every source), and a mistyped config key is answered with the setting it is close to, without quoting the file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../src/settings/options.js';
import { PLAYWRIGHT_ENV_PREFIX, PLAYWRIGHT_FLAGS } from '../src/settings/playwright/flags.js';
import { FLAG_DEFINITIONS, camelCase, envVarName, exampleValue, flagUsage } from '../src/settings/table.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'sw-settings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A config file holding `json`, its path. */
function configFile(name: string, json: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, JSON.stringify(json));
  return file;
}

function helpOf(argv: string[]): string {
  const command = parseArgs(argv, {});
  if (command.kind !== 'help') throw new Error(`not help: ${command.kind}`);
  return command.text;
}

/** The stderr lines a run's settings would print (the command's warnings). */
function warningsOf(argv: string[]): readonly string[] {
  const command = parseArgs(argv, {});
  if (command.kind === 'help') throw new Error('help');
  return command.warnings;
}

describe('the table', () => {
  const help = helpOf(['--help']);

  it.each(FLAG_DEFINITIONS.map((flag) => [flag.name, flag] as const))('--%s has a description and a help line that says it', (_, flag) => {
    expect(flag.description.trim()).not.toBe('');
    const line = help.split('\n').find((text) => text.startsWith(`  ${flagUsage(flag)} `));
    expect(line, help).toBeDefined();
    expect(line).toContain(flag.description);
  });

  it.each([
    ['flag', (name: string) => name],
    ['config key', camelCase],
    ['variable', envVarName],
  ])('no two settings share a %s', (_, spell) => {
    const spellings = FLAG_DEFINITIONS.map((flag) => spell(flag.name));
    expect(new Set(spellings).size).toBe(spellings.length);
  });

  it.each(FLAG_DEFINITIONS.filter((flag) => flag.httpOnly && flag.name !== 'port').map((flag) => [flag.name, flag] as const))(
    '--%s, HTTP-only, is refused on the command line without --port, and read from the environment for when HTTP is on',
    (_, flag) => {
      const value = exampleValue(flag);
      const argv = flag.kind === 'boolean' ? [`--${flag.name}`] : [`--${flag.name}`, Array.isArray(value) ? value.join(',') : String(value)];
      expect(() => parseArgs(argv, {})).toThrow(new UsageError(`--${flag.name} applies only to HTTP mode; add --port <n>`));
      const text = Array.isArray(value) ? value.join(',') : String(value);
      expect(parseArgs([], { [envVarName(flag.name)]: text }).kind).toBe('run');
    },
  );

  it("the playwright profile's help lists every @playwright/mcp flag with its variable", () => {
    const text = helpOf(['--help', '--profile', 'playwright']);
    for (const flag of PLAYWRIGHT_FLAGS) {
      expect(text).toContain(`  --${flag.name}`);
      if (flag.env !== undefined) expect(text).toContain(`(${PLAYWRIGHT_ENV_PREFIX}${flag.env})`);
    }
    // The sessions profile's help leaves them out.
    expect(help).not.toContain('--viewport-size');
  });
});

describe('a mistyped config key', () => {
  it("in sessionwright's shape: refused, named by its place, with the close setting", () => {
    const file = configFile('ours.json', { headless: true, maxSesions: 'hunter2-secret-value' });
    expect(() => parseArgs(['--config', file], {})).toThrow(new UsageError(`${file}: key 2 is no setting; did you mean "maxSessions"?`));
  });

  it("in @playwright/mcp's shape: said once, with the close key of the same object, never quoting a value", () => {
    const file = configFile('theirs.json', {
      browser: { browserNme: 'chromium', contextOptions: { userAgnet: 'hunter2-agent' }, launchOptions: { headles: true } },
      server: { prot: 8931 },
      timeouts: { navigaton: 1000 },
      secretz: { API_KEY: 'hunter2-secret-value' },
      capabilites: ['vision'],
      qqqqqqqqqqqq: 'hunter2-far',
    });
    const warnings = warningsOf(['--profile', 'playwright', '--config', file]);
    const suffix = (key: string) => (key === '' ? '' : `; did you mean "${key}"?`);
    const unknown = (key: string, near: string) => `${key}: accepted, no effect here: not a setting of @playwright/mcp or sessionwright${suffix(near)}`;
    expect(warnings).toEqual(
      expect.arrayContaining([
        unknown('browser.browserNme', 'browser.browserName'),
        `browser.contextOptions.userAgnet: accepted, no effect here: not a context option sessionwright sets for every session; did you mean "browser.contextOptions.userAgent"?`,
        `browser.launchOptions.headles: accepted, no effect here: not a launch option sessionwright sets; did you mean "browser.launchOptions.headless"?`,
        unknown('server.prot', 'server.port'),
        unknown('timeouts.navigaton', 'timeouts.navigation'),
        unknown('secretz', 'secrets'),
        unknown('capabilites', 'capabilities'),
        unknown('qqqqqqqqqqqq', ''),
      ]),
    );
    expect(warnings.join('\n')).not.toContain('hunter2');
  });

  it("a context option of session-core's schema is taken as it is, without a word", () => {
    const file = configFile('context.json', { browser: { contextOptions: { locale: 'de-DE', bypassCSP: true, contrast: 'more', forcedColors: 'active' } } });
    const command = parseArgs(['--profile', 'playwright', '--config', file], {});
    if (command.kind !== 'run') throw new Error(command.kind);
    expect(command.warnings).toEqual([]);
    expect(command.options.setup.sessionDefaults).toEqual({ locale: 'de-DE', bypassCSP: true, contrast: 'more', forcedColors: 'active' });
  });
});
