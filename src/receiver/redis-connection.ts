/**
 * Redis connections of the receivers (ioredis), and the clock skew measured against Redis TIME.
 * A Redis URL's password never appears in an error or log: redactRedisUrl.
 * ioredis is imported on first use (it takes ~0.1-0.25 s to load), so runs without Redis do not pay for it.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { ConfigError } from '../errors.js';
import { redactRedisUrl } from '../redact.js';
import { within } from './within.js';

export interface RedisConnectOptions {
  /** Fail a command slower than this, ms (undefined: wait). */
  commandTimeoutMs?: number;
  /** Give up the first connection after this, ms. */
  connectTimeoutMs: number;
  /** Queue commands while reconnecting (true: a shard waits for Redis; false: a receiver answers 503 at once). */
  offlineQueue: boolean;
  /** Connection name shown by CLIENT LIST. */
  name: string;
}

/**
 * A client that is not connected yet (call connectRedis). Reconnects by itself (every 100 ms to
 * 1 s); errors are kept in `lastError` instead of being printed.
 */
export async function createRedis(url: string, o: RedisConnectOptions): Promise<Redis & { lastError?: string }> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: o.offlineQueue,
    maxRetriesPerRequest: o.offlineQueue ? null : 1,
    ...(o.commandTimeoutMs !== undefined ? { commandTimeout: o.commandTimeoutMs } : {}),
    connectTimeout: o.connectTimeoutMs,
    enableAutoPipelining: true,
    connectionName: o.name,
    retryStrategy: (times: number) => Math.min(times * 100, 1_000),
  }) as Redis & { lastError?: string };
  redis.on('error', (err: Error) => {
    redis.lastError = err.message;
  });
  return redis;
}

/**
 * Connects (the first time) within connectTimeoutMs.
 * Throws ConfigError (DROIDCHECK_ERR_CONFIG) naming the URL without its password.
 */
export async function connectRedis(
  redis: Redis & { lastError?: string },
  url: string,
  connectTimeoutMs: number,
): Promise<void> {
  if (redis.status === 'ready') return;
  // Its 'error' events are ioredis's reconnection attempts (lastError keeps the last): only 'ready' or the bound ends the wait.
  const ready =
    redis.status === 'wait'
      ? redis.connect().then(() => true)
      : new Promise<true>((resolve) => redis.once('ready', () => resolve(true)));
  try {
    if ((await within(ready, connectTimeoutMs)) === undefined)
      throw new Error(`no answer within ${connectTimeoutMs} ms`);
  } catch (err) {
    redis.disconnect();
    const why = redis.lastError ?? (err instanceof Error ? err.message : String(err));
    throw new ConfigError(
      `cannot reach Redis at ${redactRedisUrl(url)} (${why}); start Redis there, or fix the URL (--redis or DROIDCHECK_REDIS_URL)`,
    );
  }
}

/** Quits politely (pending replies arrive first), or drops the connection when Redis does not answer. */
export async function quitRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    if (redis.status === 'ready') await redis.quit();
    else redis.disconnect();
  } catch {
    redis.disconnect();
  }
}

/**
 * A wall clock in integer microseconds built from the injected clock: wall at start + monotonic
 * elapsed. `atMs` (default now) is a clock.now() reading, e.g. a delivery's arrival.
 */
export function createWallUs(clock: Clock): (atMs?: number) => number {
  let base = -Infinity;
  for (let i = 0; i < 3; i++) base = Math.max(base, clock.wallNow().getTime() - clock.now());
  return (atMs = clock.now()) => Math.round((base + atMs) * 1000);
}

/** One TIME sample: Redis's time and this process's clocks at the round trip's midpoint. */
export interface TimeSample {
  /** Redis TIME, us since the epoch. */
  redisUs: number;
  /** clock.now() ms at the midpoint of the round trip. */
  monoMs: number;
  /** Redis TIME minus the local wall clock (wallUs) at the midpoint, us. */
  redisMinusLocalUs: number;
  /** Round trip, us. */
  rttUs: number;
  /** Wall clock of the measurement. */
  at: Date;
}

/** Best of `samples` TIME round trips (the lowest round trip bounds the error best). Rejects when Redis fails. */
export async function sampleRedisTime(
  redis: Redis,
  clock: Clock,
  wallUs: () => number,
  samples = 5,
): Promise<TimeSample> {
  let best: TimeSample | undefined;
  for (let i = 0; i < samples; i++) {
    const t0 = clock.now();
    const w0 = wallUs();
    const [sec, usec] = await redis.time();
    const t1 = clock.now();
    const w1 = wallUs();
    const redisUs = Number(sec) * 1_000_000 + Number(usec);
    const sample: TimeSample = {
      redisUs,
      monoMs: (t0 + t1) / 2,
      redisMinusLocalUs: Math.round(redisUs - (w0 + w1) / 2),
      rttUs: Math.round((t1 - t0) * 1000),
      at: clock.wallNow(),
    };
    if (best === undefined || sample.rttUs < best.rttUs) best = sample;
  }
  return best as TimeSample;
}
