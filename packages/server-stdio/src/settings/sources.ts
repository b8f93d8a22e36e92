// Where each setting's value comes from: the command line, then SESSIONWRIGHT_* variables, then --config <file.json>, then the defaults; every source checked the same way.
import path from 'node:path';
import { editDistance, defined } from '@sessionwright/session-core/parts';
import { describeJsonError, readSettingsFile } from '../input/bounded-read.js';
import { BadValue, ENV_PREFIX, FLAG_DEFINITIONS, camelCase, envVarName, type FlagDefinition, type FlagValue } from './table.js';
import { UsageError } from '../input/usage-error.js';

type ValueSource = 'cli' | 'env' | 'file' | 'default';

export interface ResolvedValue {
  /** Undefined: no source set it and it has no default. */
  readonly value: FlagValue | undefined;
  readonly source: ValueSource;
  /** Set when another vocabulary gave the value (the playwright profile's flags): where, as the user wrote it. */
  readonly via?: string;
}

export interface ResolvedConfig {
  /** Every flag of the table, by its camelCase key. */
  readonly values: ReadonlyMap<string, ResolvedValue>;
  /** The config file read, as given, and where it was named (undefined: none). */
  readonly configFile: { path: string; source: 'cli' | 'env' } | undefined;
  /** Things worth saying on stderr that do not stop the server (SESSIONWRIGHT_* variables that are no setting). */
  readonly warnings: readonly string[];
}

/** What the command line asked for besides the settings. */
export interface CommandLine {
  help: boolean;
  version: boolean;
  printConfig: boolean;
  /** The --config value, as typed. */
  config: string | undefined;
  /** Each table flag given, with every occurrence (spelling as typed, value; undefined for a bare flag). */
  given: Map<FlagDefinition, Occurrence[]>;
  /** Flags of another vocabulary (see ForeignFlags), in order, with the values each took. */
  foreign: ForeignOccurrence[];
}

/** What a flag of another vocabulary takes on the command line: nothing, one value, or every value up to the next flag. */
export type ForeignArity = 'nothing' | 'value' | 'values';

/** Flags of another vocabulary that the command line may hold besides the table's (the playwright profile's), by name. */
type ForeignFlags = (name: string) => ForeignArity | undefined;

export interface ForeignOccurrence {
  /** As typed, without the dashes. */
  name: string;
  /** The values it took: none for a bare flag, one from `--name=value`. */
  values: string[];
}

/** A value another vocabulary gave for a flag of the table, as text to be read and checked as the table reads it. */
export interface ForeignValue {
  /** Where it came from, as the user wrote it (`--viewport-size 1280,720`, `PLAYWRIGHT_MCP_PORT=8931`). */
  where: string;
  text: string;
}

/**
 * Settings given in another vocabulary: values for the table's flags from its command line and environment, and a
 * reader for config files in its shape. At each level the table's own spelling wins over the other one.
 */
export interface OtherVocabulary {
  cli: ReadonlyMap<FlagDefinition, readonly ForeignValue[]>;
  env: ReadonlyMap<FlagDefinition, readonly ForeignValue[]>;
  /**
   * Takes a config file's object apart when it is in the other shape: the keys that are the table's, and the values its
   * own keys give the table's flags. Undefined when the file is in the table's shape.
   */
  file?(
    json: Record<string, unknown>,
    file: string,
  ): { own: Record<string, unknown>; values: ReadonlyMap<FlagDefinition, readonly ForeignValue[]> } | undefined;
}

interface Occurrence {
  spelling: string;
  value: string | undefined;
}

/** The environment variable naming the config file (`--config` wins over it). */
export const CONFIG_ENV = envVarName('config');

/** SESSIONWRIGHT_* variables that are not settings but are read elsewhere (scripts/), so they draw no warning. */
const OTHER_ENV_VARS = new Set(['SESSIONWRIGHT_CACHE']);

