/**
 * `startReceive(config)`: the receiver as a standalone relay (`droidcheck receive` wraps it). It
 * answers the service's three webhooks (answer, message
 * forwarding, intent; docs/receiver.md) and publishes every delivery it accepts, and every one
 * it refuses for its secret, to a Redis Stream with its arrival time (wall clock, us) before it
 * answers 200, so shards on other machines (`run`/`load --deliveries`) read them. It holds no
 * state another receiver needs: run as many as you like behind one URL (a load balancer, a
 * Kubernetes Service). `GET /healthz` answers 503 while Redis does not answer PING.
 * close() stops accepting, lets the requests in flight finish their XADD and their answer, then
 * quits Redis: nothing is acknowledged and unpublished (receiver/relay.ts). With
 * `--metrics-port`, the webhook counters are served to Prometheus (live-metrics.ts).
 */
import type { ResolvedReceiveConfig } from '../../config/index.js';
import {
  createRelay,
  redactRedisUrl,
  type Relay,
  type ReceiverStats,
  type ReceiverUrls,
} from '../../receiver/index.js';
import { listenError } from '../../os-errors.js';
import { serveMetrics, webhookTotals, type ServedMetrics } from '../pipeline/live-metrics.js';
import { systemClock } from '../../clock.js';
import type { JobTelemetry } from '../../telemetry/index.js';

export interface ReceiveService {
  readonly receiver: Relay;
  /** The routes' URLs (without secret or token). */
  readonly urls: ReceiverUrls;
  /** The stream, and Redis without its password. */
  readonly stream: string;
  readonly redis: string;
  /** `http://host:port/metrics` with `--metrics-port`. */
  readonly metricsUrl: string | undefined;
  /** Stops accepting, publishes what is in flight, quits Redis; resolves the final counters. Idempotent. */
  close(): Promise<ReceiverStats>;
}

/**
 * Connects to Redis, listens, and starts serving metrics when asked. Throws ConfigError
 * (DROIDCHECK_ERR_CONFIG, exit 2) when Redis cannot be reached within 5 s, UsageError (exit 2)
 * when the port (or the metrics port) cannot be bound.
 */
export async function startReceive(config: ResolvedReceiveConfig): Promise<ReceiveService> {
  const receiver = createRelay({
    host: config.host,
    port: config.port,
    secret: config.secret,
    verifyToken: config.verifyToken,
    intentSecret: config.intentSecret,
    publish: {
      redisUrl: config.redisUrl,
      stream: config.stream,
      maxLen: config.maxLen,
      commandTimeoutMs: config.commandTimeoutMs,
      ...(config.receiverId !== undefined && { receiverId: config.receiverId }),
    },
  });
  let served: ServedMetrics | undefined;
  let telemetry: JobTelemetry | undefined;
  try {
    await receiver.listen().catch((err: unknown) => {
      throw listenError(err, { flag: '--host', value: config.host }, { flag: '--port', value: config.port });
    });
    if (config.metrics) {
      served = await serveMetrics({ ...config.metrics, labels: { command: 'receive' } });
      served.metrics.watchWebhooks(() => webhookTotals(receiver));
    }
    if (config.telemetry) {
      // The webhook counters over OTLP too (src/telemetry, loaded only when export is on).
      const { startJobTelemetry } = await import('../../telemetry/index.js');
      telemetry = await startJobTelemetry(config.telemetry, {
        job: 'receive',
        clock: systemClock,
        warn: (line) => void process.stderr.write(`droidcheck: ${line}\n`),
      });
      telemetry.watch(() => webhookTotals(receiver));
    }
  } catch (err) {
    await receiver.close();
    await telemetry?.shutdown();
    throw err;
  }
  const urls = receiver.urls()!;
  let closing: Promise<ReceiverStats> | undefined;
  return {
    receiver,
    urls,
    stream: config.stream,
    redis: redactRedisUrl(config.redisUrl),
    metricsUrl: served?.server.url,
    close() {
      closing ??= (async () => {
        try {
          await receiver.close();
        } finally {
          served?.metrics.finish();
          await served?.server.close();
          telemetry?.finish(undefined);
          await telemetry?.shutdown();
        }
        return receiver.stats();
      })();
      return closing;
    },
  };
}
