/**
 * Did a percentile really grow between two runs? A two-sample test over the HDR buckets of both
 * (docs/statistics.md, "Comparing runs").
 *
 * The quantile test (Mood's median test, generalised to any percentile): pool both samples,
 * take the pooled value at percentile p (the pivot), and count in each sample how many values
 * lie above it. Were both runs drawn from one distribution, the current run's share of those
 * exceedances would follow the hypergeometric law; Fisher's exact test (one-sided) gives the
 * chance of seeing this many or more. A small p-value says the current run's p-th percentile
 * sits higher than the baseline's by more than sampling noise.
 *
 * Why not Mann-Whitney U or Kolmogorov-Smirnov: both test the distribution as a whole (mostly
 * its middle), so they would flag a move of the median when the row asks about p99, and miss a
 * grown tail under an unchanged middle. The quantile test asks what each row asks.
 */
import type { HistogramBucket } from './latency-recorder.js';
import { fisherGreater, fisherMinP } from './stats.js';

export interface QuantileShift {
  /** One-sided p-value of "the current run's percentile is higher" (0..1). */
  pValue: number;
  /** The smallest p-value these counts allow (all exceedances in the current run). */
  minP: number;
  /** The pooled value at the percentile, ms. */
  pivotMs: number;
  /** Values above the pivot in the baseline and in the current run. */
  baseAbove: number;
  currentAbove: number;
  baseCount: number;
  currentCount: number;
}

const total = (b: readonly HistogramBucket[]): number => b.reduce((n, x) => n + x.count, 0);
const above = (b: readonly HistogramBucket[], pivotUs: number): number =>
  b.reduce((n, x) => n + (x.valueUs > pivotUs ? x.count : 0), 0);

/**
 * The value (us) at `percentile` (0..100) of the pooled buckets: the smallest bucket value whose
 * cumulative count reaches ceil(p/100 x N) (HDR's rule), at least rank 1.
 */
export function pooledPercentileUs(
  base: readonly HistogramBucket[],
  current: readonly HistogramBucket[],
  percentile: number,
): number {
  const pooled = new Map<number, number>();
  for (const b of [...base, ...current]) pooled.set(b.valueUs, (pooled.get(b.valueUs) ?? 0) + b.count);
  const values = [...pooled.entries()].sort((a, b) => a[0] - b[0]);
  const n = values.reduce((s, [, c]) => s + c, 0);
  const rank = Math.max(1, Math.ceil((percentile / 100) * n - 1e-9));
  let seen = 0;
  for (const [value, count] of values) {
    seen += count;
    if (seen >= rank) return value;
  }
  return values[values.length - 1]?.[0] ?? 0;
}

/**
 * Tests whether `current`'s value at `percentile` (0 < p < 100) is higher than `base`'s (buckets
 * in us, e.g. from LatencyRecorder.buckets). p-value 1 when either sample is empty.
 */
export function quantileShiftTest(
  base: readonly HistogramBucket[],
  current: readonly HistogramBucket[],
  percentile: number,
): QuantileShift {
  const baseCount = total(base);
  const currentCount = total(current);
  if (baseCount === 0 || currentCount === 0) {
    return { pValue: 1, minP: 1, pivotMs: 0, baseAbove: 0, currentAbove: 0, baseCount, currentCount };
  }
  const pivotUs = pooledPercentileUs(base, current, percentile);
  const baseAbove = above(base, pivotUs);
  const currentAbove = above(current, pivotUs);
  return {
    pValue: fisherGreater(baseAbove, baseCount, currentAbove, currentCount),
    minP: fisherMinP(baseAbove + currentAbove, baseCount, currentCount),
    pivotMs: pivotUs / 1000,
    baseAbove,
    currentAbove,
    baseCount,
    currentCount,
  };
}
