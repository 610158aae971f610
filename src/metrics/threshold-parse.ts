/**
 * k6-style thresholds (SLOs) as users write them: `"<metric> <op> <value>[unit]"`, e.g.
 * `ack.p99 < 100ms`, `answer.p(99.5) <= 2m`, `outcome.timeout.rate < 1%`, `receiver.late == 0`.
 *
 * Metrics, each value with its unit, as a flag's value has (`-t 30` is refused the same way):
 * - latency `ack|answer|sync|reply|ackServer` . `p50|p90|p95|p99|p999|max|min|mean|p(NN)`: a
 *   duration, `ms|s|m` (`answer.max < 180` is refused: 180 ms or 180 s?); `.count` a bare number;
 * - `outcome.<name>.rate` for every outcome of src/outcomes.ts: a share of the requests in `%`
 *   (`outcome.timeout.rate < 1` is refused: 1% or 100%?); `outcome.<name>.count` a bare number;
 * - `scenario.pass.rate` in `%`;
 * - `load.dropped.rate`: the share of the arrivals dropped at the in-flight cap, in `%`;
 *   `load.dropped.count` a bare number;
 * - `receiver.<duplicates|late|orphans|badSecret|malformed>` (counts, bare numbers);
 * - `policy.violations` and `policy.<rule>.violations`: the shop policy's violations (counts,
 *   bare numbers; docs/policy.md), e.g. `policy.violations < 1`, `policy.max-discount.violations == 0`;
 * - `coverage.products`, `coverage.intents`, `coverage.rules` and `coverage.funnel.<stage>`: what
 *   the job covered (docs/coverage.md), shares in `%`, e.g. `coverage.products >= 100%`;
 * - `turn<N>.<answer|sync|ack>.<stat>`: the latency of answer turn N of the conversations (the
 *   report's `byTurn`, docs/conversations.md), stats and units as above, e.g. `turn3.answer.p99 < 20s`;
 * - `burst.<finding>.rate`: the share of the bursts judged with that finding (`out_of_order`,
 *   `stale_last`, `cart_regressed`, `unanswered`, `declined`; docs/bursts.md), in `%`, e.g.
 *   `burst.out_of_order.rate < 1%`; `burst.<finding>.count` a bare number.
 * Zero alone needs no unit (`outcome.timeout.rate == 0`).
 * An unknown metric is an error (DROIDCHECK_ERR_THRESHOLD, with a did-you-mean), never a silent pass.
 *
 * A minimum number of samples is demanded the k6 way, with a threshold on the count:
 * `ack.count >= 100` beside `ack.p99 < 100ms` fails the gate when fewer than 100 acks were
 * measured, while the p99 alone would only say "too few samples" (docs/statistics.md).
 */
import { ThresholdError } from '../errors.js';
import { durationProblem } from '../units.js';
import { OUTCOMES } from '../outcomes.js';
import { didYouMeanText } from '../suggest.js';
import type { BurstCountField } from './bursts.js';
import { LATENCY_METRICS, LIMITS_MS } from './latency-recorder.js';
import { STAT_PERCENTILES } from './sample-size.js';

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
type ThresholdKind = 'latency' | 'count' | 'rate';

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

/** Outcome names a threshold may name (src/outcomes.ts). */
const OUTCOME_NAMES = OUTCOMES;
const RECEIVER_COUNTERS = ['duplicates', 'late', 'orphans', 'badSecret', 'malformed'] as const;
export type ReceiverCounter = (typeof RECEIVER_COUNTERS)[number];

const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'min', 'mean', 'count'] as const;
const UNITS_MS: Record<string, number> = { '': 1, ms: 1, s: 1000, m: 60_000 };

/**
 * The ids of the shop policy's rules (docs/policy.md), for the `policy.<rule>.violations`
 * metrics. policy/registry.ts derives its rule id type from its rule modules and fails to
 * compile unless it is this list (this folder may not import policy/).
 */
export const POLICY_RULE_IDS = [
  'catalogue-price',
  'cart-arithmetic',
  'shipping-fee',
  'max-discount',
  'forbidden-phrase',
  'canary',
  'other-customer-data',
  'language',
] as const;

/**
 * The stages of a sale a conversation may reach (docs/coverage.md, "The funnel"), in order: for
 * the `coverage.funnel.<stage>` metrics; coverage/ counts them (this folder may not import it).
 */
