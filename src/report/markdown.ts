/**
 * Markdown summary of a ReportDocument (`summary.md`), also appended to the file named by
 * `$GITHUB_STEP_SUMMARY` when set (GitHub Actions job summary). Latencies in ms.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { join } from 'node:path';
import { formatLocation } from '../errors.js';
import { LATENCY_FOOTNOTE, LATENCY_HEADER, LATENCY_METRICS, THRESHOLD_MARKS, shownMetrics, formatLimit, latencyCells, thresholdVerdictText } from '../metrics/index.js';
import { formatValue } from './console.js';
import { formatMs, formatPercent, formatRate } from '../units.js';
import { groupFailures } from './failure-groups.js';
import { networkText, streamText } from './job-text.js';
import { markdownSections } from './markdown-sections.js';
import type { ReportDocument } from './report-document.js';
import { OUTCOMES } from './run-types.js';

export const MARKDOWN_REPORT_FILE = 'summary.md';

export interface MarkdownOptions {
  /** Most groups of identical failures to list (default 50). */
  maxFailures?: number;
}

/** A table cell: pipes escaped, newlines as spaces. */
const cell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
/** An inline code span that survives backticks in the text. */
const code = (text: string): string => {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest > 0 ? ' ' : ''}${text.replace(/\r?\n/g, ' ')}${longest > 0 ? ' ' : ''}${fence}`;
};
const row = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;

/** Renders `report` as GitHub-flavoured Markdown: verdict, outcomes, latency, thresholds, baseline, pass rates, parity, accuracy, failures. */
export function renderMarkdownSummary(report: ReportDocument, opts: MarkdownOptions = {}): string {
  const s = report.summary;
  const breached = report.thresholds.filter((t) => !t.passed);
  const verdict = report.exitCode === 0 ? '✅' : '❌';
  const lines = [
    `## ${verdict} droidcheck: ${s.passed} passed, ${s.failed} failed` +
      (breached.length > 0 ? `, ${breached.length} threshold${breached.length === 1 ? '' : 's'} breached` : '') +
      ` (exit ${report.exitCode})`,
    '',
    `${s.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s, started ${report.startedAt}; ${s.retries} submit retr${s.retries === 1 ? 'y' : 'ies'}.`,
    '',
    row([...OUTCOMES]),
    row(OUTCOMES.map(() => '---:')),
    row(OUTCOMES.map((o) => String(s.outcomes[o]))),
    '',
    '### Latency',
    '',
    row([...LATENCY_HEADER, 'limit', '']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
    ...shownMetrics(report.latency).map((m) => {
      const l = report.latency[m];
      const c = latencyCells(l);
      if (l.judgedOn) return row([m, ...c.cells, `on ${l.judgedOn}`, '']);
      return row([m, ...c.cells, formatLimit(l.limitMs, 'ms'), c.empty ? '' : l.limitVerdict === 'too-few-samples' ? 'too few samples' : l.withinLimit ? 'ok' : '**BREACH**']);
    }),
    ...(LATENCY_METRICS.some((m) => latencyCells(report.latency[m]).unsupported) ? ['', `<sub>${LATENCY_FOOTNOTE}</sub>`] : []),
  ];
  const r = report.receiver;
  lines.push('', `Receiver: ${r.received} received, ${r.matched} matched, ${r.duplicates} duplicates, ${r.late} late, ${r.orphans} orphans, ${r.badSecret} bad secret, ${r.malformed} malformed.`);
  if (report.thresholds.length > 0) {
    lines.push('', '### Thresholds', '', row(['', 'threshold', 'verdict']), row(['---', '---', '---']));
    for (const t of report.thresholds) lines.push(row([t.status === 'passed' ? '✅' : t.status === 'breached' ? '❌' : THRESHOLD_MARKS[t.status], code(t.expression), thresholdVerdictText(t)]));
  }
  lines.push(...markdownJobLines(report, row));
  lines.push(...markdownSections(report, row, code));
  const groups = groupFailures(report);
  if (groups.length > 0) {
    const max = opts.maxFailures ?? 50;
    lines.push('', '### Failures', '');
    for (const g of groups.slice(0, max)) {
      const x = g.example;
      const count = g.entries.length > 1 ? ` ×${g.entries.length}` : '';
      lines.push(`- **${cell(`${x.suite} › ${x.name} [${x.mode}]`)}**${count} (${x.outcome}${x.requestId ? `, ${code(x.requestId)}` : ''})`);
      if (x.error) lines.push(`  - ${code(x.error.code)}: ${cell(x.error.message)}`);
      for (const fail of x.failures) {
        lines.push(
          `  - ${code(fail.path)} ${fail.matcher}: expected ${code(formatValue(fail.expected))}, actual ${code(formatValue(fail.actual))} at ${code(formatLocation(fail.location))}`,
        );
      }
      for (const v of x.contractViolations) lines.push(`  - contract ${v.endpoint} ${code(v.path || '(body)')}: ${cell(v.message)}`);
      for (const j of x.judgeErrors ?? []) lines.push(`  - judge error: ${cell(j.message)} at ${code(formatLocation(j.location))}`);
    }
    if (groups.length > max) lines.push(`- … ${groups.length - max} more groups of identical failures`);
  }
  return `${lines.join('\n')}\n`;
}

