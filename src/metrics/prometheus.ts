/**
 * Live metrics in the Prometheus text format, with prom-client: what a job (run, load, capacity)
 * or a receiver (`droidcheck receive`) is doing while it runs, for Prometheus and Grafana
 * (deploy/monitoring/grafana-dashboard.json). Names follow Prometheus conventions
 * (prometheus.io/docs/practices/naming): `droidcheck_` prefix, base units (seconds), counters end
 * in `_total`. The metrics, their types, labels and help are declared once, below; docs/scale.md's
 * table ("Live metrics") is rendered from `metricList()` (test/docs/metrics-table.test.ts checks
 * it), so the names a dashboard queries are the ones documented.
 *
 * Latency histograms are views of the same HDR histograms the report is computed from, so their
 * `_count` equals the report's count; a value lands in the first bucket whose bound is at least
 * its HDR bucket's highest equivalent value (3 significant digits), and `_sum` is exact to the
 * same 0.1 %. Bucket bounds include the spec's limits (0.1 s for ack, 180 s for answer, sync and
 * reply), so the share within a limit is read from one bucket.
 *
 * A job's coverage shares (gauges, read at scrape time from its coverage recorder) and its
 * bursts' findings (counters, fed with each ended request) carry the names of the thresholds
 * that judge them (`coverage.<what>`, `coverage.funnel.<stage>`, `burst.<finding>`), and the
 * OTLP export has the same instruments (telemetry/metrics.ts). Imports nothing of ours but this
 * folder's latency histograms, bursts' counts and threshold names (docs/architecture.md, Layout:
 * metrics/ owns the Prometheus export).
 */
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { BurstCounts } from './bursts.js';
import type { HistogramBucket } from './latency-recorder.js';
import { BURST_THRESHOLD_FINDINGS, FUNNEL_STAGES, type FunnelStage } from './threshold-parse.js';

/** The latency histograms exported; `sendDelay` is the open model's intended-vs-actual start. */
export type LatencySeries = 'ack' | 'answer' | 'sync' | 'reply' | 'ackServer' | 'sendDelay';
const LATENCY_SERIES: readonly LatencySeries[] = ['ack', 'answer', 'sync', 'reply', 'ackServer', 'sendDelay'];

const ACK_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5];
const ANSWER_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 90, 120, 180, 300];
const SEND_DELAY_BUCKETS_S = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** Bucket upper bounds (seconds) of each latency histogram. */
const PROMETHEUS_BUCKETS_S: Readonly<Record<LatencySeries, readonly number[]>> = {
  ack: ACK_BUCKETS_S,
  ackServer: ACK_BUCKETS_S,
  answer: ANSWER_BUCKETS_S,
  sync: ANSWER_BUCKETS_S,
  reply: ANSWER_BUCKETS_S,
  sendDelay: SEND_DELAY_BUCKETS_S,
};

/** Prometheus names of the latency histograms. */
export const LATENCY_METRIC_NAMES: Readonly<Record<LatencySeries, string>> = {
  ack: 'droidcheck_ack_latency_seconds',
  answer: 'droidcheck_answer_latency_seconds',
  sync: 'droidcheck_sync_latency_seconds',
  reply: 'droidcheck_reply_latency_seconds',
  ackServer: 'droidcheck_ack_server_latency_seconds',
  sendDelay: 'droidcheck_send_delay_seconds',
};

const LATENCY_HELP: Readonly<Record<LatencySeries, string>> = {
  ack: 'Async acknowledgement latency (get-droid-answer-async), from the intended start; spec limit 0.1 s',
  answer: 'Async answer latency, from the intended start to the webhook accepted; spec limit 180 s',
  sync: 'Sync answer latency (get-droid-answer), from the intended start; spec limit 180 s',
  reply: 'send to the bot reply on the message-forwarding webhook',
  ackServer: 'Acknowledgement latency minus the measured network round trip (remote targets)',
  sendDelay: 'Open model: actual minus intended send time (a generator that cannot keep up)',
};

/** The HDR buckets (values in us) behind a latency series, read at scrape time. */
type BucketSource = () => readonly HistogramBucket[];

/** One engine run's (or one receiver's) histograms; missing series are empty. */
export type LatencySources = Partial<Record<LatencySeries, BucketSource>>;

