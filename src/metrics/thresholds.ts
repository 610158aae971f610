/**
 * k6-style thresholds (SLOs) over a run's figures: `"<metric> <op> <value>[unit]"`, e.g.
 * `ack.p99 < 100ms`, `answer.p(99.5) <= 2m`, `outcome.timeout.rate < 1%`, `receiver.late == 0`.
 *
 * Metrics:
 * - latency `ack|answer|sync` . `p50|p90|p95|p99|p999|max|min|mean|count|p(NN)`; value in ms,
 *   or with a unit `ms|s|m` (count takes a bare number);
 * - `outcome.<answered|failed|rejected|timeout|transport-error|interrupted>.rate|count`
 *   (rate 0..1 of the requests, or `NN%`);
 * - `scenario.pass.rate` (0..1 or `NN%`);
 * - `receiver.<duplicates|late|orphans|badSecret|malformed>` (counts).
 * An unknown metric is an error (DROIDCHECK_ERR_THRESHOLD, with a did-you-mean), never a silent pass.
 */
import { ThresholdError } from '../errors.js';
import { didYouMean } from './did-you-mean.js';
import { LATENCY_METRICS, LIMITS_MS, LatencyRecorder, type LatencyMetric, type LatencySummary } from './latency-recorder.js';

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type ThresholdKind = 'latency' | 'count' | 'rate';

/** A parsed threshold. `value` is in ms for latency stats, 0..1 for rates, a number for counts. */
export interface Threshold {
  /** As written (trimmed). */
  expression: string;
  /** Full metric name, e.g. `ack.p99`, `outcome.timeout.rate`, `receiver.late`. */
  name: string;
  /** `ack` | `answer` | `sync` | `outcome.<name>` | `scenario.pass` | `receiver`. */
  metric: string;
  /** `p99`, `p(99.5)`, `max`, `count`, `rate`, `duplicates`, ... */
  stat: string;
  op: ThresholdOp;
  value: number;
  kind: ThresholdKind;
  /** 0..100, for percentile stats. */
  percentile?: number;
}

/** Outcome names (mirror of runner/ OUTCOMES; metrics/ imports nothing of ours). */
export const OUTCOME_NAMES = ['answered', 'failed', 'rejected', 'timeout', 'transport-error', 'interrupted'] as const;
export const RECEIVER_COUNTERS = ['duplicates', 'late', 'orphans', 'badSecret', 'malformed'] as const;
export type ReceiverCounter = (typeof RECEIVER_COUNTERS)[number];

const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'min', 'mean', 'count'] as const;
const NAMED_PERCENTILES: Record<string, number> = { p50: 50, p90: 90, p95: 95, p99: 99, p999: 99.9 };
const UNITS_MS: Record<string, number> = { '': 1, ms: 1, s: 1000, m: 60_000 };

/** Every concrete metric name (for did-you-mean and documentation). */
export const THRESHOLD_METRICS: readonly string[] = [
  ...LATENCY_METRICS.flatMap((m) => LATENCY_STATS.map((s) => `${m}.${s}`)),
  ...OUTCOME_NAMES.flatMap((o) => [`outcome.${o}.rate`, `outcome.${o}.count`]),
  'scenario.pass.rate',
  ...RECEIVER_COUNTERS.map((c) => `receiver.${c}`),
];

/** The spec's limits as thresholds (spec: Limits), judged only when the metric has values. */
export const DEFAULT_THRESHOLDS: readonly string[] = [
  `ack.p99 < ${LIMITS_MS.ack}ms`,
  `answer.max < ${LIMITS_MS.answer / 1000}s`,
  `sync.max < ${LIMITS_MS.sync / 1000}s`,
];

