/**
 * Text of a comparison with a baseline (compare.ts): every figure with its unit and the rule
 * that decided it. Pure; the console, Markdown and HTML renderers share the phrases.
 */
import { formatMs, formatPercent } from '../units.js';
import { textTable } from '../text-table.js';
import type { LatencyChange, OutcomeChange, ReportComparison, ScenarioFlip } from './compare-types.js';

/** `p 0.021`, `p < 0.0001`. */
export function formatPValue(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p ${Number(p.toPrecision(2))}`;
}

const pct = (n: number): string => (n === Infinity ? 'new' : `${n > 0 ? '+' : ''}${n}%`);
const signedMs = (ms: number): string => `${ms > 0 ? '+' : ms < 0 ? '-' : '±'}${formatMs(Math.abs(ms))}`;

/** `+34% (+10.4 ms)`. */
export function latencyChangeText(l: LatencyChange): string {
  return `${pct(l.changePct)} (${signedMs(l.deltaMs)})`;
}

/** `16 / 16 samples`. */
export function latencySamplesText(l: Pick<LatencyChange, 'baseCount' | 'currentCount'>): string {
  return `${l.baseCount} / ${l.currentCount} samples`;
}

/**
 * Why a row was decided so: `too few samples (16 < 100)`, `within tolerance (<= +10% or < +1 ms)`,
 * `not significant (p 0.21 > 0.0033)`, `REGRESSED (p 0.0003 <= 0.0033)`.
 */
export function ruleText(row: LatencyChange | OutcomeChange, cmp?: Pick<ReportComparison, 'rules' | 'significanceBound'>): string {
  const rules = cmp?.rules;
  const bound = cmp ? ` ${row.rule === 'regressed' ? '<=' : '>'} ${Number(cmp.significanceBound.toPrecision(2))}` : '';
  const p = row.pValue === null ? '' : ` (${formatPValue(row.pValue)}${bound})`;
  switch (row.rule) {
    case 'too-few-samples':
      return 'minCount' in row ? `too few samples (${Math.min(row.baseCount, row.currentCount)} < ${row.minCount})` : 'no requests';
    case 'within-tolerance':
      if (!rules) return 'within tolerance';
      return 'minCount' in row ? `within tolerance (<= ${pct(rules.tolerancePct)} or < +${formatMs(rules.minDeltaMs)})` : `within tolerance (<= +${rules.rateTolerancePts} pts)`;
    case 'not-significant':
      return row.pValue === null ? 'not significant (no histogram to test)' : `not significant${p}`;
    case 'regressed':
      return `REGRESSED${p}`;
    case 'not-judged':
      return 'not judged (operator)';
  }
}

/** `97.1% (34 of 35)`. */
export function outcomeRateText(rate: number, count: number, requests: number): string {
  return `${formatPercent(rate)} (${count} of ${requests})`;
}

const name = (f: ScenarioFlip): string => `${f.suite} › ${f.name} [${f.mode}]`;

/** The rules in one phrase. */
export function rulesText(cmp: Pick<ReportComparison, 'rules' | 'significanceBound'>): string {
  const r = cmp.rules;
  return `a percentile regresses when both runs have enough samples for it, it grows by > ${r.tolerancePct}% and >= ${formatMs(r.minDeltaMs)}, and its quantile test gives p <= ${Number(cmp.significanceBound.toPrecision(2))}; an outcome rate when it moves > ${r.rateTolerancePts} pts the wrong way with Fisher's p <= the same bound (false-alarm rate ${r.alpha} over the whole comparison)`;
}

/**
 * Lines for a terminal: the verdict, the scenario flips, a table of every latency row (base,
 * current, change, samples, rule), the outcome rows that are not zero in both, and thresholds
 * that flipped.
 */
export function renderComparison(cmp: ReportComparison): string {
  const lines = [cmp.regressed ? 'REGRESSED against the baseline' : 'no regression against the baseline', `  rules: ${rulesText(cmp)}`];
  for (const f of cmp.regressions) lines.push(`  ✗ ${name(f)}: pass -> fail`);
  for (const f of cmp.added.filter((a) => a.to === 'fail')) lines.push(`  ✗ ${name(f)}: new, failing`);
  for (const f of cmp.fixed) lines.push(`  ✓ ${name(f)}: fail -> pass`);
  if (cmp.latency.length > 0) {
    const rows = [['', 'latency', 'base', 'current', 'change', 'samples', 'rule']];
    for (const l of cmp.latency) {
      rows.push([l.regressed ? '✗' : ' ', `${l.metric}.${l.stat}`, formatMs(l.baseMs), formatMs(l.currentMs), latencyChangeText(l), latencySamplesText(l), ruleText(l, cmp)]);
    }
    lines.push(...textTable(rows, { align: ['l', 'l', 'r', 'r', 'r', 'r', 'l'] }));
  }
  const outcomes = cmp.outcomes.filter((o) => o.baseCount > 0 || o.currentCount > 0);
  if (outcomes.length > 0) {
    const rows = [['', 'outcome', 'base', 'current', 'change', 'rule']];
    for (const o of outcomes) {
      rows.push([o.regressed ? '✗' : ' ', o.outcome, outcomeRateText(o.baseRate, o.baseCount, o.baseRequests), outcomeRateText(o.currentRate, o.currentCount, o.currentRequests), `${o.changePts > 0 ? '+' : ''}${o.changePts} pts`, ruleText(o, cmp)]);
    }
    lines.push(...textTable(rows, { align: ['l', 'l', 'r', 'r', 'r', 'l'] }));
  }
  const verdict = (v: boolean | undefined, status: string | undefined): string => (v === undefined ? 'absent' : (status ?? (v ? 'passed' : 'breached')));
  for (const t of cmp.thresholds) lines.push(`  ${t.current === false ? '✗' : '✓'} threshold ${t.expression}: ${verdict(t.base, t.baseStatus)} -> ${verdict(t.current, t.currentStatus)}`);
  if (cmp.removed.length > 0) lines.push(`  ${cmp.removed.length} scenario(s) not in the current report`);
  return `${lines.join('\n')}\n`;
}
