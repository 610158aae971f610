/**
 * Capacity search: the highest constant arrival rate (req/s) at which ack p99 stays under its
 * limit (default 100 ms, spec: Limits "Async acknowledgement: under 100 ms") and, optionally,
 * answer p99 under its limit, with no dropped arrivals, an error rate under the cap, and the
 * share of answers right (requests whose outcome passed) at least `--min-pass-rate`, judged on
 * its Wilson 95% lower bound where the sample allows (metrics/pass-share.ts).
 * Strategies: `step` (start, start+step, ... until the first failing rate or max) and `bisect`
 * (max first, then halve the interval between the best passing and the lowest failing rate down
 * to `precision`). Every measured rate is a point of the curve. A percentile is judged only on
 * enough samples (p99: >= 100); a step with fewer fails with "too few samples", never passes
 * silently.
 *
 * Two capacities come out: the rate where every criterion held, and the latency-only one (the
 * answers' share not judged), so a planner sees how far a droid answers on time but wrong. The
 * search goes on past a rate whose only failure is its answers, until the latency criteria fail
 * too (step: the rates a latency-only search measures, no more), or bisects again between the
 * rates measured for them (bisect: a second bisection, reusing every rate measured, within
 * `maxSteps`). Pure over an injected `measure(rate)`; see capacity.ts.
 */
import { UsageError } from '../../errors.js';
import { judgePassShare, minSamplesFor } from '../../metrics/index.js';
import type { CapacityPoint, CapacitySection } from '../../report/index.js';
import { formatMs, formatPercent, formatRate } from '../../units.js';

/** Samples a p99 needs (the tail beyond it must hold at least one sample). */
const P99_MIN_SAMPLES = minSamplesFor(99);

/** What decides how long a rate is measured (stepLength). */
export interface StepNeeds {
  /** `--step-duration`, ms: the shortest measured length. */
  stepDurationMs: number;
  /** Share of the mix's draws that give an ack and an answer (runner/mix.ts asyncAnswerShare), 0..1. */
  asyncShare: number;
  /** A latency criterion is judged on async samples (ack p99, or answer p99). */
  judgesLatency: boolean;
  /** `--max-error-rate`, 0..1: a step may lose this share of its requests and still pass. */
  maxErrorRate: number;
}

/**
 * How long `rate` (req/s) must be measured so that its latency criteria can be judged: a p99
 * needs 100 samples (metrics/sample-size.ts), so a step too short for them is lengthened, never
 * judged on fewer. The arrivals needed are those whose async draws (binomial over the mix, taken
 * 4 standard deviations low) minus the errors a passing step may have still hold 100 samples;
 * a mix all async needs 100 / (1 - max error rate) + 1. Returns the measured length (ms, at
 * least `--step-duration`, rounded up to 100 ms) and, when lengthened, why.
 */
export function stepLength(rate: number, needs: StepNeeds): { ms: number; lengthened?: string } {
  const p = needs.asyncShare;
  if (!needs.judgesLatency || p <= 0) return { ms: needs.stepDurationMs };
  // Errors count against the samples only when the async share leaves room for them.
  const e = p > 2 * needs.maxErrorRate ? needs.maxErrorRate : 0;
  const enough = (n: number): boolean => n * p - 4 * Math.sqrt(n * p * (1 - p)) - e * n >= P99_MIN_SAMPLES;
  let hi = P99_MIN_SAMPLES;
  while (!enough(hi)) hi *= 2;
  let lo = hi / 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (enough(mid)) hi = mid;
    else lo = mid;
  }
  const ms = Math.ceil(((hi + 1) / rate) * 10) * 100;
  if (ms <= needs.stepDurationMs) return { ms: needs.stepDurationMs };
  return {
    ms,
    lengthened: `measured ${formatMs(ms)}, not ${formatMs(needs.stepDurationMs)}: ${hi} arrivals for the ${P99_MIN_SAMPLES} samples a p99 needs`,
  };
}

/** What one constant-rate step measured (ms, req/s, counts). */
export type RateMeasurement = Omit<CapacityPoint, 'passed' | 'reasons' | 'errorRate' | 'answers' | 'latencyPassed'> & {
  /** True when the step sends async requests (ack is judged). */
  judgesAck: boolean;
  /** Requests whose outcome passed, of those with a verdict (`judged`). */
  answers: { passed: number; judged: number };
};

export interface CapacityCriteria {
  /** ack p99 limit, ms. */
  ackP99Ms: number;
  /** answer p99 limit, ms; not judged when undefined. */
  answerP99Ms?: number | undefined;
  /** Highest accepted error rate, 0..1. */
  maxErrorRate: number;
  /** Lowest share of answers right, 0..1 (`--min-pass-rate`); not judged when undefined. */
  minPassRate?: number | undefined;
  /** `--min-capacity`, req/s: the knee a CI gate requires (the report's verdict; exit 99 below it). */
  minCapacity?: number | undefined;
}

