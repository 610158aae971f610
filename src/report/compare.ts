/**
 * `compareReports(base, current)`: what changed against a baseline report, decided on
 * noise-aware rules, so a CI gate does not fail on noise (docs/statistics.md, "Comparing runs"):
 *
 * - scenarios that flipped pass->fail are regressions (fail->pass: fixed);
 * - a latency percentile regressed only when all of: both runs hold enough samples for it
 *   (p99 >= 100, p99.9 >= 1,000; metrics/sample-size.ts), it grew by more than `tolerancePct`
 *   AND by at least `minDeltaMs`, and the quantile test on both HDR histograms
 *   (metrics/latency-shift.ts) says the growth is not sampling noise;
 * - an outcome's rate regressed only when it moved the wrong way by more than `rateTolerancePts`
 *   AND Fisher's exact test on the counts says so;
 * - the tests of one comparison share one error budget: every row with enough samples is tested
 *   (whatever its change), and Tarone's correction (Bonferroni over the tests that could reach
 *   significance) keeps the chance of any false alarm at `alpha` (0.01), so comparing a run
 *   with a twin of the same code says "no regression" 99 times in 100 or more;
 * - a threshold that turned breached is a regression.
 * Every latency and outcome row says which rule decided it. `regressed` is the CI verdict.
 */
import { LATENCY_METRICS, LatencyRecorder, fisherGreater, fisherMinP, minSamplesForStat, quantileShiftTest, taroneSignificant, type FamilyTest, type HistogramBucket, type LatencyMetric, type ThresholdStatus } from '../metrics/index.js';
import { OUTCOMES, type Outcome } from '../outcomes.js';
import type { ReportDocument, ScenarioEntry } from './report-document.js';
import {
  DEFAULT_COMPARE_RULES,
  type CompareOptions,
  type CompareStat,
  type LatencyChange,
  type OutcomeChange,
  type OutcomeRule,
  type ReportComparison,
  type ResolvedCompareRules,
  type ScenarioFlip,
  type ScenarioState,
} from './compare-types.js';

