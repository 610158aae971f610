/**
 * The share of answers that were right (requests whose outcome passed: their expectations held,
 * and whatever else fails a request's outcome) and whether it meets a minimum, as `capacity
 * --min-pass-rate` judges a rate (docs/statistics.md, "Answers right under load").
 *
 * The share is a proportion of a sample, so it is judged on the lower bound of its Wilson 95%
 * score interval where the sample allows: a rate passes when even the pessimistic end of what
 * the sample says meets the minimum. A sample allows it when an all-right sample of its size
 * would pass, n >= z² · m / (1 - m) (the Wilson lower bound of n of n is n / (n + z²)): for
 * 99% that is 381 answers. A smaller sample could never pass on its lower bound, however right
 * its answers, so it is judged on the point estimate instead, and says so with its n. A minimum
 * of 0 always holds; one of 100% needs every answer right (judged on the point estimate).
 */
import { Z_95, wilsonInterval } from './stats.js';

export interface PassShare {
  /** Requests whose outcome passed. */
  passed: number;
  /** Requests with a verdict (passed or failed; interrupted, not-sent and judge errors have none). */
  judged: number;
  /** passed / judged, 0..1; null when nothing was judged. */
  share: number | null;
  /** Wilson 95% score interval of the share, 0..1 each (0..1 when nothing was judged). */
  interval: { low: number; high: number };
}

export interface PassShareVerdict extends PassShare {
  /** The minimum asked, 0..1. */
  min: number;
  /**
   * What was compared with `min`: `interval` its lower bound (the sample allows it), `point` the
   * share itself (too few answers for the lower bound ever to reach `min`).
   */
  judgedOn: 'interval' | 'point';
  /** The share met the minimum (a minimum of 0 always does, even with nothing judged). */
  held: boolean;
}

/** The share of `passed` among `judged`, with its Wilson 95% interval. */
export function passShare(passed: number, judged: number): PassShare {
  return { passed, judged, share: judged > 0 ? passed / judged : null, interval: wilsonInterval(passed, judged) };
}

/**
 * Fewest answers whose Wilson 95% lower bound can reach `min` (0..1): the smallest n with
 * n / (n + z²) >= min. 0 for a minimum of 0; Infinity for a minimum of 1 (never).
 */
export function minAnswersForLowerBound(min: number): number {
  if (min <= 0) return 0;
  if (min >= 1) return Number.POSITIVE_INFINITY;
  return Math.ceil((Z_95 * Z_95 * min) / (1 - min) - 1e-9);
}

/**
 * Judges `passed` of `judged` against a minimum share `min` (0..1): on the interval's lower
 * bound when `judged` reaches {@link minAnswersForLowerBound}, else on the share itself.
 */
export function judgePassShare(passed: number, judged: number, min: number): PassShareVerdict {
  const s = passShare(passed, judged);
  const judgedOn = judged >= minAnswersForLowerBound(min) ? 'interval' : 'point';
  const value = judgedOn === 'interval' ? s.interval.low : s.share;
  const held = min <= 0 || (value !== null && value >= min - 1e-12);
  return { ...s, min, judgedOn, held };
}

/** How often something was found among `of` cases (bursts answered out of order, ...): the count, its share and the share's Wilson 95% interval. */
export interface FindingShare {
  count: number;
  /** count / of, 0..1; null when there was nothing to look at. */
  share: number | null;
  /** Wilson 95% score interval of the share, 0..1 each (0..1 when `of` is 0). */
  interval: { low: number; high: number };
}

/** `count` of `of`, with its share and Wilson 95% interval. */
export function findingShare(count: number, of: number): FindingShare {
  return { count, share: of > 0 ? count / of : null, interval: wilsonInterval(count, of) };
}
