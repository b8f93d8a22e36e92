// The command line (docs/configuration.md): settings from flags, SESSIONWRIGHT_* variables and --config, plus --help, --version and --print-config.
import { playwrightProfile } from '@sessionwright/tools';
import { CONFIG_ENV, readCommandLine, resolveConfig, type CommandLine, type ResolvedConfig } from './sources.js';
import {
  FLAG_DEFINITIONS,
  camelCase,
  defaultText,
  envVarName,
  flagUsage,
  helpLines,
  type FlagDefinition,
  type HelpRow,
  type FlagValue,
  type GeneralFlagValues,
} from './table.js';
import { checkListening, type HttpOptions } from './http-options.js';
import { PEEK_PLAYWRIGHT_CONFIG, REFUSE_PLAYWRIGHT_CONFIG } from './playwright/config-file.js';
import { PLAYWRIGHT_COMMAND_LINE_FLAGS, playwrightArity, playwrightHelp } from './playwright/flags.js';
import { PLAYWRIGHT_PROFILE_FLAGS } from './playwright/level.js';
import { translatePlaywright } from './playwright/translate.js';
import { NO_SETUP, type BrowserSetup } from './setup.js';
import { UsageError } from '../input/usage-error.js';
import { VERSION } from '../version.js';
import { defined } from '@sessionwright/session-core/parts';

export { UsageError };

/**
 * What the server runs with: one field per flag of the table in settings/table.ts (its camelCase name), the HTTP-only ones
 * under `http`, which is undefined without a port (stdio).
 */
export type ServerOptions = GeneralFlagValues & {
  /** Undefined: serve stdio. Set by a port: serve HTTP (Streamable HTTP and legacy SSE) and not stdio. */
  http: HttpOptions | undefined;
  /** The settings beyond the table (the playwright profile's flags set them: settings/playwright/). */
  setup: BrowserSetup;
  /** Each setting's value and source, secrets masked, as --print-config prints them (get_config answers it); set by parseArgs. */
  readOut?: Record<string, unknown>;
  /** The config file the settings were read from (--config, or its variable in either dialect); set by parseArgs. */
  configFile?: string | undefined;
};

export type CliCommand =
  | { kind: 'run'; options: ServerOptions; warnings: readonly string[] }
  | { kind: 'help'; text: string }
  | { kind: 'version'; verbose: boolean; options: ServerOptions; warnings: readonly string[] }
  /** `text` is the effective configuration as JSON, secrets masked. */
  | { kind: 'print-config'; text: string; warnings: readonly string[] };

/** Every setting at its default: stdio, nothing from any source. */
export const DEFAULT_OPTIONS: ServerOptions = toServerOptions(new Map(FLAG_DEFINITIONS.map((flag) => [camelCase(flag.name), flag.default])));

/** The flags that say what to do rather than how to serve: on the command line only (--config also as its variable). */
export const META_FLAGS: ReadonlyArray<{ usage: string; env?: string; description: string }> = [
  { usage: '--config <file>', env: CONFIG_ENV, description: `Read settings from a JSON file whose keys are the flags' camelCase names (or set ${CONFIG_ENV})` },
  { usage: '--print-config', description: 'Print the settings in effect and where each came from, as JSON (secrets masked), and exit' },
];

/** The help text, laid out from the table: usage, where else a flag can be set, then one line per option. */
function helpText(): string {
  const rows: HelpRow[] = [
    ...FLAG_DEFINITIONS.map((flag): HelpRow => {
      const byDefault = defaultText(flag);
      return [flagUsage(flag), `${flag.description}${byDefault ? ` (default: ${byDefault})` : ''}`];
    }),
    ...META_FLAGS.map((meta): HelpRow => [meta.usage, meta.description]),
    ['-h, --help', 'Display this message'],
    ['-v, --version', 'Display the version (with --verbose, also the runtime and the browser it would launch)'],
  ];
  return [
    `sessionwright ${VERSION}`,
    '',
    'Usage:',
    '  $ sessionwright [options]',
    '',
    `  Every flag can also be set as ${envVarName('<flag>')} (--max-sessions: ${envVarName('max-sessions')}) or as a camelCase key in --config <file>; the command line wins over the environment, which wins over the file.`,
    '',
    'Options:',
    ...helpLines(rows),
  ].join('\n');
}

