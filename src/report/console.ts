/**
 * `renderConsoleSummary(report)`: the job's summary as text for a terminal. Returns a string
 * and prints nothing (compute, then render). ANSI colour only when asked.
 *
 * By default it fits a screen, as k6's end-of-test summary does: one line per suite
 * (suite-lines.ts), the failures in full, and each section's brief view (section.ts `brief`:
 * a line when all is well, nothing when a section is empty). `verbose` (`--verbose`) draws a line
 * per request and every section's whole view, as report.html and summary.md always do.
 *
 * The scenario list and the failures (grouped: failure-groups.ts) are drawn here; every other
 * section is its view (sections/*.ts) drawn by the one console painter (view.ts).
 */
import { formatLocation } from '../errors.js';
import { notJudgedSummary } from '../metrics/index.js';
import { wrapLine } from '../text-table.js';
import { formatMs } from '../units.js';
import { formatValue } from './format-value.js';
import { groupFailures } from './failure-groups.js';
import { reportHeadline } from './headline.js';
import { countsRequests } from './sections/common.js';
import { SECTIONS, type ReportDocument } from './sections/index.js';
import type { ScenarioEntry } from './sections/scenarios.js';
import { suiteCounts, suiteLines } from './suite-lines.js';
import { ansiPaint, consoleLines, consoleText, plainPaint, plural, type Paint, type SectionView } from './view.js';

export interface ConsoleSummaryOptions {
  /** ANSI colours (default false). */
  color?: boolean;
  /** Most scenario lines (or, not verbose, suite lines) to list (default 200); failures are always all shown. */
  maxScenarioLines?: number;
  /**
   * A line per request and every section in full (default false: a line per suite, the
   * failures in full, each section briefly or not at all when it has nothing to say).
   */
  verbose?: boolean;
}

const title = (s: ScenarioEntry): string => `${s.suite} › ${s.name} [${s.mode}]`;

/** The console's width: every line fits it, a longer one wraps (a CI log or a terminal reads it whole). */
const CONSOLE_COLUMNS = 100;

/** `lines`, each wrapped to {@link CONSOLE_COLUMNS} (text-table.ts wrapLine). */
const toWidth = (lines: readonly string[]): string[] => lines.flatMap((l) => wrapLine(l, CONSOLE_COLUMNS));

/** Every section's views of `report`, in the registry's order. */
export function sectionViews(report: ReportDocument): SectionView[] {
  return SECTIONS.flatMap((s) => s.views(report));
}

/** The console's views: each section's brief one where it has one, unless `verbose`. */
function consoleViews(report: ReportDocument, verbose: boolean): SectionView[] {
  return SECTIONS.flatMap((s) => (!verbose && s.brief ? s.brief(report) : s.views(report)));
}

function scenarioLines(report: ReportDocument, paint: Paint, max: number): string[] {
  const lines = report.scenarios.slice(0, max).map((s) => {
    const mark = s.passed ? paint('ok', '✓') : paint('fail', '✗');
    const latency = s.latencyMs === undefined ? '' : `  ${formatMs(s.latencyMs)}`;
    const outcome = s.outcome === 'answered' ? paint('muted', s.outcome) : paint('warn', s.outcome);
    const retries = s.retries !== undefined && s.retries > 0 ? `  ${paint('warn', `retries ${s.retries}`)}` : '';
    return `  ${mark} ${title(s)}  ${outcome}${latency}${retries}`;
  });
  if (report.scenarios.length > max) lines.push(paint('muted', `  … ${report.scenarios.length - max} more`));
  return lines;
}

/** The other entries of a group shown by name: at most this many, then "… and N more". */
const MAX_ALSO = 5;

function entryLines(s: ScenarioEntry, paint: Paint): string[] {
  const lines: string[] = [];
  if (s.error) lines.push(`     ${s.error.code}: ${s.error.message}`);
  for (const f of s.failures) {
    lines.push(
      `     ${paint('strong', f.path)} ${f.matcher}: ${f.message}`,
      `       expected: ${paint('ok', formatValue(f.expected))}`,
      `       actual:   ${paint('fail', formatValue(f.actual))}`,
      `       at ${formatLocation(f.location)}`,
    );
  }
  for (const v of s.contractViolations) lines.push(`     contract ${v.endpoint} ${v.path || '(body)'}: ${v.message}`);
  for (const j of s.judgeErrors ?? [])
    lines.push(`     ${paint('warn', 'judge error')} ${j.message}  at ${formatLocation(j.location)}`);
  if (s.failures.length === 0 && !s.error && s.contractViolations.length === 0 && (s.judgeErrors ?? []).length === 0)
    lines.push(`     file ${s.file}`);
  return lines;
}

