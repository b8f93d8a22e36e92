// The playwright profile's translation: @playwright/mcp's flags, PLAYWRIGHT_MCP_* variables and config file into sessionwright's settings and the browser setup beside them (docs/compat.md).
import { existsSync } from 'node:fs';
import { isSessionError } from '@sessionwright/session-core';
import { defined, resolveSessionDefaults, systemChromiumCandidates, type BrowserName, type SessionDefaults } from '@sessionwright/session-core/parts';
import { CAPABILITIES } from '@sessionwright/tools';
import { UsageError } from '../../input/usage-error.js';
import type { BrowserSetup } from '../setup.js';
import { readBoolean, type ForeignOccurrence, type OtherVocabulary, type ResolvedConfig, type ResolvedValue } from '../sources.js';
import { BadValue } from '../table.js';
import { isPlaywrightConfig, ownKeys, readConfig } from './config-file.js';
import { BY_NAME, PLAYWRIGHT_CAPS, PLAYWRIGHT_ENV_PREFIX, PLAYWRIGHT_FLAGS, apply } from './flags.js';
import { DEVICE_KEYS, Level, finishLevel, list, writer, type Given, type SetupPart, type Unmeant } from './level.js';

/** The translation of one run's @playwright/mcp input: our flags' values by level, then the rest once ours are resolved. */
interface PlaywrightTranslation {
  /** For resolveConfig: our flags' values from @playwright/mcp's command line, variables and config file. */
  vocabulary: OtherVocabulary;
  /** The environment with PLAYWRIGHT_MCP_CONFIG naming the config file when ours names none. */
  env: Record<string, string | undefined>;
  /**
   * With our flags resolved: the setup (merged command line over environment over file), a browser channel's executable
   * where no path was given, @playwright/mcp's capability names, and the lines to say on stderr.
   */
  finish(config: ResolvedConfig): { values: ReadonlyMap<string, ResolvedValue>; setup: BrowserSetup; notes: string[] };
}

/**
 * Translates @playwright/mcp's flags from the command line (as readCommandLine set them aside) and its variables, and
 * gives a reader for its config file. Throws UsageError naming the flag or variable for a bad value.
 */
export function translatePlaywright(foreign: readonly ForeignOccurrence[], env: Record<string, string | undefined>): PlaywrightTranslation {
  const notes = new Map<string, string>();
  const cli = new Level();
  const fromEnv = new Level();
  const file = new Level();
  // Keyed by the flag, so one given on the command line and in a variable is still said once.
  const unmeant: Unmeant = (key, display, reason) => {
    if (!notes.has(key)) notes.set(key, `${display}: accepted, no effect here: ${reason}`);
  };

  for (const { name, values } of foreign) {
    const flag = BY_NAME.get(name);
    if (flag === undefined) continue;
    const spelling = `--${name}`;
    if (flag.takes !== 'nothing' && values.length === 0) throw new UsageError(`${spelling} needs a value`);
    const where = values.length === 0 ? spelling : `${spelling} ${flag.secret ? '***' : values.join(' ')}`;
    const given: Given = flag.takes === 'nothing' ? readFlagBoolean(values[0], where) : values;
    apply(flag, given, writer(cli, where, { key: name, display: spelling }, unmeant));
  }

  for (const flag of PLAYWRIGHT_FLAGS) {
    if (flag.env === undefined) continue;
    const variable = `${PLAYWRIGHT_ENV_PREFIX}${flag.env}`;
    const text = env[variable]?.trim();
    if (text === undefined || text === '' || flag.name === 'config') continue;
    const where = `${variable}=${flag.secret ? '***' : text}`;
    let given: Given;
    if (flag.takes === 'nothing') {
      // As @playwright/mcp reads them: true/1 and false/0, anything else unset.
      if (!['true', '1', 'false', '0'].includes(text)) continue;
      given = text === 'true' || text === '1';
    } else given = flag.envList ? list([text], ',') : [text];
    apply(flag, given, writer(fromEnv, where, { key: flag.name, display: variable }, unmeant));
  }

  const configEnv = `${PLAYWRIGHT_ENV_PREFIX}CONFIG`;
  const vocabulary: OtherVocabulary = {
    cli: cli.ours,
    env: fromEnv.ours,
    file(json, filePath) {
      if (!isPlaywrightConfig(json)) return undefined;
      readConfig(json, filePath, file, unmeant);
      finishLevel(file);
      return { own: ownKeys(json), values: file.ours };
    },
  };
  finishLevel(cli);
  finishLevel(fromEnv);

  return {
    vocabulary,
    env: env.SESSIONWRIGHT_CONFIG || !env[configEnv] ? env : { ...env, SESSIONWRIGHT_CONFIG: env[configEnv] },
    finish(config) {
      const values = new Map(config.values);
      const levels = [file, fromEnv, cli];
      const browser = (values.get('browser')?.value ?? 'chromium') as BrowserName;
      const callTimeout = values.get('callTimeout')?.value as number;

      // A Chrome or Edge channel runs in that browser when it is installed and no executable was given.
      const winner = levels.filter((level) => level.browser !== undefined).at(-1)?.browser;
      const browserSource = values.get('browser');
      if (winner?.channel !== undefined && browserSource?.via !== undefined && values.get('executablePath')?.value === undefined) {
        const found = channelExecutable(winner.channel);
        if (found !== undefined) values.set('executablePath', { value: found, source: browserSource.source, via: winner.where });
        else notes.set('browser', `${winner.where}: no ${winner.channel} found on this machine; sessions run in sessionwright's usual Chromium`);
      }

      const caps = values.get('caps');
      if (caps !== undefined && Array.isArray(caps.value)) values.set('caps', { ...caps, value: playwrightCaps(caps.value as string[], notes) });

      const sessionDefaults = mergeSessionDefaults(levels);
      if (sessionDefaults !== undefined) checkSessionDefaults(sessionDefaults, browser, levels);
      const part: Partial<SetupPart> = Object.assign({}, ...levels.map((level) => level.setup));
      const setup: BrowserSetup = {
        sessionDefaults,
        launch: defined({ chromiumSandbox: part.chromiumSandbox, args: part.launchArgs, timeout: part.launchTimeout }),
        endpoints: defined({
          cdpHeaders: part.cdpHeaders,
          cdpTimeout: part.cdpTimeout,
          connectHeaders: part.connectHeaders,
          connectTimeout: part.connectTimeout,
        }),
        // 0, Playwright's "no limit", is the call's own ceiling here: nothing waits longer than --call-timeout.
        timeouts: defined({
          element: part.elementTimeout === undefined ? undefined : part.elementTimeout || callTimeout,
          navigation: part.navigationTimeout === undefined ? undefined : part.navigationTimeout || callTimeout,
        }),
        consoleLevel: part.consoleLevel,
        imageResponses: part.imageResponses ?? 'allow',
        snapshotMode: part.snapshotMode ?? 'full',
        recording: { trace: part.saveTrace ?? false, video: part.saveVideo, session: part.saveSession ?? false },
        ...defined({ secrets: part.secrets }),
      };
      return { values, setup, notes: [...notes.values()] };
    },
  };
}