/** Splits argv into flags and their values, as typed: a token like 0123 or 0x10 stays a string until its flag's kind reads it. */
export function readCommandLine(argv: readonly string[], flags: readonly FlagDefinition[] = FLAG_DEFINITIONS, foreign?: ForeignFlags): CommandLine {
  const spellings = new Map(flags.flatMap((flag) => [[flag.name, flag] as const, [camelCase(flag.name), flag] as const]));
  const line: CommandLine = { help: false, version: false, printConfig: false, config: undefined, given: new Map(), foreign: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const match = /^(--?)([^=]+)(?:=(.*))?$/s.exec(arg);
    // A stray negative number is a stray argument, not a flag named 5 as some parsers (mri) read "-5".
    if (!match || arg === '--' || /^-\d/.test(arg)) throw new UsageError(`unexpected argument "${arg}"; see --help`);
    const [, dashes = '', name = '', inline] = match;
    const spelling = `${dashes}${name}`;
    const arity = dashes === '--' && !spellings.has(name) ? foreign?.(name) : undefined;
    if (spelling === '-h' || spelling === '--help') line.help = true;
    else if (spelling === '-v' || spelling === '-V' || spelling === '--version') line.version = true;
    else if (arity !== undefined) {
      // Another vocabulary's flag, read as that vocabulary's own parser reads it: `<value...>` takes every value up to the next flag.
      const values = inline === undefined ? [] : [inline];
      while (inline === undefined && arity !== 'nothing' && argv[index + 1] !== undefined && !(argv[index + 1] ?? '').startsWith('--')) {
        if (arity === 'values' && values.length > 0 && (argv[index + 1] ?? '').startsWith('-')) break;
        values.push(argv[index + 1] ?? '');
        index += 1;
        if (arity === 'value') break;
      }
      line.foreign.push({ name, values });
    } else if (spelling === '--print-config' || spelling === '--printConfig') line.printConfig = true;
    else {
      const flag = dashes === '--' ? spellings.get(name) : undefined;
      if (flag === undefined && spelling !== '--config') {
        const suggestion = closest(name, [...spellings.keys(), 'config', 'print-config']);
        throw new UsageError(`unknown option ${spelling}${suggestion ? `; did you mean --${suggestion}?` : ''} (see --help)`);
      }
      // The next token is the value unless it is another flag; a boolean takes one only if it is not a flag or a number:
      // `--headless`, `--headless false`, `--headless=false`, `--max-sessions -5` (read, then refused as below 1).
      let value = inline;
      const next = argv[index + 1];
      if (value === undefined && next !== undefined && (!next.startsWith('-') || (flag?.kind !== 'boolean' && /^-\d/.test(next)))) {
        value = next;
        index += 1;
      }
      if (flag === undefined) {
        if (line.config !== undefined) throw new UsageError('--config was given more than once');
        if (value === undefined || value.trim() === '') throw new UsageError('--config needs the path of a JSON file');
        line.config = value;
        continue;
      }
      // `--auth-token=` is a missing value, said as such rather than as a bad one.
      if ((value === undefined || value.trim() === '') && flag.kind !== 'boolean') throw new UsageError(`${spelling} needs a value`);
      const occurrences = line.given.get(flag) ?? [];
      if (occurrences.length > 0 && !flag.repeatable) throw new UsageError(`--${flag.name} was given more than once`);
      occurrences.push({ spelling, value });
      line.given.set(flag, occurrences);
    }
  }
  return line;
}

/**
 * Resolves every flag of the table from the command line, the environment and the config file, in that order of
 * precedence (the winner's whole value: lists are not merged). Throws UsageError naming the source of the first bad
 * value; every source is checked, even one a higher one overrides, since a bad value anywhere is a mistake someone
 * will trip over later.
 */
