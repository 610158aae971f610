/**
 * zod schemas of report.json's judged parts: `thresholds[]` (metrics/thresholds.ts) and the
 * optional sections `passRates` (pass-rates.ts), `parity` (parity.ts), `accuracy` (accuracy.ts)
 * and `comparison` (compare.ts). Each is checked both ways against its TypeScript type, so the
 * published JSON Schema describes what is written.
 *
 * Reports written before a field existed still parse (a baseline kept from an older droidcheck
 * must not be refused): a missing field is filled from the others (a threshold's status from
 * `passed`, its unit, operator and limit from its expression; a pass rate's interval, status
 * and pass^k from its counts; an intent's false positives and negatives from its counts) or
 * given a neutral value (a threshold's count 0; a comparison row's counts 0 and no p-value).
 */
import { z } from 'zod';
import { minSamplesForStat, parseThreshold, thresholdUnit, wilsonInterval, type ThresholdResult, type ThresholdUnit } from '../metrics/index.js';
import { OUTCOMES } from '../outcomes.js';
import type { AccuracyReport } from './accuracy.js';
import { DEFAULT_COMPARE_RULES, type ReportComparison } from './compare.js';
import type { ParityReport } from './parity.js';
import { passRateStatus, type PassRates } from './pass-rates.js';

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).describe('0..1');
const mode = z.enum(['sync', 'async']);
const interval = z.object({ low: share, high: share }).describe('Wilson 95% interval, 0..1');
const thresholdOp = z.enum(['<', '<=', '>', '>=', '==', '!=']);
const thresholdStatus = z.enum(['passed', 'breached', 'too-few-samples', 'no-samples']);
const thresholdUnitEnum = z.enum(['ms', 'share', 'count']);

/** What an older threshold entry lacks, read from its expression (the metric's name as a fallback). */
function parsedParts(expression: string, metric: string): { unit: ThresholdUnit; op: ThresholdResult['op']; limit: number; minCount: number } {
  try {
    const t = parseThreshold(expression);
    return { unit: thresholdUnit(t), op: t.op, limit: t.value, minCount: t.kind === 'latency' ? minSamplesForStat(t.stat) : 1 };
  } catch {
    const unit: ThresholdUnit = metric.endsWith('.rate') ? 'share' : /^(ack|answer|sync)\.(?!count$)/.test(metric) ? 'ms' : 'count';
    return { unit, op: '<', limit: 0, minCount: 1 };
  }
}

export const thresholdResultSchema = z
  .object({
    expression: z.string(),
    metric: z.string(),
    status: thresholdStatus.optional().describe('absent in older reports: passed or breached from `passed`'),
    passed: z.boolean().describe('false only when breached'),
    actual: z.number().nullable().describe('in `unit`; null with no-samples'),
    unit: thresholdUnitEnum.optional(),
    op: thresholdOp.optional(),
    limit: z.number().optional().describe('in `unit`'),
    count: count.optional().describe('samples behind the figure; absent (read as 0) in older reports'),
    minCount: count.optional().describe('samples the statistic needs (p99: 100, p99.9: 1,000)'),
    beside: z
      .object({ metric: z.string(), actual: z.number().nullable(), count })
      .optional()
      .describe('ackServer thresholds: the same statistic of the raw client-side ack (ms)'),
  })
  .transform((t): ThresholdResult => {
    const parts = t.unit && t.op && t.limit !== undefined && t.minCount !== undefined ? undefined : parsedParts(t.expression, t.metric);
    return {
      expression: t.expression,
      metric: t.metric,
      status: t.status ?? (t.passed ? 'passed' : 'breached'),
      passed: t.passed,
      actual: t.actual,
      unit: t.unit ?? parts!.unit,
      op: t.op ?? parts!.op,
      limit: t.limit ?? parts!.limit,
      count: t.count ?? 0,
      minCount: t.minCount ?? parts!.minCount,
      ...(t.beside && { beside: t.beside }),
    };
  });

const passRateStatusEnum = z.enum(['passed', 'failed', 'flaky', 'not-run']);

export const passRatesSchema = z.object({
  scenarios: z.array(
    z
      .object({
        suite: z.string(),
        scenario: z.string(),
        mode,
        runs: count,
        passes: count,
        passRate: share,
        interval: interval.optional(),
        allPassed: z.boolean().optional().describe('pass^k: all k (= runs) runs passed'),
        status: passRateStatusEnum.optional(),
        required: z.union([z.object({ passRate: share }), z.object({ minPasses: count }), z.object({ all: z.literal(true) })]),
        requiredPasses: count,
        flaky: z.boolean(),
        passed: z.boolean(),
      })
      .transform((e) => ({
        ...e,
        interval: e.interval ?? wilsonInterval(e.passes, e.runs),
        allPassed: e.allPassed ?? e.passes === e.runs,
        status: e.status ?? passRateStatus(e.runs, e.passes),
      })),
  ),
  suites: z.array(
    z
      .object({ suite: z.string(), runs: count, passes: count, passRate: share, interval: interval.optional(), required: share.optional(), passed: z.boolean() })
      .transform((s) => ({ ...s, interval: s.interval ?? wilsonInterval(s.passes, s.runs) })),
  ),
  passed: z.boolean(),
  flaky: count,
  failOnFlaky: z.boolean().default(false),
});

const parityField = z.enum(['intents', 'cart', 'address', 'language']);