/** The session defaults of every level, the higher level winning key by key; a device takes the keys it covers from below. */
function mergeSessionDefaults(levels: readonly Level[]): SessionDefaults | undefined {
  const merged: Record<string, unknown> = {};
  for (const level of levels) {
    if (level.session.device !== undefined) for (const key of DEVICE_KEYS) delete merged[key];
    Object.assign(merged, level.session);
  }
  return Object.keys(merged).length === 0 ? undefined : (merged as SessionDefaults);
}

/** Checks the merged defaults as session-core will, naming where the refused one came from. */
function checkSessionDefaults(defaults: SessionDefaults, browser: BrowserName, levels: readonly Level[]): void {
  try {
    resolveSessionDefaults(defaults, browser);
  } catch (error) {
    if (!isSessionError(error)) throw error;
    const option = typeof error.details?.option === 'string' ? error.details.option : undefined;
    const where =
      option === undefined
        ? undefined
        : [...levels]
            .reverse()
            .find((level) => level.sessionWhere.has(option))
            ?.sessionWhere.get(option);
    throw new UsageError(`${where ?? 'the playwright profile'}: ${error.message}`);
  }
}

/** @playwright/mcp's capability names as the settings keep them: tracing is devtools; core* is always on; others are said and left out. */
function playwrightCaps(caps: readonly string[], notes: Map<string, string>): string[] {
  const known = new Set<string>([...PLAYWRIGHT_CAPS, ...CAPABILITIES, 'all']);
  const kept: string[] = [];
  for (const cap of caps) {
    const name = cap === 'tracing' ? 'devtools' : cap;
    if (name === 'core' || name.startsWith('core-')) continue;
    if (!known.has(name)) {
      notes.set(`caps ${name}`, `caps: "${name}" is not a capability of @playwright/mcp; ignored`);
      continue;
    }
    if (!kept.includes(name)) kept.push(name);
  }
  // The playwright profile serves @playwright/mcp's core tools; each capability's tools come with their capability group.
  return kept;
}

/** Where a Chrome or Edge channel is installed, if it is, in the usual places. */
function channelExecutable(channel: string): string | undefined {
  const [brand = '', release] = channel.split('-');
  const linux =
    brand === 'chrome'
      ? [`/opt/google/chrome${release ? `-${release}` : ''}/chrome`, `/usr/bin/google-chrome${release ? `-${release}` : '-stable'}`, '/usr/bin/google-chrome']
      : [
          `/opt/microsoft/msedge${release ? `-${release}` : ''}/msedge`,
          `/usr/bin/microsoft-edge${release ? `-${release}` : '-stable'}`,
          '/usr/bin/microsoft-edge',
        ];
  const stable = release === undefined;
  const pattern = brand === 'chrome' ? /chrome/i : /edge/i;
  const elsewhere =
    stable && process.platform !== 'linux' ? systemChromiumCandidates(false).filter((file) => pattern.test(file) && !/chromium/i.test(file)) : [];
  const candidates = process.platform === 'linux' ? (stable ? linux : linux.slice(0, 2)) : elsewhere;
  return candidates.find((file) => existsSync(file));
}

/** A bare @playwright/mcp flag's `=value` read as our booleans are (`--flag` true; `--flag=false`, 0, no or off false). */
function readFlagBoolean(text: string | undefined, where: string): boolean {
  try {
    return readBoolean(text);
  } catch (error) {
    if (error instanceof BadValue) throw new UsageError(`${where}: ${error.message}`);
    throw error;
  }
}
