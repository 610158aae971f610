/**
 * The one configuration resolution of every command: `resolveCommand(command, flags, env, file)`
 * checks that each option given belongs to `command`, resolves every option of the table through
 * its parser (values.ts: flags > environment, with `.env` under it > config file > defaults;
 * docs/architecture.md, Conventions), then shapes the values with the command's entry of
 * `SHAPES` into what the command runs with. No default is written here or in a shaping: each is
 * the table's (options.ts, or src/defaults.ts for the embedded emulator's own).
 *
 * The named resolvers below (`resolveConfig`, `resolveDoctorConfig`...) are the public API's
 * entry points; each is `resolveCommand` with its command name (`emulate`'s CLI calls it directly).
 * Throws UsageError / ConfigError / ThresholdError (exit 2) naming the flag, the variable or the
 * file's key at its line:col; ConfigFileError for a file value its parser refuses.
 */
import { doctorConfig, type DoctorFlags, type ResolvedDoctorConfig } from './doctor-config.js';
import { emulateConfig, type ResolvedEmulateConfig } from './emulate.js';
import type { JobFlags, JobKind } from './flags.js';
import {
  capacityConfig,
  loadConfig,
  redteamConfig,
  runConfig,
  type ConfigOf,
  type JobConfigs,
  type ShapeInput,
} from './job-config.js';
import type { OptionCommand } from './options.js';
import { receiveConfig, type ReceiveFlags, type ResolvedReceiveConfig } from './receive.js';
import { checkBelongs, resolveOptions, type ResolvedOptions } from './values.js';
import {
  webhookPolicyConfig,
  type ResolvedWebhookPolicyConfig,
  type WebhookPolicyFlags,
} from './webhook-policy-config.js';

/** What each command runs with. */
interface ResolvedByCommand extends JobConfigs {
  doctor: ResolvedDoctorConfig;
  receive: ResolvedReceiveConfig;
  emulate: ResolvedEmulateConfig;
  'webhook-policy': ResolvedWebhookPolicyConfig;
}

/** Resolved values into what `C` runs with; throws UsageError / ConfigError (exit 2) for options that contradict each other. */
type Shape<C extends OptionCommand> = (o: ResolvedOptions, input: ShapeInput) => ResolvedByCommand[C];

/** One shaping per command of the table: a command added to OPTION_COMMANDS without one does not compile. */
const SHAPES: { [C in OptionCommand]: Shape<C> } = {
  run: runConfig,
  load: loadConfig,
  capacity: capacityConfig,
  redteam: redteamConfig,
  doctor: (o, { env }) => doctorConfig(o, env),
  receive: (o, { env }) => receiveConfig(o, env),
  emulate: (o) => emulateConfig(o),
  'webhook-policy': (o, { env }) => webhookPolicyConfig(o, env),
};

/**
 * `command`'s configuration from `cli` (what the user typed, the table's keys), `env` (the
 * environment with `.env` under it) and `file` (the config file's flags for the command, file.ts
 * `fileFlags`; `{}` for the commands that read no file).
 */
export function resolveCommand<C extends OptionCommand>(
  command: C,
  cli: JobFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: JobFlags = {},
): ResolvedByCommand[C] {
  checkBelongs(command, cli);
  return SHAPES[command](resolveOptions(command, cli, env, file), { env, file });
}

/**
 * A job's configuration, typed by its command: `resolveConfig('load', ...)` has its `load`
 * settings. `file`: the config file's flags for this command (file.ts `fileFlags`).
 */
export const resolveConfig = <K extends JobKind>(
  command: K,
  cli: JobFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: JobFlags = {},
): ConfigOf<K> => resolveCommand(command, cli, env, file);

/**
 * `droidcheck doctor`'s: a missing token and secrets of any length are taken as they are (the
 * doctor reports them as checklist lines, jobs/doctor/checks.ts, instead of refusing to start);
 * a bad URL or duration, a real target without a droid id leave nothing to check (exit 2).
 */
export const resolveDoctorConfig = (
  cli: DoctorFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: JobFlags = {},
): ResolvedDoctorConfig => resolveCommand('doctor', cli, env, file);

/** `droidcheck receive`'s (no config file): flags > environment > `.env` > defaults. */
export const resolveReceiveConfig = (cli: ReceiveFlags, env: NodeJS.ProcessEnv = process.env): ResolvedReceiveConfig =>
  resolveCommand('receive', cli, env);

/** `droidcheck webhook-policy`'s (no config file): a real target needs its droid id and DROID_API_TOKEN. */
export const resolveWebhookPolicyConfig = (
  cli: WebhookPolicyFlags,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedWebhookPolicyConfig => resolveCommand('webhook-policy', cli, env);
