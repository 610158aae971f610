/**
 * Console lines of the report's optional sections, compact: pass rates (only when a scenario
 * ran more than once or was flaky), sync/async parity, and accuracy (intents, confusion,
 * cart/address hit rates). Each returns lines (no trailing newline); empty when nothing to say.
 */
import type { AccuracyReport } from './accuracy.js';
import { formatValue } from './console.js';
import type { ParityReport } from './parity.js';
import type { PassRates, ScenarioPassRate } from './pass-rates.js';

export type Paint = (code: number, text: string) => string;
const GREEN = 32;
const RED = 31;
const YELLOW = 33;
const BOLD = 1;

/** Left-aligned first column, right-aligned others, two spaces apart. */
export function textTable(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ')}`.trimEnd());
}

const pct = (x: number | null): string => (x === null ? '-' : `${(x * 100).toFixed(0)}%`);

/** `passRate 80%`, `minPasses 3`, or `all`. */
export function requirementText(r: ScenarioPassRate['required']): string {
  return 'passRate' in r ? `≥ ${pct(r.passRate)}` : 'minPasses' in r ? `≥ ${r.minPasses} passes` : 'all';
}

/** Pass rates per scenario x mode, when any ran more than once or was flaky. */
export function passRateLines(p: PassRates | undefined, paint: Paint): string[] {
  if (!p || !p.scenarios.some((e) => e.runs > 1 || e.flaky)) return [];
  const rows = [['scenario', 'passes', 'rate', 'required', '']];
  for (const e of p.scenarios) {
    rows.push([`${e.suite} › ${e.scenario} [${e.mode}]`, `${e.passes}/${e.runs}`, pct(e.passRate), requirementText(e.required), `${e.passed ? 'ok' : 'FAIL'}${e.flaky ? ' flaky' : ''}`]);
  }
  const lines = textTable(rows).map((l, i) => (i === 0 ? l : l.replace(/(ok|FAIL)( flaky)?$/, (_m, v: string, f?: string) => `${v === 'ok' ? paint(GREEN, 'ok') : paint(RED, 'FAIL')}${f ? paint(YELLOW, f) : ''}`)));
  const suites = p.suites.filter((s) => s.required !== undefined).map((s) => `${s.suite} ${s.passes}/${s.runs} (${pct(s.passRate)}, required ${pct(s.required ?? 1)}) ${s.passed ? 'ok' : 'FAIL'}`);
  return ['', `${paint(BOLD, 'Pass rates')}  ${p.flaky} flaky`, ...lines, ...suites.map((s) => `  suite ${s}`)];
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

/** Intent table, confusion table (at most `maxCols` actual columns) and cart/address hit rates. */
export function accuracyLines(a: AccuracyReport | undefined, paint: Paint, maxCols = 8): string[] {
  if (!a || (a.samples === 0 && a.fields.length === 0)) return [];
  const lines = ['', `${paint(BOLD, 'Accuracy')}  ${a.samples} labelled answers`];
  if (a.intents.length > 0) {
    lines.push(...textTable([['intent', 'support', 'precision', 'recall', 'f1'], ...a.intents.map((m) => [m.intent, String(m.support), pct(m.precision), pct(m.recall), pct(m.f1)])]));
    const cols = a.confusion.actual.slice(0, maxCols);
    const off = a.confusion.expected.some((e) => Object.keys(a.confusion.counts[e] ?? {}).some((c) => c !== e));
    if (off) {
      lines.push('  confusion (rows expected, columns actual):');
      const rows = [['', ...cols], ...a.confusion.expected.map((e) => [e, ...cols.map((c) => String(a.confusion.counts[e]?.[c] ?? 0))])];
      lines.push(...textTable(rows).map((l) => `  ${l}`));
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