export function resolveConfig(
  line: CommandLine,
  env: Record<string, string | undefined>,
  flags: readonly FlagDefinition[] = FLAG_DEFINITIONS,
  other?: OtherVocabulary,
): ResolvedConfig {
  const fromCli = new Map<FlagDefinition, FlagValue>();
  const via = new Map<FlagDefinition, string>();
  // Another vocabulary's value counts where the table's own spelling gave none at the same level.
  const addForeign = (into: Map<FlagDefinition, FlagValue>, values: ReadonlyMap<FlagDefinition, readonly ForeignValue[]> | undefined) => {
    for (const [flag, items] of values ?? []) {
      if (into.has(flag) || items.length === 0) continue;
      into.set(flag, readOccurrences(flag, [...items]));
      via.set(flag, items.map((item) => item.where).join(', '));
    }
  };
  for (const [flag, occurrences] of line.given) {
    const items = occurrences.map(({ spelling, value }) => ({
      where: value === undefined ? spelling : `${spelling} ${flag.secret ? '***' : value}`,
      text: value,
    }));
    fromCli.set(flag, readOccurrences(flag, items));
  }

  const fromEnv = new Map<FlagDefinition, FlagValue>();
  for (const flag of flags) {
    const name = envVarName(flag.name);
    const text = env[name];
    // An empty variable is an unset one: `FOO= cmd` and compose files with blank entries mean "not given".
    if (text === undefined || text === '') continue;
    const where = `${name}=${flag.secret ? '***' : text}`;
    // The environment's form of a repeatable flag is a comma-separated list of its values.
    const items =
      flag.repeatable && flag.kind !== 'list'
        ? text
            .split(',')
            .filter((item) => item.trim() !== '')
            .map((item) => ({ where, text: item }))
        : [{ where, text }];
    fromEnv.set(flag, readOccurrences(flag, items));
  }
  addForeign(fromCli, other?.cli);
  addForeign(fromEnv, other?.env);

  const envConfig = env[CONFIG_ENV];
  const configFile =
    line.config !== undefined ? { path: line.config, source: 'cli' as const } : envConfig ? { path: envConfig, source: 'env' as const } : undefined;
  const fromFile = new Map<FlagDefinition, FlagValue>();
  if (configFile !== undefined) {
    const { own, foreign } = readConfigFile(configFile.path, flags, other);
    for (const [flag, value] of own) fromFile.set(flag, value);
    addForeign(fromFile, foreign);
  }

  const values = new Map<string, ResolvedValue>();
  for (const flag of flags) {
    const [source, value]: [ValueSource, FlagValue | undefined] = fromCli.has(flag)
      ? ['cli', fromCli.get(flag)]
      : fromEnv.has(flag)
        ? ['env', fromEnv.get(flag)]
        : fromFile.has(flag)
          ? ['file', fromFile.get(flag)]
          : ['default', flag.default];
    const foreignSource =
      source === 'default' || (source === 'cli' && line.given.has(flag)) || (source === 'env' && fromEnvOwn(flag)) ? undefined : via.get(flag);
    values.set(camelCase(flag.name), { value, source, ...defined({ via: foreignSource }) });
  }
  return { values, configFile, warnings: unknownVariables(env, flags) };

  function fromEnvOwn(flag: FlagDefinition): boolean {
    const text = env[envVarName(flag.name)];
    return text !== undefined && text !== '';
  }
}

/** A warning for each SESSIONWRIGHT_* variable that is no setting: said, not fatal, as the environment is shared (docs/configuration.md). */
function unknownVariables(env: Record<string, string | undefined>, flags: readonly FlagDefinition[]): string[] {
  const known = [CONFIG_ENV, ...flags.map((flag) => envVarName(flag.name))];
  return Object.entries(env)
    .filter(([name, text]) => name.startsWith(ENV_PREFIX) && text !== undefined && text !== '' && !known.includes(name) && !OTHER_ENV_VARS.has(name))
    .map(([name]) => {
      const suggestion = closest(name, known);
      return `ignoring ${name}: no such setting${suggestion ? `; did you mean ${suggestion}?` : ''}`;
    });
}

/**
 * A config file: one JSON object whose keys are the flags' camelCase names, or one in another vocabulary's shape (its
 * reader takes it apart: the keys that are ours are read here, its own become values for our flags). Its errors never
 * quote the file: it may not be the file meant, and may hold secrets.
 */
function readConfigFile(
  file: string,
  flags: readonly FlagDefinition[],
  other: OtherVocabulary | undefined,
): { own: Map<FlagDefinition, FlagValue>; foreign: ReadonlyMap<FlagDefinition, readonly ForeignValue[]> | undefined } {
  const text = readSettingsFile(file, 'config file');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${describeJsonError(error, text)})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new UsageError(`${file}: must hold a JSON object of settings, such as {"maxSessions": 5}`);
  }
  const theirs = other?.file?.(json as Record<string, unknown>, file);
  const byKey = new Map(flags.map((flag) => [camelCase(flag.name), flag]));
  const values = new Map<FlagDefinition, FlagValue>();
  // An unknown key is named by its place in the file, as the file has it.
  const keys = Object.keys(json);
  for (const [key, raw] of Object.entries(theirs?.own ?? json)) {
    const flag = byKey.get(key);
    if (flag === undefined) {
      const suggestion = closest(key, [...byKey.keys()]);
      throw new UsageError(
        `${file}: key ${keys.indexOf(key) + 1} is no setting; ${suggestion ? `did you mean "${suggestion}"?` : "the keys are the flags' camelCase names (see --help)"}`,
      );
    }
    values.set(flag, readJson(flag, raw, file, key));
  }
  return { own: values, foreign: theirs?.values };
}

