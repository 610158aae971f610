/**
 * HTML sections of report.html for the job-specific parts: the load section, per-scenario
 * tallies, the capacity curve, contract notes, the network round trip and the stream, and the boxes the timeline and capacity charts
 * are drawn into (html-charts.ts). Each returns a fragment ('' when there is nothing to show);
 * every number carries its unit.
 */
import { formatMs, formatPercent, formatRate } from '../units.js';
import { networkText, streamText } from './job-text.js';
import { escapeHtml as h } from './html-sections.js';
import type { ReportDocument } from './report-document.js';

const table = (head: string[], rows: string[][]): string =>
  `<table><tr>${head.map((c) => `<th>${c}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;

export function loadHtml(report: ReportDocument): string {
  const l = report.load;
  if (!l) return '';
  const rows = [
    ['model', l.model],
    ['requests sent (measured)', String(l.sent)],
    ['warm-up requests', String(l.warmupSent)],
    ['dropped arrivals', String(l.dropped)],
    ['measured time', formatMs(l.measuredMs)],
    ['achieved rate', formatRate(l.achievedRate)],
    ['answered rate', formatRate(l.answeredRate)],
    ...(l.sendDelay ? [['send delay p50 / p99 / max', `${formatMs(l.sendDelay.p50)} / ${formatMs(l.sendDelay.p99)} / ${formatMs(l.sendDelay.max)} (${l.sendDelay.count} samples)`]] : []),
  ].map(([k, v]) => [`<span class="l">${h(k!)}</span>`, h(v!)]);
  const verdict = l.generator ? `<p class="${l.generator.generatorBound ? 'fail' : 'muted'}">${h(l.generator.message)}</p>` : '';
  return `<h2 id="load">Load</h2>${table(['', ''], rows)}${verdict}`;
}

/** The network round trip of a remote target and the stream of `--deliveries` (job-text.ts). */
export function networkStreamHtml(report: ReportDocument): string {
  const st = streamText(report);
  return [
    report.network ? `<p class="muted">${h(networkText(report.network))}</p>` : '',
    st ? `<h2 id="stream">Stream</h2><p>${h(st.stream)}</p><p class="muted">${h(st.skew)}</p>` : '',
  ].join('');
}

export function timelineHtml(report: ReportDocument): string {
  const t = report.timeline;
  if (!t || t.points.length < 2) return '';
  return `<h2 id="timeline">Over time (per ${formatMs(t.intervalMs)})</h2>
<noscript><p class="muted">Charts need JavaScript; report.json holds every interval.</p></noscript>
<div class="charts"><div class="chart" id="chart-timeline-rate"></div><div class="chart" id="chart-timeline-latency"></div></div>`;
}

export function talliesHtml(report: ReportDocument): string {
  const tallies = report.tallies ?? [];
  if (tallies.length === 0) return '';
  const rows = tallies.map((t) => {
    const e = t.examples[0];
    const example = e ? `#${e.seq} ${e.outcome}${e.error ? `: ${e.error.message}` : ''}${e.failures[0] ? `: ${e.failures[0].message}` : ''}` : '';
    return [`<span class="l ${t.failed > 0 ? 'fail' : 'pass'}">${h(`${t.suite} › ${t.name}`)}</span>`, t.mode, String(t.requests), String(t.passed), String(t.failed), `<span class="l">${h(example)}</span>`];
  });
  return `<h2 id="scenarios">Scenarios</h2>${table(['scenario', 'mode', 'requests', 'passed', 'failed', 'example failure'], rows)}`;
}

export function capacityHtml(report: ReportDocument): string {
  const c = report.capacity;
  if (!c) return '';
  const rows = c.curve.map((p) => [
    formatRate(p.rate),
    formatRate(p.achievedRate),
    p.ack.count > 0 ? `${formatMs(p.ack.p99)} (${p.ack.count})` : 'no samples',
    p.answer.count > 0 ? `${formatMs(p.answer.p99)} (${p.answer.count})` : '–',
    `${p.errors} (${formatPercent(p.errorRate, 2)})`,
    String(p.dropped),
    `<span class="l ${p.passed ? 'pass' : 'fail'}">${p.passed ? 'pass' : h(`FAIL: ${p.reasons.join('; ')}`)}${p.generatorBound ? ' [generator-bound]' : ''}</span>`,
  ]);
  const verdict = c.maxRate === null ? '<span class="fail">no rate passed</span>' : `<span class="pass">${formatRate(c.maxRate)}</span>${c.limitedBySearch ? ' (the highest rate tried)' : ''}`;
  const criteria = `ack p99 &lt; ${formatMs(c.criteria.ackP99Ms)}${c.criteria.answerP99Ms !== null ? `, answer p99 &lt; ${formatMs(c.criteria.answerP99Ms)}` : ''}, error rate ≤ ${formatPercent(c.criteria.maxErrorRate)}`;
  return `<h2 id="capacity">Capacity: ${verdict}</h2><p class="muted">Criteria: ${criteria}.</p>
${table(['rate', 'achieved', 'ack p99 (samples)', 'answer p99 (samples)', 'errors', 'dropped', 'verdict'], rows)}
<div class="charts"><div class="chart" id="chart-capacity"></div></div>`;
}

export function notesHtml(report: ReportDocument): string {
  if (!report.notes || report.notes.length === 0) return '';
  return `<h2 id="notes">Notes (not findings)</h2><p class="muted">Where the specification does not show a shape, droidcheck's assumption is only checked as a note.</p><ul>${report.notes.map((n) => `<li><code>${h(n.endpoint)}</code>: ${h(n.message)}</li>`).join('')}</ul>`;
}
