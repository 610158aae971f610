/**
 * Capacity search: the highest constant arrival rate (req/s) at which ack p99 stays under its
 * limit (default 100 ms, spec: Limits "Async acknowledgement: under 100 ms") and, optionally,
 * answer p99 under its limit, with no dropped arrivals and an error rate under the cap.
 * Strategies: `step` (start, start+step, ... until the first failing rate or max) and `bisect`
 * (max first, then halve the interval between the best passing and the lowest failing rate down
 * to `precision`). Every measured rate is a point of the curve. A percentile is judged only on
 * enough samples (p99: >= 100); a step with fewer fails with "too few samples", never passes
 * silently. Pure over an injected `measure(rate)`; see capacity.ts.
 */
import { UsageError } from '../errors.js';
import type { CapacityPoint, CapacitySection } from '../report/index.js';
import { formatMs, formatPercent, formatRate } from '../units.js';

/** Samples a p99 needs (the tail beyond it must hold at least one sample). */
const P99_MIN_SAMPLES = 100;

/** What one constant-rate step measured (ms, req/s, counts). */
export type RateMeasurement = Omit<CapacityPoint, 'passed' | 'reasons' | 'errorRate'> & {
  /** True when the step sends async requests (ack is judged). */
  judgesAck: boolean;
};

export interface CapacityCriteria {
  /** ack p99 limit, ms. */
  ackP99Ms: number;
  /** answer p99 limit, ms; not judged when undefined. */
  answerP99Ms?: number | undefined;
  /** Highest accepted error rate, 0..1. */
  maxErrorRate: number;
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

/** Judges one step against the criteria. */
export function judgeStep(m: RateMeasurement, criteria: CapacityCriteria): CapacityPoint {
  const errorRate = m.sent === 0 ? 0 : m.errors / m.sent;
  const reasons: string[] = [];
  if (m.sent === 0) reasons.push('nothing was sent');
  if (m.judgesAck) {
    if (m.ack.count < P99_MIN_SAMPLES)
      reasons.push(`too few ack samples for p99 (${m.ack.count} < ${P99_MIN_SAMPLES}): lengthen --step-duration`);
    else if (m.ack.p99 >= criteria.ackP99Ms)
      reasons.push(`ack p99 ${formatMs(m.ack.p99)} >= ${formatMs(criteria.ackP99Ms)}`);
  }
  if (criteria.answerP99Ms !== undefined) {
    if (m.answer.count < P99_MIN_SAMPLES)
      reasons.push(`too few answer samples for p99 (${m.answer.count} < ${P99_MIN_SAMPLES})`);
    else if (m.answer.p99 >= criteria.answerP99Ms)
      reasons.push(`answer p99 ${formatMs(m.answer.p99)} >= ${formatMs(criteria.answerP99Ms)}`);
  }
  if (errorRate > criteria.maxErrorRate)
    reasons.push(`error rate ${formatPercent(errorRate, 2)} > ${formatPercent(criteria.maxErrorRate, 2)}`);
  if (m.dropped > 0) reasons.push(`${m.dropped} arrivals dropped at the in-flight cap`);
  const { judgesAck: _judgesAck, ...point } = m;
  return { ...point, errorRate, passed: reasons.length === 0, reasons };
}

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
  let interrupted = false;
  const run = async (rate: number): Promise<CapacityPoint | undefined> => {
    const m = await measure(rate);
    if (!m) {
      interrupted = true;
      return undefined;
    }
    const point = judgeStep(m, criteria);
    curve.push(point);
    onPoint?.(point);
    return point;
  };
  if (search.strategy === 'step') {
    for (
      let rate = startRate;
      rate <= maxRate + 1e-9 && curve.length < search.maxSteps && !interrupted;
      rate += stepRate
    ) {
      const p = await run(rate);
      if (!p?.passed) break;
    }
  } else {
    const precision = search.precision ?? Math.max(1, maxRate * 0.05);
    let lo = 0;
    let hi = maxRate;
    const top = await run(maxRate);
    if (top && !top.passed) {
      const bottom = startRate < maxRate ? await run(startRate) : top;
      if (bottom?.passed) {
        lo = startRate;
        while (hi - lo > precision && curve.length < search.maxSteps && !interrupted) {
          const mid = Math.round(((lo + hi) / 2) * 100) / 100;
          const p = await run(mid);
          if (!p) break;
          if (p.passed) lo = mid;
          else hi = mid;
        }
      }
    }
  }
  curve.sort((a, b) => a.rate - b.rate);
  const passing = curve.filter((p) => p.passed);
  const failing = curve.filter((p) => !p.passed);
  const best = passing.length > 0 ? passing[passing.length - 1]!.rate : null;
  return {
    maxRate: best,
    firstFailingRate: failing.length > 0 ? failing[0]!.rate : null,
    limitedBySearch: best !== null && best >= maxRate,
    suspect: curve.some((p) => p.generatorBound),
    criteria: {
      ackP99Ms: criteria.ackP99Ms,
      answerP99Ms: criteria.answerP99Ms ?? null,
      maxErrorRate: criteria.maxErrorRate,
    },
    curve,
  };
}

/** One progress line for a judged point. */
export function pointLine(p: CapacityPoint): string {
  return `  ${formatRate(p.rate)}: ack p99 ${p.ack.count > 0 ? formatMs(p.ack.p99) : 'no samples'} (${p.ack.count} samples), errors ${p.errors}, dropped ${p.dropped} -> ${p.passed ? 'pass' : `FAIL (${p.reasons.join('; ')})`}`;
}