/** A file value, typed as JSON: numbers for integers, true/false for booleans, arrays for lists. */
function readJson(flag: FlagDefinition, raw: unknown, file: string, key: string): FlagValue {
  const fail = (problem: string): never => {
    throw new UsageError(`${file}: ${key} ${problem}`);
  };
  /** A value of the wrong JSON type: which type it is says enough without quoting it. */
  const wrongType = (problem: string): never => fail(`${problem} (got ${jsonType(raw)})`);
  const resolvePath = (value: string) => (flag.kind === 'path' ? path.resolve(path.dirname(file), value) : value);
  try {
    if (flag.repeatable || flag.kind === 'list') {
      if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) return wrongType('must be an array of strings');
      const items = (raw as string[]).flatMap((item) => readText(flag, item));
      return flag.kind === 'path' ? items.map(resolvePath) : items;
    }
    if (flag.kind === 'integer') {
      if (typeof raw !== 'number') return wrongType(integerProblem(flag, Number.NaN));
      return checkInteger(flag, raw);
    }
    if (flag.kind === 'boolean') {
      if (typeof raw !== 'boolean') return wrongType('must be true or false');
      return raw;
    }
    if (typeof raw !== 'string') return wrongType('must be a string');
    const [value = ''] = readText(flag, raw);
    return resolvePath(value);
  } catch (error) {
    if (error instanceof BadValue) return fail(error.withoutValue);
    throw error;
  }
}

/** A JSON value's type, in words: what an error may say of a value from a file. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The command line's or the environment's values of one flag: each occurrence read as text by the flag's kind. */
function readOccurrences(flag: FlagDefinition, occurrences: Array<{ where: string; text: string | undefined }>): FlagValue {
  const items: string[] = [];
  let single: FlagValue | undefined;
  for (const { where, text } of occurrences) {
    try {
      if (flag.kind === 'boolean') single = readBoolean(text);
      else if (flag.kind === 'integer' && !flag.repeatable) single = checkInteger(flag, parseDigits(text ?? ''));
      else if (flag.repeatable || flag.kind === 'list') items.push(...readText(flag, text ?? ''));
      else single = readText(flag, text ?? '')[0];
    } catch (error) {
      if (error instanceof BadValue) throw new UsageError(`${where}: ${error.message}`);
      throw error;
    }
  }
  return flag.repeatable || flag.kind === 'list' ? items : (single ?? '');
}

/** A text value of a string, path, enum or list flag (a list gives each comma-separated item), trimmed and checked. */
function readText(flag: FlagDefinition, text: string): string[] {
  const parts = flag.kind === 'list' ? text.split(',') : [text];
  const items = parts.map((part) => part.trim()).filter((part) => part !== '');
  if (items.length === 0) throw new BadValue(flag.kind === 'list' ? 'needs a comma-separated list' : 'needs a value');
  return items.map((item) => {
    if (flag.choices && !flag.choices.includes(item)) throw new BadValue(`must be one of ${flag.choices.join(', ')}`);
    return flag.check ? flag.check(item) : item;
  });
}

/** A bare flag (or `--flag=`) is true; the words people write in environments (1/0, yes/no, on/off) count too. */
export function readBoolean(text: string | undefined): boolean {
  const value = text?.trim().toLowerCase();
  if (value === undefined || ['', 'true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new BadValue('must be true or false');
}

function parseDigits(text: string): number {
  const trimmed = text.trim();
  if (/^-\d+$/.test(trimmed)) return Number(trimmed);
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function checkInteger(flag: FlagDefinition, value: number): number {
  if (!Number.isSafeInteger(value) || value < (flag.min ?? 0) || (flag.max !== undefined && value > flag.max)) throw new BadValue(integerProblem(flag, value));
  return value;
}

/** "must be at least 1" for a number out of range, "must be a whole number of at least 1" for anything else. */
function integerProblem(flag: FlagDefinition, value: number): string {
  if (flag.mustBe) return `must be ${flag.mustBe}`;
  const min = flag.min ?? 0;
  const range = flag.max === undefined ? `at least ${min}` : `from ${min} to ${flag.max}`;
  return Number.isSafeInteger(value) ? `must be ${range}` : `must be a whole number ${flag.max === undefined ? 'of ' : ''}${range}`;
}

/** The candidate nearest to a mistyped name (case, dashes and underscores aside, then a few letters off), if any is near. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const normal = (text: string) => text.toLowerCase().replace(/[-_]/g, '');
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(normal(input), normal(candidate));
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(normal(input).length / 4)) ? best.candidate : undefined;
}
