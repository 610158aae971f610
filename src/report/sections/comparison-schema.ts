/**
 * The shapes of `comparison` (report.json) and what a comparison reads of a report and takes as
 * options: the types comparison.ts decides with and comparison-view.ts draws.
 */
import { z } from 'zod';
import type { CoverageComparison, CoverageSnapshot } from '../../coverage/index.js';
import {
  FUNNEL_STAGES,
  LATENCY_METRICS,
  type LatencyMetric,
  type ThresholdResult,
  type TrustFigures,
} from '../../metrics/index.js';
import { OUTCOMES } from '../../outcomes.js';
import { answerComparisonSchema } from './answer-changes.js';
import type { AnswerEntry } from './answers.js';
import type { ByTurnFields } from './by-turn.js';
import type { CapacitySection } from './capacity.js';
import { kneeComparisonSchema } from './capacity-compare.js';
import { count, modeEnum, obj, share, type Assert, type Same } from './common.js';
import type { Histograms, LatencyEntry } from './latency.js';
import type { PassRates } from './pass-rates.js';
import type { ScenarioEntry } from './scenarios.js';
import type { ReportSummary } from './summary.js';
import { distrustSchema, thresholdStatusEnum } from './thresholds.js';

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
const state = z.enum(['pass', 'fail', 'missing']);
const flipSchema = obj({ suite: z.string(), name: z.string(), mode: modeEnum, from: state, to: state });
const pValue = z.number().min(0).max(1).nullable().describe('one-sided p-value; null when not tested');
/**
 * Which rule decided a row, checked in this order: `too-few-samples` (either run holds fewer
 * than the statistic needs), `within-tolerance` (it did not move the wrong way beyond the
 * tolerances), `not-significant` (the test cannot tell it from noise), `regressed`.
 * Outcome rows also have `not-judged` (interrupted, not-sent: the operator's doing); latency
 * rows have it when either run's latency figures are not trusted (`latencyNotJudged`), checked
 * after `too-few-samples`.
 */
const latencyRule = z.enum(['too-few-samples', 'within-tolerance', 'not-significant', 'regressed', 'not-judged']);
const outcomeRule = z.enum(['too-few-samples', 'within-tolerance', 'not-significant', 'regressed', 'not-judged']);
const compareStat = z.enum(['p50', 'p90', 'p99', 'p999']);
const latencyChangeSchema = obj({
  turn: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("a conversation's turn number (byTurn); absent: the whole run's latency"),
  metric: z.enum(LATENCY_METRICS),
  stat: compareStat,
  baseMs: z.number(),
  currentMs: z.number(),
  deltaMs: z.number().describe('currentMs - baseMs'),
  // Infinity (a percentile grew from 0) is written as null by JSON.stringify.
  changePct: z
    .number()
    .or(z.null().transform(() => Infinity))
    .describe('percent change, 1 decimal; null (Infinity) when the base was 0'),
  baseCount: count,
  currentCount: count,
  minCount: count.describe('samples the percentile needs on each side'),
  pValue,
  rule: latencyRule,
  regressed: z.boolean(),
});
const outcomeChangeSchema = obj({
  outcome: z.enum(OUTCOMES),
  baseRate: share,
  currentRate: share,
  changePts: z.number().describe('percentage points, 1 decimal'),
  baseCount: count,
  currentCount: count,
  baseRequests: count,
  currentRequests: count,
  pValue,
  rule: outcomeRule,
  regressed: z.boolean(),
});
const thresholdFlipSchema = obj({
  expression: z.string(),
  base: z.boolean().optional(),
  current: z.boolean().optional(),
  baseStatus: thresholdStatusEnum.optional(),
  currentStatus: thresholdStatusEnum.optional(),
});
const coverageDeltaSchema = obj({
  base: obj({ covered: count, total: count }),
  current: obj({ covered: count, total: count }),
  lost: z.array(z.string()).describe('covered in the baseline, not in the current run'),
  gained: z.array(z.string()).describe('covered in the current run, not in the baseline'),
});
const coverageComparisonSchema = obj({
  products: coverageDeltaSchema.optional().describe('products asked about or in a cart (both runs had a catalogue)'),
  carts: coverageDeltaSchema.optional().describe('products in a cart'),
  intents: coverageDeltaSchema
    .optional()
    .describe(
      'declared intents seen (both runs declare some), else the intents seen; absent when one run declares them and the other not',
    ),
  funnel: z.array(
    obj({
      stage: z.enum(FUNNEL_STAGES),
      base: obj({ reached: count, conversations: count }),
      current: obj({ reached: count, conversations: count }),
    }),
  ),
  rules: coverageDeltaSchema.optional().describe("the policy's rules decided on an answer (both runs had a policy)"),
  endpoints: coverageDeltaSchema.describe('endpoints with a call answered'),
});
const _coverageComparison: Assert<Same<z.output<typeof coverageComparisonSchema>, CoverageComparison>> = true;
void _coverageComparison;