/**
 * Parses argv (without node and the script) into a command; throws UsageError on any bad flag or value, naming
 * where it came from. `env` supplies the SESSIONWRIGHT_* variables; the config file (--config or SESSIONWRIGHT_CONFIG)
 * is read here.
 */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): CliCommand {
  // Read first as the playwright profile would, @playwright/mcp's flags set aside, to learn the profile (it may be in the config file).
  const asPlaywright = readCommandLine(argv, PLAYWRIGHT_COMMAND_LINE_FLAGS, playwrightArity);
  if (asPlaywright.help) {
    const named = asPlaywright.given.get(PROFILE_FLAG)?.at(-1)?.value ?? env[envVarName('profile')];
    return { kind: 'help', text: named === 'playwright' ? `${helpText()}\n\n${playwrightHelp()}` : helpText() };
  }
  const profile = resolveConfig(asPlaywright, env, PLAYWRIGHT_PROFILE_FLAGS, PEEK_PLAYWRIGHT_CONFIG).values.get('profile')?.value;
  if (profile !== 'playwright') {
    const foreign = asPlaywright.foreign.find(({ name }) => !FLAG_DEFINITIONS.some((flag) => flag.name === name));
    if (foreign !== undefined)
      throw new UsageError(`unknown option --${foreign.name}: it is an @playwright/mcp flag, accepted with --profile playwright (see --help)`);
    const line = readCommandLine(argv);
    return command(line, resolveConfig(line, env, FLAG_DEFINITIONS, REFUSE_PLAYWRIGHT_CONFIG));
  }
  // The playwright profile: @playwright/mcp's flags, variables and config file are translated into ours (settings/playwright/).
  const translation = translatePlaywright(asPlaywright.foreign, env);
  const config = resolveConfig(asPlaywright, translation.env, PLAYWRIGHT_PROFILE_FLAGS, translation.vocabulary);
  const { values, setup, notes } = translation.finish(config);
  return command(asPlaywright, { ...config, values, warnings: [...config.warnings, ...notes] }, setup);
}

/**
 * The command the resolved settings make: checked before printing or reporting, so --print-config and --version say what a run would get,
 * or refuse as it would.
 */
function command(line: CommandLine, config: ResolvedConfig, setup: BrowserSetup = NO_SETUP): CliCommand {
  const readOut = configReadOut(config, setup);
  const options = {
    ...toServerOptions(new Map([...config.values].map(([key, { value }]) => [key, value])), config),
    setup,
    readOut,
    configFile: config.configFile?.path,
  };
  if (line.printConfig) return { kind: 'print-config', text: JSON.stringify(readOut, null, 2), warnings: config.warnings };
  // --version --verbose reports the browser the other flags would pick, so they are parsed (and checked) too.
  if (line.version) return { kind: 'version', verbose: options.verbose, options, warnings: config.warnings };
  return { kind: 'run', options, warnings: config.warnings };
}

/** The --profile flag of the table, to find the profile a --help asks about. */
const PROFILE_FLAG = FLAG_DEFINITIONS.find((flag) => flag.name === 'profile') as FlagDefinition;

/**
 * Puts each flag's value where ServerOptions has it: the HTTP-only ones under `http`, which exists only with a port.
 * Without one, an HTTP-only flag on the command line is a mistake; from the environment or the file it waits for HTTP mode.
 */
function toServerOptions(values: ReadonlyMap<string, FlagValue | undefined>, config?: ResolvedConfig): ServerOptions {
  const general: Record<string, unknown> = {};
  const http: Record<string, unknown> = {};
  for (const flag of FLAG_DEFINITIONS) {
    const key = camelCase(flag.name);
    const value = values.get(key);
    (flag.httpOnly ? http : general)[key] = Array.isArray(value) ? [...value] : value;
  }
  checkCombinations(general as GeneralFlagValues, config);
  if (http.port === undefined) {
    // Only a flag typed in our own spelling: @playwright/mcp's --host without a port is ignored over stdio, as it ignores it.
    const stray = FLAG_DEFINITIONS.find((flag) => {
      const resolved = config?.values.get(camelCase(flag.name));
      return flag.httpOnly && resolved?.source === 'cli' && resolved.via === undefined;
    });
    if (stray !== undefined) throw new UsageError(`--${stray.name} applies only to HTTP mode; add --port <n>`);
    return { ...(general as GeneralFlagValues), http: undefined, setup: NO_SETUP };
  }
  const options = { ...(general as GeneralFlagValues), http: http as HttpOptions, setup: NO_SETUP };
  checkListening(options.http);
  return options;
}

