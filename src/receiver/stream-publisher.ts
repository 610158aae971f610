/**
 * Publish mode of the HTTP receiver (docs/scale.md): XADDs each delivery to a Redis Stream
 * (entry format: stream-entry.ts) before the receiver acknowledges it, so a receiver that dies
 * loses no delivery it acknowledged. No command is queued while Redis is away: publish() rejects
 * at once (the receiver answers 503 and the service retries), and after commandTimeoutMs when
 * Redis hangs. The receiver holds no state another receiver needs: several may publish to one
 * stream behind one URL.
 */
import { hostname } from 'node:os';
import type { Clock } from '../clock.js';
import { connectRedis, createRedis, quitRedis, sampleRedisTime, type TimeSample, createWallUs } from './redis-connection.js';
import { encodeEntry, type EntryFields } from './stream-entry.js';
import type { ClockSkew, PublishOptions } from './types.js';

export interface StreamPublisher {
  /** Wall clock now, integer us (the `at` of an entry). */
  wallUs(): number;
  /** Connects and measures the skew (idempotent). Throws ConfigError when Redis cannot be reached. */
  ready(): Promise<void>;
  /** XADDs one entry (skew, rtt and receiver id filled in); rejects when Redis did not store it. */
  publish(entry: Omit<EntryFields, 'skewUs' | 'rttUs' | 'receiverId'>): Promise<void>;
  /** PING within the command timeout: true when Redis answers. */
  ping(): Promise<boolean>;
  skew(): ClockSkew | undefined;
  /** Waits for every publish in flight, then quits Redis. Idempotent. */
  close(): Promise<void>;
}

export function createStreamPublisher(options: PublishOptions, clock: Clock): StreamPublisher {
  const maxLen = options.maxLen === undefined ? 1_000_000 : options.maxLen;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const receiverId = options.receiverId ?? `${hostname()}:${process.pid}`;
  let redis: Awaited<ReturnType<typeof createRedis>> | undefined;
  const wallUs = createWallUs(clock);
  const trim = maxLen === null ? [] : ['MAXLEN', '~', String(maxLen)];
  const inFlight = new Set<Promise<unknown>>();
  let sample: TimeSample | undefined;
  let skewTimer: NodeJS.Timeout | undefined;
  let readying: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const measure = async (): Promise<void> => {
    if (redis === undefined) return;
    try {
      sample = await sampleRedisTime(redis, clock, wallUs);
    } catch {
      // keep the last measurement; health checks report Redis being away
    }
  };

  return {
    wallUs,
    ready() {
      readying ??= (async () => {
        redis = await createRedis(options.redisUrl, {
          commandTimeoutMs: options.commandTimeoutMs ?? 2_000,
          connectTimeoutMs,
          offlineQueue: false,
          name: 'droidcheck-receiver',
        });
        await connectRedis(redis, options.redisUrl, connectTimeoutMs);
        await measure();
        skewTimer = setInterval(() => void measure(), options.skewIntervalMs ?? 10_000);
        skewTimer.unref();
      })();
      return readying;
    },
    publish(entry) {
      if (closing !== undefined || redis === undefined) return Promise.reject(new Error('publisher closed or not ready'));
      const fields = encodeEntry({ ...entry, skewUs: sample?.redisMinusLocalUs ?? 0, rttUs: sample?.rttUs ?? 0, receiverId });
      const p = redis.xadd(options.stream, ...trim, '*', ...fields);
      inFlight.add(p);
      const done = (): void => void inFlight.delete(p);
      p.then(done, done);
      return p.then((id) => {
        if (id === null) throw new Error('XADD stored nothing');
      });
    },
    async ping() {
      try {
        return redis !== undefined && (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    skew() {
      if (sample === undefined) return undefined;
      return { redisMinusLocalUs: sample.redisMinusLocalUs, rttUs: sample.rttUs, measuredAt: sample.at.toISOString(), receivers: [] };
    },
    close() {
      closing ??= (async () => {
        clearInterval(skewTimer);
        await Promise.allSettled([...inFlight]);
        if (redis !== undefined) await quitRedis(redis);
      })();
      return closing;
    },
  };
}