export const paritySchema = z.object({
  compared: count,
  differing: count,
  byField: z.object({ intents: count, cart: count, address: count, language: count }),
  entries: z.array(
    z.object({
      suite: z.string(),
      scenario: z.string(),
      repeat: count,
      turn: count.optional(),
      differences: z.array(z.object({ field: parityField, path: z.string(), sync: z.unknown(), async: z.unknown() })),
    }),
  ),
});

const ratio = z.number().min(0).max(1).nullable().describe('0..1, null when undefined (0/0)');

export const accuracySchema = z.object({
  samples: count,
  intents: z.array(
    z
      .object({
        intent: z.string(),
        support: count.describe('TP + FN'),
        predicted: count.describe('TP + FP'),
        truePositives: count,
        falsePositives: count.optional(),
        falseNegatives: count.optional(),
        precision: ratio,
        recall: ratio,
        f1: ratio,
      })
      .transform((m) => ({ ...m, falsePositives: m.falsePositives ?? m.predicted - m.truePositives, falseNegatives: m.falseNegatives ?? m.support - m.truePositives })),
  ),
  confusion: z
    .object({
      expected: z.array(z.string()),
      actual: z.array(z.string()),
      counts: z.record(z.string(), z.record(z.string(), count)),
    })
    .describe('multi-label confusion matrix: counts[expected][returned]; "(none)" on either side'),
  fields: z.array(z.object({ path: z.string(), group: z.enum(['cart', 'address']), checks: count, hits: count, hitRate: share })),
});

const state = z.enum(['pass', 'fail', 'missing']);
const flip = z.object({ suite: z.string(), name: z.string(), mode, from: state, to: state });
const pValue = z.number().min(0).max(1).nullable().describe('one-sided p-value; null when not tested');
const latencyRule = z.enum(['too-few-samples', 'within-tolerance', 'not-significant', 'regressed']);
const outcomeRule = z.enum(['too-few-samples', 'within-tolerance', 'not-significant', 'regressed', 'not-judged']);
const compareStat = z.enum(['p50', 'p90', 'p99', 'p999']);

export const comparisonSchema = z.object({
  regressed: z.boolean(),
  rules: z
    .object({ tolerancePct: z.number(), minDeltaMs: z.number(), rateTolerancePts: z.number(), alpha: z.number() })
    .default({ ...DEFAULT_COMPARE_RULES }),
  significanceBound: z.number().min(0).max(1).default(DEFAULT_COMPARE_RULES.alpha).describe('alpha / K (Tarone); the bound a p-value had to reach'),
  regressions: z.array(flip),
  fixed: z.array(flip),
  added: z.array(flip),
  removed: z.array(flip),
  latency: z.array(
    z
      .object({
        metric: z.enum(['ack', 'answer', 'sync', 'reply', 'ackServer']),
        stat: compareStat,
        baseMs: z.number(),
        currentMs: z.number(),
        deltaMs: z.number().optional(),
        // Infinity (a percentile grew from 0) is written as null by JSON.stringify.
        changePct: z.number().or(z.null().transform(() => Infinity)),
        baseCount: count.optional(),
        currentCount: count.optional(),
        minCount: count.optional(),
        pValue: pValue.optional(),
        rule: latencyRule.optional(),
        regressed: z.boolean(),
      })
      .transform((l) => ({
        ...l,
        deltaMs: l.deltaMs ?? l.currentMs - l.baseMs,
        baseCount: l.baseCount ?? 0,
        currentCount: l.currentCount ?? 0,
        minCount: l.minCount ?? minSamplesForStat(l.stat),
        pValue: l.pValue ?? null,
        rule: l.rule ?? (l.regressed ? ('regressed' as const) : ('within-tolerance' as const)),
      })),
  ),
  outcomes: z.array(
    z
      .object({
        outcome: z.enum(OUTCOMES),
        baseRate: share,
        currentRate: share,
        changePts: z.number(),
        baseCount: count.optional(),
        currentCount: count.optional(),
        baseRequests: count.optional(),
        currentRequests: count.optional(),
        pValue: pValue.optional(),
        rule: outcomeRule.optional(),
        regressed: z.boolean(),
      })
      .transform((o) => ({
        ...o,
        baseCount: o.baseCount ?? 0,
        currentCount: o.currentCount ?? 0,
        baseRequests: o.baseRequests ?? 0,
        currentRequests: o.currentRequests ?? 0,
        pValue: o.pValue ?? null,
        rule: o.rule ?? (o.regressed ? ('regressed' as const) : ('within-tolerance' as const)),
      })),
  ),
  thresholds: z.array(
    z.object({
      expression: z.string(),
      base: z.boolean().optional(),
      current: z.boolean().optional(),
      baseStatus: thresholdStatus.optional(),
      currentStatus: thresholdStatus.optional(),
    }),
  ),
});

// Both directions must hold (as for the document itself): what we write fits the schema's
// input, and what the schema gives back is the TypeScript type.
const _checks = [
  (v: ThresholdResult): z.input<typeof thresholdResultSchema> => v,
  (v: z.output<typeof thresholdResultSchema>): ThresholdResult => v,
  (v: PassRates): z.input<typeof passRatesSchema> => v,
  (v: z.output<typeof passRatesSchema>): PassRates => v,
  (v: ParityReport): z.infer<typeof paritySchema> => v,
  (v: z.infer<typeof paritySchema>): ParityReport => v,
  (v: AccuracyReport): z.input<typeof accuracySchema> => v,
  (v: z.output<typeof accuracySchema>): AccuracyReport => v,
  (v: ReportComparison): z.input<typeof comparisonSchema> => v,
  (v: z.output<typeof comparisonSchema>): ReportComparison => v,
];
void _checks;