/** One ended request, as the counters need it. */
interface RequestObservation {
  outcome: string;
  /** passed, failed or judge-error; none: no verdict (not sent, interrupted). */
  verdict: 'passed' | 'failed' | 'judge-error' | 'none';
  suite: string;
  scenario: string;
  mode: string;
}

/** What a progress tick says. Totals are cumulative over the job. */
interface ProgressObservation {
  inFlight: number;
  /** Conversations open now (think time included); undefined: the run has none (the gauge is not set). */
  openConversations?: number | undefined;
  droppedTotal: number;
  /** Intended arrival rate now, req/s (open model). */
  targetRate: number | undefined;
}

/** Webhook totals by route (`answer`, `messages`, `intents`): received, and verdict -> count. */
export type WebhookTotals = Record<string, { received: number; verdicts: Record<string, number>; parked?: number }>;

/**
 * The coverage shares so far, 0..1 each (coverage/ CoverageShares: the figures the thresholds
 * `coverage.products`, `coverage.intents`, `coverage.rules` and `coverage.funnel.<stage>` judge);
 * a share left out has nothing to count against, and its series is absent.
 */
export interface CoverageShareFigures {
  products?: number;
  intents?: number;
  rules?: number;
  funnel?: Partial<Record<FunnelStage, number>>;
}

export interface LiveMetricsOptions {
  /** Labels on every series (e.g. `{command: 'load', shard: '1/2'}`). */
  labels?: Record<string, string>;
  /** prom-client's default process metrics (CPU, memory, event-loop lag). Default true. */
  processMetrics?: boolean;
}

export interface LiveMetrics {
  readonly registry: Registry;
  /** `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string;
  /** One ended request (warm-up ones are not observed). Two counter increments. */
  observeRequest(r: RequestObservation): void;
  observeProgress(p: ProgressObservation): void;
  /** The histograms behind the latency series: every source's buckets are added at scrape time. */
  setLatencySources(sources: readonly LatencySources[]): void;
  /** Webhook totals read at each scrape (counters: they must never decrease). */
  watchWebhooks(read: () => WebhookTotals): void;
  /** Clock skew per receiver, seconds (receiver minus this process), read at each scrape. */
  watchClockSkew(read: () => Record<string, number>): void;
  /** The job's coverage shares, read at each scrape (a job that computes a coverage section). */
  watchCoverage(read: () => CoverageShareFigures): void;
  /** The bursts one ended request judged, and how many of them had each finding (metrics/bursts.ts). */
  observeBursts(counts: BurstCounts): void;
  /** The job's figures are final (`droidcheck_job_finished` 1). */
  finish(): void;
  /** The exposition text. */
  metrics(): Promise<string>;
}

type HistogramValue = { value: number; labels: Record<string, string | number>; metricName: string };

/** A histogram whose buckets are computed from HDR sources at scrape time (a prom-client custom metric). */
class HdrHistogramMetric {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  sources: BucketSource[] = [];
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly boundsS: readonly number[],
  ) {}

  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: HistogramValue[] }> {
    const boundsUs = this.boundsS.map((b) => b * 1e6);
    const cumulative = boundsUs.map(() => 0);
    let count = 0;
    let sumUs = 0;
    for (const source of this.sources) {
      for (const { valueUs, count: c } of source()) {
        count += c;
        sumUs += valueUs * c;
        for (let i = boundsUs.length - 1; i >= 0 && valueUs <= boundsUs[i]!; i--) cumulative[i]! += c;
      }
    }
    const bucket = `${this.name}_bucket`;
    const values: HistogramValue[] = this.boundsS.map((le, i) => ({
      value: cumulative[i]!,
      labels: { le },
      metricName: bucket,
    }));
    values.push({ value: count, labels: { le: '+Inf' }, metricName: bucket });
    values.push({ value: sumUs / 1e6, labels: {}, metricName: `${this.name}_sum` });
    values.push({ value: count, labels: {}, metricName: `${this.name}_count` });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.sources = [];
  }
}