/** The capability groups the playwright profile serves (@playwright/mcp's names, and live): what its --caps takes, with all. */
const PLAYWRIGHT_PROFILE_CAPS: readonly string[] = [
  ...new Set(playwrightProfile(['all']).tools.flatMap((tool) => (tool.capability === undefined ? [] : [tool.capability]))),
];

/**
 * Refuses settings that are each valid but mean nothing together, rather than ignoring one: in the playwright profile
 * --caps takes the capability groups that profile serves (or all), which the command line's dialect has already read as
 * @playwright/mcp reads them, so a name left here brings no tool in that profile. `config` says where the value came
 * from (without it, as the command line spells it).
 */
export function checkCombinations(options: Pick<GeneralFlagValues, 'profile' | 'caps'>, config?: ResolvedConfig): void {
  if (options.profile !== 'playwright') return;
  const known = new Set<string>([...PLAYWRIGHT_PROFILE_CAPS, 'all']);
  const unknown = options.caps.filter((cap) => !known.has(cap));
  if (unknown.length === 0) return;
  const caps = options.caps.join(',');
  const source = config?.values.get('caps')?.source;
  const given =
    source === 'env' ? `${envVarName('caps')}=${caps}` : source === 'file' ? `"caps" in ${config?.configFile?.path ?? 'the config file'}` : `--caps ${caps}`;
  throw new UsageError(
    `${given}: ${unknown.map((cap) => `"${cap}"`).join(', ')} is no capability of --profile playwright, which takes ${PLAYWRIGHT_PROFILE_CAPS.join(', ')} or all`,
  );
}

/** --print-config's JSON and get_config's answer: each setting's value (null when unset) and its source, secrets masked. */
function configReadOut(config: ResolvedConfig, setup: BrowserSetup): Record<string, unknown> {
  const secret = new Set(FLAG_DEFINITIONS.filter((flag) => flag.secret).map((flag) => camelCase(flag.name)));
  const entries: Record<string, { value: unknown; source: string; via?: string }> = {
    config: config.configFile === undefined ? { value: null, source: 'default' } : { value: config.configFile.path, source: config.configFile.source },
  };
  for (const [key, { value, source, via }] of config.values) {
    entries[key] = { value: value === undefined ? null : secret.has(key) ? '***' : value, source, ...defined({ via }) };
  }
  if (setup !== NO_SETUP) entries.setup = { value: printableSetup(setup), source: 'playwright profile' };
  return entries;
}

/** The setup without its secrets: header values, proxy and HTTP credentials, storage state values and page scripts are masked or counted. */
function printableSetup(setup: BrowserSetup): unknown {
  const masked = (headers: Record<string, string> | undefined) =>
    headers === undefined ? undefined : Object.fromEntries(Object.keys(headers).map((name) => [name, '***']));
  const defaults = setup.sessionDefaults;
  return {
    ...setup,
    sessionDefaults:
      defaults === undefined
        ? undefined
        : {
            ...defaults,
            ...(defaults.proxy === undefined ? {} : { proxy: { server: defaults.proxy.server, ...defined({ bypass: defaults.proxy.bypass }) } }),
            ...(defaults.httpCredentials === undefined ? {} : { httpCredentials: { username: defaults.httpCredentials.username, password: '***' } }),
            ...(defaults.extraHTTPHeaders === undefined ? {} : { extraHTTPHeaders: masked(defaults.extraHTTPHeaders) }),
            ...(defaults.storageState === undefined
              ? {}
              : { storageState: { cookies: defaults.storageState.cookies?.length ?? 0, origins: defaults.storageState.origins?.length ?? 0 } }),
            ...(defaults.initScripts === undefined ? {} : { initScripts: defaults.initScripts.map((script) => `${script.length} characters`) }),
          },
    endpoints: { ...setup.endpoints, cdpHeaders: masked(setup.endpoints.cdpHeaders), connectHeaders: masked(setup.endpoints.connectHeaders) },
    secrets: masked(setup.secrets as Record<string, string> | undefined),
  };
}
