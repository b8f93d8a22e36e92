// One level of the playwright profile's settings (its command line, its variables or its config file): what its flags and keys write, through a writer that names where each value came from.
import { UsageError } from '../../input/usage-error.js';
import { BadValue, FLAG_DEFINITIONS, type FlagDefinition } from '../table.js';
import type { ForeignValue } from '../sources.js';
import type { BrowserName, ConsoleLevel, SessionDefaults } from '@sessionwright/session-core/parts';

/** What one flag took: a bare flag is true (`--x=false` false), a flag with values has them (one for `value`). */
export type Given = boolean | string[];

/** What a flag's apply writes into, at one level, with where the value came from for messages. */
export interface Writer {
  readonly where: string;
  readonly level: Level;
  /** A value for one of our flags, as text our table reads and checks. */
  ours(flag: string, text: string): void;
  session<K extends keyof SessionDefaults & string>(key: K, value: SessionDefaults[K]): void;
  setup(update: Partial<SetupPart>): void;
  fail(problem: string): never;
  /** Says once, on stderr, that this has no meaning here and why. */
  unmeant(reason: string): void;
}

/** The settings beyond our table that one level sets (merged key by key, the higher level winning). */
export interface SetupPart {
  chromiumSandbox: boolean;
  launchArgs: string[];
  launchTimeout: number;
  cdpHeaders: Record<string, string>;
  cdpTimeout: number;
  connectHeaders: Record<string, string>;
  connectTimeout: number;
  elementTimeout: number;
  navigationTimeout: number;
  consoleLevel: ConsoleLevel;
  imageResponses: 'allow' | 'omit';
  snapshotMode: 'full' | 'none';
  saveTrace: boolean;
  saveVideo: { width: number; height: number };
  saveSession: boolean;
  secrets: Record<string, string>;
}

/** One level of precedence: the command line, the environment or the config file. */
export class Level {
  readonly ours = new Map<FlagDefinition, ForeignValue[]>();
  readonly session: Record<string, unknown> = {};
  /** Where each session key was set, to name it when the merged defaults are refused. */
  readonly sessionWhere = new Map<string, string>();
  setup: Partial<SetupPart> = {};
  /** A device set here takes the keys it covers from the levels below, as @playwright/mcp's merge does. */
  device: string | undefined;
  mobile: string | undefined;
  browser: { name: BrowserName; channel: string | undefined; where: string } | undefined;
  proxy: { server?: string; bypass?: string; where: string } | undefined;
}

/** The keys a Playwright device descriptor sets. */
export const DEVICE_KEYS = ['device', 'viewport', 'userAgent', 'deviceScaleFactor', 'isMobile', 'hasTouch'];

/** `1280x720` or `1280,720`. */
export function sizeOf(text: string, to: Writer): { width: number; height: number } {
  const match = /^\s*(\d+)\s*[x,]\s*(\d+)\s*$/i.exec(text);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 1 || height < 1) to.fail('must be a size in pixels such as 1280x720 or 1280,720');
  return { width, height };
}

export function numberOf(text: string, to: Writer, min = 0): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < min) to.fail(`must be a number of at least ${min}`);
  return value;
}

export function oneOf<const T extends readonly string[]>(text: string, choices: T, to: Writer): T[number] {
  if (!choices.includes(text)) to.fail(`must be one of ${choices.join(', ')}`);
  return text as T[number];
}

/** `Name: value`, as --cdp-header takes it. */
export function headerOf(text: string, to: Writer): [string, string] {
  const colon = text.indexOf(':');
  const name = (colon === -1 ? text : text.slice(0, colon)).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) to.fail('must be a header such as "Authorization: Bearer <token>"');
  return [name, colon === -1 ? '' : text.slice(colon + 1).trim()];
}

export const list = (texts: string[], separator: string | RegExp) =>
  texts
    .flatMap((text) => text.split(separator))
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** Our table as the playwright profile reads it: --caps takes @playwright/mcp's names (checked when the settings are finished). */
export const PLAYWRIGHT_PROFILE_FLAGS: readonly FlagDefinition[] = FLAG_DEFINITIONS.map((flag) =>
  flag.name === 'caps'
    ? {
        ...flag,
        check: (cap: string) => {
          if (!/^[a-z][a-z-]*$/.test(cap)) throw new BadValue(`"${cap}" is not a capability name`, 'may hold only capability names (see --help)');
          return cap;
        },
      }
    : flag,
);

/** Says once that a flag (`key`, shown as `display`) has no effect here. */
export type Unmeant = (key: string, display: string, reason: string) => void;

export function writer(level: Level, where: string, name: { key: string; display: string }, unmeant: Unmeant): Writer {
  const ourFlags = new Map(PLAYWRIGHT_PROFILE_FLAGS.map((flag) => [flag.name, flag]));
  const to: Writer = {
    where,
    level,
    ours(flag, text) {
      const definition = ourFlags.get(flag);
      if (definition === undefined) throw new Error(`no flag --${flag}`);
      const values = level.ours.get(definition) ?? [];
      values.push({ where, text });
      level.ours.set(definition, values);
    },
    session(key, value) {
      level.session[key] = value;
      level.sessionWhere.set(key, where);
    },
    setup(update) {
      level.setup = { ...level.setup, ...update };
    },
    fail(problem) {
      throw new UsageError(`${where}: ${problem}`);
    },
    unmeant: (reason) => unmeant(name.key, name.display, reason),
  };
  return to;
}

/** What a level's flags set together: --mobile's device (by the level's browser), the proxy with its bypass. */
export function finishLevel(level: Level): void {
  if (level.mobile !== undefined) {
    if (level.device !== undefined) throw new UsageError(`${level.mobile}: cannot be used together with ${level.device}; pick one`);
    if (level.browser?.name === 'firefox') throw new UsageError(`${level.mobile}: Firefox cannot emulate a phone; use chromium or webkit`);
    level.session.device = level.browser?.name === 'webkit' ? 'iPhone 17' : 'Pixel 10';
    level.sessionWhere.set('device', level.mobile);
    level.device = level.mobile;
    level.mobile = undefined;
  }
  const proxy = level.proxy;
  if (proxy?.server !== undefined) {
    level.session.proxy = proxyOf(proxy.server, proxy.bypass);
    level.sessionWhere.set('proxy', proxy.where);
  }
  level.proxy = undefined;
}

/** A proxy URL as @playwright/mcp takes it, with the credentials it may carry taken out into their own fields (secrets). */
export function proxyOf(server: string, bypass: string | undefined): NonNullable<SessionDefaults['proxy']> {
  const result: NonNullable<SessionDefaults['proxy']> = { server };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(server) && URL.canParse(server)) {
    const url = new URL(server);
    if (url.username !== '' || url.password !== '') {
      result.username = decodeURIComponent(url.username);
      result.password = decodeURIComponent(url.password);
      url.username = '';
      url.password = '';
      result.server = url.href.replace(/\/$/, '');
    }
  }
  if (bypass !== undefined && bypass !== '') result.bypass = bypass;
  return result;
}