/** The run's own counters and gauges, registered in this order on `registers`. */
function createRunMetrics(registers: Registry[]) {
  return {
    requests: new Counter({
      name: 'droidcheck_requests_total',
      help: 'Ended requests by outcome (answered, failed, rejected, timeout, ...), warm-up excluded',
      labelNames: ['outcome'],
      registers,
    }),
    results: new Counter({
      name: 'droidcheck_scenario_results_total',
      help: 'Ended requests with a verdict, by scenario and mode: passed, failed, judge_error',
      labelNames: ['suite', 'scenario', 'mode', 'result'],
      registers,
    }),
    inFlight: new Gauge({
      name: 'droidcheck_requests_in_flight',
      help: 'Requests in flight at the last progress tick',
      registers,
    }),
    openConversations: new Gauge({
      name: 'droidcheck_open_conversations',
      help: 'Conversations (steps scenarios under load) open at the last progress tick, think time included',
      registers,
    }),
    dropped: new Counter({
      name: 'droidcheck_arrivals_dropped_total',
      help: 'Open model: arrivals dropped at the in-flight cap (never delayed)',
      registers,
    }),
    targetRate: new Gauge({
      name: 'droidcheck_arrival_rate_target',
      help: 'Open model: intended arrival rate at the last progress tick, req/s',
      registers,
    }),
    finished: new Gauge({
      name: 'droidcheck_job_finished',
      help: '1 once the figures are final and the reports are written',
      registers,
    }),
  };
}

/** One HDR-backed histogram per latency series, registered on `registry`. */
function registerLatencyHistograms(registry: Registry): Record<LatencySeries, HdrHistogramMetric> {
  const histograms = Object.fromEntries(
    LATENCY_SERIES.map((s) => [
      s,
      new HdrHistogramMetric(LATENCY_METRIC_NAMES[s], LATENCY_HELP[s], PROMETHEUS_BUCKETS_S[s]),
    ]),
  ) as Record<LatencySeries, HdrHistogramMetric>;
  for (const h of Object.values(histograms)) registry.registerMetric(h as unknown as Metric);
  return histograms;
}

/** The webhook metrics, read from `webhooks()` at each scrape. */
function registerWebhookMetrics(registers: Registry[], webhooks: () => WebhookTotals): void {
  new Counter({
    name: 'droidcheck_webhooks_received_total',
    help: 'Webhook deliveries received, by route (answer, messages, intents)',
    labelNames: ['route'],
    registers,
    collect() {
      this.reset();
      for (const [route, t] of Object.entries(webhooks())) this.inc({ route }, t.received);
    },
  });
  new Counter({
    name: 'droidcheck_webhooks_total',
    help: 'Webhook deliveries by route and verdict (matched, duplicate, late, orphan, foreign, bad_secret, malformed; published, unavailable; accepted)',
    labelNames: ['route', 'verdict'],
    registers,
    collect() {
      this.reset();
      for (const [route, t] of Object.entries(webhooks()))
        for (const [verdict, n] of Object.entries(t.verdicts)) this.inc({ route, verdict }, n);
    },
  });
  new Gauge({
    name: 'droidcheck_webhooks_parked',
    help: 'Answer deliveries held for their waiter or their owner, not counted yet',
    registers,
    collect() {
      this.set(Object.values(webhooks()).reduce((n, t) => n + (t.parked ?? 0), 0));
    },
  });
}

/** The receivers' clock skew, read from `skew()` at each scrape. */
function registerClockSkew(registers: Registry[], skew: () => Record<string, number>): void {
  new Gauge({
    name: 'droidcheck_clock_skew_seconds',
    help: "Stream mode: a receiver's wall clock minus this process's, measured through Redis TIME",
    labelNames: ['receiver'],
    registers,
    collect() {
      this.reset();
      for (const [receiver, s] of Object.entries(skew())) this.set({ receiver }, s);
    },
  });
}

/** The coverage shares, read from `coverage()` at each scrape: a series per share measured, none for the others. */
function registerCoverage(registers: Registry[], coverage: () => CoverageShareFigures): void {
  new Gauge({
    name: 'droidcheck_coverage_ratio',
    help: "Coverage so far, 0..1, by what: products (of the shop's catalogue asked about or in a cart), intents (of the policy's declared ones seen), rules (of the policy's rules decided on an answer); the thresholds coverage.<what>",
    labelNames: ['what'],
    registers,
    collect() {
      this.reset();
      const c = coverage();
      for (const what of ['products', 'intents', 'rules'] as const) {
        const share = c[what];
        if (share !== undefined) this.set({ what }, share);
      }
    },
  });
  new Gauge({
    name: 'droidcheck_coverage_funnel_ratio',
    help: 'Share of the conversations so far that reached each stage of a sale (product, cart, total, address, contact), 0..1; the thresholds coverage.funnel.<stage>',
    labelNames: ['stage'],
    registers,
    collect() {
      this.reset();
      const funnel = coverage().funnel;
      if (funnel)
        for (const stage of FUNNEL_STAGES) {
          const share = funnel[stage];
          if (share !== undefined) this.set({ stage }, share);
        }
    },
  });
}