/** One block per group of identical failures (failure-groups.ts), largest first, each with its count. */
function failureLines(report: ReportDocument, paint: Paint): string[] {
  const groups = groupFailures(report);
  const notSent = report.scenarios.filter((s) => s.outcome === 'not-sent').length;
  const never =
    notSent > 0
      ? [
          '',
          paint(
            'muted',
            `${notSent} request${notSent === 1 ? ' was' : 's were'} never sent (interrupted); ${notSent === 1 ? 'it is not a failure' : 'they are not failures'}.`,
          ),
        ]
      : [];
  if (groups.length === 0) return never;
  const lines = ['', paint('strong', 'Failures')];
  groups.forEach((g, i) => {
    const s = g.example;
    const count = g.entries.length > 1 ? `  ${paint('strong', `×${g.entries.length}`)}` : '';
    lines.push(
      '',
      `  ${i + 1}) ${paint(s.passed ? 'warn' : 'fail', title(s))}${count}  ${s.outcome}${s.requestId ? `  requestId ${s.requestId}` : ''}`,
      ...entryLines(s, paint),
    );
    const also = g.entries
      .slice(1, 1 + MAX_ALSO)
      .map(
        (e) =>
          `${title(e)}${e.repeat !== undefined ? ` repeat ${e.repeat + 1}` : ''}${e.requestId ? ` ${e.requestId}` : ''}`,
      );
    if (also.length > 0) {
      const more = g.entries.length - 1 - also.length;
      lines.push(paint('muted', `     the same failure: ${also.join(', ')}${more > 0 ? ` … and ${more} more` : ''}`));
    }
  });
  return [...lines, ...never];
}

/**
 * Renders `report` for a terminal: one line per suite (`✓ Purchases  7 passed  (sync 4, async
 * 3)`; `verbose`: one per scenario entry, ✓/✗ suite › name [mode] outcome latency, `retries N`
 * when retried), the failures (path, matcher, expected, actual, file:line:col), the sections
 * (outcomes, latency in ms with the spec's limits, load, capacity, thresholds, the baseline...;
 * receiver, pass rates, parity, accuracy and latency by turn only when they have something to
 * say unless `verbose`), and a final `N passed, N failed` line.
 */
export function renderConsoleSummary(report: ReportDocument, opts: ConsoleSummaryOptions = {}): string {
  const paint = opts.color ? ansiPaint : plainPaint;
  const verbose = opts.verbose ?? false;
  // A report that counts no requests (webhook-policy's probes are none): its sections, and its verdict.
  if (!countsRequests(report)) {
    const views = consoleViews(report, verbose).flatMap((v) => consoleLines(v, paint));
    const last = `droidcheck ${report.kind}: ${reportHeadline(report).verdict} in ${formatMs(report.durationMs)} · exit ${report.exitCode}`;
    return `${toWidth([...views, '', last]).join('\n')}\n`;
  }
  const s = report.summary;
  const breached = report.thresholds.filter((t) => !t.passed).length;
  const notJudged = notJudgedSummary(report.thresholds);
  const parts = [
    paint(s.passed > 0 ? 'ok' : 'muted', `${s.passed} passed`),
    paint(s.failed > 0 ? 'fail' : 'muted', `${s.failed} failed`),
    ...((s.judgeErrors ?? 0) - (s.notJudged ?? 0) > 0
      ? [paint('warn', plural((s.judgeErrors ?? 0) - (s.notJudged ?? 0), 'judge error'))]
      : []),
    ...((s.notJudged ?? 0) > 0 ? [paint('warn', `${s.notJudged} not judged: budget spent`)] : []),
    ...(breached > 0 ? [paint('fail', `${breached} threshold${breached === 1 ? '' : 's'} breached`)] : []),
    ...(notJudged ? [paint('warn', notJudged)] : []),
    // A red team's exit 1 comes from its findings, not from failed requests: the last line says so.
    ...(report.redteam
      ? [
          paint(
            report.redteam.findings.length > 0 ? 'fail' : 'muted',
            `${report.redteam.findings.length} attack${report.redteam.findings.length === 1 ? '' : 's'} succeeded`,
          ),
        ]
      : []),
  ];
  const max = opts.maxScenarioLines ?? 200;
  const lines = [
    paint('strong', `droidcheck ${report.kind}: ${s.sent} requests in ${formatMs(report.durationMs)}`),
    // The sections' lines of the verdict (a capacity's knee): read first, not after every table.
    ...reportHeadline(report).lines.map((l) => `  ${consoleText(l, paint)}`),
    ...(verbose ? scenarioLines(report, paint, max) : suiteLines(suiteCounts(report), paint, max)),
    ...failureLines(report, paint),
    ...consoleViews(report, verbose).flatMap((v) => consoleLines(v, paint)),
    '',
    `${parts.join(', ')} (${s.sent} requests) · exit ${report.exitCode}`,
  ];
  return `${toWidth(lines).join('\n')}\n`;
}
