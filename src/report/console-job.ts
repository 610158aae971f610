/**
 * Console lines of the job-specific sections, with units on every number: the outcome line
 * (sent of planned), contract notes, the load section (model, achieved rates, dropped arrivals,
 * send delay and the generator verdict), per-scenario tallies of a load, and the capacity curve.
 * Each returns lines (no trailing newline); empty when there is nothing to say.
 */
import { textTable } from '../text-table.js';
import { formatMs, formatPercent, formatRate } from '../units.js';
import { streamText } from './job-text.js';
import type { ReportDocument } from './report-document.js';
import { OUTCOMES } from './run-types.js';

type Paint = (code: number, text: string) => string;
const BOLD = 1;
const YELLOW = 33;
const RED = 31;
const GREEN = 32;

/**
 * `Outcomes  answered 35 · ... (35 of 35 sent)`: `answered` always, every other outcome when it
 * happened, and retries when any. The `failed` outcome (the webhook carried the error payload,
 * spec: Events) is printed `failed (error payload)`, not to be read as failed expectations.
 */
export function outcomeLines(report: ReportDocument, paint: Paint): string[] {
  const s = report.summary;
  const sent = s.sent ?? s.requests;
  const shown = OUTCOMES.filter((o) => (s.outcomes[o] ?? 0) > 0 || o === 'answered');
  const label = (o: string): string => (o === 'failed' ? 'failed (error payload)' : o);
  const retries = s.retries > 0 ? ` · ${paint(YELLOW, `retries ${s.retries}`)}` : '';
  const planned = report.kind === 'run' || report.kind === undefined ? `${sent} of ${s.requests} planned requests sent` : `${sent} requests sent`;
  return ['', `${paint(BOLD, 'Outcomes')}  ${shown.map((o) => `${label(o)} ${s.outcomes[o] ?? 0}`).join(' · ')}${retries}  (${planned})`];
}

/** Notes on shapes droidcheck could not verify against documentation (never findings). */
export function noteLines(report: ReportDocument, paint: Paint): string[] {
  if (!report.notes || report.notes.length === 0) return [];
  return ['', paint(BOLD, 'Notes (not findings)'), ...report.notes.map((n) => `  ${n.endpoint}: ${n.message}`)];
}

/** The load section: how the traffic was generated. */
export function loadLines(report: ReportDocument, paint: Paint): string[] {
  const l = report.load;
  if (!l) return [];
  const lines = [
    '',
    `${paint(BOLD, `Load (${l.model} model)`)}  sent ${l.sent} · warm-up ${l.warmupSent} · dropped ${l.dropped} · achieved ${formatRate(l.achievedRate)} · answered ${formatRate(l.answeredRate)} over ${formatMs(l.measuredMs)}`,
  ];
  if (l.sendDelay) {
    const d = l.sendDelay;
    lines.push(`  send delay  p50 ${formatMs(d.p50)} · p99 ${formatMs(d.p99)} · max ${formatMs(d.max)} (${d.count} samples)`);
  }
  if (l.generator) lines.push(`  ${l.generator.generatorBound ? paint(RED, 'WARNING ') : ''}${l.generator.message}`);
  if (l.shards) lines.push(`  shard${l.shards.length === 1 ? '' : 's'} ${l.shards.join(', ')} (execution segments of one load)`);
  if (l.startAt) lines.push(`  started at ${l.startAt}${l.startLagMs !== undefined ? `, ${formatMs(l.startLagMs)} late${l.shards && l.shards.length > 1 ? ' (latest shard)' : ''}` : ''}`);
  return lines;
}

/** `--deliveries`: the stream section (job-text.ts). */
export function streamLines(report: ReportDocument, paint: Paint): string[] {
  const t = streamText(report);
  return t ? ['', `${paint(BOLD, 'Stream')}  ${t.stream}`, `  ${t.skew}`] : [];
}

/** Per scenario x mode counts of a load, with a failing example each. */
export function tallyLines(report: ReportDocument, paint: Paint, max = 50): string[] {
  const tallies = report.tallies ?? [];
  if (tallies.length === 0) return [];
  const rows = [['scenario', 'requests', 'passed', 'failed', '']];
  for (const t of tallies.slice(0, max)) {
    const e = t.examples[0];
    const example = e ? `e.g. #${e.seq} ${e.outcome}${e.error ? ` ${e.error.message}` : ''}${e.failures[0] ? ` ${e.failures[0].message}` : ''}` : '';
    rows.push([`${t.suite} › ${t.name} [${t.mode}]`, String(t.requests), String(t.passed), t.failed > 0 ? paint(RED, String(t.failed)) : String(t.failed), example.slice(0, 120)]);
  }
  const lines = ['', paint(BOLD, 'Scenarios'), ...textTable(rows, { align: ['l', 'r', 'r', 'r', 'l'] })];
  if (tallies.length > max) lines.push(`  … ${tallies.length - max} more in report.json`);
  return lines;
}

/** The capacity curve and its verdict. */
export function capacityLines(report: ReportDocument, paint: Paint): string[] {
  const c = report.capacity;
  if (!c) return [];
  const rows = [['rate', 'achieved', 'ack p50', 'ack p99', 'answer p99', 'errors', 'dropped', 'verdict']];
  for (const p of c.curve) {
    rows.push([
      formatRate(p.rate),
      formatRate(p.achievedRate),
      p.ack.count > 0 ? formatMs(p.ack.p50) : '-',
      p.ack.count > 0 ? `${formatMs(p.ack.p99)} (${p.ack.count})` : 'no samples',
      p.answer.count > 0 ? `${formatMs(p.answer.p99)} (${p.answer.count})` : '-',
      `${p.errors} (${formatPercent(p.errorRate, 2)})`,
      String(p.dropped),
      (p.passed ? paint(GREEN, 'pass') : paint(RED, `FAIL: ${p.reasons.join('; ')}`)) + (p.generatorBound ? ' [generator-bound]' : ''),
    ]);
  }
  const verdict = c.maxRate === null ? paint(RED, 'capacity: no rate passed') : paint(BOLD, `capacity: ${formatRate(c.maxRate)}${c.limitedBySearch ? ' (the highest rate tried; raise --max-rate to look further)' : ''}`);
  const lines = ['', paint(BOLD, `Capacity (ack p99 < ${formatMs(c.criteria.ackP99Ms)}${c.criteria.answerP99Ms !== null ? `, answer p99 < ${formatMs(c.criteria.answerP99Ms)}` : ''}, errors <= ${formatPercent(c.criteria.maxErrorRate)})`), ...textTable(rows, { align: ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'] }), `  ${verdict}`];
  if (c.suspect) lines.push(paint(YELLOW, '  WARNING: some steps were generator-bound (send delay p99 > 10 ms); their figures are suspect'));
  return lines;
}
