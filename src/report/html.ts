/**
 * HTML report (`report.html`): one self-contained file (inline CSS, inlined uPlot and data, no
 * network). Failures come first (what a reader opened the page for), then every section's view
 * (view.ts draws them as it draws them for the console and Markdown; charts beside the latency,
 * timeline and capacity tables, only where the sample supports them: html-charts.ts), the
 * contract violations, every scenario in a table with filters, and the settings. Without
 * JavaScript the tables still show every figure (the charts are extra).
 */
import { writeFile } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import { formatMs } from '../units.js';
import { sectionViews } from './console.js';
import {
  burstsChartData,
  capacityChartData,
  chartData,
  pageScript,
  scriptJson,
  timelineChartData,
  uplotAssets,
} from './html-charts.js';
import { failuresHtml } from './html-failures.js';
import { reportHeadline } from './headline.js';
import { countsRequests } from './sections/common.js';
import { CHAT_CSS, chatHtml } from './html-chat.js';
import type { ReportDocument } from './sections/index.js';
import type { ScenarioEntry } from './sections/scenarios.js';
import { escapeHtml, htmlSection, htmlTable, htmlText } from './view.js';

export { escapeHtml } from './view.js';
export const HTML_REPORT_FILE = 'report.html';

const h = escapeHtml;

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222;max-width:1200px}h1{font-size:1.4rem}h2{margin-top:2rem;border-bottom:1px solid #eee}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right;vertical-align:top}
td:first-child,th:first-child,td.l,th.l,.l{text-align:left}table.kv th{font-weight:normal;color:#555}.pass{color:#17803d}.fail{color:#c0262d;font-weight:600}.warn{color:#a36a00}.strong{font-weight:600}
pre{background:#f6f6f6;padding:.35rem;white-space:pre-wrap;margin:0;text-align:left;max-width:460px}code{background:#f3f3f3;padding:0 .2rem}
.muted{color:#777}.note{margin:.2rem 0}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:1rem}.chart{min-height:300px;border:1px solid #eee}
.count{background:#c0262d;color:#fff;border-radius:.6rem;padding:0 .45rem;font-size:.9rem}pre.answer{background:#eef5ff;max-width:420px}.reason{color:#555}details{margin:.25rem 0 .5rem}
nav a{margin-right:.75rem}.filters{margin:.5rem 0}.filters input,.filters select{margin-right:.5rem}.failure{margin-bottom:1rem}.headline{font-size:1.1rem;margin:.3rem 0}`;

function scenarioGroup(s: ScenarioEntry): string {
  const cls = s.passed ? 'pass' : 'fail';
  const name = h(`${s.suite} › ${s.name}`.toLowerCase());
  const row = `<tr><td class="l ${cls}">${s.passed ? '✓' : '✗'} ${h(s.suite)} › ${h(s.name)}</td><td class="l">${s.mode}</td>
<td class="l">${s.outcome}</td><td>${s.latencyMs === undefined ? '' : h(formatMs(s.latencyMs))}</td><td class="l">${h(s.requestId ?? '')}</td></tr>`;
  const detail = s.passed
    ? ''
    : `<tr><td colspan="5" class="l muted">${h(s.file)}: ${s.failures.length} failed expectation(s)${s.error ? `, ${h(s.error.code)}` : ''}${s.contractViolations.length > 0 ? `, ${s.contractViolations.length} contract violation(s)` : ''} (see Failures)</td></tr>`;
  const chat = s.simulation ? `<tr><td colspan="5" class="l">${chatHtml(s)}</td></tr>` : '';
  return `<tbody class="sc" data-name="${name}" data-status="${s.passed ? 'passed' : 'failed'}" data-mode="${s.mode}">${row}${detail}${chat}</tbody>`;
}

function scenariosHtml(report: ReportDocument): string {
  if (report.scenarios.length === 0) return '';
  return `<h2 id="scenarios">Scenarios</h2>
<div class="filters"><input id="filter-text" type="search" placeholder="filter by name" aria-label="filter by name">
<select id="filter-status" aria-label="status"><option value="all">all</option><option value="failed">failed</option><option value="passed">passed</option></select>
<select id="filter-mode" aria-label="mode"><option value="all">both modes</option><option value="sync">sync</option><option value="async">async</option></select>
<span id="filter-count" class="muted"></span></div>
<table id="scenario-table"><thead><tr><th>scenario</th><th>mode</th><th>outcome</th><th>latency</th><th>requestId</th></tr></thead>
${report.scenarios.map(scenarioGroup).join('\n')}</table>`;
}

function contractHtml(report: ReportDocument): string {
  const rows = report.scenarios.flatMap((s) =>
    s.contractViolations.map((v) => [
      `${s.suite} › ${s.name} [${s.mode}]`,
      v.endpoint,
      { text: v.path || '(body)', code: true },
      v.message,
    ]),
  );
  if (rows.length === 0) return '';
  return `<h2 id="contract">Contract violations (${rows.length})</h2>${htmlTable({ columns: ['scenario', 'endpoint', 'path', 'message'].map((header) => ({ header, align: 'l' as const })), rows })}`;
}

/** Settings flattened to `a.b` rows (the report's settings are already redacted). */
function settingsHtml(settings: Record<string, unknown>): string {
  const rows: string[][] = [];
  const walk = (o: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(o)) {
      // Not set (a judge without an embedding model): not a setting, as report.json leaves it out.
      if (v === undefined) continue;
      if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, `${prefix}${k}.`);
      else rows.push([prefix + k, typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))]);
    }
  };
  walk(settings, '');
  return `<h2 id="settings">Settings</h2>${htmlTable({ columns: [{ header: 'setting' }, { header: 'value', align: 'l' }], rows })}`;
}

/** Renders `report` as one self-contained HTML document (no external resources). */
export function renderHtmlReport(report: ReportDocument): string {
  const head = reportHeadline(report);
  const { js, css } = uplotAssets();
  const views = sectionViews(report);
  const verdict = `<span class="${report.exitCode === 0 ? 'pass' : 'fail'}">exit ${report.exitCode}</span>`;
  const failures = countsRequests(report) ? failuresHtml(report) : '';
  const contract = contractHtml(report);
  const ids = [
    ...(failures ? ['failures'] : []),
    ...views.map((v) => v.id),
    ...(contract ? ['contract'] : []),
    ...(report.scenarios.length > 0 ? ['scenarios'] : []),
    'settings',
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>droidcheck report ${h(report.startedAt)}</title><style>${css}\n${CSS}\n${CHAT_CSS}</style></head><body>
<h1>droidcheck ${h(report.kind)}: ${h(head.verdict)} — ${verdict}</h1>
<p class="muted">${h(head.sent)}</p>
${head.lines.map((l) => `<p class="headline">${htmlText(l)}</p>`).join('\n')}
<nav>${[...new Set(ids)].map((id) => `<a href="#${id}">${id}</a>`).join('')}</nav>
${failures}
${views.map(htmlSection).join('\n')}
${contract}
${scenariosHtml(report)}
${settingsHtml(report.settings)}
<script type="application/json" id="droidcheck-data">${scriptJson({ charts: chartData(report), timeline: timelineChartData(report), capacity: capacityChartData(report), bursts: burstsChartData(report) })}</script>
<script>${js}</script>
<script>${pageScript()}</script>
</body></html>
`;
}

/**
 * A page of its own around `body` (an HTML fragment), with the report's styles and no script:
 * what `droidcheck compare --html` writes (comparison-files.ts).
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${h(title)}</title><style>${CSS}</style></head><body>
<h1>${h(title)}</h1>
${body}
</body></html>
`;
}

/** Writes `<dir>/<fileName>` (default report.html; mkdir -p); resolves the file's path. */
export async function writeHtmlReport(
  dir: string,
  report: ReportDocument,
  fileName = HTML_REPORT_FILE,
): Promise<string> {
  await makeDir(dir);
  const path = join(dir, fileName);
  await writeFile(path, renderHtmlReport(report), 'utf8');
  return path;
}
