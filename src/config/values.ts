/**
 * The one resolution of the table's options (options.ts) for a command: each value from the
 * highest of flags > environment (with `.env` under it) > config file > defaults, parsed by the
 * option's own parser, with where it came from (for messages: `--rate`, `DROID_ID`,
 * `load.rate (droidcheck.config.yaml:4:9)`). An option the command does not have takes the
 * table's default, so a command's shaping (resolve.ts) never restates one.
 *
 * A config file read by file.ts remembers where each key is written (`fileOrigin`), so a file
 * value's mistake is reported at its file:line:col (ConfigFileError, DROIDCHECK_ERR_CONFIG_FILE,
 * exit 2); a plain object given through the API is named `key (config file)`.
 */
import type { SourceLocation } from '../errors.js';
import { ConfigFileError, isDroidcheckError, UsageError } from '../errors.js';
import type { JobFlags } from './flags.js';
import {
  flagName,
  OPTIONS,
  specFor,
  type OptionCommand,
  type OptionKey,
  type Options,
  type OptionSpec,
  type Raw,
} from './options.js';

/** Where a value came from; `level` orders them (flag 3 > env 2 > file 1 > default 0). */
interface ValueSource {
  kind: 'flag' | 'env' | 'file' | 'default';
  level: 0 | 1 | 2 | 3;
  /** As a message names it: `--rate`, `DROID_ID`, `load.rate (droidcheck.config.yaml:4:9)`, `--rate (default)`. */
  name: string;
  /** The file position of a file value, when known. */
  location?: SourceLocation;
}

/** The positions of a config file's keys (per command: its section's key, else the top-level one). */
export interface FileOrigin {
  /** The key as written, `load.rate` or `timeout`, and its value's position. */
  at(key: string): { label: string; location: SourceLocation } | undefined;
}

const origins = new WeakMap<object, FileOrigin>();

/** Ties the flags a file gives a command to their positions in the file (file.ts). */
export function rememberOrigin<T extends object>(flags: T, origin: FileOrigin): T {
  origins.set(flags, origin);
  return flags;
}

/**
 * What option `K` parses to for `C`: its command's own parser's type when the entry has one
 * (`byCommand`: `redteam`'s `--mode` is sync or async only), else the entry's. For a union of
 * commands, the entry's.
 */
type Parsed<K extends OptionKey, C extends OptionCommand> = Options[K] extends {
  byCommand: { [P in C]: { parse: (...args: never[]) => infer T } };
}
  ? T
  : ReturnType<Options[K]['parse']>;
/** True when `K` has a default for `C` (its own or the entry's). */
type Defaulted<K extends OptionKey, C extends OptionCommand> = Options[K] extends { default: Raw }
  ? true
  : Options[K] extends { byCommand: { [P in C]: { default: Raw } } }
    ? true
    : false;
/** The resolved values of `C`: an option with a default always has one, typed by what `C`'s parser gives. */
type OptionValues<C extends OptionCommand> = {
  [K in OptionKey]: Defaulted<K, C> extends true ? Parsed<K, C> : Parsed<K, C> | undefined;
};
/** The resolved values as any command may hold them (each entry's own parser's type). */
type AnyValues = {
  [K in OptionKey]: Options[K] extends { default: Raw }
    ? ReturnType<Options[K]['parse']>
    : ReturnType<Options[K]['parse']> | undefined;
};

/** The values of a command's options, with where each came from (what every command's shaping reads alike). */
export interface ResolvedOptions {
  values: AnyValues;
  /** Where each given value came from; absent when neither given nor defaulted. */
  sources: Partial<Record<OptionKey, ValueSource>>;
  /** True when the user gave the option (flag, environment or file), not a default. */
  given(key: OptionKey): boolean;
  /** The source's name for messages (the flag when nothing was given). */
  name(key: OptionKey): string;
}

/** The values of `C`'s options, typed by `C`'s own parsers (`redteam`'s `--mode`: sync or async). */
export interface CommandOptions<C extends OptionCommand> extends Omit<ResolvedOptions, 'values'> {
  values: OptionValues<C>;
}

/** `keys`' values as a configuration's fields of the same names; one that is undefined is left out. */
type ValuesOf<K extends OptionKey, C extends OptionCommand> = {
  [P in K as undefined extends OptionValues<C>[P] ? never : P]: OptionValues<C>[P];
} & { [P in K as undefined extends OptionValues<C>[P] ? P : never]?: Exclude<OptionValues<C>[P], undefined> };

/**
 * The values of `keys`, for a configuration whose fields have the options' names: an option
 * neither given nor defaulted is left out, so its consumer's own default applies.
 */
export function valuesOf<K extends OptionKey, C extends OptionCommand>(
  o: CommandOptions<C>,
  keys: readonly K[],
): ValuesOf<K, C> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o.values[k] !== undefined) out[k] = o.values[k];
  return out as ValuesOf<K, C>;
}

const present = (v: unknown): boolean => v !== undefined;
/** An empty list names nothing: it asks for the table's default (every default reporter, the `scenarios` path). */
const empty = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

