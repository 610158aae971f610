/**
 * HTML report (`report.html`): one self-contained file (inline CSS and SVG, no script, no
 * network) with the verdict, outcomes, a latency table and percentile curves (ms, log scale
 * from HDR histograms), thresholds, and every scenario with its failures.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatLocation } from '../errors.js';
import { LATENCY_METRICS, LatencyRecorder, type LatencyMetric } from '../metrics/index.js';
import { formatValue } from './console.js';
import type { ReportDocument, ScenarioEntry } from './report-document.js';
import { OUTCOMES } from './run-types.js';

export const HTML_REPORT_FILE = 'report.html';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
const h = escapeHtml;
const f1 = (n: number): string => n.toFixed(1);

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}h1{font-size:1.4rem}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:right}
td:first-child,th:first-child,td.l{text-align:left}.pass{color:#17803d}.fail{color:#c0262d;font-weight:600}
details{margin:.25rem 0}pre{background:#f6f6f6;padding:.5rem;white-space:pre-wrap;margin:.25rem 0}
svg{background:#fafafa;border:1px solid #ddd}.muted{color:#777}`;

/** Percentiles plotted on the curve: 0, 50, 90, 99, 99.9, ... on a log(1/(1-p)) axis. */
const CURVE = [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100];

function curveSvg(report: ReportDocument): string {
  const rec = LatencyRecorder.fromEncoded(report.histograms);
  const metrics = LATENCY_METRICS.filter((m) => rec.count(m) > 0);
  if (metrics.length === 0) return '<p class="muted">No latencies recorded.</p>';
  const W = 640, H = 240, P = 40;
  const xOf = (p: number): number => P + (Math.log10(1 / (1 - Math.min(p, 99.99) / 100)) / 4) * (W - 2 * P);
  const maxMs = Math.max(...metrics.map((m) => rec.percentileMs(m, 100)));
  const yOf = (ms: number): number => H - P - (ms / maxMs) * (H - 2 * P);
  const colors: Record<LatencyMetric, string> = { ack: '#1f77b4', answer: '#d62728', sync: '#2ca02c' };
  const lines = metrics.map((m) => {
    const points = CURVE.map((p) => `${xOf(p).toFixed(1)},${yOf(rec.percentileMs(m, p)).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${colors[m]}" stroke-width="2" points="${points}"><title>${m}</title></polyline>`;
  });
  const ticks = [0, 90, 99, 99.9, 99.99].map(
    (p) => `<text x="${xOf(p).toFixed(1)}" y="${H - P + 16}" font-size="11" text-anchor="middle">p${p}</text>`,
  );
  const legend = metrics.map((m, i) => `<text x="${W - P - 60}" y="${P + 14 * i}" font-size="12" fill="${colors[m]}">${m}</text>`);
  return `<svg width="${W}" height="${H}" role="img" aria-label="latency percentiles">
<line x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}" stroke="#999"/><line x1="${P}" y1="${P}" x2="${P}" y2="${H - P}" stroke="#999"/>
<text x="${P}" y="${P - 8}" font-size="11">${f1(maxMs)} ms</text><text x="${P - 4}" y="${H - P}" font-size="11" text-anchor="end">0</text>
${ticks.join('')}${legend.join('')}${lines.join('\n')}</svg>`;
}

function scenarioRow(s: ScenarioEntry): string {
  const cls = s.passed ? 'pass' : 'fail';
  const cells = `<td class="l ${cls}">${s.passed ? '✓' : '✗'} ${h(s.suite)} › ${h(s.name)}</td><td class="l">${s.mode}</td>
<td class="l">${s.outcome}</td><td>${s.latencyMs === undefined ? '' : f1(s.latencyMs)}</td><td class="l">${h(s.requestId ?? '')}</td>`;
  if (s.passed) return `<tr>${cells}</tr>`;
  const details = [
    ...(s.error ? [`<pre>${h(`${s.error.code}: ${s.error.message}`)}</pre>`] : []),
    ...s.failures.map(
      (f) => `<pre>${h(`${f.path} ${f.matcher}: ${f.message}\nexpected: ${formatValue(f.expected, 2000)}\nactual:   ${formatValue(f.actual, 2000)}\nat ${formatLocation(f.location)}`)}</pre>`,
    ),
    ...s.contractViolations.map((v) => `<pre>${h(`contract ${v.endpoint} ${v.path || '(body)'}: ${v.message}`)}</pre>`),
  ];
  return `<tr>${cells}</tr><tr><td colspan="5" class="l"><details open><summary>${h(s.file)}</summary>${details.join('')}</details></td></tr>`;
}

/** Renders `report` as one self-contained HTML document (no external resources). */
export function renderHtmlReport(report: ReportDocument): string {
  const s = report.summary;
  const verdict = report.exitCode === 0 ? '<span class="pass">passed</span>' : `<span class="fail">exit ${report.exitCode}</span>`;
  const latencyRows = LATENCY_METRICS.map((m) => {
    const l = report.latency[m];
    const ok = l.withinLimit ? '<td class="pass">ok</td>' : '<td class="fail">BREACH</td>';
    return `<tr><td>${m}</td><td>${l.count}</td><td>${f1(l.p50)}</td><td>${f1(l.p90)}</td><td>${f1(l.p99)}</td><td>${f1(l.p999)}</td><td>${f1(l.max)}</td><td>${f1(l.limitMs)}</td>${ok}</tr>`;
  });
  const thresholdRows = report.thresholds.map(
    (t) => `<tr><td class="l ${t.passed ? 'pass' : 'fail'}">${t.passed ? '✓' : '✗'} ${h(t.expression)}</td><td>${Number(t.actual.toFixed(3))}</td></tr>`,
  );
  const r = report.receiver;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>droidcheck report ${h(report.startedAt)}</title><style>${CSS}</style></head><body>
<h1>droidcheck: ${s.passed} passed, ${s.failed} failed — ${verdict}</h1>
<p class="muted">${s.requests} requests, started ${h(report.startedAt)}, ${f1(report.durationMs / 1000)} s.</p>
<h2>Outcomes</h2>
<table><tr>${OUTCOMES.map((o) => `<th>${o}</th>`).join('')}</tr><tr>${OUTCOMES.map((o) => `<td>${s.outcomes[o]}</td>`).join('')}</tr></table>
<h2>Latency (ms)</h2>
<table><tr><th>metric</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>limit</th><th></th></tr>
${latencyRows.join('\n')}</table>
${curveSvg(report)}
<p>Receiver: ${r.received} received, ${r.matched} matched, ${r.duplicates} duplicates, ${r.late} late, ${r.orphans} orphans, ${r.badSecret} bad secret, ${r.malformed} malformed.</p>
${thresholdRows.length > 0 ? `<h2>Thresholds</h2><table><tr><th>threshold</th><th>actual</th></tr>${thresholdRows.join('')}</table>` : ''}
<h2>Scenarios</h2>
<table><tr><th>scenario</th><th>mode</th><th>outcome</th><th>ms</th><th>requestId</th></tr>
${report.scenarios.map(scenarioRow).join('\n')}</table>
</body></html>
`;
}

/** Writes `<dir>/report.html` (mkdir -p); resolves the file's path. */
export async function writeHtmlReport(dir: string, report: ReportDocument, fileName = HTML_REPORT_FILE): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, fileName);
  await writeFile(path, renderHtmlReport(report), 'utf8');
  return path;
}