export interface CapacitySearchOptions {
  strategy: 'step' | 'bisect';
  startRate: number;
  stepRate: number;
  maxRate: number;
  /** Bisect stops when the interval is this narrow, req/s. Default 5% of maxRate. */
  precision?: number | undefined;
  /** At most this many measured rates. */
  maxSteps: number;
}

/** `3% right at 30 req/s (4 of 150, ...)`: why a rate's answers failed `min`. */
function degradedReason(rate: number, v: ReturnType<typeof judgePassShare>): string {
  const min = formatPercent(v.min);
  if (v.share === null) return `answers degraded: none judged at ${formatRate(rate)} (needs ${min} right)`;
  const how =
    v.judgedOn === 'interval'
      ? `95% CI ${formatPercent(v.interval.low)}–${formatPercent(v.interval.high)}: its lower bound < ${min}`
      : `< ${min}; ${v.judged} answers are too few for the 95% interval to show ${min}, so the share is judged`;
  return `answers degraded: ${formatPercent(v.share)} right at ${formatRate(rate)} (${v.passed} of ${v.judged}; ${how})`;
}

/**
 * Judges one step against the criteria: `latencyPassed` without the answers' share, `passed`
 * with it. The reasons name every criterion that failed, the answers' last.
 */
export function judgeStep(m: RateMeasurement, criteria: CapacityCriteria): CapacityPoint {
  const errorRate = m.sent === 0 ? 0 : m.errors / m.sent;
  const reasons: string[] = [];
  if (m.sent === 0) reasons.push('nothing was sent');
  // The one generator-bound rule (metrics/thresholds-trust.ts): a p99 within the send delay's
  // size of its limit could have the other verdict with a generator that kept up.
  const doubtful = (p99: number, limit: number): boolean =>
    m.generatorBound && m.sendDelayOffByMs !== undefined && Math.abs(p99 - limit) <= m.sendDelayOffByMs;
  const latency = (name: string, s: { count: number; p99: number }, limit: number): void => {
    if (s.count < P99_MIN_SAMPLES)
      reasons.push(`too few ${name} samples for p99 (${s.count} < ${P99_MIN_SAMPLES}): lengthen --step-duration`);
    else if (doubtful(s.p99, limit))
      reasons.push(
        `generator-bound: ${name} p99 ${formatMs(s.p99)} not judged against ${formatMs(limit)}, within the send delay's ${formatMs(m.sendDelayOffByMs ?? 0)}`,
      );
    else if (s.p99 >= limit) reasons.push(`${name} p99 ${formatMs(s.p99)} >= ${formatMs(limit)}`);
  };
  if (m.judgesAck) latency('ack', m.ack, criteria.ackP99Ms);
  if (criteria.answerP99Ms !== undefined) latency('answer', m.answer, criteria.answerP99Ms);
  if (errorRate > criteria.maxErrorRate)
    reasons.push(`error rate ${formatPercent(errorRate, 2)} > ${formatPercent(criteria.maxErrorRate, 2)}`);
  if (m.dropped > 0) reasons.push(`${m.dropped} arrivals dropped at the in-flight cap`);
  const latencyPassed = reasons.length === 0;
  const v = judgePassShare(m.answers.passed, m.answers.judged, criteria.minPassRate ?? 0);
  if (criteria.minPassRate !== undefined && !v.held) reasons.push(degradedReason(m.rate, v));
  const { judgesAck: _judgesAck, answers: _answers, ...point } = m;
  const answers = {
    passed: v.passed,
    judged: v.judged,
    share: v.share,
    interval: v.interval,
    judgedOn: v.judgedOn,
  };
  return { ...point, errorRate, answers, latencyPassed, passed: reasons.length === 0, reasons };
}

/** The highest rate that held below the lowest that did not (a rate above a failure is not capacity, whatever it measured). */
function capacityOf(curve: readonly CapacityPoint[], held: (p: CapacityPoint) => boolean, maxRate: number) {
  const failing = curve.filter((p) => !held(p));
  const firstFailingRate = failing.length > 0 ? Math.min(...failing.map((p) => p.rate)) : null;
  const passing = curve.filter((p) => held(p) && (firstFailingRate === null || p.rate < firstFailingRate));
  const best = passing.length > 0 ? Math.max(...passing.map((p) => p.rate)) : null;
  return { maxRate: best, firstFailingRate, limitedBySearch: best !== null && best >= maxRate };
}