/** The table's default of `key` (`spec`: as a command has it), undefined when there is none. */
function fallback(key: OptionKey, spec: OptionSpec): { raw: Raw; source: ValueSource } | undefined {
  if (spec.default === undefined) return undefined;
  return { raw: spec.default, source: { kind: 'default', level: 0, name: flagName(key) } };
}

/** The raw value of `key` for `command` and its source. */
function pick(
  key: OptionKey,
  spec: OptionSpec,
  cli: JobFlags,
  env: NodeJS.ProcessEnv,
  file: JobFlags,
  origin: FileOrigin | undefined,
): { raw: Raw; source: ValueSource } | undefined {
  const flag = flagName(key);
  const fromCli = (cli as Record<string, Raw | undefined>)[key];
  if (empty(fromCli)) return fallback(key, spec);
  if (present(fromCli)) return { raw: fromCli!, source: { kind: 'flag', level: 3, name: flag } };
  const fromEnv = spec.env !== undefined ? env[spec.env] : undefined;
  if (fromEnv !== undefined && fromEnv !== '')
    return { raw: fromEnv, source: { kind: 'env', level: 2, name: spec.env! } };
  const fromFile = (file as Record<string, Raw | undefined>)[key];
  if (empty(fromFile)) return fallback(key, spec);
  if (present(fromFile)) {
    const at = origin?.at(key);
    return {
      raw: fromFile!,
      source: at
        ? {
            kind: 'file',
            level: 1,
            name: `${at.label} (${at.location.file}:${at.location.line}:${at.location.col})`,
            location: at.location,
          }
        : { kind: 'file', level: 1, name: `${key} (config file)` },
    };
  }
  return fallback(key, spec);
}

/** Parses `raw` from `source`; a file value's mistake becomes a ConfigFileError at its position. */
function parseFrom(
  key: OptionKey,
  spec: OptionSpec,
  raw: Raw,
  source: ValueSource,
  origin: FileOrigin | undefined,
): unknown {
  const at = source.kind === 'file' ? origin?.at(key) : undefined;
  const where = source.kind === 'file' ? (at?.label ?? `${key} (config file)`) : source.name;
  try {
    return spec.parse(raw, where);
  } catch (err) {
    if (at && isDroidcheckError(err)) throw new ConfigFileError([{ location: at.location, message: err.message }]);
    throw err;
  }
}

/**
 * A table option given for a command it does not belong to: names the commands that have it
 * (`--rate is an option of droidcheck load`), derived from the table.
 */
export function notAnOptionOf(command: string, key: OptionKey): string {
  const flag = flagName(key);
  // Every entry of that flag (`--strategy` is capacity's and redteam's, two keys of the table).
  const commands = (Object.values(OPTIONS) as OptionSpec[]).flatMap((o) => (o.flag === flag ? o.commands : []));
  return `${flag} is an option of ${[...new Set(commands)].map((c) => `\`droidcheck ${c}\``).join(' and ')}, not of \`droidcheck ${command}\``;
}

/**
 * UsageError (exit 2) for a table option of `cli` that `command` does not have (the API's way in;
 * the CLI refuses it first). A switch at its default asks for nothing and passes: commander's
 * values of a command hold `true` for every `--no-*` flag, other commands' hidden ones included.
 */
export function checkBelongs(command: OptionCommand, cli: JobFlags): void {
  for (const [key, value] of Object.entries(cli)) {
    if (!Object.hasOwn(OPTIONS, key) || value === undefined) continue;
    const o = OPTIONS[key as OptionKey] as OptionSpec;
    if (typeof value === 'boolean' && value === o.default) continue;
    if (!o.commands.includes(command)) throw new UsageError(notAnOptionOf(command, key as OptionKey));
  }
}

/**
 * Resolves every option of `command` from `cli` (what the user typed, `JobFlags` names), `env`
 * and `file` (the config file's flags for this command, file.ts `fileFlags`). An option of other
 * commands only takes the table's default (none given is read). Throws what the parsers throw
 * (UsageError, ThresholdError; a file value's ConfigFileError at file:line:col): exit 2.
 */
export function resolveOptions<C extends OptionCommand>(
  command: C,
  cli: JobFlags,
  env: NodeJS.ProcessEnv,
  file: JobFlags,
): CommandOptions<C> {
  const origin = origins.get(file);
  const values: Record<string, unknown> = {};
  const sources: Partial<Record<OptionKey, ValueSource>> = {};
  for (const key of Object.keys(OPTIONS) as OptionKey[]) {
    const own = (OPTIONS[key] as OptionSpec).commands.includes(command);
    const spec = own ? specFor(key, command) : (OPTIONS[key] as OptionSpec);
    const picked = own ? pick(key, spec, cli, env, file, origin) : fallback(key, spec);
    if (!picked) continue;
    sources[key] = picked.source;
    values[key] = parseFrom(key, spec, picked.raw, picked.source, origin);
  }
  return {
    values: values as OptionValues<C>,
    sources,
    given: (key) => (sources[key]?.level ?? 0) > 0,
    name: (key) => sources[key]?.name ?? flagName(key),
  };
}
