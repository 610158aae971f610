/**
 * Capacity search: the highest constant arrival rate (req/s) at which ack p99 stays under its
 * limit (default 100 ms, spec: Limits "Async acknowledgement: under 100 ms") and, optionally,
 * answer p99 under its limit, with no dropped arrivals and an error rate under the cap.
 * Strategies: `step` (start, start+step, ... until the first failing rate or max) and
 * `bisect` (max first, then halve the interval between the best passing and the lowest
 * failing rate down to `precision`). Every measured rate is a point of the curve
 * (rate -> p50/p99/errors). Pure over an injected `measure(rate)`; see capacity-run.ts.
 */
import { UsageError } from '../errors.js';

/** What one constant-rate step measured (ms, req/s, counts). */
export interface RateMeasurement {
  /** Intended rate, req/s. */
  rate: number;
  achievedRate: number;
  sent: number;
  dropped: number;
  errors: number;
  ack: { count: number; p50: number; p99: number };
  answer: { count: number; p50: number; p99: number };
  sync: { count: number; p50: number; p99: number };
  generatorBound: boolean;
  sendDelayP99Ms: number;
}

export interface CapacityPoint extends RateMeasurement {
  /** errors / sent, 0..1. */
  errorRate: number;
  passed: boolean;
  /** Why it failed (empty when passed). */
  reasons: string[];
}

export interface CapacityCriteria {
  /** ack p99 limit, ms. Default 100 (spec: Limits). */
  ackP99Ms?: number;
  /** answer p99 limit, ms; not judged when undefined. */
  answerP99Ms?: number | undefined;
  /** Highest accepted error rate, 0..1. Default 0.01. */
  maxErrorRate?: number;
}

export interface CapacitySearchOptions {
  strategy: 'step' | 'bisect';
  /** First rate (step) or lower bound (bisect), req/s. */
  startRate: number;
  /** Increment of the step strategy, req/s. */
  stepRate: number;
  /** Highest rate tried, req/s. */
  maxRate: number;
  /** Bisect stops when the interval is this narrow, req/s. Default 5% of maxRate. */
  precision?: number;
  /** At most this many measured rates. Default 20. */
  maxSteps?: number;
}

export interface CapacityResult {
  /** Highest passing rate measured, req/s; null when none passed. */
  maxRate: number | null;
  /** Lowest failing rate measured, req/s; null when none failed. */
  firstFailingRate: number | null;
  /** True when the search reached maxRate and it passed (capacity may be higher). */
  limitedBySearch: boolean;
  /** Some step's generator was bound: its figures are suspect. */
  suspect: boolean;
  criteria: Required<Omit<CapacityCriteria, 'answerP99Ms'>> & { answerP99Ms: number | null };
  /** Points sorted by rate. */
  curve: CapacityPoint[];
}

/** Judges one step against the criteria. */
export function judgeStep(m: RateMeasurement, criteria: CapacityCriteria = {}): CapacityPoint {
  const ackLimit = criteria.ackP99Ms ?? 100;
  const maxErrorRate = criteria.maxErrorRate ?? 0.01;
  const errorRate = m.sent === 0 ? 0 : m.errors / m.sent;
  const reasons: string[] = [];
  if (m.ack.count > 0 && m.ack.p99 >= ackLimit) reasons.push(`ack p99 ${m.ack.p99} ms >= ${ackLimit} ms`);
  if (criteria.answerP99Ms !== undefined && m.answer.count > 0 && m.answer.p99 >= criteria.answerP99Ms) {
    reasons.push(`answer p99 ${m.answer.p99} ms >= ${criteria.answerP99Ms} ms`);
  }
  if (errorRate > maxErrorRate) reasons.push(`error rate ${(errorRate * 100).toFixed(2)}% > ${(maxErrorRate * 100).toFixed(2)}%`);
  if (m.dropped > 0) reasons.push(`${m.dropped} arrivals dropped at the in-flight cap`);
  if (m.sent === 0) reasons.push('nothing was sent');
  return { ...m, errorRate, passed: reasons.length === 0, reasons };
}

