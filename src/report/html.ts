/**
 * HTML report (`report.html`): one self-contained file (inline CSS, inlined uPlot and data, no
 * network) with the verdict, the run's settings, the comparison with a baseline, the outcome
 * breakdown, latency (table, percentile distributions and histograms against the spec's
 * limits), thresholds, pass rates, parity, accuracy, contract violations, failures (expected vs
 * actual) and every scenario in a table with filters. Without JavaScript the tables still show
 * every figure (the charts are extra). Latencies in ms.
 */
import { writeFile } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import { LATENCY_FOOTNOTE, LATENCY_HEADER, THRESHOLD_MARKS, shownMetrics, formatLimit, latencyCells, thresholdVerdictText } from '../metrics/index.js';
import { PAGE_SCRIPT, capacityChartData, chartData, scriptJson, timelineChartData, uplotAssets } from './html-charts.js';
import { capacityHtml, loadHtml, networkStreamHtml, notesHtml, talliesHtml, timelineHtml } from './html-job.js';
import {
  accuracyHtml,
  comparisonHtml,
  contractHtml,
  escapeHtml,
  outcomesHtml,
  parityHtml,
  passRatesHtml,
  settingsHtml,
} from './html-sections.js';
import { failuresHtml } from './html-failures.js';
import type { ReportDocument, ScenarioEntry } from './report-document.js';

export { escapeHtml } from './html-sections.js';
export const HTML_REPORT_FILE = 'report.html';

