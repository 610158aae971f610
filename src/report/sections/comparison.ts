/**
 * `comparison`: what changed against a baseline report (`--baseline`, `droidcheck compare`),
 * decided on noise-aware rules (docs/statistics.md, "Comparing runs"):
 *
 * - scenarios that flipped pass->fail are regressions (fail->pass: fixed);
 * - a latency percentile regressed only when all of: both runs hold enough samples for it
 *   (p99 >= 100, p99.9 >= 1,000; metrics/sample-size.ts), it grew by more than `tolerancePct`
 *   AND by at least `minDeltaMs`, and the quantile test on both HDR histograms
 *   (metrics/latency-shift.ts) says the growth is not sampling noise; each conversation turn in
 *   both reports (`byTurn`) is compared so too, its rows carrying `turn`;
 * - an outcome's rate regressed only when it moved the wrong way by more than `rateTolerancePts`
 *   AND Fisher's exact test on the counts says so;
 * - the tests of one comparison share one error budget: every row with enough samples is tested
 *   (whatever its change), and Tarone's correction (Bonferroni over the tests that could reach
 *   significance) keeps the chance of any false alarm at `alpha` (0.01), so comparing a run
 *   with a twin of the same code says "no regression" 99 times in 100 or more;
 * - a threshold that turned breached is a regression.
 * Every latency and outcome row says which rule decided it. `regressed` is the CI verdict.
 */
