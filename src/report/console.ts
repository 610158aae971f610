/**
 * `renderConsoleSummary(report)`: the run's summary as text for a terminal. Returns a string
 * and prints nothing (compute, then render). Latencies in ms. ANSI colour only when asked.
 */
import { formatLocation } from '../errors.js';
import { formatMs } from '../units.js';
import { LATENCY_FOOTNOTE, LATENCY_HEADER, formatLimit, shownMetrics, latencyCells, thresholdVerdictText } from '../metrics/index.js';
import { renderComparison } from './compare.js';
import { capacityLines, loadLines, noteLines, outcomeLines, streamLines, tallyLines } from './console-job.js';
import { accuracyLines, parityLines, passRateLines } from './console-sections.js';
import { groupFailures } from './failure-groups.js';
import { networkText } from './job-text.js';
import type { ReportDocument, ScenarioEntry } from './report-document.js';
import { formatValue } from './format-value.js';

export { formatValue };

export interface ConsoleSummaryOptions {
  /** ANSI colours (default false). */
  color?: boolean;
  /** Most scenario lines to list (default 200); failures are always all shown. */
  maxScenarioLines?: number;
}

type Paint = (code: number, text: string) => string;
const ansi: Paint = (code, text) => `\u001b[${code}m${text}\u001b[0m`;
const plain: Paint = (_code, text) => text;
const GREEN = 32;
const RED = 31;
const YELLOW = 33;
const DIM = 2;
const BOLD = 1;

export { formatMs };

const title = (s: ScenarioEntry): string => `${s.suite} › ${s.name} [${s.mode}]`;

function scenarioLines(report: ReportDocument, paint: Paint, max: number): string[] {
  const lines = report.scenarios.slice(0, max).map((s) => {
    const mark = s.passed ? paint(GREEN, '✓') : paint(RED, '✗');
    const latency = s.latencyMs === undefined ? '' : `  ${formatMs(s.latencyMs)}`;
    const outcome = s.outcome === 'answered' ? paint(DIM, s.outcome) : paint(YELLOW, s.outcome);
    const retries = s.retries !== undefined && s.retries > 0 ? `  ${paint(YELLOW, `retries ${s.retries}`)}` : '';
    return `  ${mark} ${title(s)}  ${outcome}${latency}${retries}`;
  });
  if (report.scenarios.length > max) lines.push(paint(DIM, `  … ${report.scenarios.length - max} more`));
  return lines;
}

/** The other entries of a group shown by name: at most this many, then "… and N more". */
const MAX_ALSO = 5;

/** One block per group of identical failures (failure-groups.ts), largest first, each with its count. */
function failureLines(report: ReportDocument, paint: Paint): string[] {
  const groups = groupFailures(report);
  const notSent = report.scenarios.filter((s) => s.outcome === 'not-sent').length;
  const never = notSent > 0 ? ['', paint(DIM, `${notSent} request${notSent === 1 ? ' was' : 's were'} never sent (interrupted); ${notSent === 1 ? 'it is not a failure' : 'they are not failures'}.`)] : [];
  if (groups.length === 0) return never;
  const lines = ['', paint(BOLD, 'Failures')];
  groups.forEach((g, i) => {
    const s = g.example;
    const count = g.entries.length > 1 ? `  ${paint(BOLD, `×${g.entries.length}`)}` : '';
    lines.push('', `  ${i + 1}) ${paint(s.passed ? YELLOW : RED, title(s))}${count}  ${s.outcome}${s.requestId ? `  requestId ${s.requestId}` : ''}`);
    if (s.error) lines.push(`     ${s.error.code}: ${s.error.message}`);
    for (const f of s.failures) {
      lines.push(
        `     ${paint(BOLD, f.path)} ${f.matcher}: ${f.message}`,
        `       expected: ${paint(GREEN, formatValue(f.expected))}`,
        `       actual:   ${paint(RED, formatValue(f.actual))}`,
        `       at ${formatLocation(f.location)}`,
      );
    }
    for (const v of s.contractViolations) {
      lines.push(`     contract ${v.endpoint} ${v.path || '(body)'}: ${v.message}`);
    }
    for (const j of s.judgeErrors ?? []) lines.push(`     ${paint(YELLOW, 'judge error')} ${j.message}  at ${formatLocation(j.location)}`);
    if (s.failures.length === 0 && !s.error && s.contractViolations.length === 0 && (s.judgeErrors ?? []).length === 0) lines.push(`     file ${s.file}`);
    const also = g.entries.slice(1, 1 + MAX_ALSO).map((e) => `${title(e)}${e.repeat !== undefined ? ` repeat ${e.repeat + 1}` : ''}${e.requestId ? ` ${e.requestId}` : ''}`);
    if (also.length > 0) {
      const more = g.entries.length - 1 - also.length;
      lines.push(paint(DIM, `     the same failure: ${also.join(', ')}${more > 0 ? ` … and ${more} more` : ''}`));
    }
  });
  return [...lines, ...never];
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ')}`.trimEnd());
}

