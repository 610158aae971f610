/**
 * Judging thresholds (threshold-parse.ts) against a run's figures, with statistics that fit the
 * sample (a percentile is judged only on enough samples; docs/statistics.md):
 *
 * - `no-samples`: the metric has nothing to judge (no ack measured, no request sent);
 * - `too-few-samples`: a percentile its count cannot support (p99 needs >= 100 samples, p99.9
 *   >= 1,000; sample-size.ts), never a breach, whatever the limit;
 * - `not-judged`: a latency threshold of a run whose latency figures droidcheck does not trust
 *   (thresholds-trust.ts: the generator was bound) and whose figure lies within the send
 *   delay's size of its limit (the lag could change the verdict), with the conditions in
 *   `notJudged`; never a breach, but the job exits 98 (docs/exit-codes.md). Rates and counts
 *   are judged as usual;
 * - `breached` / `passed`: the figure against the limit.
 *
 * A user who wants too few samples to fail the gate adds a count threshold (`ack.count >= 100`),
 * the k6 way. `passed` is true unless `breached`.
 */
import { ThresholdError } from '../errors.js';
import type { BurstCounts } from './bursts.js';
import { LATENCY_METRICS, LatencyRecorder, type LatencyMetric, type LatencySummary } from './latency-recorder.js';
import { minSamplesForStat } from './sample-size.js';
import { distrustOf, doubtsAbout, type Distrust, type TrustFigures } from './thresholds-trust.js';
import {
  BURST_THRESHOLD_FINDINGS,
  defaultThresholdsFor,
  LOAD_DEFAULT_THRESHOLDS,
  parseThreshold,
  type AckBasis,
  type FunnelStage,
  type ReceiverCounter,
  type Threshold,
  type ThresholdOp,
} from './threshold-parse.js';

/** The figures thresholds are judged on: a ReportDocument fits. Latencies in ms. */
export interface ThresholdData {
  summary: {
    requests: number;
    outcomes: Readonly<Partial<Record<string, number>>>;
    passRate: number;
    /** Scenario entries behind passRate; `requests` when absent. */
    scenarios?: number;
  };
  latency: Readonly<Record<LatencyMetric, LatencySummary>>;
  receiver: Readonly<Record<ReceiverCounter, number>>;
  /** HDR compressed base64 per metric; needed for p95 and p(NN). */
  histograms?: Readonly<Partial<Record<LatencyMetric, string>>>;
  /**
   * A load's arrivals (the report's load section): sent, and dropped at the in-flight cap; its
   * send delay and generator verdict, which decide whether the latency figures are trusted.
   */
  load?: { readonly sent: number; readonly dropped: number } & TrustFigures['load'];
  /** Latency of conversations' answer turns by turn number (the report's byTurn), ms; and their HDR histograms for p95 and p(NN). */
  byTurn?: Readonly<Record<string, Readonly<Partial<Record<string, LatencySummary>>>>>;
  byTurnHistograms?: Readonly<Record<string, Readonly<Partial<Record<string, string>>>>>;
  /** The bursts judged and their findings (the report's `bursts` section); absent when no burst was judged. */
  bursts?: Readonly<BurstCounts>;
  /** The shop policy's violations (the report's `policy` section); absent when the job had no policy. */
  policy?: {
    readonly answers: number;
    readonly violations: number;
    readonly byRule: Readonly<Record<string, number>>;
  };
  /** What the job covered (the report's `coverage` section, docs/coverage.md); absent when it sent nothing. */
  coverage?: CoverageFigures;
}

/** A coverage share and what it counts: `covered` of `total` things, and the names of those not covered. */
interface CoverageShare {
  readonly total: number;
  readonly covered: number;
  readonly uncovered: readonly string[];
}

/**
 * The coverage figures thresholds read: products, the policy's declared intents and its rules
 * (each absent when the job had nothing to count them against), and the funnel: the
 * conversations, how many reached each stage, and the suites none of whose conversations did.
 */