export const comparisonSchema = obj({
  regressed: z.boolean(),
  rules: obj({ tolerancePct: z.number(), minDeltaMs: z.number(), rateTolerancePts: z.number(), alpha: z.number() }),
  significanceBound: z.number().min(0).max(1).describe('alpha / K (Tarone); the bound a p-value had to reach'),
  regressions: z.array(flipSchema).describe('pass -> fail'),
  fixed: z.array(flipSchema).describe('fail -> pass'),
  added: z.array(flipSchema).describe('in the current report only'),
  removed: z.array(flipSchema).describe('in the baseline only'),
  latency: z
    .array(latencyChangeSchema)
    .describe(
      "p50, p90, p99, p99.9 of every metric with values in either report, then of every conversation turn's metric in both (byTurn)",
    ),
  latencyNotJudged: obj({ base: z.array(distrustSchema), current: z.array(distrustSchema) })
    .optional()
    .describe(
      "present when a latency row with enough samples was not judged, either run's latency figures not trusted (the generator was bound): never a regression (exit 98 unless something else decides)",
    ),
  outcomes: z.array(outcomeChangeSchema).describe('every outcome'),
  thresholds: z
    .array(thresholdFlipSchema)
    .describe('thresholds whose verdict differs, or that exist in one report only'),
  capacity: kneeComparisonSchema
    .optional()
    .describe('two capacity reports: whether the knee (and the latency-only capacity) moved; never a regression'),
  answers: answerComparisonSchema
    .optional()
    .describe(
      "what changed in the bot's answers (runs only; never a regression); absent in reports of droidcheck versions before it",
    ),
  coverage: coverageComparisonSchema
    .optional()
    .describe('what coverage was lost or gained (never a regression); absent when either report has no coverage'),
});
export type ResolvedCompareRules = Required<CompareOptions>;
export type ScenarioState = z.output<typeof state>;
export type CompareStat = z.output<typeof compareStat>;
export type OutcomeRule = z.output<typeof outcomeRule>;
export type ScenarioFlip = z.output<typeof flipSchema>;
export type LatencyChange = z.output<typeof latencyChangeSchema>;
export type OutcomeChange = z.output<typeof outcomeChangeSchema>;
export type ThresholdFlip = z.output<typeof thresholdFlipSchema>;
export type ReportComparison = z.output<typeof comparisonSchema>;

/** What a comparison reads of a report; `load` (TrustFigures) tells whether its latency figures are trusted. */
export interface ComparableReport extends TrustFigures {
  summary: ReportSummary;
  latency: Record<LatencyMetric, LatencyEntry>;
  histograms: Histograms;
  thresholds: ThresholdResult[];
  scenarios: ScenarioEntry[];
  passRates?: PassRates;
  byTurn?: ByTurnFields['byTurn'];
  byTurnHistograms?: ByTurnFields['byTurnHistograms'];
  capacity?: CapacitySection;
  answers?: AnswerEntry[];
  coverage?: CoverageSnapshot;
}
