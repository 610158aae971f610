/**
 * A job's live metrics (`--metrics-port`), fed from what the engine already
 * gives every job: a RecordSink (each ended request: outcome and verdict counters, the findings
 * of its bursts) and the progress tick (in flight, dropped, intended rate, and references to the
 * run's own HDR histograms, read at scrape time). No hook in the request path. The receiver's
 * counters (or the stream's, `--deliveries`) and the job's coverage shares are read at scrape
 * time too. So what /metrics says at the end is what the report says: the same records, the same
 * histograms, the same receiver counters, the same coverage recorder.
 *
 * prom-client is loaded only here, on demand (~80 ms a run without metrics does not pay).
 */
import { listenError } from '../../os-errors.js';
import type { ResolvedMetrics } from '../../config/index.js';
import {
  histogramBuckets,
  LatencyRecorder,
  zeroBurstCounts,
  type CoverageShareFigures,
  type LatencySources,
  type LiveMetrics,
  type MetricsServer,
  type WebhookTotals,
} from '../../metrics/index.js';
import type { DeliverySource, WebhookCounters } from '../../receiver/index.js';
import {
  countBurst,
  verdictOf,
  type ProgressSnapshot,
  type RecordSink,
  type SendDelayRecorder,
  type Shard,
} from '../../runner/index.js';
import type { JobTraffic } from './job-spec.js';
import { sleep } from '../../clock.js';

/** The receiver's counters as webhook totals by route and verdict (the names of docs/scale.md). */
export function webhookTotals(receiver: WebhookCounters): WebhookTotals {
  const s = receiver.stats();
  const { messages, intents } = receiver.inboundStats();
  const inbound = (r: typeof messages): WebhookTotals[string] => ({
    received: r.received,
    verdicts: { accepted: r.accepted, bad_secret: r.badSecret, malformed: r.malformed, unavailable: r.unavailable },
  });
  return {
    answer: {
      received: s.received,
      parked: receiver.parkedCount(),
      verdicts: {
        matched: s.matched,
        duplicate: s.duplicates,
        late: s.late,
        orphan: s.orphans,
        foreign: s.foreign,
        bad_secret: s.badSecret,
        malformed: s.malformed,
        published: s.published,
        unavailable: s.unavailable,
      },
    },
    messages: inbound(messages),
    intents: inbound(intents),
  };
}

/** Receiver clock minus this process's, seconds, per receiver seen in the stream. */
function receiverSkews(receiver: WebhookCounters): Record<string, number> {
  return Object.fromEntries(
    (receiver.clockSkew()?.receivers ?? []).map((r) => [r.receiverId, r.receiverMinusLocalUs / 1e6]),
  );
}

/** A registry and the server that serves it. */
export interface ServedMetrics {
  metrics: LiveMetrics;
  server: MetricsServer;
}

/** Builds the registry (with `labels` on every series) and serves it on host:port. Rejects when the port cannot be bound. */
export async function serveMetrics(options: {
  host: string;
  port: number;
  labels: Record<string, string>;
}): Promise<ServedMetrics> {
  const [{ createLiveMetrics }, { startMetricsServer }] = await Promise.all([
    import('../../metrics/prometheus.js'),
    import('../../metrics/metrics-server.js'),
  ]);
  const metrics = createLiveMetrics({ labels: options.labels });
  // The user's --metrics-host/--metrics-port: a port in use or a foreign address is exit 2.
  const server = await startMetricsServer(metrics, { host: options.host, port: options.port }).catch((err: unknown) => {
    throw listenError(
      err,
      { flag: '--metrics-host', value: options.host },
      { flag: '--metrics-port', value: options.port },
    );
  });
  return { metrics, server };
}

