// The command line (docs/configuration.md): settings from flags, SESSIONWRIGHT_* variables and --config, plus --help, --version and --print-config.
import { cac } from 'cac';
import { CONFIG_ENV, readCommandLine, resolveConfig, type ResolvedConfig } from './config.js';
import { FLAG_DEFINITIONS, camelCase, defaultText, envVarName, flagUsage, type FlagValue, type GeneralFlagValues } from './flags.js';
import { checkListening, type HttpOptions } from './http-options.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

export { UsageError };

/**
 * What the server runs with: one field per flag of the table in flags.ts (its camelCase name), the HTTP-only ones
 * under `http`, which is undefined without a port (stdio).
 */
export type ServerOptions = GeneralFlagValues & {
  /** Undefined: serve stdio. Set by a port: serve HTTP (Streamable HTTP and legacy SSE) and not stdio. */
  http: HttpOptions | undefined;
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

/** The help lines, from the table. */
function buildCli() {
  const cli = cac('sessionwright');
  for (const flag of FLAG_DEFINITIONS) {
    const byDefault = defaultText(flag);
    cli.option(flagUsage(flag), `${flag.description}${byDefault ? ` (default: ${byDefault})` : ''}`);
  }
  for (const meta of META_FLAGS) cli.option(meta.usage, meta.description);
  cli.usage(
    `[options]\n\n  Every flag can also be set as ${envVarName('<flag>')} (--max-sessions: ${envVarName('max-sessions')}) or as a camelCase key in --config <file>; the command line wins over the environment, which wins over the file.`,
  );
  cli.help();
  cli.version(VERSION);
  return cli;
}

function helpText(): string {
  const lines: string[] = [];
  const { log, info } = console;
  try {
    // cac prints help itself; capture it, so the caller decides where text goes.
    console.log = console.info = (...parts: unknown[]) => lines.push(parts.join(' '));
    buildCli().outputHelp();
  } finally {
    console.log = log;
    console.info = info;
  }
  return lines.join('\n');
}

/**
 * Parses argv (without node and the script) into a command; throws UsageError on any bad flag or value, naming
 * where it came from. `env` supplies the SESSIONWRIGHT_* variables; the config file (--config or SESSIONWRIGHT_CONFIG)
 * is read here.
 */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): CliCommand {
  const line = readCommandLine(argv);
  if (line.help) return { kind: 'help', text: helpText() };
  const config = resolveConfig(line, env);
  // Checked before printing or reporting, so --print-config and --version say what a run would get, or refuse as it would.
  const options = toServerOptions(new Map([...config.values].map(([key, { value }]) => [key, value])), config);
  if (line.printConfig) return { kind: 'print-config', text: printConfig(config), warnings: config.warnings };
  // --version --verbose reports the browser the other flags would pick, so they are parsed (and checked) too.
  if (line.version) return { kind: 'version', verbose: options.verbose, options, warnings: config.warnings };
  return { kind: 'run', options, warnings: config.warnings };
}

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
    const stray = FLAG_DEFINITIONS.find((flag) => flag.httpOnly && config?.values.get(camelCase(flag.name))?.source === 'cli');
    if (stray !== undefined) throw new UsageError(`--${stray.name} applies only to HTTP mode; add --port <n>`);
    return { ...(general as GeneralFlagValues), http: undefined };
  }
  const options = { ...(general as GeneralFlagValues), http: http as HttpOptions };
  checkListening(options.http);
  return options;
}

/**
 * Refuses settings that are each valid but mean nothing together, rather than ignoring one: --caps adds groups of the
 * sessions profile's tools, and the playwright profile serves @playwright/mcp's core list, which has none. `config`
 * says where the value came from (without it, as the command line spells it).
 */
export function checkCombinations(options: Pick<GeneralFlagValues, 'profile' | 'caps'>, config?: ResolvedConfig): void {
  if (options.profile !== 'playwright' || options.caps.length === 0) return;
  const caps = options.caps.join(',');
  const source = config?.values.get('caps')?.source;
  const given =
    source === 'env' ? `${envVarName('caps')}=${caps}` : source === 'file' ? `"caps" in ${config?.configFile?.path ?? 'the config file'}` : `--caps ${caps}`;
  throw new UsageError(
    `${given} does not apply to --profile playwright, which serves @playwright/mcp's core tools and has no capability groups; leave it out, or use --profile sessions`,
  );
}

/** --print-config's JSON: each setting's value (null when unset) and its source, secrets masked. */
function printConfig(config: ResolvedConfig): string {
  const secret = new Set(FLAG_DEFINITIONS.filter((flag) => flag.secret).map((flag) => camelCase(flag.name)));
  const entries: Record<string, { value: unknown; source: string }> = {
    config: config.configFile === undefined ? { value: null, source: 'default' } : { value: config.configFile.path, source: config.configFile.source },
  };
  for (const [key, { value, source }] of config.values) entries[key] = { value: value === undefined ? null : secret.has(key) ? '***' : value, source };
  return JSON.stringify(entries, null, 2);
}