/** Which criteria a failing point's reasons name (the report's `endedBy`). */
function criteriaOf(p: CapacityPoint): CapacityCriterion[] {
  const named = p.reasons.map((r): CapacityCriterion => {
    if (r.startsWith('answers degraded')) return 'answers';
    if (r.startsWith('too few') || r === 'nothing was sent') return 'samples';
    if (r.startsWith('generator-bound')) return 'generator';
    if (r.startsWith('error rate')) return 'errors';
    if (r.includes('dropped')) return 'dropped';
    return 'latency';
  });
  return [...new Set(named)];
}
type CapacityCriterion = NonNullable<CapacitySection['endedBy']>['criteria'][number];

/**
 * Searches the capacity by measuring rates through `measure(rate)` (which resolves undefined
 * when the job was interrupted: the search ends with what it has). `onPoint` sees each point as
 * it is judged. Throws UsageError (DROIDCHECK_ERR_USAGE) for bad bounds.
 */
export async function searchCapacity(
  measure: (rate: number) => Promise<RateMeasurement | undefined>,
  search: CapacitySearchOptions,
  criteria: CapacityCriteria,
  onPoint?: (p: CapacityPoint) => void,
): Promise<CapacitySection> {
  const { startRate, maxRate, stepRate } = search;
  if (!(startRate > 0) || !(maxRate >= startRate))
    throw new UsageError(`capacity: need 0 < --start-rate (${startRate}) <= --max-rate (${maxRate})`);
  if (search.strategy === 'step' && !(stepRate > 0))
    throw new UsageError(`capacity: --step (${stepRate}) must be > 0 req/s`);
  const curve: CapacityPoint[] = [];
  const byRate = new Map<number, CapacityPoint>();
  let interrupted = false;
  const run = async (rate: number): Promise<CapacityPoint | undefined> => {
    const known = byRate.get(rate);
    if (known) return known;
    if (interrupted || curve.length >= search.maxSteps) return undefined;
    const m = await measure(rate);
    if (!m) {
      interrupted = true;
      return undefined;
    }
    const point = judgeStep(m, criteria);
    curve.push(point);
    byRate.set(rate, point);
    onPoint?.(point);
    return point;
  };
  const both = (p: CapacityPoint): boolean => p.passed;
  const onTime = (p: CapacityPoint): boolean => p.latencyPassed ?? p.passed;
  if (search.strategy === 'step') {
    // On past a rate whose answers alone failed: the latency-only capacity lies further on.
    for (let rate = startRate; rate <= maxRate + 1e-9; rate += stepRate) {
      const p = await run(Math.round(rate * 1000) / 1000);
      if (!p || !onTime(p)) break;
    }
  } else {
    const precision = search.precision ?? Math.max(1, maxRate * 0.05);
    for (const held of [both, onTime]) {
      const top = await run(maxRate);
      if (!top || held(top)) continue;
      const bottom = await run(startRate);
      if (!bottom || !held(bottom)) continue;
      // Between the highest rate that held and the lowest that did not, of those measured so far.
      let { maxRate: lo, firstFailingRate: hi } = capacityOf(curve, held, maxRate);
      while (lo !== null && hi !== null && hi - lo > precision) {
        const p = await run(Math.round(((lo + hi) / 2) * 100) / 100);
        if (!p) break;
        if (held(p)) lo = p.rate;
        else hi = p.rate;
      }
    }
  }
  curve.sort((a, b) => a.rate - b.rate);
  const all = capacityOf(curve, both, maxRate);
  const latencyOnly = capacityOf(curve, onTime, maxRate);
  const ending = curve.find((p) => p.rate === all.firstFailingRate);
  return {
    ...all,
    suspect: curve.some((p) => p.generatorBound),
    criteria: {
      ackP99Ms: criteria.ackP99Ms,
      answerP99Ms: criteria.answerP99Ms ?? null,
      maxErrorRate: criteria.maxErrorRate,
      minPassRate: criteria.minPassRate ?? 0,
      ...(criteria.minCapacity !== undefined && { minCapacity: criteria.minCapacity }),
    },
    endedBy: ending ? { rate: ending.rate, criteria: criteriaOf(ending), reasons: ending.reasons } : null,
    latencyOnly,
    curve,
  };
}

/** One progress line for a judged point. */
export function pointLine(p: CapacityPoint): string {
  const right = p.answers?.share != null ? `, ${formatPercent(p.answers.share)} right of ${p.answers.judged}` : '';
  // A sync mix has no ack: its sync p99 says how the rate went.
  const [name, s] = p.ack.count === 0 && p.sync.count > 0 ? ['sync', p.sync] : ['ack', p.ack];
  const p99 = s.count === 0 ? 'no samples' : s.count < P99_MIN_SAMPLES ? '—' : formatMs(s.p99);
  return `  ${formatRate(p.rate)}: ${name} p99 ${p99} (${s.count} samples), errors ${p.errors}, dropped ${p.dropped}${right} -> ${p.passed ? 'pass' : `FAIL (${p.reasons.join('; ')})`}`;
}
