/**
 * The shapes of a report comparison (compare.ts computes them, compare-render.ts renders them,
 * report-document.ts carries one): apart from compare.ts so that neither of the others imports
 * the code that imports them.
 */
import type { LatencyMetric, ThresholdStatus } from '../metrics/index.js';
import type { Outcome } from '../outcomes.js';
import type { AnswerMode } from './run-types.js';

export interface CompareOptions {
  /** A percentile must grow more than this (percent) to regress; default 10. */
  tolerancePct?: number;
  /** ...and by at least this many ms (a floor for tiny latencies); default 1. */
  minDeltaMs?: number;
  /** An outcome rate must move more than this many percentage points the wrong way; default 1. */
  rateTolerancePts?: number;
  /** Family-wise false-alarm rate of the comparison's tests (Tarone-Bonferroni); default 0.01. */
  alpha?: number;
}
export type ResolvedCompareRules = Required<CompareOptions>;

export const DEFAULT_COMPARE_RULES: Readonly<ResolvedCompareRules> = { tolerancePct: 10, minDeltaMs: 1, rateTolerancePts: 1, alpha: 0.01 };

export type ScenarioState = 'pass' | 'fail' | 'missing';
export type CompareStat = 'p50' | 'p90' | 'p99' | 'p999';
/**
 * Which rule decided a row, checked in this order: `too-few-samples` (either run holds fewer
 * than the statistic needs), `within-tolerance` (it did not move the wrong way beyond the
 * tolerances), `not-significant` (the test cannot tell it from noise), `regressed`.
 * Outcome rows also have `not-judged` (interrupted, not-sent: the operator's doing).
 */
export type LatencyRule = 'too-few-samples' | 'within-tolerance' | 'not-significant' | 'regressed';
export type OutcomeRule = LatencyRule | 'not-judged';

export interface ScenarioFlip { suite: string; name: string; mode: AnswerMode; from: ScenarioState; to: ScenarioState }

export interface LatencyChange {
  metric: LatencyMetric;
  stat: CompareStat;
  baseMs: number;
  currentMs: number;
  /** currentMs - baseMs. */
  deltaMs: number;
  /** Percent change (1 decimal); Infinity when the base was 0. */
  changePct: number;
  baseCount: number;
  currentCount: number;
  /** Samples the percentile needs on each side. */
  minCount: number;
  /** One-sided p-value of the quantile test; null when not tested (too few samples, no histogram). */
  pValue: number | null;
  rule: LatencyRule;
  regressed: boolean;
}

export interface OutcomeChange {
  outcome: Outcome;
  /** Share of the requests, 0..1. */
  baseRate: number;
  currentRate: number;
  /** Percentage points, 1 decimal. */
  changePts: number;
  baseCount: number;
  currentCount: number;
  baseRequests: number;
  currentRequests: number;
  /** Fisher's exact test, one-sided in the wrong direction; null when not tested. */
  pValue: number | null;
  rule: OutcomeRule;
  regressed: boolean;
}

/** `base`/`current` absent: the threshold is not in that report. */
export interface ThresholdFlip {
  expression: string;
  base?: boolean;
  current?: boolean;
  baseStatus?: ThresholdStatus;
  currentStatus?: ThresholdStatus;
}

export interface ReportComparison {
  regressed: boolean;
  /** The rules the rows were decided on. */
  rules: ResolvedCompareRules;
  /** The bound a row's p-value had to reach: alpha / K, K from Tarone's correction (alpha when nothing was tested). */
  significanceBound: number;
  /** pass->fail (or a newly failing scenario) */
  regressions: ScenarioFlip[];
  /** fail->pass */
  fixed: ScenarioFlip[];
  /** in one report only */
  added: ScenarioFlip[];
  removed: ScenarioFlip[];
  /** p50, p90, p99, p99.9 of every metric with values in either report. */
  latency: LatencyChange[];
  /** Every outcome. */
  outcomes: OutcomeChange[];
  /** Thresholds whose verdict (passed) differs, or that exist in one report only. */
  thresholds: ThresholdFlip[];
}