const EXPRESSION = /^\s*([^\s<>=!]+)\s*(<=|>=|==|!=|<|>)\s*([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*([a-z%]*)\s*$/i;
const EXAMPLE = 'e.g. "ack.p99 < 100ms" or "outcome.timeout.rate < 1%"';

function resolveName(name: string, expression: string): Omit<Threshold, 'expression' | 'op' | 'value'> {
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const rest = dot < 0 ? '' : name.slice(dot + 1);
  if ((LATENCY_METRICS as readonly string[]).includes(head)) {
    const metric = head;
    const custom = /^p\((\d+(?:\.\d+)?)\)$/.exec(rest);
    if (custom) {
      const percentile = Number(custom[1]);
      if (percentile <= 0 || percentile > 100) {
        throw new ThresholdError(`threshold "${expression}": percentile ${percentile} is not in (0, 100]`);
      }
      return { name, metric, stat: rest, kind: 'latency', percentile };
    }
    if ((LATENCY_STATS as readonly string[]).includes(rest)) {
      const percentile = NAMED_PERCENTILES[rest];
      const base = { name, metric, stat: rest, kind: rest === 'count' ? ('count' as const) : ('latency' as const) };
      return percentile === undefined ? base : { ...base, percentile };
    }
  } else if (head === 'outcome') {
    const last = rest.lastIndexOf('.');
    const outcome = rest.slice(0, last);
    const stat = rest.slice(last + 1);
    if (last > 0 && (OUTCOME_NAMES as readonly string[]).includes(outcome) && (stat === 'rate' || stat === 'count')) {
      return { name, metric: `outcome.${outcome}`, stat, kind: stat };
    }
  } else if (name === 'scenario.pass.rate') {
    return { name, metric: 'scenario.pass', stat: 'rate', kind: 'rate' };
  } else if (head === 'receiver' && (RECEIVER_COUNTERS as readonly string[]).includes(rest)) {
    return { name, metric: 'receiver', stat: rest, kind: 'count' };
  }
  const suggestion = didYouMean(name, THRESHOLD_METRICS);
  throw new ThresholdError(
    `threshold "${expression}": unknown metric "${name}"` +
      (suggestion ? `; did you mean "${suggestion}"?` : `; known metrics: ack|answer|sync.<p50|p90|p95|p99|p999|p(NN)|max|min|mean|count>, outcome.<name>.rate|count, scenario.pass.rate, receiver.<counter>`),
  );
}

function scaleValue(raw: number, unit: string, kind: ThresholdKind, expression: string): number {
  const u = unit.toLowerCase();
  if (kind === 'latency') {
    const factor = UNITS_MS[u];
    if (factor !== undefined) return raw * factor;
  } else if (kind === 'rate') {
    if (u === '') return raw;
    if (u === '%') return raw / 100;
  } else if (u === '') {
    return raw;
  }
  const allowed = kind === 'latency' ? 'ms, s or m (bare numbers are ms)' : kind === 'rate' ? '% or none (0..1)' : 'none (a count)';
  throw new ThresholdError(`threshold "${expression}": unit "${unit}" does not fit a ${kind} metric; use ${allowed}`);
}

/**
 * Parses `"<metric> <op> <value>[unit]"` into a {@link Threshold}.
 * Throws ThresholdError (DROIDCHECK_ERR_THRESHOLD, exit 2) when malformed, when the metric is
 * unknown (with a did-you-mean) or when the unit does not fit the metric.
 */
export function parseThreshold(expression: string): Threshold {
  const trimmed = expression.trim();
  const m = EXPRESSION.exec(trimmed);
  if (!m) throw new ThresholdError(`threshold "${trimmed}": expected "<metric> <op> <value>[unit]", ${EXAMPLE}`);
  const [, name = '', op = '<', rawValue = '0', unit = ''] = m;
  const resolved = resolveName(name, trimmed);
  const value = scaleValue(Number(rawValue), unit, resolved.kind, trimmed);
  return { expression: trimmed, ...resolved, op: op as ThresholdOp, value };
}

/** The figures thresholds are judged on: a ReportDocument fits. Latencies in ms. */
export interface ThresholdData {
  summary: { requests: number; outcomes: Readonly<Partial<Record<string, number>>>; passRate: number };
  latency: Readonly<Record<LatencyMetric, LatencySummary>>;
  receiver: Readonly<Record<ReceiverCounter, number>>;
  /** HDR compressed base64 per metric; needed for p95 and p(NN). */
  histograms?: Readonly<Partial<Record<LatencyMetric, string>>>;
}

/** One judged threshold (the report's `thresholds[]`). `actual` in the threshold's unit (ms, 0..1, count). */
export interface ThresholdResult {
  expression: string;
  metric: string;
  actual: number;
  passed: boolean;
}

function compare(actual: number, op: ThresholdOp, value: number): boolean {
  switch (op) {
    case '<': return actual < value;
    case '<=': return actual <= value;
    case '>': return actual > value;
    case '>=': return actual >= value;
    case '==': return actual === value;
    case '!=': return actual !== value;
  }
}

/** The figure a threshold looks at, from `data` (lazily decoding histograms through `recorder`). */
export function measureThreshold(t: Threshold, data: ThresholdData, recorder?: () => LatencyRecorder): number {
  if (t.metric === 'ack' || t.metric === 'answer' || t.metric === 'sync') {
    const summary = data.latency[t.metric];
    const fromSummary = (summary as unknown as Record<string, number>)[t.stat];
    if (typeof fromSummary === 'number') return fromSummary;
    if (!data.histograms?.[t.metric]) {
      throw new ThresholdError(`threshold "${t.expression}": ${t.name} needs the ${t.metric} histogram`);
    }
    const rec = recorder ? recorder() : LatencyRecorder.fromEncoded(data.histograms);
    return rec.percentileMs(t.metric, t.percentile ?? 100);
  }
  if (t.metric === 'scenario.pass') return data.summary.passRate;
  if (t.metric === 'receiver') return data.receiver[t.stat as ReceiverCounter];
  const count = data.summary.outcomes[t.metric.slice('outcome.'.length)] ?? 0;
  if (t.stat === 'count') return count;
  return data.summary.requests === 0 ? 0 : count / data.summary.requests;
}

const keyOf = (t: Threshold): string => `${t.name}${t.op}${t.value}`;

/**
 * Judges each threshold (strings are parsed: ThresholdError on a bad one) against `data`.
 * With `defaults: true` the spec's limits ({@link DEFAULT_THRESHOLDS}) come first, each judged
 * only when its metric has values (count > 0) and not repeated when a user threshold is the same.
 */
export function evaluateThresholds(
  expressions: readonly (string | Threshold)[],
  data: ThresholdData,
  options: { defaults?: boolean } = {},
): ThresholdResult[] {
  const user = expressions.map((e) => (typeof e === 'string' ? parseThreshold(e) : e));
  const userKeys = new Set(user.map(keyOf));
  const defaults = options.defaults
    ? DEFAULT_THRESHOLDS.map(parseThreshold).filter(
        (t) => !userKeys.has(keyOf(t)) && data.latency[t.metric as LatencyMetric].count > 0,
      )
    : [];
  let cached: LatencyRecorder | undefined;
  const recorder = (): LatencyRecorder => (cached ??= LatencyRecorder.fromEncoded(data.histograms ?? {}));
  return [...defaults, ...user].map((t) => {
    const actual = measureThreshold(t, data, recorder);
    return { expression: t.expression, metric: t.name, actual, passed: compare(actual, t.op, t.value) };
  });
}