export interface CoverageFigures {
  readonly products?: CoverageShare | undefined;
  readonly intents?: CoverageShare | undefined;
  readonly rules?: CoverageShare | undefined;
  readonly funnel?:
    | {
        readonly conversations: number;
        readonly stages: Readonly<Record<FunnelStage, number>>;
        /** Per stage, the suites none of whose conversations reached it. */
        readonly unreached: Readonly<Record<FunnelStage, readonly string[]>>;
      }
    | undefined;
}

export type ThresholdStatus = 'passed' | 'breached' | 'too-few-samples' | 'no-samples' | 'not-judged';
/** `ms` latency, `share` 0..1 (a rate), `count` a number of things. */
export type ThresholdUnit = 'ms' | 'share' | 'count';

/** One judged threshold (the report's `thresholds[]`). */
export interface ThresholdResult {
  /** As written, e.g. `ack.p99 < 100ms`. */
  expression: string;
  /** Full metric name, e.g. `ack.p99`. */
  metric: string;
  status: ThresholdStatus;
  /** False only when `breached` (old callers read this). */
  passed: boolean;
  /** With `not-judged` only: the trust conditions that held (thresholds-trust.ts). */
  notJudged?: Distrust[];
  /** The figure in `unit` (ms, 0..1, count); null with `no-samples`. With `too-few-samples` and `not-judged` the figure as measured, not judged. */
  actual: number | null;
  unit: ThresholdUnit;
  op: ThresholdOp;
  /** The limit in `unit`. */
  limit: number;
  /** Samples behind the figure: latencies recorded, requests (outcome rates and counts), scenario entries (pass rate); the counter itself for receiver counts. */
  count: number;
  /** Samples the statistic needs (p99: 100, p99.9: 1,000; 1 otherwise). */
  minCount: number;
  /**
   * A coverage threshold: what was not covered (products, intents or rules by name; for a funnel
   * stage the suites none of whose conversations reached it). Absent when nothing was left out.
   */
  uncovered?: string[];
  /**
   * An `ackServer` latency threshold: the same statistic of the raw client-side `ack`, shown
   * beside the server-side estimate (ms; null when no ack was measured). Absent otherwise.
   */
  beside?: { metric: string; actual: number | null; count: number };
}

function compareOp(actual: number, op: ThresholdOp, value: number): boolean {
  switch (op) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
    case '==':
      return actual === value;
    case '!=':
      return actual !== value;
  }
}

const isLatency = (metric: string): metric is LatencyMetric => (LATENCY_METRICS as readonly string[]).includes(metric);

/** The unit of a threshold's figure. */
function thresholdUnit(t: Pick<Threshold, 'kind'>): ThresholdUnit {
  return t.kind === 'latency' ? 'ms' : t.kind === 'rate' ? 'share' : 'count';
}

/** The figure a threshold looks at and the samples behind it (lazily decoding histograms through `recorder`). */
/** `turn<N>.<metric>`: the figure of answer turn N (no samples when the run had no such turn). */
function measureTurn(t: Threshold, data: ThresholdData): { value: number; count: number } {
  const [turnPart = '', metric = ''] = t.metric.split('.');
  const turn = turnPart.slice('turn'.length);
  const summary = data.byTurn?.[turn]?.[metric];
  if (!summary || summary.count === 0) return { value: 0, count: 0 };
  if (t.stat === 'count') return { value: summary.count, count: summary.count };
  const fromSummary = (summary as unknown as Record<string, number>)[t.stat];
  if (typeof fromSummary === 'number') return { value: fromSummary, count: summary.count };
  const encoded = data.byTurnHistograms?.[turn]?.[metric];
  if (!encoded) throw new ThresholdError(`threshold "${t.expression}": ${t.name} needs the histogram of turn ${turn}`);
  const h = LatencyRecorder.decode(encoded);
  return { value: Math.round(h.getValueAtPercentile(t.percentile ?? 100)) / 1000, count: summary.count };
}

/**
 * `coverage.<what>`: the share covered of what the job could cover, counted in things (products,
 * intents, rules, conversations), with what was not covered; no figure when there was nothing to
 * count against (no catalogue, no declared intents, no policy, no conversation).
 */