export interface JobMetrics {
  /** `http://host:port/metrics`. */
  readonly url: string;
  /** Counts each ended request (warm-up excluded). */
  readonly sink: RecordSink;
  onTick(snapshot: ProgressSnapshot): void;
  /** Reads the receiver's (or the stream's) counters and clock skew at every scrape. */
  watch(receiver: DeliverySource): void;
  /** Reads the job's coverage shares at every scrape (coverage/ CoverageRecorder.shares). */
  watchCoverage(read: () => CoverageShareFigures): void;
  /** The job's final histograms (capacity: every rate combined) replace the live ones; `droidcheck_job_finished` 1. */
  finish(engine: JobTraffic | undefined): void;
  /** Serves `lingerMs` more (so the last scrape sees the final counts; `signal` cuts it short), then closes. */
  close(lingerMs?: number, signal?: AbortSignal): Promise<void>;
}

function sourcesOf(latency: LatencyRecorder, sendDelay: SendDelayRecorder | undefined): LatencySources {
  return {
    ack: () => latency.buckets('ack'),
    answer: () => latency.buckets('answer'),
    sync: () => latency.buckets('sync'),
    reply: () => latency.buckets('reply'),
    ackServer: () => latency.buckets('ackServer'),
    ...(sendDelay && { sendDelay: () => histogramBuckets(LatencyRecorder.decode(sendDelay.encode())) }),
  };
}

/** Starts serving the metrics of job `kind` (`config.metrics`); labels `command` (the job) and, sharded, `shard`. */
export async function startJobMetrics(
  kind: string,
  config: { metrics: ResolvedMetrics; shard: Shard | undefined },
): Promise<JobMetrics> {
  const labels: Record<string, string> = {
    command: kind,
    ...(config.shard && { shard: `${config.shard.index}/${config.shard.total}` }),
  };
  const { metrics, server } = await serveMetrics({ host: config.metrics.host, port: config.metrics.port, labels });
  // One entry per engine run seen (capacity runs the engine once per rate).
  const runs = new Map<LatencyRecorder, LatencySources>();
  let droppedBefore = 0;
  let lastRun: LatencyRecorder | undefined;
  let lastDropped = 0;
  return {
    url: server.url,
    sink: {
      onRecord(record, warmup) {
        if (warmup) return;
        metrics.observeRequest({
          outcome: record.outcome,
          verdict: verdictOf(record),
          suite: record.suite,
          scenario: record.scenario,
          mode: record.mode,
        });
        if (record.bursts) {
          const counts = zeroBurstCounts();
          for (const burst of record.bursts) countBurst(counts, burst);
          metrics.observeBursts(counts);
        }
      },
    },
    onTick(s) {
      const h = s.histograms;
      if (h && !runs.has(h.latency)) {
        runs.set(h.latency, sourcesOf(h.latency, h.sendDelay));
        metrics.setLatencySources([...runs.values()]);
      }
      // `dropped` counts per engine run: carry the earlier runs' totals.
      if (h?.latency !== lastRun) {
        droppedBefore += lastDropped;
        lastRun = h?.latency;
      }
      lastDropped = s.dropped;
      metrics.observeProgress({
        inFlight: s.inFlight,
        openConversations: s.openConversations,
        droppedTotal: droppedBefore + s.dropped,
        targetRate: s.targetRate,
      });
    },
    watch(receiver) {
      metrics.watchWebhooks(() => webhookTotals(receiver));
      metrics.watchClockSkew(() => receiverSkews(receiver));
    },
    watchCoverage(read) {
      metrics.watchCoverage(read);
    },
    finish(engine) {
      if (engine) {
        metrics.setLatencySources([sourcesOf(engine.latency, engine.sendDelay)]);
        // Every request and conversation has ended: the last tick's figures would be stale.
        metrics.observeProgress({
          inFlight: 0,
          openConversations: 0,
          droppedTotal: engine.counts.dropped,
          targetRate: undefined,
        });
      }
      metrics.finish();
    },
    async close(lingerMs = 0, signal) {
      if (lingerMs > 0 && !signal?.aborted) await sleep(lingerMs, { signal });
      await server.close();
    },
  };
}
