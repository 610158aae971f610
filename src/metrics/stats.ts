/**
 * Small, exact statistics droidcheck decides on (docs/statistics.md): Wilson score intervals
 * for pass rates, Fisher's exact test (one-sided) for a rise in a proportion, and Tarone's
 * correction over the tests of one comparison. Pure functions of counts; no dependency.
 */

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error ~1e-15). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ln C(n, k) for integers 0 <= k <= n. */
export function lnChoose(n: number, k: number): number {
  return lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);
}

/**
 * Wilson score interval (95% by default) of a proportion `successes / trials`, each bound 0..1.
 * Unlike the normal ("Wald") interval it stays inside 0..1 and is honest at 0/n and n/n: 4 of 4
 * passes gives 0.51..1, not 1..1. With no trials: 0..1 (nothing is known).
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): { low: number; high: number } {
  if (trials <= 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denom = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const clamp = (v: number): number => Math.min(1, Math.max(0, v));
  // At 0/n and n/n the bound on that side is exactly 0 or 1 (rounding would leave 1e-17).
  return { low: successes === 0 ? 0 : clamp(center - half), high: successes === trials ? 1 : clamp(center + half) };
}

/**
 * Fisher's exact test, one-sided: the p-value of "the second group's share of events is
 * greater than the first's", for `a1` events of `n1` (first group, e.g. the baseline) and `a2`
 * of `n2` (second, e.g. the current run). It is P(X >= a2) for X hypergeometric (N = n1 + n2
 * items, K = a1 + a2 events, n2 drawn): the chance, were both groups one population, that the
 * second group would hold this many events or more. 1 when a group is empty or all or none are
 * events. Exact for any size (the tail is summed by the terms' recurrence until negligible).
 */
export function fisherGreater(a1: number, n1: number, a2: number, n2: number): number {
  const N = n1 + n2;
  const K = a1 + a2;
  const n = n2;
  if (n1 <= 0 || n2 <= 0 || K <= 0 || K >= N) return 1;
  const lo = Math.max(0, n - (N - K));
  const hi = Math.min(K, n);
  if (a2 <= lo) return 1;
  const lnDenom = lnChoose(N, n);
  const term = (x: number): number => Math.exp(lnChoose(K, x) + lnChoose(N - K, n - x) - lnDenom);
  const up = (x: number): number => ((K - x) * (n - x)) / ((x + 1) * (N - K - n + x + 1));
  const down = (x: number): number => (x * (N - K - n + x)) / ((K - x + 1) * (n - x + 1));
  const mode = Math.floor(((n + 1) * (K + 1)) / (N + 2));
  if (a2 > mode) {
    // Upper tail: the terms fall from a2 on.
    let t = term(a2);
    let sum = t;
    for (let x = a2; x < hi && t > sum * 1e-17; x++) {
      t *= up(x);
      sum += t;
    }
    return Math.min(1, sum);
  }
  // a2 at or below the mode: 1 - P(X <= a2 - 1), the lower tail falling from a2 - 1 down.
  let t = term(a2 - 1);
  let sum = t;
  for (let x = a2 - 1; x > lo && t > sum * 1e-17; x--) {
    t *= down(x);
    sum += t;
  }
  return Math.min(1, Math.max(0, 1 - sum));
}

/**
 * The smallest p-value {@link fisherGreater} can give for these margins: every one of the `events`
 * in the second group (or as many as fit). A test whose smallest p-value is above the bound it
 * must reach can never reject, whatever the data (Tarone, 1990).
 */
export function fisherMinP(events: number, n1: number, n2: number): number {
  const a2 = Math.min(events, n2);
  return fisherGreater(events - a2, n1, a2, n2);
}

/** One test of a family: its p-value and the smallest p-value it could have given. */
export interface FamilyTest {
  pValue: number;
  minP: number;
}

/**
 * Which tests of a family stay significant with the family-wise error rate (the chance that
 * any of them is a false alarm) kept at `alpha`: Bonferroni over only the tests that could
 * reach significance at all (Tarone's correction for discrete tests, 1990). K is the smallest
 * k >= 1 for which at most k tests have minP <= alpha / k; those tests are significant when
 * p <= alpha / K. Exact tests on small counts (a p99 of 100 samples, an outcome never seen)
 * cannot reject and so do not dilute the others. Returns one boolean per test, and K.
 */
export function taroneSignificant(tests: readonly FamilyTest[], alpha: number): { significant: boolean[]; k: number } {
  let k = 1;
  while (k < tests.length && tests.filter((t) => t.minP <= alpha / k).length > k) k++;
  const bound = alpha / k;
  return { significant: tests.map((t) => t.minP <= bound && t.pValue <= bound), k };
}
