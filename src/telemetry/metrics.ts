/**
 * A job's metrics over OTLP (docs/telemetry.md, Metrics): the instruments the Prometheus
 * endpoint has (metrics/prometheus.ts), under OpenTelemetry's names (dots, the unit apart), fed
 * the same way (jobs/pipeline/live-metrics.ts): each ended request through a RecordSink, the
 * progress tick, the receiver's counters read at each collection. Every data point carries the
 * run's id, the job and the shard (`droidcheck.run.id`, `droidcheck.job`, `droidcheck.shard`).
 *
 * The latency histograms (seconds, the Prometheus buckets) are recorded from each ended
 * request's record: ack, answer and sync of a plain request, each answer turn of a conversation,
 * each reply of a `send` step; so their count is the report's for plain scenarios.
 *
 * The coverage shares (`droidcheck.coverage` by `what`, `droidcheck.coverage.funnel` by `stage`:
 * gauges, unit 1, read at each collection) and the bursts' findings (`droidcheck.bursts`,
 * `droidcheck.burst.findings` by `finding`: counters fed with each ended request) carry the names
 * of the thresholds that judge them; the OpenTelemetry-to-Prometheus names of all of them are the
 * Prometheus endpoint's (`droidcheck_coverage_ratio`, `droidcheck_burst_findings_total`, ...).
 */
import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import { countBurst, type RequestRecord } from '../runner/index.js';

/** The receiver's counters as webhook totals by route and verdict (jobs/pipeline/live-metrics.ts webhookTotals). */
type WebhookTotals = Record<string, { received: number; verdicts: Record<string, number>; parked?: number }>;

/** The job's coverage shares so far, 0..1 (coverage/ CoverageShares); a share left out is not measured. */
type CoverageShares = {
  products?: number;
  intents?: number;
  rules?: number;
  funnel?: Partial<Record<string, number>>;
};

/** The findings of a burst, as the `burst.<finding>` thresholds name them, and the count field of each (runner/burst-tally.ts). */
const BURST_FINDINGS = [
  ['out_of_order', 'outOfOrder'],
  ['stale_last', 'staleLast'],
  ['cart_regressed', 'cartRegressed'],
  ['unanswered', 'unanswered'],
  ['declined', 'declined'],
] as const;

/** What a progress tick says (the fields the gauges read). */
interface Progress {
  inFlight: number;
  openConversations?: number | undefined;
  dropped: number;
  targetRate: number | undefined;
}

const ACK_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5];
const ANSWER_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 90, 120, 180, 300];

export interface OtlpJobMetrics {
  /** One ended request (warm-up ones are not counted). */
  onRecord(record: RequestRecord, verdict: string, warmup: boolean): void;
  onTick(p: Progress): void;
  /** Reads the receiver's counters at each collection. */
  watch(read: () => WebhookTotals): void;
  /** Reads the job's coverage shares at each collection. */
  watchCoverage(read: () => CoverageShares): void;
  /** The job's figures are final (`droidcheck.job.finished` 1, in-flight 0). */
  finish(droppedTotal: number | undefined): void;
}

