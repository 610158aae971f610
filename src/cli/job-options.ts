/**
 * The one CLI wiring of every command of the table of options (config/options.ts): its commander
 * options derived from the table, and the one way its options become its configuration
 * (`commandConfig`): only what the user typed (commander's defaults are documentation), over the
 * config file's flags for that command when it reads one, over `.env` and the environment, through
 * the one resolution (config/resolve.ts `resolveConfig`). A job (`jobAction`) then runs with the
 * terminal's streams, signals and colour. One meaning per short flag across commands: `-c`
 * concurrency, `-m` mode, `-o` report directory, `-t` timeout, `-r` reporter, `-d` duration.
 */
import { Option, type Command } from 'commander';
import {
  DEFAULT_CONFIG_FILE,
  defaultShown,
  fileFlags,
  flagName,
  loadConfigFile,
  notAnOptionOf,
  OPTIONS,
  optionsOf,
  readsConfigFile,
  resolveConfig,
  specFor,
  withDotenv,
  type ConfigOf,
  type JobFlags,
  type OptionCommand,
  type OptionKey,
  type OptionSpec,
} from '../config/index.js';
import { UsageError } from '../errors.js';
import { checkReportPaths } from './flag-values.js';
import type { JobIO, JobResult } from '../jobs/index.js';
import { collect, explicitOptions, withInterrupts, type CliContext } from './shared.js';

/** commander's option of a table entry, with its default and environment variable in the help. */
function commanderOption(spec: OptionSpec): Option {
  const long = spec.arg ? `${spec.flag} ${spec.arg}` : spec.flag!;
  const shown = defaultShown(spec);
  const notes = [spec.env && `env ${spec.env}`, shown !== undefined && `default: ${shown}`].filter(Boolean).join('; ');
  const option = new Option(
    spec.short ? `${spec.short}, ${long}` : long,
    notes ? `${spec.help} (${notes})` : spec.help,
  );
  if (spec.kind === 'list') option.argParser(collect).default([]);
  return option;
}

/** The table's key of a long flag. */
const KEY_OF_FLAG = new Map(
  (Object.entries(OPTIONS) as [OptionKey, OptionSpec][])
    .filter(([, o]) => o.flag !== undefined)
    .map(([k, o]) => [o.flag!, k]),
);

/** A hidden flag (another command's) that the user gave: UsageError naming the commands that have it. */
function rejectForeign(cmd: Command, command: OptionCommand): void {
  for (const option of cmd.options) {
    if (!option.hidden || option.long === undefined) continue;
    const source = cmd.getOptionValueSource(option.attributeName());
    if (source !== undefined && source !== 'default')
      throw new UsageError(notAnOptionOf(command, KEY_OF_FLAG.get(option.long)!));
  }
}

/** `droidcheck <name>` with its options from the table (addOptions); `paths`: it takes scenario files or folders. */
export function optionCommand(program: Command, name: OptionCommand, description: string, paths = false): Command {
  const command = program.command(name).description(description);
  if (paths) command.argument('[paths...]', 'scenario files or directories (default: scenarios)');
  return addOptions(command, name);
}

/**
 * A job's action (`run`, `load`, `capacity`, `redteam`, `webhook-policy`, `doctor`): its
 * configuration (commandConfig), then `job` with the terminal's streams, signals, colour and
 * environment (`.env` under it, so its secrets are redacted too); the exit code is the job's (130
 * when interrupted). After a first interrupt, in-flight requests get `--grace` to end.
 */
export function jobAction<C extends OptionCommand>(
  command: C,
  ctx: CliContext,
  job: (config: ConfigOf<C>, io: JobIO) => Promise<Pick<JobResult<unknown>, 'exitCode'>>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const config = await commandConfig(command, args.at(-1) as Command, ctx);
    const graceMs = 'graceMs' in config ? config.graceMs : 0;
    const env = withDotenv(ctx.env);
    await withInterrupts(ctx, graceMs, (signals) =>
      job(config, { stdout: ctx.stdout, stderr: ctx.stderr, ...signals, color: ctx.color, env }),
    );
  };
}

/**
 * Adds the options of `command` (table order) to `cmd`, and the other commands' flags hidden,
 * so that `run --rate 5` says `--rate is an option of droidcheck load` instead of guessing
 * (checked before the command's action runs).
 */
function addOptions(cmd: Command, command: OptionCommand): Command {
  cmd.hook('preAction', (_cmd, action) => rejectForeign(action, command));
  const own = optionsOf(command);
  for (const [key, spec] of own) if (spec.flag !== undefined) cmd.addOption(commanderOption(specFor(key, command)));
  const taken = new Set(cmd.options.flatMap((o) => [o.long, o.short]));
  for (const spec of Object.values(OPTIONS) as OptionSpec[]) {
    if (spec.flag === undefined || spec.commands.includes(command) || taken.has(spec.flag)) continue;
    cmd.addOption(new Option(spec.arg ? `${spec.flag} ${spec.arg}` : spec.flag).hideHelp());
    taken.add(spec.flag);
  }
  return cmd;
}

/**
 * Maps commander's values (attribute names of the flags) to `JobFlags` (the table's keys),
 * refusing a flag of another command with the commands that have it.
 */
function toFlags(command: OptionCommand, opts: Record<string, unknown>, paths: string[] | undefined): JobFlags {
  const flags: Record<string, unknown> = {};
  const own = new Set(optionsOf(command).map(([, o]) => o.flag));
  for (const [key, spec] of Object.entries(OPTIONS) as [OptionKey, OptionSpec][]) {
    // A flag two entries share (`--strategy`) is the entry's of this command.
    if (spec.flag === undefined || (!spec.commands.includes(command) && own.has(spec.flag))) continue;
    const attribute = new Option(spec.flag).attributeName();
    const value = opts[attribute];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (!spec.commands.includes(command)) throw new UsageError(notAnOptionOf(command, key));
    flags[key] = value;
  }
  if (paths && paths.length > 0) flags.paths = paths;
  return flags as JobFlags;
}

/**
 * The configuration of `command` from what the user typed on `cmd` (its arguments are the
 * scenario paths, for a command that takes them), the config file (`--config`, or ./droidcheck.config.yaml when present) when
 * the command reads one, `.env` and the environment: the one resolution (config/resolve.ts). The
 * paths a job will write to are checked before anything is sent. Throws UsageError / ConfigError
 * / ThresholdError; ConfigFileError (the config file, each problem at file:line:col): exit 2.
 */
export async function commandConfig<C extends OptionCommand>(
  command: C,
  cmd: Command,
  ctx: CliContext,
): Promise<ConfigOf<C>> {
  const explicit = explicitOptions<Record<string, unknown>>(cmd);
  // A command's arguments are scenario paths only when it takes them (`coverage REPORT` does not).
  const takesPaths = optionsOf(command).some(([key]) => key === 'paths');
  const paths = takesPaths && cmd.args.length > 0 ? (cmd.processedArgs[0] as string[]) : undefined;
  const flags = toFlags(command, explicit, paths);
  const file = readsConfigFile(command)
    ? fileFlags(
        await loadConfigFile(
          flags.config === undefined ? DEFAULT_CONFIG_FILE : String(flags.config),
          flags.config !== undefined,
        ),
        command,
      )
    : {};
  const config: ConfigOf<C> = resolveConfig(command, flags, withDotenv(ctx.env), file);
  if ('reporters' in config && 'reportDir' in config)
    await checkReportPaths(config.reportDir, config.reporters, config.outputFile, flagName('reportDir'));
  return config;
}