/**
 * Searches the capacity by measuring rates through `measure(rate)`. `onPoint` sees each point
 * as it is judged (progress). Throws UsageError (DROIDCHECK_ERR_USAGE) for bad bounds.
 */
export async function searchCapacity(
  measure: (rate: number) => Promise<RateMeasurement>,
  search: CapacitySearchOptions,
  criteria: CapacityCriteria = {},
  onPoint?: (p: CapacityPoint) => void,
): Promise<CapacityResult> {
  const { startRate, maxRate, stepRate } = search;
  if (!(startRate > 0) || !(maxRate >= startRate)) throw new UsageError(`capacity: need 0 < --start-rate (${startRate}) <= --max-rate (${maxRate})`);
  if (search.strategy === 'step' && !(stepRate > 0)) throw new UsageError(`capacity: --step (${stepRate}) must be > 0 req/s`);
  const maxSteps = search.maxSteps ?? 20;
  const curve: CapacityPoint[] = [];
  const run = async (rate: number): Promise<CapacityPoint> => {
    const point = judgeStep(await measure(rate), criteria);
    curve.push(point);
    onPoint?.(point);
    return point;
  };
  if (search.strategy === 'step') {
    for (let rate = startRate; rate <= maxRate + 1e-9 && curve.length < maxSteps; rate += stepRate) {
      if (!(await run(rate)).passed) break;
    }
  } else {
    const precision = search.precision ?? Math.max(1, maxRate * 0.05);
    let lo = 0;
    let hi = maxRate;
    const top = await run(maxRate);
    if (!top.passed) {
      const bottom = startRate < maxRate ? await run(startRate) : top;
      if (bottom.passed) {
        lo = startRate;
        while (hi - lo > precision && curve.length < maxSteps) {
          const mid = Math.round(((lo + hi) / 2) * 100) / 100;
          if ((await run(mid)).passed) lo = mid;
          else hi = mid;
        }
      }
    }
  }
  curve.sort((a, b) => a.rate - b.rate);
  const passing = curve.filter((p) => p.passed);
  const failing = curve.filter((p) => !p.passed);
  const maxPassing = passing.length > 0 ? passing[passing.length - 1]!.rate : null;
  return {
    maxRate: maxPassing,
    firstFailingRate: failing.length > 0 ? failing[0]!.rate : null,
    limitedBySearch: maxPassing !== null && maxPassing >= maxRate,
    suspect: curve.some((p) => p.generatorBound),
    criteria: { ackP99Ms: criteria.ackP99Ms ?? 100, maxErrorRate: criteria.maxErrorRate ?? 0.01, answerP99Ms: criteria.answerP99Ms ?? null },
    curve,
  };
}

/** The curve as a text table (rate -> achieved, ack p50/p99, answer p50/p99, errors, verdict). */
export function renderCapacity(result: CapacityResult): string {
  const rows = [['rate/s', 'achieved/s', 'ack p50', 'ack p99', 'answer p50', 'answer p99', 'errors', 'dropped', 'verdict']];
  for (const p of result.curve) {
    rows.push([
      String(p.rate),
      p.achievedRate.toFixed(1),
      p.ack.p50.toFixed(1),
      p.ack.p99.toFixed(1),
      p.answer.p50.toFixed(1),
      p.answer.p99.toFixed(1),
      `${p.errors} (${(p.errorRate * 100).toFixed(2)}%)`,
      String(p.dropped),
      (p.passed ? 'pass' : `FAIL: ${p.reasons.join('; ')}`) + (p.generatorBound ? ' [generator-bound]' : ''),
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const table = rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padStart(widths[c] ?? 0))).join('  '));
  const verdict =
    result.maxRate === null
      ? 'capacity: no rate passed'
      : `capacity: ${result.maxRate} req/s${result.limitedBySearch ? ' (the highest rate tried; raise --max-rate to look further)' : ''}`;
  const suspect = result.suspect ? '\nWARNING: some steps were generator-bound (send delay p99 > 10 ms); their figures are suspect' : '';
  return `${table.join('\n')}\n${verdict}${suspect}\n`;
}