function measureCoverage(t: Threshold, data: ThresholdData): { value: number; count: number; uncovered?: string[] } {
  const c = data.coverage;
  const what = t.metric.slice('coverage.'.length);
  if (what.startsWith('funnel.')) {
    const stage = what.slice('funnel.'.length) as FunnelStage;
    const f = c?.funnel;
    if (!f || f.conversations === 0) return { value: 0, count: 0 };
    const unreached = f.unreached[stage] ?? [];
    return {
      value: (f.stages[stage] ?? 0) / f.conversations,
      count: f.conversations,
      ...(unreached.length > 0 && { uncovered: [...unreached] }),
    };
  }
  const share = c?.[what as 'products' | 'intents' | 'rules'];
  if (!share || share.total === 0) return { value: 0, count: 0 };
  return {
    value: share.covered / share.total,
    count: share.total,
    ...(share.uncovered.length > 0 && { uncovered: [...share.uncovered] }),
  };
}

function measureThreshold(
  t: Threshold,
  data: ThresholdData,
  recorder?: () => LatencyRecorder,
): { value: number; count: number; uncovered?: string[] } {
  if (t.metric.startsWith('turn')) return measureTurn(t, data);
  if (t.metric.startsWith('coverage.')) return measureCoverage(t, data);
  if (isLatency(t.metric)) {
    const summary = data.latency[t.metric];
    const count = summary.count;
    const fromSummary = (summary as unknown as Record<string, number>)[t.stat];
    if (typeof fromSummary === 'number') return { value: fromSummary, count };
    if (count === 0) return { value: 0, count };
    if (!data.histograms?.[t.metric]) {
      throw new ThresholdError(`threshold "${t.expression}": ${t.name} needs the ${t.metric} histogram`);
    }
    const rec = recorder ? recorder() : LatencyRecorder.fromEncoded(data.histograms);
    return { value: rec.percentileMs(t.metric, t.percentile ?? 100), count };
  }
  if (t.metric === 'load.dropped') {
    const dropped = data.load?.dropped ?? 0;
    const arrivals = dropped + (data.load?.sent ?? 0);
    return t.stat === 'count'
      ? { value: dropped, count: arrivals }
      : { value: arrivals === 0 ? 0 : dropped / arrivals, count: arrivals };
  }
  if (t.metric === 'policy' || t.metric.startsWith('policy.')) {
    // No policy, no figure: `no-samples`, never a pass that looks judged.
    if (!data.policy) return { value: 0, count: 0 };
    const n =
      t.metric === 'policy' ? data.policy.violations : (data.policy.byRule[t.metric.slice('policy.'.length)] ?? 0);
    return { value: n, count: data.policy.answers };
  }
  if (t.metric.startsWith('burst.')) {
    // No burst judged, no figure: `no-samples`, never a pass that looks judged.
    if (!data.bursts) return { value: 0, count: 0 };
    const field = BURST_THRESHOLD_FINDINGS[t.metric.slice('burst.'.length) as keyof typeof BURST_THRESHOLD_FINDINGS];
    const n = data.bursts[field];
    const total = data.bursts.total;
    return t.stat === 'count' ? { value: n, count: total } : { value: total === 0 ? 0 : n / total, count: total };
  }
  if (t.metric === 'scenario.pass')
    return { value: data.summary.passRate, count: data.summary.scenarios ?? data.summary.requests };
  if (t.metric === 'receiver') {
    const n = data.receiver[t.stat as ReceiverCounter];
    return { value: n, count: n };
  }
  const n = data.summary.outcomes[t.metric.slice('outcome.'.length)] ?? 0;
  const requests = data.summary.requests;
  return t.stat === 'count'
    ? { value: n, count: requests }
    : { value: requests === 0 ? 0 : n / requests, count: requests };
}

/**
 * Judges one parsed threshold on `data` (see the module's statuses); `distrust`: the trust
 * conditions of the run, which leave a latency threshold with enough samples `not-judged` when
 * its figure is within their size of its limit.
 */
