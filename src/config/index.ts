/**
 * config/: flags > environment > `.env` > config file > defaults, resolved once for every job.
 */
export type { CommonFlags, LoadFlags, CapacityFlags, JobFlags, JobKind } from './flags.js';
export { resolveConfig, DEFAULT_REPORTERS, MIN_SECRET_CHARS } from './resolve.js';
export type { ResolvedConfig, ResolvedTarget, ResolvedLoadSettings, ResolvedCapacitySettings, ResolvedDeliveries, ResolvedMetrics, LoadModel } from './resolve.js';
export { publicSettings } from './settings.js';
export { DEFAULT_CONFIG_FILE, loadConfigFile, parseConfigFile, fileFlags, userConfigSchema, type UserConfig } from './file.js';
export { readDotenv, withDotenv, DOTENV_FILE } from './dotenv.js';
export { parseDuration, parseNumber, parseInteger, parseShare, parseUrl, parseChoice, parseGrep, parseRedisUrl, parseStreamKey, parseInstant, redisPassword, DEFAULT_STREAM } from './parse.js';
export { resolveReceiveConfig, type ReceiveFlags, type ResolvedReceiveConfig } from './receive.js';
export { resolveDoctorConfig, type DoctorFlags, type DoctorTarget, type ResolvedDoctorConfig } from './doctor-config.js';