import { z } from 'zod';
import {
  LATENCY_METRICS,
  LatencyRecorder,
  fisherGreater,
  fisherMinP,
  minSamplesForStat,
  quantileShiftTest,
  taroneSignificant,
  type FamilyTest,
  type HistogramBucket,
  type LatencyMetric,
  type ThresholdResult,
} from '../../metrics/index.js';
import { OUTCOMES, type Outcome } from '../../outcomes.js';
import { formatMs, formatPercent } from '../../units.js';
import { defineSection } from '../section.js';
import { span, type SectionView, type Text } from '../view.js';
import { count, modeEnum, obj, share, statMs } from './common.js';
import { TURN_METRICS, type ByTurnFields } from './by-turn.js';
import type { Histograms, LatencyEntry } from './latency.js';
import type { PassRates } from './pass-rates.js';
import type { ScenarioEntry } from './scenarios.js';
import type { ReportSummary } from './summary.js';
import { thresholdStatusEnum } from './thresholds.js';

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
 * Outcome rows also have `not-judged` (interrupted, not-sent: the operator's doing).
 */
const latencyRule = z.enum(['too-few-samples', 'within-tolerance', 'not-significant', 'regressed']);
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
const comparisonSchema = obj({
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
  outcomes: z.array(outcomeChangeSchema).describe('every outcome'),
  thresholds: z
    .array(thresholdFlipSchema)
    .describe('thresholds whose verdict differs, or that exist in one report only'),
});
type ResolvedCompareRules = Required<CompareOptions>;
type ScenarioState = z.output<typeof state>;
type CompareStat = z.output<typeof compareStat>;
type OutcomeRule = z.output<typeof outcomeRule>;
type ScenarioFlip = z.output<typeof flipSchema>;
type LatencyChange = z.output<typeof latencyChangeSchema>;
type OutcomeChange = z.output<typeof outcomeChangeSchema>;
type ThresholdFlip = z.output<typeof thresholdFlipSchema>;
export type ReportComparison = z.output<typeof comparisonSchema>;

const DEFAULT_COMPARE_RULES: Readonly<ResolvedCompareRules> = {
  tolerancePct: 10,
  minDeltaMs: 1,
  rateTolerancePts: 1,
  alpha: 0.01,
};

/** What a comparison reads of a report. */
export interface ComparableReport {
  summary: ReportSummary;
  latency: Record<LatencyMetric, LatencyEntry>;
  histograms: Histograms;
  thresholds: ThresholdResult[];
  scenarios: ScenarioEntry[];
  passRates?: PassRates;
  byTurn?: ByTurnFields['byTurn'];
  byTurnHistograms?: ByTurnFields['byTurnHistograms'];
}

const STATS: readonly CompareStat[] = ['p50', 'p90', 'p99', 'p999'];
const PERCENTILE: Record<CompareStat, number> = { p50: 50, p90: 90, p99: 99, p999: 99.9 };
/** Outcomes an operator causes (Ctrl-C): shown, never a regression. */
const NOT_JUDGED: ReadonlySet<string> = new Set(['interrupted', 'not-sent']);
const keyOf = (s: ScenarioEntry): string => JSON.stringify([s.suite, s.name, s.mode]);
const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * Scenario x mode -> pass when it met its pass-rate requirement (`report.passRates`: a flaky
 * scenario within its `passRate` passes), else when every entry (repeats included) passed.
 */
function states(report: ComparableReport): Map<string, { entry: ScenarioEntry; passed: boolean }> {
  const map = new Map<string, { entry: ScenarioEntry; passed: boolean }>();
  for (const s of report.scenarios) {
    const prev = map.get(keyOf(s));
    map.set(keyOf(s), { entry: prev?.entry ?? s, passed: (prev?.passed ?? true) && s.passed });
  }
  for (const p of report.passRates?.scenarios ?? []) {
    const state = map.get(JSON.stringify([p.suite, p.scenario, p.mode]));
    if (state) state.passed = p.passed;
  }
  return map;
}

/** The buckets of one encoded histogram; none when absent or damaged (its rows get no test: not-significant). */
function bucketsOf(metric: LatencyMetric, encoded: string | undefined): HistogramBucket[] | undefined {
  if (encoded === undefined) return undefined;
  try {
    return LatencyRecorder.fromEncoded({ [metric]: encoded }).buckets(metric);
  } catch {
    return undefined;
  }
}

/**
 * Least samples per run before any latency statistic of two runs is compared, whatever the
 * percentile. The samples of a short run are taken within a second under one machine load, so
 * they are not independent: a whole run speeds up or slows down with the machine (measured:
 * sync p50 from 15.3 to 70.5 ms over 21 quick starts on a 2-core box with one core busy). Below
 * this the row is `too-few-samples` (docs/statistics.md).
 */
const MIN_COMPARE_SAMPLES = 100;

const outcomeCount = (r: ComparableReport, o: Outcome): number =>
  (r.summary.outcomes as Partial<Record<string, number>>)[o] ?? 0;

/** A tested row waiting for the family's decision; `beyond`: it moved the wrong way beyond the tolerances. */
interface Pending {
  test: FamilyTest;
  beyond: boolean;
  row: { rule: OutcomeRule; regressed: boolean };
}

type Out = Pick<ReportComparison, 'regressions' | 'fixed' | 'added' | 'removed'>;

/** Scenario flips: pass -> fail (regressions), fail -> pass (fixed), in one report only (added, removed). */
function scenarioFlips(base: ComparableReport, current: ComparableReport): Out {
  const before = states(base);
  const after = states(current);
  const out: Out = { regressions: [], fixed: [], added: [], removed: [] };
  const flip = (e: ScenarioEntry, from: ScenarioState, to: ScenarioState): ScenarioFlip => ({
    suite: e.suite,
    name: e.name,
    mode: e.mode,
    from,
    to,
  });
  for (const [key, now] of after) {
    const was = before.get(key);
    const to: ScenarioState = now.passed ? 'pass' : 'fail';
    if (!was) out.added.push(flip(now.entry, 'missing', to));
    else if (was.passed && !now.passed) out.regressions.push(flip(now.entry, 'pass', 'fail'));
    else if (!was.passed && now.passed) out.fixed.push(flip(now.entry, 'fail', 'pass'));
  }
  for (const [key, was] of before)
    if (!after.has(key)) out.removed.push(flip(was.entry, was.passed ? 'pass' : 'fail', 'missing'));
  return out;
}

/** One latency series of both reports: the whole run's metric, or one turn's (`turn`). */
interface Series {
  turn?: number;
  metric: LatencyMetric;
  base: Pick<LatencyEntry, 'count' | CompareStat>;
  current: Pick<LatencyEntry, 'count' | CompareStat>;
  baseHistogram: string | undefined;
  currentHistogram: string | undefined;
}

/**
 * Every series compared: each whole-run metric with values in either report, then each turn x
 * metric in both (a turn in one report only has nothing to compare against).
 */
function seriesOf(base: ComparableReport, current: ComparableReport): Series[] {
  const out: Series[] = [];
  for (const metric of LATENCY_METRICS) {
    const b = base.latency[metric];
    const c = current.latency[metric];
    if (b.count === 0 && c.count === 0) continue;
    out.push({
      metric,
      base: b,
      current: c,
      baseHistogram: base.histograms[metric],
      currentHistogram: current.histograms[metric],
    });
  }
  const turns = Object.keys(current.byTurn ?? {}).sort((x, y) => Number(x) - Number(y));
  for (const turn of turns) {
    for (const metric of TURN_METRICS) {
      const b = base.byTurn?.[turn]?.[metric];
      const c = current.byTurn?.[turn]?.[metric];
      if (!b || !c) continue;
      out.push({
        turn: Number(turn),
        metric,
        base: b,
        current: c,
        baseHistogram: base.byTurnHistograms?.[turn]?.[metric],
        currentHistogram: current.byTurnHistograms?.[turn]?.[metric],
      });
    }
  }
  return out;
}

/** A row per series x statistic; rows with enough samples wait in `pending` for the family's test. */
function latencyRows(
  base: ComparableReport,
  current: ComparableReport,
  rules: ResolvedCompareRules,
  pending: Pending[],
): LatencyChange[] {
  const rows: LatencyChange[] = [];
  for (const series of seriesOf(base, current)) {
    const { turn, metric, base: b, current: c } = series;
    const bb = bucketsOf(metric, series.baseHistogram);
    const cb = bucketsOf(metric, series.currentHistogram);
    for (const stat of STATS) {
      const deltaMs = Math.round((c[stat] - b[stat]) * 1000) / 1000;
      const changePct = b[stat] === 0 ? (c[stat] === 0 ? 0 : Infinity) : round1((deltaMs / b[stat]) * 100);
      const minCount = Math.max(minSamplesForStat(stat), MIN_COMPARE_SAMPLES);
      const row: LatencyChange = {
        ...(turn !== undefined && { turn }),
        metric,
        stat,
        baseMs: b[stat],
        currentMs: c[stat],
        deltaMs,
        changePct,
        baseCount: b.count,
        currentCount: c.count,
        minCount,
        pValue: null,
        rule: 'too-few-samples',
        regressed: false,
      };
      rows.push(row);
      if (b.count < minCount || c.count < minCount) continue;
      const beyond = changePct > rules.tolerancePct && deltaMs >= rules.minDeltaMs;
      row.rule = beyond ? 'not-significant' : 'within-tolerance';
      if (bb && cb) {
        const t = quantileShiftTest(bb, cb, PERCENTILE[stat]);
        row.pValue = t.pValue;
        pending.push({ test: { pValue: t.pValue, minP: t.minP }, beyond, row });
      }
    }
  }
  return rows;
}

/** A row per outcome; judged ones wait in `pending` for the family's test. */
function outcomeRows(
  base: ComparableReport,
  current: ComparableReport,
  rules: ResolvedCompareRules,
  pending: Pending[],
): OutcomeChange[] {
  return OUTCOMES.map((outcome) => {
    const baseCount = outcomeCount(base, outcome);
    const currentCount = outcomeCount(current, outcome);
    const baseRequests = base.summary.requests;
    const currentRequests = current.summary.requests;
    const baseRate = baseRequests === 0 ? 0 : baseCount / baseRequests;
    const currentRate = currentRequests === 0 ? 0 : currentCount / currentRequests;
    const row: OutcomeChange = {
      outcome,
      baseRate,
      currentRate,
      changePts: round1((currentRate - baseRate) * 100),
      baseCount,
      currentCount,
      baseRequests,
      currentRequests,
      pValue: null,
      rule: 'not-judged',
      regressed: false,
    };
    if (NOT_JUDGED.has(outcome)) return row;
    if (baseRequests === 0 || currentRequests === 0) {
      row.rule = 'too-few-samples';
      return row;
    }
    // answered should not fall; every other outcome should not rise. Events: the bad ones.
    const worse = outcome === 'answered' ? baseRate - currentRate : currentRate - baseRate;
    const beyond = worse * 100 > rules.rateTolerancePts;
    row.rule = beyond ? 'not-significant' : 'within-tolerance';
    const [e1, e2] =
      outcome === 'answered' ? [baseRequests - baseCount, currentRequests - currentCount] : [baseCount, currentCount];
    row.pValue = fisherGreater(e1, baseRequests, e2, currentRequests);
    pending.push({
      test: { pValue: row.pValue, minP: fisherMinP(e1 + e2, baseRequests, currentRequests) },
      beyond,
      row,
    });
    return row;
  });
}

/** Thresholds whose verdict differs, or that are in one report only. */
function thresholdFlips(base: ComparableReport, current: ComparableReport): ThresholdFlip[] {
  const baseT = new Map(base.thresholds.map((t) => [t.expression, t]));
  const curT = new Map(current.thresholds.map((t) => [t.expression, t]));
  return [...new Set([...baseT.keys(), ...curT.keys()])].flatMap((expression) => {
    const b = baseT.get(expression);
    const c = curT.get(expression);
    if (b?.passed === c?.passed) return [];
    return [
      {
        expression,
        ...(b && { base: b.passed, baseStatus: b.status }),
        ...(c && { current: c.passed, currentStatus: c.status }),
      },
    ];
  });
}

/** Compares `current` with `base` (see {@link CompareOptions} for the rules). Pure. */
export function compareReports(
  base: ComparableReport,
  current: ComparableReport,
  opts: CompareOptions = {},
): ReportComparison {
  const rules: ResolvedCompareRules = {
    ...DEFAULT_COMPARE_RULES,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  };
  const pending: Pending[] = [];
  const flips = scenarioFlips(base, current);
  const latency = latencyRows(base, current, rules, pending);
  const outcomes = outcomeRows(base, current, rules, pending);
  const family = taroneSignificant(
    pending.map((p) => p.test),
    rules.alpha,
  );
  pending.forEach((p, i) => {
    if (family.significant[i] && p.beyond) {
      p.row.rule = 'regressed';
      p.row.regressed = true;
    }
  });
  const thresholds = thresholdFlips(base, current);
  const regressed =
    flips.regressions.length > 0 ||
    flips.added.some((a) => a.to === 'fail') ||
    latency.some((l) => l.regressed) ||
    outcomes.some((o) => o.regressed) ||
    thresholds.some((t) => t.current === false);
  return { regressed, rules, significanceBound: rules.alpha / family.k, ...flips, latency, outcomes, thresholds };
}

// ---------------------------------------------------------------- phrases and view

/** `p 0.021`, `p < 0.0001`. */
function formatPValue(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p ${Number(p.toPrecision(2))}`;
}

const signedPct = (n: number): string => (n === Infinity ? 'new' : `${n > 0 ? '+' : ''}${n}%`);
const signedMs = (ms: number): string => `${ms > 0 ? '+' : ms < 0 ? '-' : '±'}${formatMs(Math.abs(ms))}`;

/** `+34% (+10.4 ms)`. */
function latencyChangeText(l: LatencyChange): string {
  return `${signedPct(l.changePct)} (${signedMs(l.deltaMs)})`;
}

/** `16 / 16 samples`. */
function latencySamplesText(l: Pick<LatencyChange, 'baseCount' | 'currentCount'>): string {
  return `${l.baseCount} / ${l.currentCount} samples`;
}

/**
 * Why a row was decided so: `too few samples (16 < 100)`, `within tolerance (<= +10% or < +1 ms)`,
 * `not significant (p 0.21 > 0.0033)`, `REGRESSED (p 0.0003 <= 0.0033)`.
 */
function ruleText(
  row: LatencyChange | OutcomeChange,
  cmp?: Pick<ReportComparison, 'rules' | 'significanceBound'>,
): string {
  const rules = cmp?.rules;
  const bound = cmp ? ` ${row.rule === 'regressed' ? '<=' : '>'} ${Number(cmp.significanceBound.toPrecision(2))}` : '';
  const p = row.pValue === null ? '' : ` (${formatPValue(row.pValue)}${bound})`;
  switch (row.rule) {
    case 'too-few-samples':
      return 'minCount' in row
        ? `too few samples (${Math.min(row.baseCount, row.currentCount)} < ${row.minCount})`
        : 'no requests';
    case 'within-tolerance':
      if (!rules) return 'within tolerance';
      return 'minCount' in row
        ? `within tolerance (<= ${signedPct(rules.tolerancePct)} or < +${formatMs(rules.minDeltaMs)})`
        : `within tolerance (<= +${rules.rateTolerancePts} pts)`;
    case 'not-significant':
      return row.pValue === null ? 'not significant (no histogram to test)' : `not significant${p}`;
    case 'regressed':
      return `REGRESSED${p}`;
    case 'not-judged':
      return 'not judged (operator)';
  }
}

/** `97.1% (34 of 35)`. */
function outcomeRateText(rate: number, count: number, requests: number): string {
  return `${formatPercent(rate)} (${count} of ${requests})`;
}

/** The rules in one phrase. */
function rulesText(cmp: Pick<ReportComparison, 'rules' | 'significanceBound'>): string {
  const r = cmp.rules;
  return `a percentile regresses when both runs have enough samples for it, it grows by > ${r.tolerancePct}% and >= ${formatMs(r.minDeltaMs)}, and its quantile test gives p <= ${Number(cmp.significanceBound.toPrecision(2))}; an outcome rate when it moves > ${r.rateTolerancePts} pts the wrong way with Fisher's p <= the same bound (false-alarm rate ${r.alpha} over the whole comparison)`;
}

const name = (f: ScenarioFlip): string => `${f.suite} › ${f.name} [${f.mode}]`;
const mark = (bad: boolean): Text => (bad ? span('✗', 'fail') : ' ');

/**
 * The verdict, the scenario flips and thresholds that flipped, a table of every latency row
 * (base, current, change, samples, rule; a percentile the count cannot support is `—`, as in
 * the latency table; a turn's row only when it had samples enough to be judged) and the
 * outcome rows that are not zero in both.
 */
export function comparisonView(cmp: ReportComparison): SectionView {
  const verdict = (v: boolean | undefined, status: string | undefined): string =>
    v === undefined ? 'absent' : (status ?? (v ? 'passed' : 'breached'));
  const notes: Text[] = [
    span(`rules: ${rulesText(cmp)}`, 'muted'),
    ...cmp.regressions.map((f) => [span('✗', 'fail'), ` ${name(f)}: pass -> fail`]),
    ...cmp.added.filter((a) => a.to === 'fail').map((f) => [span('✗', 'fail'), ` ${name(f)}: new, failing`]),
    ...cmp.fixed.map((f) => [span('✓', 'ok'), ` ${name(f)}: fail -> pass`]),
    ...cmp.thresholds.map((t) => [
      t.current === false ? span('✗', 'fail') : span('✓', 'ok'),
      ` threshold ${t.expression}: ${verdict(t.base, t.baseStatus)} -> ${verdict(t.current, t.currentStatus)}`,
    ]),
    ...(cmp.removed.length > 0 ? [`${cmp.removed.length} scenario(s) not in the current report`] : []),
  ];
  // A conversation's turns can add dozens of rows: those with too few samples are left to report.json.
  const hiddenTurnRows = cmp.latency.filter((l) => l.turn !== undefined && l.rule === 'too-few-samples').length;
  if (hiddenTurnRows > 0)
    notes.push(span(`${hiddenTurnRows} turn row(s) with too few samples not shown (report.json has them)`, 'muted'));
  const shown = cmp.latency.filter((l) => l.turn === undefined || l.rule !== 'too-few-samples');
  const latency = shown.map((l): Text[] => [
    mark(l.regressed),
    `${l.turn === undefined ? '' : `turn${l.turn}.`}${l.metric}.${l.stat}`,
    statMs(l.baseMs, l.baseCount, l.stat),
    statMs(l.currentMs, l.currentCount, l.stat),
    l.rule === 'too-few-samples' ? '—' : latencyChangeText(l),
    latencySamplesText(l),
    span(ruleText(l, cmp), l.regressed ? 'fail' : undefined),
  ]);
  const outcomes = cmp.outcomes
    .filter((o) => o.baseCount > 0 || o.currentCount > 0)
    .map((o): Text[] => [
      mark(o.regressed),
      o.outcome,
      outcomeRateText(o.baseRate, o.baseCount, o.baseRequests),
      outcomeRateText(o.currentRate, o.currentCount, o.currentRequests),
      `${o.changePts > 0 ? '+' : ''}${o.changePts} pts`,
      span(ruleText(o, cmp), o.regressed ? 'fail' : undefined),
    ]);
  const cols = (names: string[]) =>
    names.map((header, i) => ({ header, ...((i <= 1 || i === names.length - 1) && { align: 'l' as const }) }));
  return {
    id: 'comparison',
    title: 'Baseline',
    summary: cmp.regressed
      ? span('REGRESSED against the baseline', 'fail')
      : span('no regression against the baseline', 'ok'),
    notes,
    tables: [
      ...(latency.length > 0
        ? [{ columns: cols(['', 'latency', 'base', 'current', 'change', 'samples', 'rule']), rows: latency }]
        : []),
      ...(outcomes.length > 0
        ? [{ columns: cols(['', 'outcome', 'base', 'current', 'change', 'rule']), rows: outcomes }]
        : []),
    ],
  };
}

type Doc = ComparableReport & { comparison?: ReportComparison };

export const comparisonSection = defineSection({
  name: 'comparison',
  fields: { comparison: comparisonSchema.optional().describe('against a baseline report (--baseline)') },
  compute: (input: { baseline?: ComparableReport; compare?: CompareOptions }, doc: ComparableReport) =>
    input.baseline ? { comparison: compareReports(input.baseline, doc, input.compare) } : {},
  // A merged report is compared afresh (`droidcheck compare`): the inputs' comparisons do not add up.
  merge: () => ({}),
  views: (d: Doc) => (d.comparison ? [comparisonView(d.comparison)] : []),
});