function judgeThreshold(
  t: Threshold,
  data: ThresholdData,
  distrust: readonly Distrust[],
  recorder?: () => LatencyRecorder,
): ThresholdResult {
  const { value, count, uncovered } = measureThreshold(t, data, recorder);
  const minCount = t.kind === 'latency' ? minSamplesForStat(t.stat) : 1;
  const doubts = t.kind === 'latency' ? doubtsAbout(distrust, value, t.value) : [];
  // Counts (ack.count, outcome.x.count, receiver.x) are judged even at zero: "== 0" and ">= 100" mean it.
  // A policy count without a policy (no file was read), a burst count without a burst, has nothing to judge.
  const judged =
    t.kind === 'count' &&
    (data.policy !== undefined || !t.metric.startsWith('policy')) &&
    (data.bursts !== undefined || !t.metric.startsWith('burst.'));
  const status: ThresholdStatus =
    !judged && count === 0
      ? 'no-samples'
      : !judged && count < minCount
        ? 'too-few-samples'
        : doubts.length > 0
          ? 'not-judged'
          : compareOp(value, t.op, t.value)
            ? 'passed'
            : 'breached';
  const result: ThresholdResult = {
    expression: t.expression,
    metric: t.name,
    status,
    passed: status !== 'breached',
    ...(status === 'not-judged' && { notJudged: doubts }),
    actual: status === 'no-samples' ? null : value,
    unit: thresholdUnit(t),
    op: t.op,
    limit: t.value,
    count,
    minCount,
    ...(uncovered && status !== 'no-samples' && { uncovered }),
  };
  if (t.metric === 'ackServer' && t.kind === 'latency') {
    const raw = measureThreshold({ ...t, metric: 'ack', name: `ack.${t.stat}` }, data, recorder);
    result.beside = { metric: `ack.${t.stat}`, actual: raw.count === 0 ? null : raw.value, count: raw.count };
  }
  return result;
}

const keyOf = (t: Threshold): string => `${t.name}${t.op}${t.value}`;

/**
 * Judges each threshold (strings are parsed: ThresholdError DROIDCHECK_ERR_THRESHOLD on a bad
 * one) against `data`. With `defaults: true` the spec's limits come first (DEFAULT_THRESHOLDS;
 * with `ackBasis: 'ackServer'`, a remote target, REMOTE_DEFAULT_THRESHOLDS: the acknowledgement
 * judged on `ackServer.p99`, the raw `ack.p99` in `beside`), each only when its metric has values
 * (count > 0) and not repeated when a user threshold is the same; with a load section in `data`,
 * LOAD_DEFAULT_THRESHOLDS too (`load.dropped.rate < 1%`). When the load's latency figures are
 * not trusted (thresholds-trust.ts distrustOf: the generator was bound) a latency threshold
 * with enough samples whose figure lies within the send delay's size of its limit is
 * `not-judged`.
 */
export function evaluateThresholds(
  expressions: readonly (string | Threshold)[],
  data: ThresholdData,
  options: { defaults?: boolean; ackBasis?: AckBasis } = {},
): ThresholdResult[] {
  const user = expressions.map((e) => (typeof e === 'string' ? parseThreshold(e) : e));
  const userKeys = new Set(user.map(keyOf));
  const spec = options.defaults
    ? [...defaultThresholdsFor(options.ackBasis ?? 'ack'), ...(data.load ? LOAD_DEFAULT_THRESHOLDS : [])]
    : [];
  const defaults = spec
    .map(parseThreshold)
    .filter((t) => !userKeys.has(keyOf(t)) && measureThreshold(t, data).count > 0);
  let cached: LatencyRecorder | undefined;
  const recorder = (): LatencyRecorder => (cached ??= LatencyRecorder.fromEncoded(data.histograms ?? {}));
  const distrust = distrustOf(data);
  return [...defaults, ...user].map((t) => judgeThreshold(t, data, distrust, recorder));
}