/** The instruments of a job on `meter`, `common` on every data point (see module docs). */
export function createOtlpJobMetrics(meter: Meter, common: Attributes): OtlpJobMetrics {
  const requests = meter.createCounter('droidcheck.requests', {
    description: 'Ended requests by outcome (answered, failed, rejected, timeout, ...), warm-up excluded',
    unit: '{request}',
  });
  const results = meter.createCounter('droidcheck.scenario.results', {
    description: 'Ended requests with a verdict, by scenario and mode: passed, failed, judge_error, not_judged',
    unit: '{request}',
  });
  const violations = meter.createCounter('droidcheck.policy.violations', {
    description: 'Answers that broke a rule of the shop policy, by rule',
    unit: '{answer}',
  });
  const histogram = (name: string, description: string, bounds: number[]): Histogram =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: bounds } });
  const latency = {
    ack: histogram(
      'droidcheck.ack.latency',
      'Async acknowledgement latency, from the intended start; spec limit 0.1 s',
      ACK_BUCKETS_S,
    ),
    answer: histogram(
      'droidcheck.answer.latency',
      'Async answer latency, to the webhook accepted; spec limit 180 s',
      ANSWER_BUCKETS_S,
    ),
    sync: histogram(
      'droidcheck.sync.latency',
      'Sync answer latency (get-droid-answer); spec limit 180 s',
      ANSWER_BUCKETS_S,
    ),
    reply: histogram(
      'droidcheck.reply.latency',
      'send to the bot reply on the message-forwarding webhook',
      ANSWER_BUCKETS_S,
    ),
  };
  const dropped: Counter = meter.createCounter('droidcheck.arrivals.dropped', {
    description: 'Open model: arrivals dropped at the in-flight cap (never delayed)',
    unit: '{request}',
  });
  const bursts = meter.createCounter('droidcheck.bursts', {
    description: 'Bursts judged (several customer messages before the answer: docs/bursts.md), warm-up excluded',
    unit: '{burst}',
  });
  const burstFindings = meter.createCounter('droidcheck.burst.findings', {
    description: 'Bursts judged with each finding: out_of_order, stale_last, cart_regressed, unanswered, declined',
    unit: '{burst}',
  });
  let coverage: (() => CoverageShares) | undefined;
  meter
    .createObservableGauge('droidcheck.coverage', {
      description:
        "Coverage so far, by what: products (of the shop's catalogue asked about or in a cart), intents (of the policy's declared ones seen), rules (of the policy's rules decided on an answer)",
      unit: '1',
    })
    .addCallback((o) => {
      const c = coverage?.();
      for (const what of ['products', 'intents', 'rules'] as const) {
        const share = c?.[what];
        if (share !== undefined) o.observe(share, { ...common, what });
      }
    });
  meter
    .createObservableGauge('droidcheck.coverage.funnel', {
      description:
        'Share of the conversations so far that reached each stage of a sale (product, cart, total, address, contact)',
      unit: '1',
    })
    .addCallback((o) => {
      for (const [stage, share] of Object.entries(coverage?.().funnel ?? {}))
        if (share !== undefined) o.observe(share, { ...common, stage });
    });
  let progress: Progress = { inFlight: 0, dropped: 0, targetRate: undefined };
  let droppedSeen = 0;
  let finished = 0;
  let webhooks: (() => WebhookTotals) | undefined;
  meter
    .createObservableGauge('droidcheck.requests.in_flight', {
      description: 'Requests in flight (pending answers included) at the last progress tick',
      unit: '{request}',
    })
    .addCallback((o) => o.observe(progress.inFlight, common));
  meter
    .createObservableGauge('droidcheck.conversations.open', {
      description: 'Conversations open at the last progress tick, think time included',
      unit: '{conversation}',
    })
    .addCallback((o) => {
      if (progress.openConversations !== undefined) o.observe(progress.openConversations, common);
    });
  meter
    .createObservableGauge('droidcheck.arrival_rate.target', {
      description: 'Open model: intended arrival rate at the last progress tick',
      unit: '{request}/s',
    })
    .addCallback((o) => {
      if (progress.targetRate !== undefined) o.observe(progress.targetRate, common);
    });
  meter
    .createObservableGauge('droidcheck.job.finished', {
      description: '1 once the figures are final and the reports are written',
    })
    .addCallback((o) => o.observe(finished, common));
  meter
    .createObservableCounter('droidcheck.webhooks.received', {
      description: 'Webhook deliveries received, by route (answer, messages, intents)',
      unit: '{delivery}',
    })
    .addCallback((o) => {
      for (const [route, t] of Object.entries(webhooks?.() ?? {})) o.observe(t.received, { ...common, route });
    });
  meter
    .createObservableCounter('droidcheck.webhooks', {
      description: 'Webhook deliveries by route and verdict (matched, duplicate, late, orphan, ...)',
      unit: '{delivery}',
    })
    .addCallback((o) => {
      for (const [route, t] of Object.entries(webhooks?.() ?? {}))
        for (const [verdict, n] of Object.entries(t.verdicts)) o.observe(n, { ...common, route, verdict });
    });

  const observe = (h: Histogram, ms: number | undefined, attrs: Attributes): void => {
    if (ms !== undefined && Number.isFinite(ms)) h.record(ms / 1000, attrs);
  };

  return {
    onRecord(record, verdict, warmup) {
      if (warmup) return;
      requests.add(1, { ...common, outcome: record.outcome });
      const scenario = { ...common, suite: record.suite, scenario: record.scenario, mode: record.mode };
      if (verdict !== 'none') results.add(1, { ...scenario, result: verdict.replace('-', '_') });
      for (const f of record.failures)
        if (f.matcher.startsWith('policy:')) violations.add(1, { ...common, rule: f.matcher.slice('policy:'.length) });
      if (record.bursts) {
        const counts = { total: 0, unanswered: 0, declined: 0, outOfOrder: 0, staleLast: 0, cartRegressed: 0 };
        for (const burst of record.bursts) countBurst(counts, burst);
        if (counts.total > 0) bursts.add(counts.total, common);
        for (const [finding, field] of BURST_FINDINGS)
          if (counts[field] > 0) burstFindings.add(counts[field], { ...common, finding });
      }
      const steps = record.steps;
      if (!steps) {
        observe(latency.ack, record.ackMs, scenario);
        observe(latency.answer, record.answerMs, scenario);
        observe(latency.sync, record.syncMs, scenario);
        return;
      }
      for (const s of steps) {
        if (s.kind === 'say') observe(record.mode === 'sync' ? latency.sync : latency.answer, s.latencyMs, scenario);
        else if (s.kind === 'send' && (s.body as { reply?: unknown } | undefined)?.reply)
          observe(latency.reply, s.latencyMs, scenario);
      }
    },
    onTick(p) {
      progress = p;
      if (p.dropped > droppedSeen) dropped.add(p.dropped - droppedSeen, common);
      droppedSeen = Math.max(droppedSeen, p.dropped);
    },
    watch(read) {
      webhooks = read;
    },
    watchCoverage(read) {
      coverage = read;
    },
    finish(droppedTotal) {
      if (droppedTotal !== undefined && droppedTotal > droppedSeen) dropped.add(droppedTotal - droppedSeen, common);
      progress = {
        ...progress,
        inFlight: 0,
        openConversations: progress.openConversations === undefined ? undefined : 0,
      };
      finished = 1;
    },
  };
}
