/**
 * `compareReports(base, current)`: what changed against a baseline report: scenarios that
 * flipped pass->fail (regressions) or fail->pass (fixed), percentile regressions beyond a
 * tolerance, outcome-rate changes and thresholds that flipped. `regressed` is the CI verdict.
 */
import { LATENCY_METRICS, type LatencyMetric } from '../metrics/index.js';
import type { ReportDocument, ScenarioEntry } from './report-document.js';
import { OUTCOMES, type AnswerMode, type Outcome } from './run-types.js';

export interface CompareOptions {
  /** A percentile may grow this much (percent) before it counts as a regression; default 10. */
  tolerancePct?: number;
  /** ...and by at least this many ms (noise floor for tiny latencies); default 1. */
  minDeltaMs?: number;
  /** An outcome rate may move this many percentage points the wrong way; default 1. */
  rateTolerancePts?: number;
}

export type ScenarioState = 'pass' | 'fail' | 'missing';
export type CompareStat = 'p50' | 'p90' | 'p99' | 'p999';

export interface ScenarioFlip { suite: string; name: string; mode: AnswerMode; from: ScenarioState; to: ScenarioState }
export interface LatencyChange { metric: LatencyMetric; stat: CompareStat; baseMs: number; currentMs: number; changePct: number; regressed: boolean }
export interface OutcomeChange { outcome: Outcome; baseRate: number; currentRate: number; changePts: number; regressed: boolean }
/** `base`/`current` absent: the threshold is not in that report. */
export interface ThresholdFlip { expression: string; base?: boolean; current?: boolean }

export interface ReportComparison {
  regressed: boolean;
  /** pass->fail (or a newly failing scenario) */
  regressions: ScenarioFlip[];
  /** fail->pass */
  fixed: ScenarioFlip[];
  /** in one report only */
  added: ScenarioFlip[];
  removed: ScenarioFlip[];
  /** Every compared percentile of metrics with values in both reports. */
  latency: LatencyChange[];
  /** Rates (0..1 of the requests) of every outcome; changePts in percentage points. */
  outcomes: OutcomeChange[];
  /** Thresholds whose verdict differs (or that exist in one report only). */
  thresholds: ThresholdFlip[];
}

const STATS: readonly CompareStat[] = ['p50', 'p90', 'p99', 'p999'];
const keyOf = (s: ScenarioEntry): string => JSON.stringify([s.suite, s.name, s.mode]);

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

const rate = (r: ReportDocument, o: Outcome): number => (r.summary.requests === 0 ? 0 : r.summary.outcomes[o] / r.summary.requests);

/** Compares `current` with `base` (see {@link CompareOptions} for tolerances). Pure. */
export function compareReports(base: ReportDocument, current: ReportDocument, opts: CompareOptions = {}): ReportComparison {
  const tolerancePct = opts.tolerancePct ?? 10;
  const minDeltaMs = opts.minDeltaMs ?? 1;
  const rateTolerance = (opts.rateTolerancePts ?? 1) / 100;
  const before = states(base);
  const after = states(current);
  const out: ReportComparison = { regressed: false, regressions: [], fixed: [], added: [], removed: [], latency: [], outcomes: [], thresholds: [] };
  const flip = (e: ScenarioEntry, from: ScenarioState, to: ScenarioState): ScenarioFlip => ({ suite: e.suite, name: e.name, mode: e.mode, from, to });
  for (const [key, now] of after) {
    const was = before.get(key);
    const to: ScenarioState = now.passed ? 'pass' : 'fail';
    if (!was) out.added.push(flip(now.entry, 'missing', to));
    else if (was.passed && !now.passed) out.regressions.push(flip(now.entry, 'pass', 'fail'));
    else if (!was.passed && now.passed) out.fixed.push(flip(now.entry, 'fail', 'pass'));
  }
  for (const [key, was] of before) if (!after.has(key)) out.removed.push(flip(was.entry, was.passed ? 'pass' : 'fail', 'missing'));

  for (const metric of LATENCY_METRICS) {
    const b = base.latency[metric];
    const c = current.latency[metric];
    if (b.count === 0 || c.count === 0) continue;
    for (const stat of STATS) {
      const changePct = b[stat] === 0 ? (c[stat] === 0 ? 0 : Infinity) : ((c[stat] - b[stat]) / b[stat]) * 100;
      const regressed = changePct > tolerancePct && c[stat] - b[stat] >= minDeltaMs;
      out.latency.push({ metric, stat, baseMs: b[stat], currentMs: c[stat], changePct: Math.round(changePct * 10) / 10, regressed });
    }
  }
  for (const outcome of OUTCOMES) {
    const baseRate = rate(base, outcome);
    const currentRate = rate(current, outcome);
    const change = currentRate - baseRate;
    // answered should not fall; the others (but interrupted, which is the operator's doing) should not rise.
    const regressed = outcome === 'answered' ? -change > rateTolerance : outcome !== 'interrupted' && change > rateTolerance;
    out.outcomes.push({ outcome, baseRate, currentRate, changePts: Math.round(change * 1000) / 10, regressed });
  }
  const baseT = new Map(base.thresholds.map((t) => [t.expression, t.passed]));
  const curT = new Map(current.thresholds.map((t) => [t.expression, t.passed]));
  for (const expression of new Set([...baseT.keys(), ...curT.keys()])) {
    const b = baseT.get(expression);
    const c = curT.get(expression);
    if (b !== c) out.thresholds.push({ expression, ...(b !== undefined && { base: b }), ...(c !== undefined && { current: c }) });
  }
  out.regressed =
    out.regressions.length > 0 ||
    out.added.some((a) => a.to === 'fail') ||
    out.latency.some((l) => l.regressed) ||
    out.outcomes.some((o) => o.regressed) ||
    out.thresholds.some((t) => t.current === false);
  return out;
}

/** A few lines for a terminal: the verdict, then each regression, fix and change worth a look. */
export function renderComparison(cmp: ReportComparison): string {
  const name = (f: ScenarioFlip): string => `${f.suite} › ${f.name} [${f.mode}]`;
  const lines = [cmp.regressed ? 'REGRESSED against the baseline' : 'no regression against the baseline'];
  for (const f of cmp.regressions) lines.push(`  ✗ ${name(f)}: pass -> fail`);
  for (const f of cmp.added.filter((a) => a.to === 'fail')) lines.push(`  ✗ ${name(f)}: new, failing`);
  for (const f of cmp.fixed) lines.push(`  ✓ ${name(f)}: fail -> pass`);
  for (const l of cmp.latency.filter((x) => x.regressed)) {
    lines.push(`  ✗ ${l.metric}.${l.stat}: ${l.baseMs} ms -> ${l.currentMs} ms (+${l.changePct}%)`);
  }
  for (const o of cmp.outcomes.filter((x) => x.regressed)) {
    lines.push(`  ✗ outcome ${o.outcome}: ${(o.baseRate * 100).toFixed(1)}% -> ${(o.currentRate * 100).toFixed(1)}%`);
  }
  const verdict = (v: boolean | undefined): string => (v === undefined ? 'absent' : v ? 'passed' : 'breached');
  for (const t of cmp.thresholds) lines.push(`  ${t.current === false ? '✗' : '✓'} threshold ${t.expression}: ${verdict(t.base)} -> ${verdict(t.current)}`);
  if (cmp.removed.length > 0) lines.push(`  ${cmp.removed.length} scenario(s) not in the current report`);
  return `${lines.join('\n')}\n`;
}
