/**
 * The one configuration resolution of every command: `resolveConfig(command, flags, env, file)`
 * checks that each option given belongs to `command`, resolves every option of the table through
 * its parser (values.ts: flags > environment, with `.env` under it > config file > defaults;
 * docs/architecture.md, Conventions), then shapes the values with the command's entry of
 * `SHAPES` into what the command runs with. No default is written here or in a shaping: each is
 * the table's (options.ts, or src/defaults.ts for those the table shares with a part it may not
 * import). The CLI calls it for every command (cli/job-options.ts `commandConfig`), a script too.
 * Throws UsageError / ConfigError / ThresholdError (exit 2) naming the flag, the variable or the
 * file's key at its line:col; ConfigFileError for a file value its parser refuses.
 */
import { coverageConfig, type ResolvedCoverageConfig } from './coverage-config.js';
import { doctorConfig, type ResolvedDoctorConfig } from './doctor-config.js';
import { emulateConfig, type ResolvedEmulateConfig } from './emulate.js';
import type { JobFlags } from './flags.js';
import {
  capacityConfig,
  loadConfig,
  redteamConfig,
  runConfig,
  webhookPolicyConfig,
  type JobConfigs,
  type ShapeInput,
} from './job-config.js';
import type { OptionCommand } from './options.js';
import { receiveConfig, type ResolvedReceiveConfig } from './receive.js';
import { checkBelongs, resolveOptions, type CommandOptions } from './values.js';

/** What each command runs with. */
interface ResolvedByCommand extends JobConfigs {
  doctor: ResolvedDoctorConfig;
  receive: ResolvedReceiveConfig;
  emulate: ResolvedEmulateConfig;
  coverage: ResolvedCoverageConfig;
}

/** The configuration `command` runs with: `ConfigOf<'load'>` has its `load` settings. */
export type ConfigOf<C extends OptionCommand> = ResolvedByCommand[C];

/** Resolved values into what `C` runs with; throws UsageError / ConfigError (exit 2) for options that contradict each other. */
type Shape<C extends OptionCommand> = (o: CommandOptions<C>, input: ShapeInput) => ResolvedByCommand[C];

/** One shaping per command of the table: a command added to OPTION_COMMANDS without one does not compile. */
const SHAPES: { [C in OptionCommand]: Shape<C> } = {
  run: runConfig,
  load: loadConfig,
  capacity: capacityConfig,
  redteam: redteamConfig,
  'webhook-policy': webhookPolicyConfig,
  doctor: (o, { env }) => doctorConfig(o, env),
  receive: (o, { env }) => receiveConfig(o, env),
  emulate: (o, { env }) => emulateConfig(o, env),
  coverage: (o) => coverageConfig(o),
};

/**
 * `command`'s configuration from `cli` (what the user typed, the table's keys), `env` (the
 * environment with `.env` under it: config `withDotenv`) and `file` (the config file's flags for
 * the command, file.ts `fileFlags`; `{}` for the commands that read no file: options.ts
 * `readsConfigFile`).
 */
export function resolveConfig<C extends OptionCommand>(
  command: C,
  cli: JobFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: JobFlags = {},
): ConfigOf<C> {
  checkBelongs(command, cli);
  return SHAPES[command](resolveOptions(command, cli, env, file), { env, file });
}