/** The bursts' counters: bursts judged, and bursts with each finding (the names of the `burst.<finding>` thresholds). */
function createBurstMetrics(registers: Registry[]) {
  return {
    bursts: new Counter({
      name: 'droidcheck_bursts_total',
      help: 'Bursts judged (several customer messages before the answer: docs/bursts.md), warm-up excluded',
      registers,
    }),
    findings: new Counter({
      name: 'droidcheck_burst_findings_total',
      help: 'Bursts judged with each finding: out_of_order, stale_last, cart_regressed, unanswered, declined',
      labelNames: ['finding'],
      registers,
    }),
  };
}

/** Builds the registry and its metrics (nothing listens: metrics-server.ts serves it). */
export function createLiveMetrics(options: LiveMetricsOptions = {}): LiveMetrics {
  const registry = new Registry();
  if (options.labels) registry.setDefaultLabels(options.labels);
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'droidcheck_' });
  const registers = [registry];

  const { requests, results, inFlight, openConversations, dropped, targetRate, finished } = createRunMetrics(registers);
  const histograms = registerLatencyHistograms(registry);

  let readWebhooks: (() => WebhookTotals) | undefined;
  registerWebhookMetrics(registers, () => readWebhooks?.() ?? {});
  let readSkew: (() => Record<string, number>) | undefined;
  registerClockSkew(registers, () => readSkew?.() ?? {});
  let readCoverage: (() => CoverageShareFigures) | undefined;
  registerCoverage(registers, () => readCoverage?.() ?? {});
  const bursts = createBurstMetrics(registers);

  let droppedSeen = 0;
  return {
    registry,
    contentType: registry.contentType,
    observeRequest(r) {
      requests.inc({ outcome: r.outcome });
      if (r.verdict !== 'none')
        results.inc({
          suite: r.suite,
          scenario: r.scenario,
          mode: r.mode,
          result: r.verdict === 'judge-error' ? 'judge_error' : r.verdict,
        });
    },
    observeProgress(p) {
      inFlight.set(p.inFlight);
      if (p.openConversations !== undefined) openConversations.set(p.openConversations);
      if (p.droppedTotal > droppedSeen) dropped.inc(p.droppedTotal - droppedSeen);
      droppedSeen = Math.max(droppedSeen, p.droppedTotal);
      if (p.targetRate !== undefined) targetRate.set(p.targetRate);
    },
    setLatencySources(sources) {
      for (const s of LATENCY_SERIES) histograms[s].sources = sources.flatMap((src) => (src[s] ? [src[s]] : []));
    },
    watchWebhooks(read) {
      readWebhooks = read;
    },
    watchClockSkew(read) {
      readSkew = read;
    },
    watchCoverage(read) {
      readCoverage = read;
    },
    observeBursts(counts) {
      if (counts.total > 0) bursts.bursts.inc(counts.total);
      for (const [finding, field] of Object.entries(BURST_THRESHOLD_FINDINGS))
        if (counts[field] > 0) bursts.findings.inc({ finding }, counts[field]);
    },
    finish() {
      finished.set(1);
    },
    metrics: () => registry.metrics(),
  };
}

/** One metric a job or receiver serves, as docs/scale.md lists it. */
export interface MetricInfo {
  /** e.g. `droidcheck_requests_total`. */
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** Label names of the metric itself (the registry's default labels, `command` and `shard`, aside). */
  labels: string[];
  /** The `# HELP` text. */
  help: string;
}

/**
 * Every metric `createLiveMetrics` registers, in registration order, read from a registry built
 * for the purpose (nothing listens): prom-client's default process metrics (`droidcheck_process_*`,
 * `droidcheck_nodejs_*`) aside.
 */
export function metricList(): MetricInfo[] {
  const { registry } = createLiveMetrics({ processMetrics: false });
  return registry.getMetricsAsArray().map((m) => {
    const metric = m as typeof m & { labelNames?: readonly string[] };
    return {
      name: metric.name,
      // prom-client types it as an enum; at run time it is the exposition's word (counter, gauge...).
      type: String(metric.type) as MetricInfo['type'],
      labels: [...(metric.labelNames ?? [])],
      help: metric.help,
    };
  });
}
