/**
 * Markdown lines of the report's optional sections for a pull request: the comparison with a
 * baseline (every latency row that moved or regressed, with units and the rule that decided
 * it), pass rates (when a scenario repeated or was flaky: rate, 95% CI, pass^k, verdict),
 * parity and accuracy (per intent from the confusion matrix), short.
 */
import { formatMs, formatPercent } from '../units.js';
import { latencyChangeText, latencySamplesText, outcomeRateText, ruleText, rulesText } from './compare-render.js';
import { formatValue } from './console.js';
import { PASS_RATE_HEADER, passRateCells, passRatesTitle, showPassRates } from './pass-rate-text.js';
import type { ReportDocument } from './report-document.js';

type Row = (cells: string[]) => string;
const pct = (x: number | null): string => (x === null ? '–' : formatPercent(x, 0));

/** Lines (GitHub-flavoured Markdown) of comparison, pass rates, parity and accuracy; empty when none applies. */
export function markdownSections(report: ReportDocument, row: Row, code: (t: string) => string): string[] {
  const lines: string[] = [];
  const c = report.comparison;
  if (c) {
    lines.push('', `### Against the baseline: ${c.regressed ? '❌ regressed' : '✅ no regression'}`, '', `Rules: ${rulesText(c)}.`, '');
    for (const f of c.regressions) lines.push(`- ❌ ${f.suite} › ${f.name} [${f.mode}]: pass → fail`);
    for (const f of c.added.filter((a) => a.to === 'fail')) lines.push(`- ❌ ${f.suite} › ${f.name} [${f.mode}]: new, failing`);
    for (const f of c.fixed) lines.push(`- ✅ ${f.suite} › ${f.name} [${f.mode}]: fail → pass`);
    for (const t of c.thresholds.filter((x) => x.current === false)) lines.push(`- ❌ threshold ${code(t.expression)}: now breached`);
    // Rows that moved by 1% or more, or were tested; the rest say nothing.
    const moved = c.latency.filter((l) => l.regressed || l.pValue !== null || Math.abs(l.changePct) >= 1);
    if (moved.length > 0) {
      lines.push('', row(['', 'latency', 'base', 'current', 'change', 'samples', 'rule']), row(['---', '---', '---:', '---:', '---:', '---:', '---']));
      for (const l of moved) lines.push(row([l.regressed ? '❌' : '', code(`${l.metric}.${l.stat}`), formatMs(l.baseMs), formatMs(l.currentMs), latencyChangeText(l), latencySamplesText(l), ruleText(l, c)]));
    }
    const outcomes = c.outcomes.filter((o) => o.regressed || o.changePts !== 0);
    if (outcomes.length > 0) {
      lines.push('', row(['', 'outcome', 'base', 'current', 'change', 'rule']), row(['---', '---', '---:', '---:', '---:', '---']));
      for (const o of outcomes) lines.push(row([o.regressed ? '❌' : '', o.outcome, outcomeRateText(o.baseRate, o.baseCount, o.baseRequests), outcomeRateText(o.currentRate, o.currentCount, o.currentRequests), `${o.changePts > 0 ? '+' : ''}${o.changePts} pts`, ruleText(o, c)]));
    }
  }
  const p = report.passRates;
  if (showPassRates(p)) {
    lines.push('', `### Pass rates (${passRatesTitle(p)})`, '', row([...PASS_RATE_HEADER]), row(['---', '---:', '---:', '---:', '---', '---', '---']));
    for (const e of p.scenarios) {
      const cells = passRateCells(e);
      cells[6] = `${e.passed ? '✅' : '❌'}${e.flaky ? ' flaky' : ''}`;
      lines.push(row(cells));
    }
  }
  const par = report.parity;
  if (par && par.compared > 0) {
    lines.push('', `### Sync/async parity: compared ${par.compared}, differing ${par.differing}`);
    const diffs = par.entries.flatMap((e) => e.differences.map((d) => `- ${e.suite} › ${e.scenario}: ${code(d.path)} sync ${code(formatValue(d.sync, 60))} ≠ async ${code(formatValue(d.async, 60))}`));
    if (diffs.length > 0) lines.push('', ...diffs.slice(0, 10), ...(diffs.length > 10 ? [`- … ${diffs.length - 10} more`] : []));
  }
  const a = report.accuracy;
  if (a && a.intents.length > 0) {
    lines.push('', `### Intent accuracy (${a.samples} answers)`, '', row(['intent', 'support', 'TP', 'FP', 'FN', 'precision', 'recall', 'f1']), row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
    for (const m of a.intents) lines.push(row([m.intent, String(m.support), String(m.truePositives), String(m.falsePositives), String(m.falseNegatives), pct(m.precision), pct(m.recall), pct(m.f1)]));
  }
  if (a && a.fields.length > 0) {
    const groups = (['cart', 'address'] as const).map((g) => {
      const f = a.fields.filter((x) => x.group === g);
      const checks = f.reduce((n, x) => n + x.checks, 0);
      const hits = f.reduce((n, x) => n + x.hits, 0);
      return checks === 0 ? '' : `${g} fields ${hits}/${checks} (${pct(hits / checks)})`;
    });
    lines.push('', `Field hit rates: ${groups.filter(Boolean).join(', ')}.`);
  }
  return lines;
}
