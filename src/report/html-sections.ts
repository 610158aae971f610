/**
 * HTML sections of report.html beside the charts: settings, comparison with a baseline,
 * outcome breakdown, pass rates, parity, accuracy and contract violations (failures:
 * html-failures.ts). Each returns an HTML fragment ('' when it has nothing to show); text is escaped.
 */
import { formatMs, formatPercent } from '../units.js';
import { latencyChangeText, latencySamplesText, outcomeRateText, ruleText, rulesText } from './compare-render.js';
import { formatValue } from './format-value.js';
import { intervalText, passKText, passRatesTitle, requirementText, showPassRates } from './pass-rate-text.js';
import type { ReportDocument } from './report-document.js';
import { OUTCOMES } from './run-types.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
const h = escapeHtml;
const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const ok = (passed: boolean, yes = '✓', no = '✗'): string => `<span class="${passed ? 'pass' : 'fail'}">${passed ? yes : no}</span>`;
const table = (head: string[], rows: string[][]): string =>
  `<table><tr>${head.map((c) => `<th>${c}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;

/** Settings flattened to `a.b` rows (the report's settings are already redacted). */
export function settingsHtml(settings: Record<string, unknown>): string {
  const rows: string[][] = [];
  const walk = (o: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(o)) {
      if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, `${prefix}${k}.`);
      else rows.push([`<span class="l">${h(prefix + k)}</span>`, `<span class="l">${h(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))}</span>`]);
    }
  };
  walk(settings, '');
  return `<h2 id="settings">Settings</h2>${table(['setting', 'value'], rows)}`;
}

/** Outcome counts with a proportional bar each (CSS widths, no script). */
export function outcomesHtml(report: ReportDocument): string {
  const s = report.summary;
  const total = Math.max(1, s.requests);
  const rows = OUTCOMES.map((o) => [
    `<span class="l">${o}</span>`,
    String(s.outcomes[o]),
    pct(s.outcomes[o] / total),
    `<div class="bar o-${o}" style="width:${((s.outcomes[o] / total) * 240).toFixed(1)}px"></div>`,
  ]);
  const sum = Object.values(s.outcomes).reduce((a, b) => a + b, 0);
  return `<h2 id="outcomes">Outcomes</h2>${table(['outcome', 'count', 'share', ''], rows)}<p class="muted">total ${sum} of ${s.requests} requests; ${s.retries} submit retr${s.retries === 1 ? 'y' : 'ies'}</p>`;
}

/** The comparison with a baseline: flips, every latency row that moved or was tested (units, samples, rule), outcome rows. */
export function comparisonHtml(report: ReportDocument): string {
  const c = report.comparison;
  if (!c) return '';
  const flips = [
    ...c.regressions.map((f) => [ok(false), h(`${f.suite} › ${f.name} [${f.mode}]`), 'pass → fail']),
    ...c.added.filter((a) => a.to === 'fail').map((f) => [ok(false), h(`${f.suite} › ${f.name} [${f.mode}]`), 'new, failing']),
    ...c.fixed.map((f) => [ok(true), h(`${f.suite} › ${f.name} [${f.mode}]`), 'fail → pass']),
    ...c.thresholds.filter((t) => t.current === false).map((t) => [ok(false), h(`threshold ${t.expression}`), 'now breached']),
  ];
  // Percentiles that moved by 1% or more, or were tested; the rest say nothing.
  const lat = c.latency
    .filter((l) => l.regressed || l.pValue !== null || Math.abs(l.changePct) >= 1)
    .map((l) => [ok(!l.regressed, '', '✗'), `${l.metric}.${l.stat}`, formatMs(l.baseMs), formatMs(l.currentMs), h(latencyChangeText(l)), latencySamplesText(l), `<span class="l">${h(ruleText(l, c))}</span>`]);
  const out = c.outcomes
    .filter((o) => o.baseCount > 0 || o.currentCount > 0)
    .map((o) => [ok(!o.regressed, '', '✗'), o.outcome, outcomeRateText(o.baseRate, o.baseCount, o.baseRequests), outcomeRateText(o.currentRate, o.currentCount, o.currentRequests), `${o.changePts > 0 ? '+' : ''}${o.changePts} pts`, `<span class="l">${h(ruleText(o, c))}</span>`]);
  return `<h2 id="comparison">Against the baseline: ${c.regressed ? '<span class="fail">regressed</span>' : '<span class="pass">no regression</span>'}</h2>
<p class="muted">${h(rulesText(c))}.</p>
${flips.length > 0 ? table(['', 'scenario', 'change'], flips) : '<p class="muted">No scenario flipped.</p>'}
${lat.length > 0 ? table(['', 'latency', 'base', 'current', 'change', 'samples', 'rule'], lat) : '<p class="muted">No latency percentile moved by 1% or more.</p>'}${out.length > 0 ? table(['', 'outcome', 'base', 'current', 'change', 'rule'], out) : ''}`;
}

