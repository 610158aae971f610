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
 * - a threshold that turned breached is a regression;
 * - what changed in the bot's answers (answer-changes.ts) is listed, never a regression;
 * - what coverage was lost or gained (coverage/compare.ts) is said, never a regression;
 * - a latency row with enough samples is `not-judged` (never a regression, never tested) when
 *   either run's latency figures are not trusted (metrics/thresholds-trust.ts: a bound
 *   generator) and the send delay could change its verdict: its growth lies within the bound
 *   runs' send-delay sizes of the growth that counts (the tolerance, at least `minDeltaMs`), the
 *   rule thresholds follow; then `latencyNotJudged` says which run and why.
 * Every latency and outcome row says which rule decided it. `regressed` is the CI verdict.
 * The section's shapes are in comparison-schema.ts, how it reads in comparison-view.ts.
 */
import {
  LATENCY_METRICS,
  LatencyRecorder,
  distrustOf,
  fisherGreater,
  type Distrust,
  fisherMinP,
  minSamplesForStat,
  quantileShiftTest,
  taroneSignificant,
  type FamilyTest,
  type HistogramBucket,
  type LatencyMetric,
} from '../../metrics/index.js';
import { OUTCOMES, type Outcome } from '../../outcomes.js';
import { compareCoverage } from '../../coverage/index.js';
import { defineSection } from '../section.js';
import { compareAnswers } from './answer-changes.js';
import { TURN_METRICS } from './by-turn.js';
import { compareKnees } from './capacity-compare.js';
import {
  comparisonSchema,
  type ComparableReport,
  type CompareOptions,
  type CompareStat,
  type LatencyChange,
  type OutcomeChange,
  type OutcomeRule,
  type ReportComparison,
  type ResolvedCompareRules,
  type ScenarioFlip,
  type ScenarioState,
  type ThresholdFlip,
} from './comparison-schema.js';
import { comparisonView } from './comparison-view.js';
import type { LatencyEntry } from './latency.js';
import type { ScenarioEntry } from './scenarios.js';

const DEFAULT_COMPARE_RULES: Readonly<ResolvedCompareRules> = {
  tolerancePct: 10,
  minDeltaMs: 1,
  rateTolerancePts: 1,
  alpha: 0.01,
};

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
  distrust: readonly Distrust[],
): LatencyChange[] {
  // How far the growth may be the generators' (no size: any growth may be).
  const offBy = distrust.reduce((sum, d) => sum + (d.offByMs ?? Infinity), 0);
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
      const counts = Math.max((rules.tolerancePct / 100) * b[stat], rules.minDeltaMs);
      if (distrust.length > 0 && Math.abs(deltaMs - counts) <= offBy) {
        row.rule = 'not-judged';
        continue;
      }
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
  const distrust = { base: distrustOf(base), current: distrustOf(current) };
  const latency = latencyRows(base, current, rules, pending, [...distrust.base, ...distrust.current]);
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
  const capacity = compareKnees(base, current);
  const answers = compareAnswers(base, current);
  const coverage = compareCoverage(base.coverage, current.coverage);
  const regressed =
    flips.regressions.length > 0 ||
    flips.added.some((a) => a.to === 'fail') ||
    latency.some((l) => l.regressed) ||
    outcomes.some((o) => o.regressed) ||
    thresholds.some((t) => t.current === false);
  return {
    regressed,
    rules,
    significanceBound: rules.alpha / family.k,
    ...flips,
    latency,
    // Only when it withheld a verdict: rows with too few samples were not judged either way.
    ...(latency.some((l) => l.rule === 'not-judged') && { latencyNotJudged: distrust }),
    outcomes,
    thresholds,
    ...(capacity && { capacity }),
    ...(answers && { answers }),
    ...(coverage && { coverage }),
  };
}

type Doc = ComparableReport & { comparison?: ReportComparison };
/** Changed answers the console lists by default. */
const BRIEF_ANSWER_DIFFS = 5;

export const comparisonSection = defineSection({
  name: 'comparison',
  fields: { comparison: comparisonSchema.optional().describe('against a baseline report (--baseline)') },
  compute: (input: { baseline?: ComparableReport; compare?: CompareOptions }, doc: ComparableReport) =>
    input.baseline ? { comparison: compareReports(input.baseline, doc, input.compare) } : {},
  // A merged report is compared afresh (`droidcheck compare`): the inputs' comparisons do not add up.
  merge: () => ({}),
  views: (d: Doc) => (d.comparison ? [comparisonView(d.comparison)] : []),
  // The console's default lists a few changed answers; --verbose, report.html and summary.md list them all.
  brief: (d: Doc) => (d.comparison ? [comparisonView(d.comparison, BRIEF_ANSWER_DIFFS, true)] : []),
});
