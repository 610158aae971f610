/**
 * `droidcheck receive` (docs/scale.md): the receiver as a standalone service that publishes
 * every delivery to a Redis Stream. Its settings come from flags and the environment (flags >
 * environment > `.env` > defaults); the webhook secret, the verify token and the intent secret
 * from the environment only (`DROID_WEBHOOK_SECRET`, `DROID_VERIFY_TOKEN`, `DROID_INTENT_SECRET`),
 * like every job's. Throws UsageError / ConfigError (exit 2).
 */
import { UsageError } from '../errors.js';
import type { TableFlags } from './flags.js';
import { parseStreamKey } from './parse.js';
import { metricsOf, secretFrom } from './target.js';
import { telemetryOf, type ResolvedTelemetry } from './telemetry.js';
import type { ResolvedOptions } from './values.js';

/** What the user gave `receive` (the table's keys, config/options.ts). */
export type ReceiveFlags = Pick<
  TableFlags,
  'host' | 'port' | 'redis' | 'stream' | 'maxLen' | 'id' | 'metricsPort' | 'metricsHost' | 'redisTimeout'
>;

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
  /** OpenTelemetry export of the webhook counters (config/telemetry.ts); undefined: off. */
  telemetry: ResolvedTelemetry | undefined;
}

/** Receive's shaping: UsageError (exit 2) without a Redis to publish to. */
export function receiveConfig(o: ResolvedOptions, env: NodeJS.ProcessEnv): ResolvedReceiveConfig {
  const v = o.values;
  if (v.redis === undefined)
    throw new UsageError(
      'droidcheck receive publishes to Redis: give --redis redis://host:6379/0 or set DROIDCHECK_REDIS_URL',
    );
  const metrics = metricsOf(o);
  return {
    host: v.host,
    port: v.port,
    redisUrl: v.redis,
    stream: parseStreamKey(v.stream, o.name('stream')),
    maxLen: v.maxLen === 0 ? null : v.maxLen,
    receiverId: v.id,
    commandTimeoutMs: v.redisTimeout,
    secret: secretFrom(env, 'DROID_WEBHOOK_SECRET') ?? null,
    verifyToken: secretFrom(env, 'DROID_VERIFY_TOKEN') ?? null,
    intentSecret: secretFrom(env, 'DROID_INTENT_SECRET') ?? null,
    metrics: metrics && { host: metrics.host, port: metrics.port },
    telemetry: telemetryOf(o, env),
  };
}
