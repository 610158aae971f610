/**
 * config/: one table of options (options.ts) from which flags, the config file, the resolution
 * (flags > environment > `.env` > config file > defaults) and the docs are derived.
 */
export type { CommonFlags, LoadFlags, CapacityFlags, JobFlags, JobKind, TableFlags } from './flags.js';
export { resolveConfig, notAnOptionOf, DEFAULT_REPORTERS, MIN_SECRET_CHARS } from './resolve.js';
export type { ResolvedRedteamSettings } from './redteam.js';
export type { ResolvedConfig, BaseConfig, RunConfig, LoadConfig, CapacityConfig, RedteamConfig, ConfigOf, ResolvedTarget, ResolvedLoadSettings, ResolvedCapacitySettings, ResolvedDeliveries, ResolvedMetrics, LoadModel } from './resolve.js';
export { publicSettings } from './settings.js';
export { DEFAULT_CONFIG_FILE, loadConfigFile, parseConfigFile, fileFlags, userConfigSchema, type UserConfig } from './file.js';
export { readDotenv, withDotenv, DOTENV_FILE } from './dotenv.js';
export { parseDuration, parseNumber, parseInteger, parseShare, parseUrl, parseChoice, parseGrep, parseRedisUrl, parseStreamKey, parseInstant, redisPassword, DEFAULT_STREAM } from './parse.js';
export { resolveReceiveConfig, type ReceiveFlags, type ResolvedReceiveConfig } from './receive.js';
export { resolveDoctorConfig, type DoctorFlags, type DoctorTarget, type ResolvedDoctorConfig } from './doctor-config.js';
export { OPTIONS, OPTION_COMMANDS, JOB_COMMANDS, optionsOf, specFor, flagName, defaultShown, isSharedKey, type OptionSpec, type OptionKey, type OptionCommand, type Raw } from './options.js';
export { resolveOptions, type ResolvedOptions, type ValueSource } from './values.js';
export { defaultInFlightCap, inFlightMemory, PENDING_REQUEST_BYTES, IN_FLIGHT_MARGIN, MIN_IN_FLIGHT_CAP } from './in-flight.js';
export { optionsMarkdown, OPTIONS_BEGIN, OPTIONS_END } from './options-doc.js';
export { resolveWebhookPolicyConfig, type WebhookPolicyFlags, type WebhookPolicyTarget, type ResolvedWebhookPolicyConfig, type ProbeName, type EmulatedRetry } from './webhook-policy-config.js';