function latencyLines(report: ReportDocument, paint: Paint): string[] {
  const rows = [[...LATENCY_HEADER, 'limit', '']];
  const status: string[] = [];
  let unsupported = false;
  for (const m of shownMetrics(report.latency)) {
    const l = report.latency[m];
    const c = latencyCells(l);
    unsupported ||= c.unsupported;
    // A remote target's ack: its limit is judged on the ackServer row.
    const verdict = c.empty || l.judgedOn ? '' : l.limitVerdict === 'too-few-samples' ? 'too few samples' : l.withinLimit ? 'ok' : 'BREACH';
    rows.push([m, ...c.cells, l.judgedOn ? `on ${l.judgedOn}` : formatLimit(l.limitMs, 'ms'), verdict]);
    status.push(verdict === 'ok' ? paint(GREEN, 'ok') : verdict === 'BREACH' ? paint(RED, 'BREACH') : '');
  }
  const lines = table(rows);
  // Colour the status column after padding, so ANSI codes do not skew the widths.
  return [
    '',
    paint(BOLD, 'Latency'),
    lines[0] ?? '',
    ...lines.slice(1).map((line, i) => line.replace(/(ok|BREACH)$/, status[i] ?? '')),
    ...(unsupported ? [paint(DIM, `  ${LATENCY_FOOTNOTE}`)] : []),
    ...(report.network ? [`  ${networkText(report.network)}`] : []),
  ];
}

/**
 * Renders `report` for a terminal: one line per scenario entry (✓/✗ suite › name [mode]
 * outcome latency, `retries N` when retried), the failures (path, matcher, expected, actual,
 * file:line:col), outcome counts (with their sum against the requests, `retries N` when any), the latency table in ms with the spec's
 * limits, receiver counts, pass rates (repeats), sync/async parity, accuracy, the comparison
 * with a baseline, thresholds, and a final `N passed, N failed` line.
 */
export function renderConsoleSummary(report: ReportDocument, opts: ConsoleSummaryOptions = {}): string {
  const paint = opts.color ? ansi : plain;
  const s = report.summary;
  const lines: string[] = [
    paint(BOLD, `droidcheck ${report.kind ?? 'run'}: ${s.sent ?? s.requests} requests in ${formatMs(report.durationMs)}`),
    ...scenarioLines(report, paint, opts.maxScenarioLines ?? 200),
    ...failureLines(report, paint),
    ...tallyLines(report, paint),
    ...outcomeLines(report, paint),
    ...latencyLines(report, paint),
    ...loadLines(report, paint),
    ...capacityLines(report, paint),
  ];
  const r = report.receiver;
  lines.push(
    '',
    `${paint(BOLD, 'Receiver')}  received ${r.received} · matched ${r.matched} · duplicates ${r.duplicates} · late ${r.late} · orphans ${r.orphans} · bad secret ${r.badSecret} · malformed ${r.malformed}`,
  );
  lines.push(...streamLines(report, paint));
  lines.push(...noteLines(report, paint), ...passRateLines(report.passRates, paint), ...parityLines(report.parity, paint), ...accuracyLines(report.accuracy, paint));
  if (report.comparison) lines.push('', `${paint(BOLD, 'Baseline')}  ${renderComparison(report.comparison).trimEnd()}`);
  if (report.thresholds.length > 0) {
    lines.push('', paint(BOLD, 'Thresholds'));
    for (const t of report.thresholds) {
      const mark = t.status === 'breached' ? paint(RED, '✗') : t.status === 'passed' ? paint(GREEN, '✓') : paint(YELLOW, '–');
      lines.push(`  ${mark} ${thresholdVerdictText(t)}`);
    }
  }
  const breached = report.thresholds.filter((t) => !t.passed).length;
  const parts = [
    paint(s.passed > 0 ? GREEN : DIM, `${s.passed} passed`),
    paint(s.failed > 0 ? RED : DIM, `${s.failed} failed`),
    ...((s.judgeErrors ?? 0) > 0 ? [paint(YELLOW, `${s.judgeErrors} judge error${s.judgeErrors === 1 ? '' : 's'}`)] : []),
    ...(breached > 0 ? [paint(RED, `${breached} threshold${breached === 1 ? '' : 's'} breached`)] : []),
  ];
  lines.push('', `${parts.join(', ')} (${s.sent ?? s.requests} requests) · exit ${report.exitCode}`);
  return `${lines.join('\n')}\n`;
}
