/**
 * The relay's sink (delivery.ts): XADDs each delivery to a Redis Stream (entry format:
 * stream-entry.ts) before the route acknowledges it, so a relay that dies loses no delivery it
 * acknowledged. Refused deliveries (bad secret) are published too, so the shards count them. No
 * command is queued while Redis is away: take() rejects at once (the route answers 503 and the
 * service retries), and after commandTimeoutMs when Redis hangs. An intent's body secret is
 * redacted before it is written; query parameters are never written.
 */
import { hostname } from 'node:os';
import type { Clock } from '../clock.js';
import { NOTHING_KEPT, type Delivery, type DeliverySink, type Reply } from './delivery.js';
import { redactIntentSecret } from './inbound.js';
import {
  connectRedis,
  createRedis,
  quitRedis,
  sampleRedisTime,
  type TimeSample,
  createWallUs,
} from './redis-connection.js';
import { encodeEntry } from './stream-entry.js';
import type { ClockSkew, PublishOptions } from './types.js';

export interface StreamPublisher extends DeliverySink {
  /** Connects and measures the skew (idempotent). Throws ConfigError when Redis cannot be reached. */
  ready(): Promise<void>;
  /** XADDs the delivery (arrival as wall clock us, skew, rtt and receiver id filled in); rejects when Redis did not store it. */
  take(d: Delivery): Promise<Reply>;
  /** PING within the command timeout: true when Redis answers. */
  healthy(): Promise<boolean>;
  skew(): ClockSkew | undefined;
  /** Waits for every XADD in flight, then quits Redis. Idempotent. */
  close(): Promise<void>;
}

/** The entry's fields: arrival as wall clock us; an intent's body with its secret redacted, others as received. */
function entryOf(d: Delivery, atUs: number, sample: TimeSample | undefined, receiverId: string): string[] {
  const body = d.route === 'intent' && d.body !== undefined ? JSON.stringify(redactIntentSecret(d.body)) : d.raw;
  const { route, verdict, requestId, customerId } = d;
  return encodeEntry({
    route,
    verdict,
    atUs,
    requestId,
    customerId,
    body,
    skewUs: sample?.redisMinusLocalUs ?? 0,
    rttUs: sample?.rttUs ?? 0,
    receiverId,
  });
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
    take(d) {
      if (closing !== undefined || redis === undefined)
        return Promise.reject(new Error('publisher closed or not ready'));
      const fields = entryOf(d, wallUs(d.receivedAt), sample, receiverId);
      const p = redis.xadd(options.stream, ...trim, '*', ...fields);
      inFlight.add(p);
      const done = (): void => void inFlight.delete(p);
      p.then(done, done);
      return p.then((id) => {
        if (id === null) throw new Error('XADD stored nothing');
        return undefined;
      });
    },
    answerCounts: (accepted) => ({ matched: 0, duplicates: 0, late: 0, orphans: 0, published: accepted }),
    keptCounts: () => NOTHING_KEPT,
    release() {},
    async healthy() {
      try {
        return redis !== undefined && (await redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    skew() {
      if (sample === undefined) return undefined;
      return {
        redisMinusLocalUs: sample.redisMinusLocalUs,
        rttUs: sample.rttUs,
        measuredAt: sample.at.toISOString(),
        receivers: [],
      };
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
