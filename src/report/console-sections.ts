/**
 * Console lines of the report's optional sections, compact: pass rates (only when a scenario
 * ran more than once or was flaky: passes, rate, Wilson 95% interval, pass^k, requirement,
 * verdict and flaky status), sync/async parity, and accuracy (per intent TP/FP/FN, precision,
 * recall, F1 from the confusion matrix; the matrix when anything is off its diagonal;
 * cart/address hit rates). Each returns lines (no trailing newline); empty when nothing to say.
 */
import { textTable } from '../text-table.js';
import { formatPercent } from '../units.js';
import type { AccuracyReport } from './accuracy.js';
import { formatValue } from './format-value.js';
import type { ParityReport } from './parity.js';
import { PASS_RATE_HEADER, passRateCells, passRatesTitle, showPassRates } from './pass-rate-text.js';
import type { PassRates } from './pass-rates.js';

export { requirementText } from './pass-rate-text.js';
export type Paint = (code: number, text: string) => string;
const GREEN = 32;
const RED = 31;
const YELLOW = 33;
const BOLD = 1;

const pct = (x: number | null): string => formatPercent(x, 0);

/** Pass rates per scenario x mode, when any ran more than once or was flaky. */
export function passRateLines(p: PassRates | undefined, paint: Paint): string[] {
  if (!showPassRates(p)) return [];
  const rows = [[...PASS_RATE_HEADER], ...p.scenarios.map(passRateCells)];
  const lines = textTable(rows, { align: ['l', 'r', 'r', 'r', 'l', 'l', 'l'] }).map((l, i) =>
    i === 0 ? l : l.replace(/(ok|FAIL)( flaky)?$/, (_m, v: string, f?: string) => `${v === 'ok' ? paint(GREEN, 'ok') : paint(RED, 'FAIL')}${f ? paint(YELLOW, f) : ''}`),
  );
  const suites = p.suites
    .filter((s) => s.required !== undefined)
    .map((s) => `${s.suite} ${s.passes}/${s.runs} (${pct(s.passRate)}, 95% CI ${pct(s.interval.low)}–${pct(s.interval.high)}, required ${pct(s.required ?? 1)}) ${s.passed ? 'ok' : 'FAIL'}`);
  return ['', `${paint(BOLD, 'Pass rates')}  ${passRatesTitle(p)}`, ...lines, ...suites.map((s) => `  suite ${s}`)];
}

/** `Parity (sync vs async)  compared N, differing M` and each differing path (at most `max`). */
export function parityLines(p: ParityReport | undefined, paint: Paint, max = 20): string[] {
  if (!p || p.compared === 0) return [];
  const lines = ['', `${paint(BOLD, 'Parity (sync vs async)')}  compared ${p.compared}, differing ${p.differing}`];
  const diffs = p.entries.flatMap((e) =>
    e.differences.map((d) => `  ${e.suite} › ${e.scenario}${e.repeat > 0 ? ` #${e.repeat}` : ''}${e.turn !== undefined ? ` turn ${e.turn}` : ''}: ${d.path} sync ${formatValue(d.sync, 60)} ≠ async ${formatValue(d.async, 60)}`),
  );
  lines.push(...diffs.slice(0, max).map((l) => paint(YELLOW, l)));
  if (diffs.length > max) lines.push(`  … ${diffs.length - max} more`);
  return lines;
}

/** Intent table (from the confusion matrix), the matrix (at most `maxCols` columns) when anything is off its diagonal, and cart/address hit rates. */
export function accuracyLines(a: AccuracyReport | undefined, paint: Paint, maxCols = 8): string[] {
  if (!a || (a.samples === 0 && a.fields.length === 0)) return [];
  const lines = ['', `${paint(BOLD, 'Accuracy')}  ${a.samples} labelled answers`];
  if (a.intents.length > 0) {
    const rows = [['intent', 'support', 'TP', 'FP', 'FN', 'precision', 'recall', 'f1']];
    for (const m of a.intents) rows.push([m.intent, String(m.support), String(m.truePositives), String(m.falsePositives), String(m.falseNegatives), pct(m.precision), pct(m.recall), pct(m.f1)]);
    lines.push(...textTable(rows));
    const cols = a.confusion.actual.slice(0, maxCols);
    const off = a.confusion.expected.some((e) => Object.entries(a.confusion.counts[e] ?? {}).some(([c, n]) => c !== e && n > 0));
    if (off) {
      lines.push('  confusion (rows expected, columns returned):');
      const matrix = [['', ...cols], ...a.confusion.expected.map((e) => [e, ...cols.map((c) => String(a.confusion.counts[e]?.[c] ?? 0))])];
      lines.push(...textTable(matrix, { indent: 4 }));
      if (a.confusion.actual.length > maxCols) lines.push(`    … ${a.confusion.actual.length - maxCols} more columns in report.json`);
    }
  }
  for (const group of ['cart', 'address'] as const) {
    const fields = a.fields.filter((f) => f.group === group);
    if (fields.length === 0) continue;
    const checks = fields.reduce((n, f) => n + f.checks, 0);
    const hits = fields.reduce((n, f) => n + f.hits, 0);
    const misses = fields.filter((f) => f.hits < f.checks).map((f) => `${f.path} ${f.hits}/${f.checks}`);
    lines.push(`  ${group} fields: ${hits}/${checks} hit (${pct(checks === 0 ? null : hits / checks)})${misses.length > 0 ? `; missed: ${misses.join(', ')}` : ''}`);
  }
  return lines;
}