/** Pass rates per scenario x mode: passes, rate, Wilson 95% interval, pass^k, requirement, verdict and the flaky status. */
export function passRatesHtml(report: ReportDocument): string {
  const p = report.passRates;
  if (!showPassRates(p)) return '';
  const rows = p.scenarios.map((e) => [
    `<span class="l">${h(`${e.suite} › ${e.scenario}`)}</span>`, e.mode, `${e.passes}/${e.runs}`, formatPercent(e.passRate, 0), intervalText(e.interval), h(passKText(e)), h(requirementText(e.required)),
    `${ok(e.passed)}${e.flaky ? ' <span class="warn">flaky</span>' : ''}`,
  ]);
  return `<h2 id="pass-rates">Pass rates (${h(passRatesTitle(p))})</h2>${table(['scenario', 'mode', 'passes', 'rate', '95% CI', 'pass^k', 'required', ''], rows)}`;
}

export function parityHtml(report: ReportDocument): string {
  const p = report.parity;
  if (!p || p.compared === 0) return '';
  const rows = p.entries.flatMap((e) =>
    e.differences.map((d) => [`<span class="l">${h(`${e.suite} › ${e.scenario}${e.turn !== undefined ? ` (turn ${e.turn})` : ''}`)}</span>`, `<code>${h(d.path)}</code>`, `<code>${h(formatValue(d.sync, 300))}</code>`, `<code>${h(formatValue(d.async, 300))}</code>`]),
  );
  return `<h2 id="parity">Sync/async parity</h2><p>compared ${p.compared} answer pairs, ${p.differing} differing (intents ${p.byField.intents}, cart ${p.byField.cart}, address ${p.byField.address}, language ${p.byField.language}).</p>${rows.length > 0 ? table(['scenario', 'path', 'sync', 'async'], rows) : ''}`;
}

/** Intents (TP, FP, FN, precision, recall, F1 from the confusion matrix), the matrix, field hit rates. */
export function accuracyHtml(report: ReportDocument): string {
  const a = report.accuracy;
  if (!a || (a.intents.length === 0 && a.fields.length === 0)) return '';
  const intents = a.intents.map((m) => [`<span class="l">${h(m.intent)}</span>`, String(m.support), String(m.truePositives), String(m.falsePositives), String(m.falseNegatives), pct(m.precision), pct(m.recall), pct(m.f1)]);
  const cols = a.confusion.actual;
  const confusion = a.confusion.expected.map((e) => [`<span class="l">${h(e)}</span>`, ...cols.map((c) => {
    const n = a.confusion.counts[e]?.[c] ?? 0;
    return n === 0 ? '<span class="muted">0</span>' : c === e ? `<b class="pass">${n}</b>` : `<b class="fail">${n}</b>`;
  })]);
  const fields = a.fields.map((f) => [`<span class="l">${f.group}</span>`, `<code>${h(f.path)}</code>`, `${f.hits}/${f.checks}`, pct(f.hitRate)]);
  return `<h2 id="accuracy">Accuracy (${a.samples} labelled answers)</h2>
${intents.length > 0 ? table(['intent', 'support', 'TP', 'FP', 'FN', 'precision', 'recall', 'f1'], intents) : ''}
${confusion.length > 0 ? `<h3>Confusion (rows expected, columns returned)</h3>${table(['', ...cols.map(h)], confusion)}` : ''}
${fields.length > 0 ? `<h3>Field hit rates</h3>${table(['group', 'path', 'hits', 'rate'], fields)}` : ''}`;
}

export function contractHtml(report: ReportDocument): string {
  const rows = report.scenarios.flatMap((s) =>
    s.contractViolations.map((v) => [`<span class="l">${h(`${s.suite} › ${s.name} [${s.mode}]`)}</span>`, h(v.endpoint), `<code>${h(v.path || '(body)')}</code>`, `<span class="l">${h(v.message)}</span>`]),
  );
  return `<h2 id="contract">Contract violations (${rows.length})</h2>${rows.length > 0 ? table(['scenario', 'endpoint', 'path', 'message'], rows) : '<p class="muted">None: every response and webhook fitted the spec.</p>'}`;
}