/** The load section, the per-scenario tallies and the capacity curve, as Markdown lines. */
function markdownJobLines(report: ReportDocument, row: (cells: string[]) => string): string[] {
  const lines: string[] = [];
  const l = report.load;
  if (l) {
    lines.push('', `### Load (${l.model} model)`, '', `${l.sent} requests sent (warm-up ${l.warmupSent}, dropped ${l.dropped}), achieved ${formatRate(l.achievedRate)}, answered ${formatRate(l.answeredRate)} over ${formatMs(l.measuredMs)}.`);
    if (l.generator) lines.push('', `${l.generator.generatorBound ? '⚠️ ' : ''}${l.generator.message}`);
  }
  if (report.network) lines.push('', `_${networkText(report.network)}._`);
  const st = streamText(report);
  if (st) lines.push('', '### Stream', '', `${st.stream}.`, '', `${st.skew}.`);
  const c = report.capacity;
  if (c) {
    lines.push('', `### Capacity: ${c.maxRate === null ? 'no rate passed' : formatRate(c.maxRate)}`, '', row(['rate', 'achieved', 'ack p99', 'answer p99', 'errors', 'verdict']), row(['---:', '---:', '---:', '---:', '---:', '---']));
    for (const p of c.curve) {
      lines.push(row([formatRate(p.rate), formatRate(p.achievedRate), p.ack.count > 0 ? `${formatMs(p.ack.p99)} (${p.ack.count})` : 'no samples', p.answer.count > 0 ? `${formatMs(p.answer.p99)} (${p.answer.count})` : '–', `${p.errors} (${formatPercent(p.errorRate, 2)})`, p.passed ? 'pass' : `FAIL: ${p.reasons.join('; ')}`]));
    }
  }
  const tallies = report.scenarios.length === 0 ? (report.tallies ?? []) : [];
  if (tallies.length > 0) {
    lines.push('', '### Scenarios', '', row(['scenario', 'mode', 'requests', 'passed', 'failed']), row(['---', '---', '---:', '---:', '---:']));
    for (const t of tallies) lines.push(row([`${t.suite} › ${t.name}`, t.mode, String(t.requests), String(t.passed), String(t.failed)]));
  }
  return lines;
}

/**
 * Writes `<dir>/<opts.fileName>` (default summary.md; mkdir -p) and appends the same text to `env.GITHUB_STEP_SUMMARY`
 * when set. Resolves the paths written.
 */
export async function writeMarkdownSummary(
  dir: string,
  report: ReportDocument,
  opts: MarkdownOptions & { env?: Record<string, string | undefined>; fileName?: string } = {},
): Promise<string[]> {
  const text = renderMarkdownSummary(report, opts);
  await makeDir(dir);
  const path = join(dir, opts.fileName ?? MARKDOWN_REPORT_FILE);
  await writeFile(path, text, 'utf8');
  const step = (opts.env ?? process.env).GITHUB_STEP_SUMMARY;
  if (!step) return [path];
  await appendFile(step, `${text}\n`, 'utf8');
  return [path, step];
}