export const FUNNEL_STAGES = ['product', 'cart', 'total', 'address', 'contact'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** The coverage shares a threshold may name (`coverage.<what>`; the funnel's: `coverage.funnel.<stage>`). */
const COVERAGE_METRICS = ['products', 'intents', 'rules'] as const;
/** The findings of a burst a threshold may name (`burst.<finding>.rate|count`), and the report's count of each (metrics/bursts.ts). */
export const BURST_THRESHOLD_FINDINGS = {
  out_of_order: 'outOfOrder',
  stale_last: 'staleLast',
  cart_regressed: 'cartRegressed',
  unanswered: 'unanswered',
  declined: 'declined',
} as const satisfies Record<string, BurstCountField>;

/** The metrics of one answer turn (`turn<N>.<metric>`). */
const TURN_THRESHOLD_METRICS = ['answer', 'sync', 'ack'] as const;

/** Every concrete metric name (for did-you-mean and documentation). */
export const THRESHOLD_METRICS: readonly string[] = [
  ...LATENCY_METRICS.flatMap((m) => LATENCY_STATS.map((s) => `${m}.${s}`)),
  ...OUTCOME_NAMES.flatMap((o) => [`outcome.${o}.rate`, `outcome.${o}.count`]),
  'scenario.pass.rate',
  'load.dropped.rate',
  'load.dropped.count',
  ...RECEIVER_COUNTERS.map((c) => `receiver.${c}`),
  'policy.violations',
  ...POLICY_RULE_IDS.map((r) => `policy.${r}.violations`),
  ...COVERAGE_METRICS.map((m) => `coverage.${m}`),
  ...FUNNEL_STAGES.map((s) => `coverage.funnel.${s}`),
  ...TURN_THRESHOLD_METRICS.flatMap((m) => LATENCY_STATS.map((s) => `turn1.${m}.${s}`)),
  ...Object.keys(BURST_THRESHOLD_FINDINGS).flatMap((f) => [`burst.${f}.rate`, `burst.${f}.count`]),
];

/**
 * The spec's limits as thresholds (spec: Limits): judged only when their metric has values, and
 * a percentile only with enough of them (ack.p99 needs 100 acks; below that "too few samples").
 */
export const DEFAULT_THRESHOLDS: readonly string[] = [
  `ack.p99 < ${LIMITS_MS.ack}ms`,
  `answer.max < ${LIMITS_MS.answer / 1000}s`,
  `sync.max < ${LIMITS_MS.sync / 1000}s`,
];

/**
 * The spec's limits against a remote target: the 100 ms acknowledgement is a promise about the
 * server, so it is judged on `ackServer` (ack minus the measured network round trip,
 * jobs/pipeline/network.ts), the raw client-side `ack` shown beside it (thresholds.ts, `beside`).
 */
export const REMOTE_DEFAULT_THRESHOLDS: readonly string[] = [
  `ackServer.p99 < ${LIMITS_MS.ackServer}ms`,
  ...DEFAULT_THRESHOLDS.slice(1),
];

/**
 * The default threshold of a load (open model): arrivals dropped at the in-flight cap are load
 * the target never saw, so a run that dropped more than 1% of them did not measure what was
 * asked (exit 99; the message names the cap and --max-in-flight).
 */
export const LOAD_DEFAULT_THRESHOLDS: readonly string[] = ['load.dropped.rate < 1%'];

/** Which metric the acknowledgement limit is judged on: `ack` (the embedded emulator) or `ackServer` (a remote target). */
export type AckBasis = 'ack' | 'ackServer';

/** The default thresholds for a target whose acknowledgement limit is judged on `basis`. */
export function defaultThresholdsFor(basis: AckBasis): readonly string[] {
  return basis === 'ackServer' ? REMOTE_DEFAULT_THRESHOLDS : DEFAULT_THRESHOLDS;
}

const EXPRESSION = /^\s*([^\s<>=!]+)\s*(<=|>=|==|!=|<|>)\s*([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*([a-z%/]*)\s*$/i;
const EXAMPLE = 'e.g. "ack.p99 < 100ms" or "outcome.timeout.rate < 1%"';

const TURN_NAME = /^turn([1-9]\d{0,3})\.(answer|sync|ack)\.(.+)$/;

/** `turn3.answer.p99` -> the latency stat `p99` of metric `turn3.answer` (a bad stat: as `answer.<stat>` would be). */
function resolveTurnName(name: string, expression: string): Omit<Threshold, 'expression' | 'op' | 'value'> | undefined {
  const t = TURN_NAME.exec(name);
  if (!t) return undefined;
  const inner = resolveName(`${t[2]}.${t[3]}`, expression);
  return { ...inner, name, metric: `turn${t[1]}.${t[2]}` };
}

function resolveName(name: string, expression: string): Omit<Threshold, 'expression' | 'op' | 'value'> {
  if (name.startsWith('turn')) {
    const turn = resolveTurnName(name, expression);
    if (turn) return turn;
  }
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const rest = dot < 0 ? '' : name.slice(dot + 1);
  if ((LATENCY_METRICS as readonly string[]).includes(head)) {
    const metric = head;
    const custom = /^p\((\d+(?:\.\d+)?)\)$/.exec(rest);
    if (custom) {
      const percentile = Number(custom[1]);
      if (percentile <= 0 || percentile > 100) {
        throw new ThresholdError(
          `threshold "${expression}": percentile ${percentile} is not in (0, 100]; write e.g. ${head}.p(99.5)`,
        );
      }
      return { name, metric, stat: rest, kind: 'latency', percentile };
    }
    if ((LATENCY_STATS as readonly string[]).includes(rest)) {
      const percentile = STAT_PERCENTILES[rest];
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
  } else if (name === 'load.dropped.rate' || name === 'load.dropped.count') {
    const stat = rest.slice('dropped.'.length) as 'rate' | 'count';
    return { name, metric: 'load.dropped', stat, kind: stat };
  } else if (name === 'policy.violations') {
    return { name, metric: 'policy', stat: 'violations', kind: 'count' };
  } else if (
    head === 'policy' &&
    rest.endsWith('.violations') &&
    (POLICY_RULE_IDS as readonly string[]).includes(rest.slice(0, -'.violations'.length))
  ) {
    return { name, metric: `policy.${rest.slice(0, -'.violations'.length)}`, stat: 'violations', kind: 'count' };
  } else if (head === 'coverage' && (COVERAGE_METRICS as readonly string[]).includes(rest)) {
    return { name, metric: name, stat: 'share', kind: 'rate' };
  } else if (
    head === 'coverage' &&
    rest.startsWith('funnel.') &&
    (FUNNEL_STAGES as readonly string[]).includes(rest.slice('funnel.'.length))
  ) {
    return { name, metric: name, stat: 'share', kind: 'rate' };
  } else if (head === 'burst') {
    const last = rest.lastIndexOf('.');
    const finding = rest.slice(0, last);
    const stat = rest.slice(last + 1);
    if (last > 0 && Object.hasOwn(BURST_THRESHOLD_FINDINGS, finding) && (stat === 'rate' || stat === 'count'))
      return { name, metric: `burst.${finding}`, stat, kind: stat };
  } else if (head === 'receiver' && (RECEIVER_COUNTERS as readonly string[]).includes(rest)) {
    return { name, metric: 'receiver', stat: rest, kind: 'count' };
  }
  const hint = didYouMeanText(name, THRESHOLD_METRICS);
  throw new ThresholdError(
    `threshold "${expression}": unknown metric "${name}"` +
      (hint ||
        `; known metrics: ack|answer|sync|reply|ackServer.<p50|p90|p95|p99|p999|p(NN)|max|min|mean|count>, outcome.<name>.rate|count, scenario.pass.rate, load.dropped.rate|count, receiver.<counter>, policy.violations, policy.<rule>.violations, coverage.products|intents|rules|funnel.<stage>, turn<N>.answer|sync|ack.<stat>, burst.<out_of_order|stale_last|cart_regressed|unanswered|declined>.rate|count`),
  );
}

/**
 * The value in the metric's unit (ms, 0..1, a count). A value without its unit is refused with
 * the wording of a flag's duration (units.ts durationProblem): `"180" needs a unit: write 180ms
 * or 180s`; only zero, and counts, stand alone.
 */
function scaleValue(rawText: string, unit: string, kind: ThresholdKind, expression: string): number {
  const raw = Number(rawText);
  const u = unit.toLowerCase();
  const refuse = (why: string): never => {
    throw new ThresholdError(`threshold "${expression}": ${why}`);
  };
  if (kind === 'latency') {
    if (u === '' && raw !== 0)
      refuse(durationProblem(rawText) ?? `"${rawText}" needs a unit: write ${rawText}ms or ${rawText}s`);
    const factor = UNITS_MS[u];
    if (factor !== undefined) return raw * factor;
    return refuse(`unit "${unit}" does not fit a latency; use ms, s or m, e.g. ${rawText}ms`);
  }
  if (kind === 'rate') {
    if (u === '%') return raw / 100;
    if (u === '' && raw === 0) return 0;
    return refuse(
      u === ''
        ? `"${rawText}" needs a unit: write ${rawText}% (or ${raw * 100}% for a share of ${rawText})`
        : `unit "${unit}" does not fit a rate; write a share in %, e.g. 1%`,
    );
  }
  if (u === '') return raw;
  return refuse(`unit "${unit}" does not fit a count; write a bare number, e.g. ${rawText}`);
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
  const value = scaleValue(rawValue, unit, resolved.kind, trimmed);
  return { expression: trimmed, ...resolved, op: op as ThresholdOp, value };
}