const h = escapeHtml;
const f1 = (n: number): string => n.toFixed(1);

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222;max-width:1200px}h1{font-size:1.4rem}h2{margin-top:2rem;border-bottom:1px solid #eee}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right;vertical-align:top}
td:first-child,th:first-child,td.l,.l{text-align:left}.pass{color:#17803d}.fail{color:#c0262d;font-weight:600}.warn{color:#a36a00}
pre{background:#f6f6f6;padding:.35rem;white-space:pre-wrap;margin:0;text-align:left;max-width:460px}code{background:#f3f3f3;padding:0 .2rem}
.muted{color:#777}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:1rem}.chart{min-height:300px;border:1px solid #eee}
.bar{height:.8rem;background:#1f77b4}.o-answered{background:#17803d}.o-failed,.o-rejected,.o-timeout,.o-transport-error,.o-invalid-response{background:#c0262d}.o-interrupted,.o-not-sent{background:#999}
.count{background:#c0262d;color:#fff;border-radius:.6rem;padding:0 .45rem;font-size:.9rem}pre.answer{background:#eef5ff;max-width:420px}.reason{color:#555}details{margin:.25rem 0 .5rem}
nav a{margin-right:.75rem}.filters{margin:.5rem 0}.filters input,.filters select{margin-right:.5rem}.failure{margin-bottom:1rem}`;

function scenarioGroup(s: ScenarioEntry): string {
  const cls = s.passed ? 'pass' : 'fail';
  const name = h(`${s.suite} › ${s.name}`.toLowerCase());
  const row = `<tr><td class="l ${cls}">${s.passed ? '✓' : '✗'} ${h(s.suite)} › ${h(s.name)}</td><td class="l">${s.mode}</td>
<td class="l">${s.outcome}</td><td>${s.latencyMs === undefined ? '' : f1(s.latencyMs)}</td><td class="l">${h(s.requestId ?? '')}</td></tr>`;
  const detail = s.passed
    ? ''
    : `<tr><td colspan="5" class="l muted">${h(s.file)}: ${s.failures.length} failed expectation(s)${s.error ? `, ${h(s.error.code)}` : ''}${s.contractViolations.length > 0 ? `, ${s.contractViolations.length} contract violation(s)` : ''} (see Failures)</td></tr>`;
  return `<tbody class="sc" data-name="${name}" data-status="${s.passed ? 'passed' : 'failed'}" data-mode="${s.mode}">${row}${detail}</tbody>`;
}

function latencyHtml(report: ReportDocument, charts: ReturnType<typeof chartData>): string {
  const metrics = shownMetrics(report.latency);
  const cells = metrics.map((m) => latencyCells(report.latency[m]));
  const rows = metrics.map((m, i) => {
    const l = report.latency[m];
    const c = cells[i]!;
    const ok = c.empty ? '<td></td>' : l.limitVerdict === 'too-few-samples' ? '<td class="muted">too few samples</td>' : l.withinLimit ? '<td class="pass">ok</td>' : '<td class="fail">BREACH</td>';
    return `<tr><td>${m}</td>${c.cells.map((x) => `<td>${h(x)}</td>`).join('')}<td>${h(formatLimit(l.limitMs, 'ms'))}</td>${ok}</tr>`;
  });
  const boxes = charts.map((c) => `<div class="chart" id="chart-${c.metric}-pct"></div><div class="chart" id="chart-${c.metric}-hist"></div>`);
  return `<h2 id="latency">Latency</h2>
<table><tr>${[...LATENCY_HEADER, 'limit', ''].map((x) => `<th>${x}</th>`).join('')}</tr>${rows.join('\n')}</table>${cells.some((c) => c.unsupported) ? `<p class="muted">${h(LATENCY_FOOTNOTE)}</p>` : ''}
${charts.length === 0 ? '<p class="muted">No latencies recorded.</p>' : `<noscript><p class="muted">Charts need JavaScript; the table above has every figure.</p></noscript><div class="charts">${boxes.join('\n')}</div>`}`;
}

/** Renders `report` as one self-contained HTML document (no external resources). */
export function renderHtmlReport(report: ReportDocument): string {
  const s = report.summary;
  const charts = chartData(report);
  const { js, css } = uplotAssets();
  const verdict = report.exitCode === 0 ? '<span class="pass">passed</span>' : `<span class="fail">exit ${report.exitCode}</span>`;
  const thresholdRows = report.thresholds.map(
    (t) => `<tr><td class="l ${t.status === 'breached' ? 'fail' : t.status === 'passed' ? 'pass' : 'muted'}">${THRESHOLD_MARKS[t.status]} ${h(t.expression)}</td><td class="l">${h(thresholdVerdictText(t))}</td></tr>`,
  );
  const r = report.receiver;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>droidcheck report ${h(report.startedAt)}</title><style>${css}\n${CSS}</style></head><body>
<h1>droidcheck ${h(report.kind ?? 'run')}: ${s.passed} passed, ${s.failed} failed — ${verdict}</h1>
<p class="muted">${s.sent ?? s.requests} of ${s.requests} requests sent, started ${h(report.startedAt)}, ${f1(report.durationMs / 1000)} s.</p>
<nav>${['outcomes', 'latency', ...(report.load ? ['load'] : []), ...(report.stream ? ['stream'] : []), ...(report.timeline && report.timeline.points.length > 1 ? ['timeline'] : []), ...(report.capacity ? ['capacity'] : []), 'failures', 'contract', 'scenarios', 'settings'].map((id) => `<a href="#${id}">${id}</a>`).join('')}</nav>
${comparisonHtml(report)}
${capacityHtml(report)}
${outcomesHtml(report)}
${latencyHtml(report, charts)}
${loadHtml(report)}
${networkStreamHtml(report)}
${timelineHtml(report)}
<p>Receiver: ${r.received} received, ${r.matched} matched, ${r.duplicates} duplicates, ${r.late} late, ${r.orphans} orphans, ${r.badSecret} bad secret, ${r.malformed} malformed.</p>
${thresholdRows.length > 0 ? `<h2 id="thresholds">Thresholds</h2><table><tr><th>threshold</th><th>verdict</th></tr>${thresholdRows.join('')}</table>` : ''}
${passRatesHtml(report)}
${parityHtml(report)}
${accuracyHtml(report)}
${failuresHtml(report)}
${contractHtml(report)}
${notesHtml(report)}
${talliesHtml(report)}
${report.scenarios.length === 0 ? '' : `<h2 id="scenarios">Scenarios</h2>
<div class="filters"><input id="filter-text" type="search" placeholder="filter by name" aria-label="filter by name">
<select id="filter-status" aria-label="status"><option value="all">all</option><option value="failed">failed</option><option value="passed">passed</option></select>
<select id="filter-mode" aria-label="mode"><option value="all">both modes</option><option value="sync">sync</option><option value="async">async</option></select>
<span id="filter-count" class="muted"></span></div>
<table id="scenario-table"><thead><tr><th>scenario</th><th>mode</th><th>outcome</th><th>ms</th><th>requestId</th></tr></thead>
${report.scenarios.map(scenarioGroup).join('\n')}</table>`}
${settingsHtml(report.settings)}
<script type="application/json" id="droidcheck-data">${scriptJson({ charts, timeline: timelineChartData(report), capacity: capacityChartData(report) })}</script>
<script>${js}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}

/** Writes `<dir>/<fileName>` (default report.html; mkdir -p); resolves the file's path. */
export async function writeHtmlReport(dir: string, report: ReportDocument, fileName = HTML_REPORT_FILE): Promise<string> {
  await makeDir(dir);
  const path = join(dir, fileName);
  await writeFile(path, renderHtmlReport(report), 'utf8');
  return path;
}