export {
  DEFAULT_COMPARE_RULES,
  type CompareOptions,
  type CompareStat,
  type LatencyChange,
  type LatencyRule,
  type OutcomeChange,
  type OutcomeRule,
  type ReportComparison,
  type ResolvedCompareRules,
  type ScenarioFlip,
  type ScenarioState,
  type ThresholdFlip,
} from './compare-types.js';

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
function states(report: ReportDocument): Map<string, { entry: ScenarioEntry; passed: boolean }> {
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

/** Decoded buckets per metric; a histogram that cannot be decoded gives none (then no test). */
function bucketsOf(report: ReportDocument): Partial<Record<LatencyMetric, HistogramBucket[]>> {
  const out: Partial<Record<LatencyMetric, HistogramBucket[]>> = {};
  for (const m of LATENCY_METRICS) {
    try {
      out[m] = LatencyRecorder.fromEncoded({ [m]: report.histograms[m] }).buckets(m);
    } catch {
      // A damaged histogram: the rows of this metric get no test (not-significant).
    }
  }
  return out;
}

/**
 * Least samples per run before any latency statistic of two runs is compared, whatever the
 * percentile. The samples of a short run are taken within a second under one machine load, so
 * they are not independent: a whole run speeds up or slows down with the machine (measured:
 * sync p50 from 15.3 to 70.5 ms over 21 quick starts on a 2-core box with one core busy). Below
 * this the row is `too-few-samples` (docs/statistics.md).
 */
export const MIN_COMPARE_SAMPLES = 100;

const outcomeCount = (r: ReportDocument, o: Outcome): number => (r.summary.outcomes as Partial<Record<string, number>>)[o] ?? 0;

/** A tested row waiting for the family's decision; `beyond`: it moved the wrong way beyond the tolerances. */
interface Pending { test: FamilyTest; beyond: boolean; row: { rule: OutcomeRule; regressed: boolean } }

/** Compares `current` with `base` (see {@link CompareOptions} for the rules). Pure. */
export function compareReports(base: ReportDocument, current: ReportDocument, opts: CompareOptions = {}): ReportComparison {
  const rules: ResolvedCompareRules = { ...DEFAULT_COMPARE_RULES, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  const before = states(base);
  const after = states(current);
  const out: ReportComparison = { regressed: false, rules, significanceBound: rules.alpha, regressions: [], fixed: [], added: [], removed: [], latency: [], outcomes: [], thresholds: [] };
  const flip = (e: ScenarioEntry, from: ScenarioState, to: ScenarioState): ScenarioFlip => ({ suite: e.suite, name: e.name, mode: e.mode, from, to });
  for (const [key, now] of after) {
    const was = before.get(key);
    const to: ScenarioState = now.passed ? 'pass' : 'fail';
    if (!was) out.added.push(flip(now.entry, 'missing', to));
    else if (was.passed && !now.passed) out.regressions.push(flip(now.entry, 'pass', 'fail'));
    else if (!was.passed && now.passed) out.fixed.push(flip(now.entry, 'fail', 'pass'));
  }
  for (const [key, was] of before) if (!after.has(key)) out.removed.push(flip(was.entry, was.passed ? 'pass' : 'fail', 'missing'));

  const pending: Pending[] = [];
  const baseBuckets = bucketsOf(base);
  const currentBuckets = bucketsOf(current);
  for (const metric of LATENCY_METRICS) {
    const b = base.latency[metric];
    const c = current.latency[metric];
    if (b.count === 0 && c.count === 0) continue;
    for (const stat of STATS) {
      const deltaMs = Math.round((c[stat] - b[stat]) * 1000) / 1000;
      const changePct = b[stat] === 0 ? (c[stat] === 0 ? 0 : Infinity) : round1((deltaMs / b[stat]) * 100);
      const minCount = Math.max(minSamplesForStat(stat), MIN_COMPARE_SAMPLES);
      const row: LatencyChange = { metric, stat, baseMs: b[stat], currentMs: c[stat], deltaMs, changePct, baseCount: b.count, currentCount: c.count, minCount, pValue: null, rule: 'too-few-samples', regressed: false };
      out.latency.push(row);
      if (b.count < minCount || c.count < minCount) continue;
      const beyond = changePct > rules.tolerancePct && deltaMs >= rules.minDeltaMs;
      row.rule = beyond ? 'not-significant' : 'within-tolerance';
      const bb = baseBuckets[metric];
      const cb = currentBuckets[metric];
      if (bb && cb) {
        const t = quantileShiftTest(bb, cb, PERCENTILE[stat]);
        row.pValue = t.pValue;
        pending.push({ test: { pValue: t.pValue, minP: t.minP }, beyond, row });
      }
    }
  }

  for (const outcome of OUTCOMES) {
    const baseCount = outcomeCount(base, outcome);
    const currentCount = outcomeCount(current, outcome);
    const baseRequests = base.summary.requests;
    const currentRequests = current.summary.requests;
    const baseRate = baseRequests === 0 ? 0 : baseCount / baseRequests;
    const currentRate = currentRequests === 0 ? 0 : currentCount / currentRequests;
    const row: OutcomeChange = {
      outcome, baseRate, currentRate, changePts: round1((currentRate - baseRate) * 100), baseCount, currentCount, baseRequests, currentRequests, pValue: null, rule: 'not-judged', regressed: false,
    };
    out.outcomes.push(row);
    if (NOT_JUDGED.has(outcome)) continue;
    if (baseRequests === 0 || currentRequests === 0) {
      row.rule = 'too-few-samples';
      continue;
    }
    // answered should not fall; every other outcome should not rise. Events: the bad ones.
    const worse = outcome === 'answered' ? baseRate - currentRate : currentRate - baseRate;
    const beyond = worse * 100 > rules.rateTolerancePts;
    row.rule = beyond ? 'not-significant' : 'within-tolerance';
    const [e1, e2] = outcome === 'answered' ? [baseRequests - baseCount, currentRequests - currentCount] : [baseCount, currentCount];
    row.pValue = fisherGreater(e1, baseRequests, e2, currentRequests);
    pending.push({ test: { pValue: row.pValue, minP: fisherMinP(e1 + e2, baseRequests, currentRequests) }, beyond, row });
  }

  const family = taroneSignificant(pending.map((p) => p.test), rules.alpha);
  out.significanceBound = rules.alpha / family.k;
  pending.forEach((p, i) => {
    if (family.significant[i] && p.beyond) {
      p.row.rule = 'regressed';
      p.row.regressed = true;
    }
  });

  const baseT = new Map(base.thresholds.map((t) => [t.expression, t]));
  const curT = new Map(current.thresholds.map((t) => [t.expression, t]));
  for (const expression of new Set([...baseT.keys(), ...curT.keys()])) {
    const b = baseT.get(expression);
    const c = curT.get(expression);
    if (b?.passed === c?.passed) continue;
    out.thresholds.push({
      expression,
      ...(b && { base: b.passed, baseStatus: b.status }),
      ...(c && { current: c.passed, currentStatus: c.status }),
    });
  }
  out.regressed =
    out.regressions.length > 0 ||
    out.added.some((a) => a.to === 'fail') ||
    out.latency.some((l) => l.regressed) ||
    out.outcomes.some((o) => o.regressed) ||
    out.thresholds.some((t) => t.current === false);
  return out;
}

export { renderComparison } from './compare-render.js';
