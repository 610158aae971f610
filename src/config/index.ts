/**
 * config/: one table of options (options.ts) from which flags, the config file, the resolution
 * (flags > environment > `.env` > config file > defaults) and the docs are derived.
 */
export type { CommonFlags, LoadFlags, CapacityFlags, JobFlags, JobKind, TableFlags } from './flags.js';
export { resolveConfig, notAnOptionOf, MIN_SECRET_CHARS } from './resolve.js';
export type {
  ResolvedConfig,
  RunConfig,
  LoadConfig,
  CapacityConfig,
  RedteamConfig,
  ConfigOf,
  ResolvedLoadSettings,
  ResolvedMetrics,
} from './resolve.js';
export { publicSettings } from './settings.js';
export {
  DEFAULT_CONFIG_FILE,
  loadConfigFile,
  parseConfigFile,
  fileFlags,
  userConfigSchema,
  type UserConfig,
} from './file.js';
export { readDotenv, withDotenv } from './dotenv.js';
export {
  parseInteger,
  parseGrep,
  redisPassword,
} from './parse.js';
export { resolveReceiveConfig, type ReceiveFlags, type ResolvedReceiveConfig } from './receive.js';
export {
  resolveDoctorConfig,
  type DoctorFlags,
  type ResolvedDoctorConfig,
} from './doctor-config.js';
export {
  OPTIONS,
  OPTION_COMMANDS,
  optionsOf,
  specFor,
  flagName,
  defaultShown,
  isSharedKey,
  type OptionSpec,
  type OptionKey,
  type OptionCommand,
} from './options.js';
export { resolveOptions } from './values.js';
export {
  defaultInFlightCap,
  inFlightMemory,
  PENDING_REQUEST_BYTES,
} from './in-flight.js';
export { optionsMarkdown, OPTIONS_BEGIN, OPTIONS_END } from './options-doc.js';
export {
  resolveWebhookPolicyConfig,
  type WebhookPolicyFlags,
  type ResolvedWebhookPolicyConfig,
  type ProbeName,
} from './webhook-policy-config.js';
