/**
 * How many samples a statistic needs before droidcheck judges or compares it (a percentile of
 * too few samples is noise, not a finding; docs/architecture.md, Measurements; docs/statistics.md).
 *
 * The rule: a percentile p (0 < p < 100) is supported by `count` samples when the tail beyond it
 * holds at least one sample, i.e. `count x (1 - p/100) >= 1`, i.e. `count >= 1 / (1 - p/100)`:
 * p50 needs 2, p90 10, p95 20, p99 100, p99.9 1,000, p(99.5) 200. Below that, HDR's value at p is
 * exactly the largest sample (the rank `ceil(p/100 x count)` is `count`), so "p99 of 16
 * samples" is the max under another name. `max`, `min`, `mean` and counts need 1 sample.
 */

/** The percentile (0..100) behind each named latency statistic; absent for max/min/mean/count. */
export const STAT_PERCENTILES: Readonly<Record<string, number>> = { p50: 50, p90: 90, p95: 95, p99: 99, p999: 99.9 };

/**
 * Samples needed to judge the percentile `percentile` (0..100): `ceil(1 / (1 - p/100))`, 1 for
 * p = 100 (the max) and for p <= 0. Rounding noise is removed first (p99: 100, not 101).
 */
export function minSamplesFor(percentile: number): number {
  if (!(percentile > 0) || percentile >= 100) return 1;
  const exact = 100 / (100 - percentile);
  return Math.max(1, Math.ceil(exact - 1e-9));
}

/** Samples needed by a latency statistic: `p50`..`p999`, `p(NN)`; 1 for max, min, mean, count. */
export function minSamplesForStat(stat: string): number {
  const named = STAT_PERCENTILES[stat];
  if (named !== undefined) return minSamplesFor(named);
  const custom = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
  return custom ? minSamplesFor(Number(custom[1])) : 1;
}
