/**
 * `droidcheck receive` (docs/scale.md): the receiver as a standalone service that publishes
 * every delivery to a Redis Stream. Its settings come from flags and the environment (flags >
 * environment > `.env` > defaults); the webhook secret, the verify token and the intent secret
 * from the environment only (`DROID_WEBHOOK_SECRET`, `DROID_VERIFY_TOKEN`, `DROID_INTENT_SECRET`),
 * like every job's. Throws UsageError / ConfigError (exit 2).
 */
import { UsageError } from '../errors.js';
import { DEFAULT_STREAM, parseDuration, parseInteger, parseRedisUrl, parseStreamKey } from './parse.js';
import { secretFrom } from './resolve.js';

export interface ReceiveFlags {
  /** Bind address. Default 127.0.0.1 (`0.0.0.0` in a container). */
  host?: string;
  /** Default 8787. */
  port?: number | string;
  /** `redis://host:port/db` (a password only in DROIDCHECK_REDIS_URL). */
  redis?: string;
  /** Stream key. Default `droidcheck:deliveries` (env DROIDCHECK_STREAM). */
  stream?: string;
  /** Approximate cap of the stream, entries; 0: never trimmed. Default 1,000,000. */
  maxLen?: number | string;
  /** Written to every entry (`rcv`). Default `<hostname>:<pid>`. */
  id?: string;
  metricsPort?: number | string;
  metricsHost?: string;
  /** A delivery whose XADD takes longer is answered 503 (the service retries), e.g. "2s". */
  redisTimeout?: string | number;
}

export interface ResolvedReceiveConfig {
  host: string;
  port: number;
  /** May hold a password (from DROIDCHECK_REDIS_URL only): print it through redactRedisUrl. */
  redisUrl: string;
  stream: string;
  /** null: never trimmed. */
  maxLen: number | null;
  receiverId: string | undefined;
  /** ms */
  commandTimeoutMs: number;
  secret: string | null;
  verifyToken: string | null;
  intentSecret: string | null;
  metrics: { host: string; port: number } | undefined;
}

/** Resolves `droidcheck receive`'s flags over `env` (the environment with `.env` under it). */
export function resolveReceiveConfig(flags: ReceiveFlags, env: NodeJS.ProcessEnv = process.env): ResolvedReceiveConfig {
  let redisUrl: string;
  if (flags.redis !== undefined) redisUrl = parseRedisUrl(flags.redis, '--redis');
  else if (env.DROIDCHECK_REDIS_URL) redisUrl = parseRedisUrl(env.DROIDCHECK_REDIS_URL, 'DROIDCHECK_REDIS_URL', true);
  else throw new UsageError('droidcheck receive publishes to Redis: give --redis redis://host:6379/0 or set DROIDCHECK_REDIS_URL');
  const stream = flags.stream ?? env.DROIDCHECK_STREAM ?? DEFAULT_STREAM;
  const maxLen = parseInteger(flags.maxLen ?? 1_000_000, '--max-len', 0);
  if (flags.metricsHost !== undefined && flags.metricsPort === undefined) throw new UsageError('--metrics-host needs --metrics-port');
  const commandTimeoutMs = parseDuration(flags.redisTimeout ?? '2s', '--redis-timeout');
  if (commandTimeoutMs <= 0) throw new UsageError('--redis-timeout: must be > 0, e.g. 2s');
  return {
    host: flags.host ?? '127.0.0.1',
    port: parseInteger(flags.port ?? 8787, '--port', 0, 65_535),
    redisUrl,
    stream: parseStreamKey(stream, flags.stream !== undefined ? '--stream' : 'DROIDCHECK_STREAM'),
    maxLen: maxLen === 0 ? null : maxLen,
    receiverId: flags.id,
    commandTimeoutMs,
    secret: secretFrom(env, 'DROID_WEBHOOK_SECRET') ?? null,
    verifyToken: secretFrom(env, 'DROID_VERIFY_TOKEN') ?? null,
    intentSecret: secretFrom(env, 'DROID_INTENT_SECRET') ?? null,
    metrics: flags.metricsPort === undefined ? undefined : { host: flags.metricsHost ?? '127.0.0.1', port: parseInteger(flags.metricsPort, '--metrics-port', 0, 65_535) },
  };
}
