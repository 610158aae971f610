/**
 * config/: one table of options (options.ts) from which flags, the config file, the resolution
 * (flags > environment > `.env` > config file > defaults) and the docs are derived.
 */
export type { CommonFlags, LoadFlags, CapacityFlags, JobFlags, JobKind } from './flags.js';
export { resolveConfig, type ConfigOf } from './resolve.js';
export { notAnOptionOf } from './values.js';
export { MIN_SECRET_CHARS } from './parse.js';
export type {
  ResolvedConfig,
  RunConfig,
  LoadConfig,
  CapacityConfig,
  RedteamConfig,
  WebhookPolicyConfig,
} from './job-config.js';
export type { ResolvedLoadSettings } from './load-config.js';
export type { ResolvedMetrics } from './target.js';
export type { ResolvedTelemetry } from './telemetry.js';
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
export { parseInteger, parseGrep, redisPassword } from './parse.js';
export type { ReceiveFlags, ResolvedReceiveConfig } from './receive.js';
export type { DoctorFlags, ResolvedDoctorConfig } from './doctor-config.js';
export type { CoverageFlags, ResolvedCoverageConfig } from './coverage-config.js';
export {
  OPTIONS,
  OPTION_COMMANDS,
  optionsOf,
  specFor,
  flagName,
  defaultShown,
  isSharedKey,
  readsConfigFile,
  type OptionSpec,
  type OptionKey,
  type OptionCommand,
} from './options.js';
export {
  defaultInFlightCap,
  heapAdvice,
  inFlightMemory,
  PENDING_REQUEST_BYTES,
} from './in-flight.js';
export { optionsMarkdown, OPTIONS_BEGIN, OPTIONS_END } from './options-doc.js';
export type { WebhookPolicyFlags } from './webhook-policy-config.js';
export type { ProbeName } from './options.js';
export { configJsonSchema } from './json-schema.js';
